/* The sweep command (contract in sweep.h): from a validated config to the results file, the
 * summary and the charts, in four jobs:
 *   open (backend, plan checks: formats, memory) -> claim (output path, lock, signals, probe)
 *   -> load and measure (CSV after every point) -> report (results file, summary, charts). */
#include "app/sweep.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/open.h"
#include "measure/memory_check.h"
#include "common/interrupt.h"
#include "results/output_paths.h"
#include "app/plot_options.h"
#include "chart/gnuplot.h"
#include "measure/probe.h"
#include "app/report.h"
#include "results/results.h"
#include "backends/backend.h"
#include "common/text.h"
#include "fb_build_config.h"
#include "measure/runner.h"
#include "plan/plan.h"
#include "output/plan_text.h"
#include "output/progress.h"
#include "output/retake_hint.h"
#include "output/summary.h"

/* Everything the sweep callbacks need. */
struct run_state {
    struct fb_results results;
    struct fb_progress progress;
    const char *backend;             /* the rows this run writes: for --resume's lookups */
    const struct fb_device_info *device;
    const struct fb_cupti_probe *probe; /* for the variants whose counters were refused */
    /* --resume: the noisy rows of the file as loaded. Every point of their group (size and
     * format) is measured again, the ok ones too, so that a pair's speedup and its interval
     * (measure/interval.h) come from one set of interleaved rounds again. */
    struct fb_record *noisy;
    size_t n_noisy;
};

static void cb_started(void *user, const struct fb_variant *v, int64_t n,
                       const struct fb_format *format);
static int cb_done(void *user, const struct fb_record *r, struct fb_error *err);
static void cb_note(void *user, const char *line);

/* One sweep from setup to teardown: what setup opens, measuring fills and the report reads.
 * Zeroed first, so that teardown can run after a setup that stopped anywhere. */
struct sweep_session {
    const struct fb_app_sweep_options *opt;
    const struct fb_config *cfg;
    const struct fb_backend_ops *ops; /* NULL until the backend is open */
    void *backend;
    struct fb_device_info dev;
    struct fb_plan *plan;             /* the points of this run, built once (plan/plan.h) */
    struct fb_probe probe;
    struct fb_cupti_probe *probe_state; /* NULL: no CUPTI probe */
    char counters_status[1024];
    char csv[FB_PATH_MAX];            /* the results path, its placeholders filled in */
    struct fb_results_target where;   /* the file really written (symlinks followed), judged */
    char charts_dir[FB_PATH_MAX];     /* where the charts go: [output] plots, else the CSV's */
    char charts_make[FB_PATH_MAX];    /* the charts directory's first part still to be made */
    struct fb_results_lock lock;
    struct run_state state;
    uint64_t seed;
    size_t kept;                      /* rows kept from the results file (--resume) */
    int failed;                       /* points that failed verification */
};

/* What the results file at the judged target becomes, for the dry run. */
static const char *existing_text(enum fb_results_existing e, bool resume)
{
    switch (e) {
    case FB_RESULTS_NEW: return "a new file";
    case FB_RESULTS_EMPTY: return "replaces an empty file";
    case FB_RESULTS_OWN: return resume ? "keeps its ok rows (--resume)" : "replaces the "
                                         "results there";
    case FB_RESULTS_FOREIGN: return "replaces a file that is not a fusebench results file "
                                    "(--force)";
    }
    return "?";
}

/* --dry-run: the plan, the memory it needs and every file and directory the run would
 * write, all of them judged already. */
static void print_plan(FILE *out, const struct sweep_session *s)
{
    const struct fb_config *cfg = s->cfg;
    char shown[4 * FB_PATH_MAX], made[4 * FB_PATH_MAX];
    fb_text_escape(shown, sizeof shown, s->dev.name);
    fb_plan_text_write(out, s->plan, s->ops->name, shown);
    const struct fb_device_info *dev = &s->dev;
    if (dev->arch[0])
        fprintf(out, "gpu: %s; this binary holds %s\n", dev->arch, dev->gpu_code);
    if (dev->launch_plan[0])
        fprintf(out, "launch plan: %s\n", dev->launch_plan);
    if (dev->backend_note[0])
        fprintf(out, "backend: %s\n", dev->backend_note);
    fb_text_escape(shown, sizeof shown, s->where.path);
    fprintf(out, "results: %s (%s cache): %s", shown, fb_cache_mode_name(cfg->cache),
            existing_text(s->where.existing, s->opt->resume));
    if (s->where.make_dir[0])
        fprintf(out, ", making the directory %s",
                fb_text_escape(made, sizeof made, s->where.make_dir));
    fprintf(out, "\nwrites: %s.partial after every point, renamed to %s when the run completes;"
            " lock: %s.lock\n", shown, shown, shown);
    if (s->opt->no_plot) {
        fprintf(out, "charts: none (--no-plot)\n");
        return;
    }
    fprintf(out, "charts: into %s%s", fb_text_escape(shown, sizeof shown, s->charts_dir),
            cfg->plot_dir[0] ? "" : " (beside the results)");
    if (s->charts_make[0])
        fprintf(out, ", making the directory %s",
                fb_text_escape(made, sizeof made, s->charts_make));
    fprintf(out, "\n");
}

