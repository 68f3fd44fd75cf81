/* The sweep command (contract in sweep.h): today's flow from a validated config to the
 * results file, the summary and the charts:
 *   backend -> plan checks (memory, output path) -> lock -> sweep -> CSV after every point ->
 *   summary -> charts. */
#include "app/sweep.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/backend_open.h"
#include "app/memory_check.h"
#include "app/plots.h"
#include "app/probe.h"
#include "app/results.h"
#include "backends/backend.h"
#include "fb_build_config.h"
#include "measure/runner.h"
#include "output/progress.h"
#include "output/summary.h"

/* 0, or the number of the first SIGINT / SIGTERM received: the sweep stops after the sample in
 * progress and the run exits 128 + that number (130, 143), the shell's convention. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    /* A second signal: stop now. The results are whole after every point (each write is an
     * atomic rename) and the kernel releases the lock. */
    if (interrupted)
        _exit(128 + sig);
    interrupted = sig;
}

/* sigaction, not signal(): under -std=c11 glibc's signal() has SysV semantics (the handler is
 * reset after the first signal, SA_RESETHAND), so a second Ctrl-C would kill the process by
 * the signal instead of reaching on_interrupt. SA_RESTART: a write or wait interrupted by the
 * first signal carries on. The handlers stay until the process ends. */
static void catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Everything the sweep callbacks need. */
struct run_state {
    struct fb_results results;
    struct fb_progress progress;
    bool resume;
    const struct fb_config *cfg;
    const char *backend;             /* the rows this run writes: for --resume's lookups */
    const struct fb_device_info *device;
    const struct fb_app_probe *probe; /* for the variants whose counters were refused */
};

static bool cb_skip(void *user, const struct fb_variant *v, int64_t n,
                    const struct fb_format *format);
static void cb_started(void *user, const struct fb_variant *v, int64_t n,
                       const struct fb_format *format);
static int cb_done(void *user, const struct fb_record *r, struct fb_error *err);

/* Where the sizes came from, for messages: the file's line, or the command line/default. */
static void sizes_origin(char *out, size_t size, const struct fb_config *cfg)
{
    if (cfg->sizes_line > 0)
        snprintf(out, size, "%s:%d: [sweep] sizes", cfg->path, cfg->sizes_line);
    else
        snprintf(out, size, "sizes (--sizes, or the default of %s)", cfg->path);
}

static int check_memory(const struct fb_config *cfg, const struct fb_backend_ops *ops,
                        const struct fb_device_info *dev, struct fb_error *err)
{
    char origin[FB_PATH_MAX + 64];
    sizes_origin(origin, sizeof origin, cfg);
    return fb_app_check_memory(cfg, ops, dev, origin, err);
}

static int count_enabled(const struct fb_config *cfg, const struct fb_variant_set *set)
{
    int count = 0;
    for (size_t i = 0; i < set->count; i++)
        count += fb_variant_set_enabled(cfg, set, i);
    return count;
}

static void print_plan(FILE *out, const struct fb_config *cfg, const struct fb_variant_set *set,
                       const char *backend, const struct fb_device_info *dev, const char *csv)
{
    const int enabled = count_enabled(cfg, set);
    uint64_t backend_bytes, total = fb_sweep_memory_bytes(cfg, &backend_bytes);
    char total_text[32], backend_text[32];
    fb_app_format_bytes(total_text, sizeof total_text, total);
    fb_app_format_bytes(backend_text, sizeof backend_text, backend_bytes);
    const size_t formats = fb_config_format_count(cfg);
    fprintf(out, "plan: %d variant%s x %zu sizes x %zu format%s = %zu points on %s (%s)\n",
            enabled, enabled == 1 ? "" : "s", cfg->n_sizes, formats, formats == 1 ? "" : "s",
            (size_t)enabled * cfg->n_sizes * formats, backend, dev->name);
    fprintf(out, "variants:");
    for (size_t i = 0; i < set->count; i++)
        if (fb_variant_set_enabled(cfg, set, i))
            fprintf(out, " %s", set->v[i].name);
    fprintf(out, "\nsizes:");
    for (size_t i = 0; i < cfg->n_sizes; i++)
        fprintf(out, " %" PRIu64, cfg->sizes[i]);
    fprintf(out, "\nformats:");
    for (size_t i = 0; i < formats; i++) {
        const struct fb_format f = fb_config_format(cfg, i);
        fprintf(out, " %s/%s", fb_dtype_name(f.dtype), fb_store_kind_name(f.stores));
    }
    fprintf(out, "\nmemory at the largest size: %s in all, %s of it on the backend\n", total_text,
            backend_text);
    fprintf(out, "results: %s (%s cache)\n", csv, fb_cache_mode_name(cfg->cache));
    if (dev->arch[0])
        fprintf(out, "gpu: %s; this binary holds %s\n", dev->arch, dev->gpu_code);
    if (dev->launch_plan[0])
        fprintf(out, "launch plan: %s\n", dev->launch_plan);
    if (dev->backend_note[0])
        fprintf(out, "backend: %s\n", dev->backend_note);
}

