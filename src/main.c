/* fusebench: measure what kernel fusion saves. This file decides exit codes and prints
 * errors; everything it calls returns them. Flow: command line -> config (validated) ->
 * backend -> plan checks (memory, output path) -> sweep -> CSV after every point ->
 * summary -> charts. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "app/backend_open.h"
#include "app/plots.h"
#include "app/probe.h"
#include "app/results.h"
#include "backends/backend.h"
#include "backends/cpu/cpu_info.h"
#include "cli/cli.h"
#include "common/text.h"
#include "config/config.h"
#include "fb_build_config.h"
#include "git_version.h"
#include "measure/runner.h"
#include "output/progress.h"
#include "output/summary.h"

enum { EXIT_MEASURE_FAILED = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

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
};

static bool cb_skip(void *user, const struct fb_variant *v, int64_t n);
static void cb_started(void *user, const struct fb_variant *v, int64_t n);
static int cb_done(void *user, const struct fb_record *r, struct fb_error *err);

static void format_bytes(char *buf, size_t size, uint64_t bytes)
{
    if (bytes >= (1ull << 30))
        snprintf(buf, size, "%.1f GiB", (double)bytes / (double)(1ull << 30));
    else
        snprintf(buf, size, "%.1f MiB", (double)bytes / (double)(1ull << 20));
}

/* Where the sizes came from, for messages: the file's line, or the command line/default. */
static void sizes_origin(char *out, size_t size, const struct fb_config *cfg)
{
    if (cfg->sizes_line > 0)
        snprintf(out, size, "%s:%d: [sweep] sizes", cfg->path, cfg->sizes_line);
    else
        snprintf(out, size, "sizes (--sizes, or the default of %s)", cfg->path);
}

/* The address space this process may still map under its RLIMIT_AS (`ulimit -v`): the
 * limit minus what is mapped now (/proc/self/statm's first field, in pages). UINT64_MAX when
 * there is no limit. Allocations past it fail even when RAM is free, so the memory check
 * must count it. */
static uint64_t address_space_left(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    uint64_t mapped = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        unsigned long long pages = 0;
        if (fscanf(f, "%llu", &pages) == 1)
            mapped = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
        fclose(f);
    }
    return (uint64_t)lim.rlim_cur > mapped ? (uint64_t)lim.rlim_cur - mapped : 0;
}

/* A sweep that cannot fit is a config error, reported before anything runs. On the CPU the
 * backend's arrays are host memory too. `origin` names where the largest size came from. */
static int check_memory_from(const struct fb_config *cfg, const struct fb_backend_ops *ops,
                             const struct fb_device_info *dev, const char *origin,
                             struct fb_error *err)
{
    const bool on_cpu = strcmp(ops->name, "cpu") == 0;
    const uint64_t largest = cfg->sizes[cfg->n_sizes - 1];
    uint64_t backend_bytes, total = fb_sweep_memory_bytes(cfg, &backend_bytes);
    uint64_t host_need = on_cpu ? total : total - backend_bytes;
    uint64_t host_total, host_available;
    fb_cpu_memory(&host_total, &host_available);
    char need[32], have[32];
    if (!on_cpu && backend_bytes > dev->memory_available_bytes) {
        format_bytes(need, sizeof need, backend_bytes);
        format_bytes(have, sizeof have, dev->memory_available_bytes);
        return fb_fail(err, FB_ERR_USAGE,
                       "%s: the largest size (%" PRIu64 " elements) needs %s of %s memory, %s "
                       "is free", origin, largest, need, dev->name, have);
    }
    /* 10% head room for everything else the process and the system hold */
    if (host_available && host_need > host_available / 10 * 9) {
        format_bytes(need, sizeof need, host_need);
        format_bytes(have, sizeof have, host_available);
        return fb_fail(err, FB_ERR_USAGE,
                       "%s: the largest size (%" PRIu64 " elements) needs %s of host memory, %s "
                       "is available", origin, largest, need, have);
    }
    uint64_t as_left = address_space_left();
    if (as_left != UINT64_MAX && host_need > as_left / 10 * 9) {
        format_bytes(need, sizeof need, host_need);
        format_bytes(have, sizeof have, as_left);
        return fb_fail(err, FB_ERR_USAGE,
                       "%s: the largest size (%" PRIu64 " elements) needs %s of host memory, but "
                       "the address-space limit (RLIMIT_AS, ulimit -v) leaves %s", origin,
                       largest, need, have);
    }
    return FB_OK;
}