/* Setup, part one: the backend, the variants, the device, and the checks of the plan against
 * them (formats, memory); the results path with its placeholders filled in. Prints the
 * device's notes. Writes nothing. */
static int sweep_open(struct sweep_session *s, struct fb_error *err)
{
    const struct fb_config *cfg = s->cfg;
    /* The points of this run, built once: the dry run prints them, the progress counts
     * them, --resume marks those it keeps, the runner walks them. */
    int rc = fb_plan_build(cfg, 0, &s->plan, err);
    if (rc != FB_OK)
        return rc;
    char backend_note[sizeof s->dev.backend_note];
    rc = fb_backend_open(s->plan, &s->ops, &s->backend, backend_note, sizeof backend_note,
                         err);
    if (rc != FB_OK) {
        s->ops = NULL;
        return rc;
    }
    rc = s->ops->describe(s->backend, &s->dev, err);
    if (rc == FB_OK) /* why auto did not use the GPU: in the summary and the CSV too */
        snprintf(s->dev.backend_note, sizeof s->dev.backend_note, "%s", backend_note);
    if (rc == FB_OK && s->dev.contention_note[0] && !s->opt->dry_run)
        fprintf(stderr, "note: %s\n", s->dev.contention_note);
    if (rc == FB_OK && s->dev.streaming_falls_back && !s->opt->dry_run &&
        fb_config_has_stores(cfg, FB_STORES_STREAMING))
        fprintf(stderr, "note: stores = streaming: %s\n", s->dev.streaming_stores);
    if (rc == FB_OK) {
        const struct fb_sweep formats_of = {.plan = s->plan, .ops = s->ops,
                                            .backend = s->backend};
        rc = fb_sweep_check_formats(&formats_of, err);
    }
    if (rc == FB_OK)
        rc = fb_memory_check(s->plan, s->ops, &s->dev, err);
    if (rc == FB_OK)
        rc = fb_config_expand_path(cfg->csv_path, s->ops->name, s->dev.name, s->csv,
                                   sizeof s->csv, err);
    return rc;
}

/* Setup, part two (a dry run too): every path the run will write judged before anything is
 * measured, creating nothing: the results file (fb_results_judge) and, when charts are drawn,
 * their directory (fb_output_dir_check). */
static int sweep_judge_outputs(struct sweep_session *s, struct fb_error *err)
{
    int rc = fb_results_judge(s->csv, s->opt->force, &s->where, err);
    if (rc != FB_OK || s->opt->no_plot)
        return rc;
    /* An empty [output] plots puts the charts beside the file really written. */
    if (s->cfg->plot_dir[0])
        snprintf(s->charts_dir, sizeof s->charts_dir, "%s", s->cfg->plot_dir);
    else
        fb_output_dir_of(s->where.path, s->charts_dir, sizeof s->charts_dir);
    rc = fb_output_dir_check(s->charts_dir, "charts directory", s->charts_make,
                             sizeof s->charts_make, err);
    if (rc != FB_OK) {
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len, " (choose another with --plot-dir DIR "
                 "or [output] plots, or draw none with --no-plot)");
    }
    return rc;
}

/* Setup, part three (not for a dry run): the results file's directories made and the file
 * locked, the signals caught, the CUPTI probe opened where there is one. */