int fb_app_sweep(const struct fb_app_sweep_options *opt, const struct fb_config *cfg,
                 int *signal_number)
{
    struct fb_error err = {{0}};
    *signal_number = 0;
    const struct fb_backend_ops *ops = NULL;
    void *backend = NULL;
    char backend_note[sizeof ((struct fb_device_info *)0)->backend_note];
    int rc = fb_app_open_backend(cfg, &ops, &backend, backend_note, sizeof backend_note, &err);
    if (rc != FB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return rc;
    }
    struct fb_device_info dev;
    struct fb_probe probe;
    struct fb_app_probe *probe_state = NULL;
    char counters_status[1024] = "not applicable (cpu backend)";
    char csv[FB_PATH_MAX], target[FB_PATH_MAX];
    struct fb_results_lock lock = {.fd = -1};
    struct run_state state = {.resume = opt->resume, .cfg = cfg, .backend = ops->name,
                              .device = &dev};
    int failed = 0;

    /* The variants of this run (built-ins and the config's chains), built once: the dry run
     * prints them, the progress counts them, the runner walks them. */
    struct fb_variant_set *set = NULL;
    rc = fb_variant_set_new(cfg, &set, &err);
    if (rc == FB_OK)
        rc = ops->describe(backend, &dev, &err);
    if (rc == FB_OK)
        snprintf(dev.backend_note, sizeof dev.backend_note, "%s", backend_note);
    if (rc == FB_OK && dev.contention_note[0] && !opt->dry_run)
        fprintf(stderr, "note: %s\n", dev.contention_note);
    if (rc == FB_OK && dev.streaming_falls_back && !opt->dry_run &&
        fb_config_has_stores(cfg, FB_STORES_STREAMING))
        fprintf(stderr, "note: stores = streaming: %s\n", dev.streaming_stores);
    if (rc == FB_OK) {
        const struct fb_sweep formats_of = {.cfg = cfg, .ops = ops, .backend = backend};
        rc = fb_sweep_check_formats(&formats_of, &err);
    }
    if (rc == FB_OK)
        rc = check_memory(cfg, ops, &dev, &err);
    if (rc == FB_OK)
        rc = fb_config_expand_path(cfg->csv_path, ops->name, dev.name, csv, sizeof csv, &err);
    if (rc == FB_OK && opt->dry_run) {
        print_plan(stdout, cfg, set, ops->name, &dev, csv);
        free(set);
        ops->fini(backend);
        return FB_OK;
    }
    if (rc == FB_OK)
        rc = fb_results_check_writable(csv, target, sizeof target, &err);
    if (rc == FB_OK)
        rc = fb_results_lock(&lock, target, &err);
    if (rc == FB_OK)
        catch_interrupts();
    if (rc == FB_OK)
        rc = fb_app_probe_open(&probe_state, &probe, ops, backend, cfg, &dev, counters_status,
                               sizeof counters_status, &err);
    if (rc != FB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        fb_results_unlock(&lock);
        free(set);
        ops->fini(backend);
        return rc;
    }

    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t seed = ((uint64_t)t.tv_sec << 20) ^ (uint64_t)t.tv_nsec ^ ((uint64_t)getpid() << 40);
    fb_results_init(&state.results, target, cfg, ops->name, &dev, seed, counters_status);
    state.probe = probe_state;
    if (!opt->resume && strcmp(state.results.path, state.results.partial_path) == 0)
        fprintf(stderr, "note: %s holds an unfinished earlier run; this run replaces it (to "
                        "continue it instead, use --resume)\n", state.results.partial_path);
    size_t kept = 0;
    if (opt->resume) {
        rc = fb_results_load(&state.results, &kept, &err);
        if (rc != FB_OK) {
            fprintf(stderr, "--resume: %s\n", err.msg);
            rc = FB_ERR_USAGE;
            goto done;
        }
        if (state.results.resume_warning[0])
            fprintf(stderr, "%s\n", state.results.resume_warning);
    }

    int points = 0;
    double work = 0.0;
    for (size_t s = 0; s < cfg->n_sizes; s++)
        for (size_t f = 0; f < fb_config_format_count(cfg); f++) {
            const struct fb_format format = fb_config_format(cfg, f);
            for (size_t v = 0; v < set->count; v++)
                if (fb_variant_set_enabled(cfg, set, v) &&
                    !cb_skip(&state, &set->v[v], (int64_t)cfg->sizes[s], &format)) {
                    points++;
                    work += fb_progress_weight((int64_t)cfg->sizes[s]);
                }
        }
    if (!opt->quiet)
        fprintf(stderr, "fusebench %s: %d points on %s (%s)%s -> %s\n", FB_VERSION, points,
                ops->name, dev.name, kept ? " (resumed)" : "", target);
    fb_progress_begin(&state.progress, stderr, opt->quiet, points, work);

    const struct fb_sweep sweep = {cfg, ops, backend, &dev, probe_state ? &probe : NULL, seed,
                                   &interrupted, set};
    const struct fb_sweep_callbacks callbacks = {&state, cb_skip, cb_started, cb_done};
    rc = fb_sweep_run(&sweep, &callbacks, &failed, &err);
    fb_progress_end(&state.progress);

    /* Only a complete run replaces the results file; an unfinished one stays in .partial. */
    const char *kept_in = state.results.wrote ? state.results.partial_path : state.results.path;
    struct fb_fit fit = {0}; /* the model t = launches * L + bytes / B, once all points are in */
    const struct fb_format fit_format = fb_config_format(cfg, 0);
    if (rc == FB_OK)
        rc = fb_results_fit(&state.results, ops->name, fb_cache_mode_name(cfg->cache),
                            &fit_format, dev.cache_bytes, &fit, &err);
    if (rc == FB_OK) {
        rc = fb_results_finish(&state.results, &err);
        if (rc != FB_OK)
            fprintf(stderr, "%s\n", err.msg);
        else
            kept_in = target;
    } else if (rc == FB_ERR_INTERRUPTED) {
        fprintf(stderr, "interrupted: %zu finished point%s kept in %s", state.results.count,
                state.results.count == 1 ? "" : "s", kept_in);
        if (kept_in != target)
            fprintf(stderr, " (continue with --resume%s%s)",
                    access(target, F_OK) == 0 ? "; unchanged: " : "",
                    access(target, F_OK) == 0 ? target : "");
        fprintf(stderr, "\n");
    } else if (state.results.wrote) {
        fprintf(stderr, "sweep stopped: %s (finished points kept in %s for --resume; %s is "
                        "unchanged)\n", err.msg, kept_in, target);
    } else {
        fprintf(stderr, "sweep stopped: %s\n", err.msg);
    }
    if (state.results.count > 0) {
        fb_summary_print(stdout, state.results.records, state.results.count);
        fb_summary_print_fit(stdout, &fit, dev.cache_name);
        if (dev.backend_note[0])
            printf("backend: %s\n", dev.backend_note);
        printf("results: %s\n", kept_in);
    }
    if (rc == FB_OK && !opt->no_plot && state.results.count > 0) {
        fflush(stdout); /* the chart script writes to the same terminal */
        const char *files[1] = {target};
        int plot_rc = fb_plots_render(files, 1, cfg->plot_dir);
        if (plot_rc != 0)
            fprintf(stderr, "charts not drawn (see above); the results are in %s; redraw with: "
                            "./sweep --plot %s%s%s\n", target, target,
                    cfg->plot_dir[0] ? " --plot-dir " : "", cfg->plot_dir);
    }
    if (rc == FB_OK && failed > 0) {
        fprintf(stderr, "%d point%s failed verification: see %s\n", failed,
                failed == 1 ? "" : "s", target);
        rc = FB_ERR_VERIFY;
    }
done:
    free(set);
    fb_results_free(&state.results);
    fb_results_unlock(&lock);
    fb_app_probe_close(probe_state);
    ops->fini(backend);
    *signal_number = interrupted;
    if (interrupted) /* also when the signal came after the sweep (while drawing) */
        return FB_ERR_INTERRUPTED;
    return rc;
}

static bool cb_skip(void *user, const struct fb_variant *v, int64_t n,
                    const struct fb_format *format)
{
    struct run_state *s = user;
    if (!s->resume)
        return false;
    return fb_results_has_ok(&s->results, s->backend, s->device->name, v->name,
                             fb_dtype_name(format->dtype), n, fb_cache_mode_name(s->cfg->cache),
                             fb_store_kind_name(format->stores));
}

static void cb_started(void *user, const struct fb_variant *v, int64_t n,
                       const struct fb_format *format)
{
    struct run_state *s = user;
    (void)format;
    fb_progress_point_started(&s->progress, v->name, n);
}

static int cb_done(void *user, const struct fb_record *r, struct fb_error *err)
{
    struct run_state *s = user;
    char refused[1024];
    if (fb_app_probe_refusals(s->probe, refused, sizeof refused))
        fb_results_set_meta(&s->results, "counters_refused", refused);
    int rc = fb_results_add(&s->results, r, err);
    fb_progress_point_done(&s->progress, &s->results.records[s->results.count - 1]);
    return rc;
}