static int check_memory(const struct fb_config *cfg, const struct fb_backend_ops *ops,
                        const struct fb_device_info *dev, struct fb_error *err)
{
    char origin[FB_PATH_MAX + 64];
    sizes_origin(origin, sizeof origin, cfg);
    return check_memory_from(cfg, ops, dev, origin, err);
}

/* --profile N: N is read like one --sizes item (same syntax and limit of 1e12 elements) and
 * must fit in memory like a sweep's largest size, before anything is allocated: a huge N
 * once wrapped (size_t)N * sizeof(float) to a tiny buffer and the fill overran it. On
 * success cfg's sizes are {N} and *n is N. */
static int check_profile_size(struct fb_config *cfg, const char *text, long long *n)
{
    struct fb_error err = {{0}};
    char shown[256], origin[300];
    fb_text_escape(shown, sizeof shown, text);
    uint64_t sizes[2];
    size_t count = 0;
    int rc = fb_sizes_parse(text, cfg->points_per_decade, sizes, 2, &count, &err);
    if (rc == FB_OK && count != 1)
        rc = fb_fail(&err, FB_ERR_USAGE, "give one size, not a list or range");
    if (rc != FB_OK) {
        fb_text_escape_in_place(err.msg, sizeof err.msg);
        fprintf(stderr, "--profile %s: %s\n", shown, err.msg);
        return EXIT_USAGE;
    }
    cfg->sizes[0] = sizes[0];
    cfg->n_sizes = 1;
    cfg->sizes_line = 0;
    snprintf(origin, sizeof origin, "--profile %s", shown);
    const struct fb_backend_ops *ops = NULL;
    void *backend = NULL;
    rc = fb_app_open_backend(cfg, &ops, &backend, &err);
    if (rc != FB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return rc == FB_ERR_USAGE ? EXIT_USAGE : EXIT_MEASURE_FAILED;
    }
    struct fb_device_info dev;
    rc = ops->describe(backend, &dev, &err);
    if (rc == FB_OK)
        rc = check_memory_from(cfg, ops, &dev, origin, &err);
    ops->fini(backend);
    if (rc != FB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return rc == FB_ERR_USAGE ? EXIT_USAGE : EXIT_MEASURE_FAILED;
    }
    *n = (long long)sizes[0];
    return 0;
}

static int count_enabled(const struct fb_config *cfg)
{
    int count = 0;
    for (size_t i = 0; i < fb_variant_count; i++)
        count += cfg->variant_enabled[i];
    return count;
}

static void print_plan(FILE *out, const struct fb_config *cfg, const char *backend,
                       const struct fb_device_info *dev, const char *csv)
{
    uint64_t backend_bytes, total = fb_sweep_memory_bytes(cfg, &backend_bytes);
    char total_text[32], backend_text[32];
    format_bytes(total_text, sizeof total_text, total);
    format_bytes(backend_text, sizeof backend_text, backend_bytes);
    fprintf(out, "plan: %d variant%s x %zu sizes = %zu points on %s (%s)\n", count_enabled(cfg),
            count_enabled(cfg) == 1 ? "" : "s", cfg->n_sizes,
            (size_t)count_enabled(cfg) * cfg->n_sizes, backend, dev->name);
    fprintf(out, "variants:");
    for (size_t i = 0; i < fb_variant_count; i++)
        if (cfg->variant_enabled[i])
            fprintf(out, " %s", fb_variants[i].name);
    fprintf(out, "\nsizes:");
    for (size_t i = 0; i < cfg->n_sizes; i++)
        fprintf(out, " %" PRIu64, cfg->sizes[i]);
    fprintf(out, "\nmemory at the largest size: %s in all, %s of it on the backend\n", total_text,
            backend_text);
    fprintf(out, "results: %s (%s cache)\n", csv, fb_cache_mode_name(cfg->cache));
}