static int sweep_claim(struct sweep_session *s, struct fb_error *err)
{
    int rc = fb_results_prepare(&s->where, err);
    if (rc == FB_OK)
        rc = fb_results_lock(&s->lock, s->where.path, err);
    if (rc == FB_OK)
        fb_interrupt_catch(); /* stops after the sample in progress: 130, 143 */
    if (rc == FB_OK)
        rc = fb_cupti_probe_open(&s->probe_state, &s->probe, s->ops, s->backend, s->plan, &s->dev,
                                 s->counters_status, sizeof s->counters_status, err);
    return rc;
}

/* Copies the noisy rows of the loaded store into s->noisy (keep_measured). FB_ERR_RUNTIME,
 * with a message, when out of memory. */
static int keep_noisy_groups(struct run_state *s)
{
    size_t count = 0;
    for (size_t i = 0; i < s->results.count; i++)
        count += s->results.records[i].status == FB_POINT_NOISY;
    if (count == 0)
        return FB_OK;
    s->noisy = malloc(count * sizeof *s->noisy);
    if (!s->noisy) {
        fprintf(stderr, "--resume: out of memory for %zu noisy rows\n", count);
        return FB_ERR_RUNTIME;
    }
    for (size_t i = 0; i < s->results.count; i++)
        if (s->results.records[i].status == FB_POINT_NOISY)
            s->noisy[s->n_noisy++] = s->results.records[i];
    fprintf(stderr, "--resume: retaking %zu noisy point%s, with the other points of %s size "
                    "and format\n",
            count, count == 1 ? "" : "s", count == 1 ? "its" : "their");
    return FB_OK;
}

/* --resume: the points the results file already holds ok are not run again (todo false),
 * unless a noisy row shares their size and format: that whole group is measured again. */
static void keep_measured(const struct run_state *s, struct fb_plan *plan)
{
    const char *cache = fb_cache_mode_name(plan->measure.cache);
    for (size_t i = 0; i < plan->n_points; i++) {
        struct fb_plan_point *p = &plan->points[i];
        const struct fb_format *format = &plan->formats[p->format];
        struct fb_record key;
        fb_record_init(&key);
        snprintf(key.backend, sizeof key.backend, "%s", s->backend);
        snprintf(key.device, sizeof key.device, "%s", s->device->name);
        snprintf(key.dtype, sizeof key.dtype, "%s", fb_dtype_name(format->dtype));
        key.n = fb_plan_n(plan, p);
        snprintf(key.cache, sizeof key.cache, "%s", cache);
        snprintf(key.stores, sizeof key.stores, "%s", fb_store_kind_name(format->stores));
        if (!fb_results_has_ok(&s->results, key.backend, key.device,
                               fb_plan_variant(plan, p)->name, key.dtype, key.n, cache,
                               key.stores))
            continue;
        bool noisy_group = false;
        for (size_t k = 0; k < s->n_noisy && !noisy_group; k++)
            noisy_group = fb_point_key_equal_but_variant(&s->noisy[k], &key);
        p->todo = noisy_group;
    }
}

/* The results store for this run, with the rows --resume keeps. Prints its own messages;
 * FB_ERR_USAGE when --resume cannot read the file. */
static int sweep_load(struct sweep_session *s)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    s->seed = ((uint64_t)t.tv_sec << 20) ^ (uint64_t)t.tv_nsec ^ ((uint64_t)getpid() << 40);
    struct fb_results *results = &s->state.results;
    fb_results_init(results, s->where.path, s->plan, s->ops->name, &s->dev, s->seed,
                    s->counters_status);
    char shown[4 * FB_PATH_MAX];
    if (!s->opt->resume && strcmp(results->path, results->partial_path) == 0)
        fprintf(stderr, "note: %s holds an unfinished earlier run; this run replaces it (to "
                        "continue it instead, use --resume)\n",
                fb_text_escape(shown, sizeof shown, results->partial_path));
    if (!s->opt->resume)
        return FB_OK;
    struct fb_error err = {{0}};
    if (fb_results_load(results, &s->kept, &err) != FB_OK) {
        fb_text_print(stderr, "--resume: ", err.msg);
        return FB_ERR_USAGE;
    }
    if (results->resume_warning[0])
        fprintf(stderr, "%s\n", results->resume_warning);
    int rc = keep_noisy_groups(&s->state);
    if (rc == FB_OK)
        keep_measured(&s->state, s->plan);
    return rc;
}

/* Measures every point the store does not hold yet, with the start line and the progress
 * bar on stderr. Returns fb_sweep_run's status (err says why it stopped). */