static int redraw(const struct fb_cli *cli)
{
    int rc = fb_plots_render(cli->plot_files, cli->n_plot_files, cli->plot_dir);
    if (rc == 0 || rc == EXIT_INTERRUPTED)
        return rc;
    return rc == 2 || rc == 3 ? EXIT_USAGE : EXIT_MEASURE_FAILED;
}

static int load_config(const struct fb_cli *cli, struct fb_config *cfg)
{
    struct fb_error err = {{0}};
    int rc = fb_config_load(cfg, cli->config_path, stderr, &err);
    if (rc == FB_ERR_RUNTIME)
        fprintf(stderr, "%s\n", err.msg);
    if (rc != FB_OK)
        return EXIT_USAGE;
    /* All overrides at once: the min <= max rules judge the final set, not each step. */
    struct fb_config_setting settings[FB_CLI_MAX_OVERRIDES];
    for (int i = 0; i < cli->n_overrides; i++)
        settings[i] = (struct fb_config_setting){cli->overrides[i].key, cli->overrides[i].value};
    rc = fb_config_override_all(cfg, settings, (size_t)cli->n_overrides, &err);
    if (rc != FB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return EXIT_USAGE;
    }
    if (cli->plot_dir)
        snprintf(cfg->plot_dir, sizeof cfg->plot_dir, "%s", cli->plot_dir);
    return 0;
}

static int exit_code_for(int rc)
{
    switch (rc) {
    case FB_OK: return 0;
    case FB_ERR_USAGE: return EXIT_USAGE;
    case FB_ERR_INTERRUPTED: return EXIT_INTERRUPTED;
    default: return EXIT_MEASURE_FAILED;
    }
}

static int run(const struct fb_cli *cli, const struct fb_config *cfg)
{
    struct fb_error err = {{0}};
    const struct fb_backend_ops *ops = NULL;
    void *backend = NULL;
    int rc = fb_app_open_backend(cfg, &ops, &backend, &err);
    if (rc != FB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return exit_code_for(rc);
    }
    struct fb_device_info dev;
    struct fb_probe probe;
    struct fb_app_probe *probe_state = NULL;
    char counters_status[1024] = "not applicable (cpu backend)";
    char csv[FB_PATH_MAX], target[FB_PATH_MAX];
    struct fb_results_lock lock = {.fd = -1};
    struct run_state state = {.resume = cli->resume, .cfg = cfg, .backend = ops->name,
                              .device = &dev};
    int failed = 0;

    rc = ops->describe(backend, &dev, &err);
    if (rc == FB_OK && dev.contention_note[0] && !cli->dry_run)
        fprintf(stderr, "note: %s\n", dev.contention_note);
    if (rc == FB_OK)
        rc = check_memory(cfg, ops, &dev, &err);
    if (rc == FB_OK)
        rc = fb_config_expand_path(cfg->csv_path, ops->name, dev.name, csv, sizeof csv, &err);
    if (rc == FB_OK && cli->dry_run) {
        print_plan(stdout, cfg, ops->name, &dev, csv);
        ops->fini(backend);
        return 0;
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
        ops->fini(backend);
        return exit_code_for(rc);
    }

    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t seed = ((uint64_t)t.tv_sec << 20) ^ (uint64_t)t.tv_nsec ^ ((uint64_t)getpid() << 40);
    fb_results_init(&state.results, target, cfg, ops->name, &dev, seed, counters_status);
    if (!cli->resume && strcmp(state.results.path, state.results.partial_path) == 0)
        fprintf(stderr, "note: %s holds an unfinished earlier run; this run replaces it (to "
                        "continue it instead, use --resume)\n", state.results.partial_path);
    size_t kept = 0;
    if (cli->resume) {
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
        for (size_t v = 0; v < fb_variant_count; v++)
            if (cfg->variant_enabled[v] && !cb_skip(&state, &fb_variants[v], (int64_t)cfg->sizes[s])) {
                points++;
                work += fb_progress_weight((int64_t)cfg->sizes[s]);
            }
    if (!cli->quiet)
        fprintf(stderr, "fusebench %s: %d points on %s (%s)%s -> %s\n", FB_VERSION, points,
                ops->name, dev.name, kept ? " (resumed)" : "", target);
    fb_progress_begin(&state.progress, stderr, cli->quiet, points, work);

    const struct fb_sweep sweep = {cfg, ops, backend, &dev, probe_state ? &probe : NULL, seed,
                                   &interrupted};
    const struct fb_sweep_callbacks callbacks = {&state, cb_skip, cb_started, cb_done};
    rc = fb_sweep_run(&sweep, &callbacks, &failed, &err);
    fb_progress_end(&state.progress);

    /* Only a complete run replaces the results file; an unfinished one stays in .partial. */
    const char *kept_in = state.results.wrote ? state.results.partial_path : state.results.path;
    struct fb_fit fit = {0}; /* the model t = launches * L + bytes / B, once all points are in */
    if (rc == FB_OK)
        rc = fb_results_fit(&state.results, ops->name, fb_cache_mode_name(cfg->cache),
                            dev.cache_bytes, &fit, &err);
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
        printf("results: %s\n", kept_in);
    }
    if (rc == FB_OK && !cli->no_plot && state.results.count > 0) {
        fflush(stdout); /* the chart script writes to the same terminal */
        const char *files[1] = {target};
        int plot_rc = fb_plots_render(files, 1, cfg->plot_dir);
        if (plot_rc != 0)
            fprintf(stderr, "charts not drawn (see above); the results are in %s; redraw with: "
                            "./sweep --plot %s --plot-dir %s\n", target, target, cfg->plot_dir);
    }
    if (rc == FB_OK && failed > 0) {
        fprintf(stderr, "%d point%s failed verification: see %s\n", failed,
                failed == 1 ? "" : "s", target);
        rc = FB_ERR_VERIFY;
    }
done:
    fb_results_free(&state.results);
    fb_results_unlock(&lock);
    fb_app_probe_close(probe_state);
    ops->fini(backend);
    if (interrupted) /* also when the signal came after the sweep (while drawing) */
        return 128 + interrupted;
    return exit_code_for(rc);
}

static bool cb_skip(void *user, const struct fb_variant *v, int64_t n)
{
    struct run_state *s = user;
    if (!s->resume)
        return false;
    return fb_results_has_ok(&s->results, s->backend, s->device->name, v->name, s->cfg->dtype,
                             n, fb_cache_mode_name(s->cfg->cache));
}

static void cb_started(void *user, const struct fb_variant *v, int64_t n)
{
    struct run_state *s = user;
    fb_progress_point_started(&s->progress, v->name, n);
}

static int cb_done(void *user, const struct fb_record *r, struct fb_error *err)
{
    struct run_state *s = user;
    int rc = fb_results_add(&s->results, r, err);
    fb_progress_point_done(&s->progress, &s->results.records[s->results.count - 1]);
    return rc;
}

int main(int argc, char **argv)
{
    struct fb_cli cli;
    if (fb_cli_parse(argc, argv, &cli, stderr) != 0)
        return EXIT_USAGE;
    if (cli.help) {
        fb_cli_usage(stdout, "sweep");
        return 0;
    }
    if (cli.version) {
        printf("fusebench %s (%s)\n", FB_VERSION, FB_GIT_COMMIT);
        return 0;
    }
    if (cli.n_plot_files > 0)
        return redraw(&cli);
    struct fb_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return EXIT_MEASURE_FAILED;
    int code = load_config(&cli, cfg);
    long long profile_n = 0;
    if (code == 0 && cli.profile_size)
        code = check_profile_size(cfg, cli.profile_size, &profile_n);
    if (code == 0)
        code = cli.profile_size ? fb_app_profile(cfg, profile_n) : run(&cli, cfg);
    free(cfg);
    return code;
}