static int sweep_measure(struct sweep_session *s, struct fb_error *err)
{
    double work = 0.0;
    const int points = (int)fb_plan_todo(s->plan, fb_progress_weight, &work);
    if (!s->opt->quiet) {
        char device[4 * sizeof s->dev.name], target[4 * FB_PATH_MAX];
        fprintf(stderr, "fusebench %s: %d points on %s (%s)%s -> %s\n", FB_VERSION, points,
                s->ops->name, fb_text_escape(device, sizeof device, s->dev.name),
                s->kept ? " (resumed)" : "", fb_text_escape(target, sizeof target,
                                                             s->where.path));
    }
    fb_progress_begin(&s->state.progress, stderr, s->opt->quiet, points, work);
    const struct fb_sweep sweep = {s->plan, s->ops, s->backend, &s->dev,
                                   s->probe_state ? &s->probe : NULL, s->seed, &fb_interrupted};
    const struct fb_sweep_callbacks callbacks = {&s->state, cb_started, cb_done, cb_note};
    int rc = fb_sweep_run(&sweep, &callbacks, &s->failed, err);
    fb_progress_end(&s->state.progress);
    return rc;
}

/* A run that did not complete (rc, err: why): what stopped it and where its finished points
 * are (kept_in: .partial when it wrote any), escaped. */
static void say_why_stopped(const struct sweep_session *s, int rc, const struct fb_error *err,
                            const char *kept_in)
{
    const struct fb_results *results = &s->state.results;
    char target[4 * FB_PATH_MAX], kept[4 * FB_PATH_MAX], why[4 * sizeof err->msg];
    fb_text_escape(target, sizeof target, s->where.path);
    fb_text_escape(kept, sizeof kept, kept_in);
    fb_text_escape(why, sizeof why, err->msg);
    if (rc == FB_ERR_INTERRUPTED) {
        const bool unchanged = access(s->where.path, F_OK) == 0;
        fprintf(stderr, "interrupted: %zu finished point%s kept in %s", results->count,
                results->count == 1 ? "" : "s", kept);
        if (kept_in != s->where.path)
            fprintf(stderr, " (continue with --resume%s%s)", unchanged ? "; unchanged: " : "",
                    unchanged ? target : "");
        fprintf(stderr, "\n");
    } else if (results->wrote) {
        fprintf(stderr, "sweep stopped: %s (finished points kept in %s for --resume; %s is "
                        "unchanged)\n", why, kept, target);
    } else {
        fprintf(stderr, "sweep stopped: %s\n", why);
    }
}

/* The charts of a complete run (fb_plots_render); when they cannot be drawn, the command
 * that redraws them, its paths quoted for a shell. */
static void sweep_draw(const struct sweep_session *s)
{
    fflush(stdout); /* the chart script writes to the same terminal */
    const char *files[1] = {s->where.path};
    struct fb_plot_options *opt = malloc(sizeof *opt);
    /* checked before the sweep (fb_app_config_load): no message here */
    if (opt && fb_plot_options_from_config(opt, s->cfg, false, stderr) != FB_OK)
        fb_plot_options_defaults(opt);
    int drawn = fb_plots_render(files, 1, s->charts_dir, opt);
    free(opt);
    if (drawn == 0)
        return;
    char target[4 * FB_PATH_MAX], word[4 * FB_PATH_MAX], dir_word[4 * FB_PATH_MAX];
    fprintf(stderr, "charts not drawn (see above); the results are in %s; redraw with: "
                    "./sweep --plot %s --plot-dir %s\n",
            fb_text_escape(target, sizeof target, s->where.path),
            fb_text_shell_word(word, sizeof word, s->where.path),
            fb_text_shell_word(dir_word, sizeof dir_word, s->charts_dir));
}

/* After the sweep stopped with rc (err: why, when not FB_OK): the fit and the results file
 * renamed into place when the run completed, or where the finished points are kept; the
 * summary (stdout); the charts; the verification failures. Returns the run's status. */
static int sweep_report(struct sweep_session *s, int rc, const struct fb_error *stopped)
{
    const struct fb_config *cfg = s->cfg;
    struct fb_results *results = &s->state.results;
    struct fb_error err = *stopped;
    /* Only a complete run replaces the results file; an unfinished one stays in .partial. */
    const char *kept_in = results->wrote ? results->partial_path : results->path;
    char target[4 * FB_PATH_MAX], kept[4 * FB_PATH_MAX];
    fb_text_escape(target, sizeof target, s->where.path);
    struct fb_fit fit = {0}; /* the model t = launches * L + bytes / B, once all points are in */
    const struct fb_format fit_format = s->plan->formats[0];
    if (rc == FB_OK)
        rc = fb_results_fit(results, s->ops->name, fb_cache_mode_name(cfg->cache), &fit_format,
                            s->dev.cache_bytes, &fit, &err);
    const bool complete = rc == FB_OK;
    if (complete) {
        rc = fb_results_finish(results, &err);
        if (rc != FB_OK)
            fb_text_print(stderr, "", err.msg);
        else
            kept_in = s->where.path;
    }
    fb_text_escape(kept, sizeof kept, kept_in);
    if (!complete)
        say_why_stopped(s, rc, &err, kept_in);
    if (results->count > 0) {
        fb_summary_print(stdout, results->records, results->count);
        fb_summary_print_fit(stdout, &fit, s->dev.cache_name);
        fb_retake_hint_print(stdout, results->records, results->count, complete ? &fit : NULL,
                             s->dev.cache_bytes, s->dev.cache_name);
        if (s->dev.backend_note[0])
            printf("backend: %s\n", s->dev.backend_note);
        printf("results: %s\n", kept);
    }
    if (rc == FB_OK && !s->opt->no_plot && results->count > 0)
        sweep_draw(s);
    /* The report of a complete run, beside the charts (or the results with --no-plot); a
     * report that cannot be written is said (fb_app_report) but fails nothing measured. */
    if (rc == FB_OK && (s->opt->report || cfg->report) && results->count > 0)
        fb_app_report(s->where.path, s->opt->no_plot ? NULL : s->charts_dir,
                      s->opt->force); /* a signal: fb_interrupted, seen below */
    if (rc == FB_OK && s->failed > 0) {
        fprintf(stderr, "%d point%s failed verification: see %s\n", s->failed,
                s->failed == 1 ? "" : "s", target);
        rc = FB_ERR_VERIFY;
    }
    return rc;
}

/* Releases what setup took, in reverse: harmless for what it never got. */
static void sweep_close(struct sweep_session *s)
{
    fb_plan_free(s->plan);
    free(s->state.noisy);
    fb_results_free(&s->state.results);
    fb_results_unlock(&s->lock);
    fb_cupti_probe_close(s->probe_state);
    if (s->ops)
        s->ops->fini(s->backend);
}

int fb_app_sweep(const struct fb_app_sweep_options *opt, const struct fb_config *cfg)
{
    struct sweep_session s;
    memset(&s, 0, sizeof s);
    s.opt = opt;
    s.cfg = cfg;
    s.lock.fd = -1;
    snprintf(s.counters_status, sizeof s.counters_status, "not applicable (cpu backend)");
    struct fb_error err = {{0}};
    int rc = sweep_open(&s, &err);
    if (rc == FB_OK)
        rc = sweep_judge_outputs(&s, &err);
    if (rc == FB_OK && opt->dry_run) {
        print_plan(stdout, &s);
        sweep_close(&s);
        return FB_OK;
    }
    if (rc == FB_OK)
        rc = sweep_claim(&s, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        sweep_close(&s);
        return rc;
    }
    s.state = (struct run_state){.backend = s.ops->name, .device = &s.dev};
    s.state.probe = s.probe_state;
    rc = sweep_load(&s);
    if (rc == FB_OK) {
        rc = sweep_measure(&s, &err);
        rc = sweep_report(&s, rc, &err);
    }
    sweep_close(&s);
    if (fb_interrupted) /* also when the signal came after the sweep (while drawing) */
        return FB_ERR_INTERRUPTED;
    return rc;
}

static void cb_started(void *user, const struct fb_variant *v, int64_t n,
                       const struct fb_format *format)
{
    struct run_state *s = user;
    (void)format;
    fb_progress_point_started(&s->progress, v->name, n);
}

static void cb_note(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "%s\n", line);
}

static int cb_done(void *user, const struct fb_record *r, struct fb_error *err)
{
    struct run_state *s = user;
    char refused[1024];
    if (fb_cupti_probe_refusals(s->probe, refused, sizeof refused))
        fb_results_set_meta(&s->results, "counters_refused", refused);
    int rc = fb_results_add(&s->results, r, err);
    fb_progress_point_done(&s->progress, &s->results.records[s->results.count - 1]);
    return rc;
}
