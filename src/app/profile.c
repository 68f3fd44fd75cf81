/* --profile N (contract in profile.h): a kernel table per enabled variant at one size, the
 * way torch.profiler prints one, and with --trace the Chrome trace of the same records. */
#include "app/profile.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/open.h"
#include "measure/memory_check.h"
#include "chart/gnuplot.h"
#include "chart/timeline.h"
#include "measure/probe.h"
#include "output/trace_output.h"
#include "common/clock.h"
#include "common/text.h"
#include "cupti/kernel_table.h"
#include "cupti/kernel_table_print.h"
#include "cupti/kernel_trace.h"
#include "fb_build_config.h"
#include "measure/disturbance.h"
#include "measure/disturbance_watch.h"
#include "measure/host_trace.h"
#include "measure/runner.h"
#include "plan/plan.h"

/* --profile N: N is read like one --sizes item (same syntax and limit of 1e12 elements) and
 * must fit in memory like a sweep's largest size (checked against the plan once the backend
 * is open, before anything is allocated: a huge N once wrapped (size_t)N * sizeof(float) to
 * a tiny buffer and the fill overran it). On success cfg's sizes are {N} and *n is N. */
static int parse_profile_size(struct fb_config *cfg, const char *text, long long *n)
{
    struct fb_error err = {{0}};
    char shown[256];
    fb_text_escape(shown, sizeof shown, text);
    uint64_t sizes[2];
    size_t count = 0;
    int rc = fb_sizes_parse(text, cfg->points_per_decade, sizes, 2, &count, &err);
    if (rc == FB_OK && count != 1)
        rc = fb_fail(&err, FB_ERR_USAGE, "give one size, not a list or range");
    if (rc != FB_OK) {
        fb_text_escape_in_place(err.msg, sizeof err.msg);
        fprintf(stderr, "--profile %s: %s\n", shown, err.msg);
        return FB_ERR_USAGE;
    }
    cfg->sizes[0] = sizes[0];
    cfg->n_sizes = 1;
    cfg->sizes_line = 0;
    *n = (long long)sizes[0];
    return FB_OK;
}

/* The plan of the profile: the one size, the config's first format (the kernel tables
 * describe one), the sizes' origin named "--profile N" for the memory check's message. */
static int profile_plan(const struct fb_config *cfg, const char *text, struct fb_plan **plan)
{
    struct fb_error err = {{0}};
    int rc = fb_plan_build(cfg, FB_PLAN_FIRST_FORMAT, plan, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return rc;
    }
    char shown[256];
    snprintf((*plan)->sizes_origin, sizeof (*plan)->sizes_origin, "--profile %s",
             fb_text_escape(shown, sizeof shown, text));
    return FB_OK;
}

static int by_start(const void *pa, const void *pb)
{
    const struct fb_kernel_record *a = pa, *b = pb;
    if (a->start_ns != b->start_ns)
        return a->start_ns < b->start_ns ? -1 : 1;
    return a->correlation_id < b->correlation_id ? -1 : a->correlation_id > b->correlation_id;
}

/* The kernel records of a CUPTI window on its measured stream into out, in launch order, each
 * numbered with its call (kernel i of `declared` per call belongs to call i / declared: the
 * method of cupti/kernel_trace.h) as the trace expects (measure/host_trace.h). */
static int keep_window(const struct fb_kernel_trace *window, int declared,
                       struct fb_kernel_trace *out, struct fb_error *err)
{
    fb_kernel_trace_clear(out);
    out->stream_id = window->stream_id;
    for (size_t i = 0; i < window->count; i++) {
        const struct fb_kernel_record *r = &window->items[i];
        if (r->kind != FB_TRACE_KERNEL ||
            (window->stream_id != FB_STREAM_ANY && r->stream_id != window->stream_id))
            continue;
        int rc = fb_kernel_trace_append(out, r, err);
        if (rc != FB_OK)
            return rc;
    }
    if (out->count > 1)
        qsort(out->items, out->count, sizeof *out->items, by_start);
    for (size_t i = 0; i < out->count; i++)
        out->items[i].correlation_id = (uint32_t)(declared > 0 ? i / (size_t)declared : 0);
    return FB_OK;
}

/* A CUPTI window of `calls` calls, judged whole (measure/disturbance_watch.h) and taken again
 * when disturbed, within the sweep's retake budget. */
static int trace_with_cupti(struct fb_cupti_probe *p, struct fb_call *call, int calls,
                            const struct fb_plan_measure *m, struct fb_kernel_trace *out,
                            struct fb_host_trace_stats *stats, struct fb_error *err)
{
    memset(stats, 0, sizeof *stats);
    double spent_s = 0.0;
    const struct fb_disturbance_rules rules = {m->gpu_min_clock, m->gpu_other_processes};
    for (;;) {
        struct fb_disturbance_watch watch;
        fb_disturbance_watch_start(call->ops, call->backend, &watch);
        watch.rules = &rules; /* the sweep's rules ([measure] gpu_min_clock, ...) */
        const struct fb_kernel_trace *window = NULL;
        int rc = fb_cupti_probe_trace(p, &(struct fb_probe_call){fb_call_run, NULL, call, NULL},
                                      calls, &window, err);
        if (rc != FB_OK)
            return rc;
        double wall_s;
        char why[sizeof stats->disturbance];
        bool disturbed = fb_disturbance_watch_end(call->ops, call->backend, &watch, &wall_s,
                                                  why, sizeof why);
        spent_s += wall_s;
        if (disturbed) {
            snprintf(stats->disturbance, sizeof stats->disturbance, "%s", why);
            if (fb_disturbance_may_retake(stats->retaken, spent_s, m->max_reps, m->max_time_s)) {
                stats->retaken++;
                continue;
            }
            stats->kept_disturbed++;
        }
        return keep_window(window, call->variant->launches, out, err);
    }
}

/* The platform's copy, named for the backend (plan/variants.h, FB_STEP_MEMCPY). */
static const char *platform_copy(const char *backend)
{
    return strcmp(backend, "cpu") == 0 ? "libc memcpy" : "cudaMemcpyAsync device to device";
}

/* The counts line under a variant's table: the records seen against what the plan declares
 * (plan/variants.h): kernels of ours, the host launches that issue them, the platform's calls. */
static void print_counts(const struct fb_variant *v, const struct fb_kernel_trace *t, int calls,
                         const char *backend, bool cupti, bool marked)
{
    int64_t kernels = 0, platform = 0, launches = 0;
    for (size_t i = 0; i < t->count; i++) {
        const struct fb_kernel_record *r = &t->items[i];
        kernels += r->kind == FB_TRACE_KERNEL;
        platform += r->kind == FB_TRACE_PLATFORM;
        launches += r->kind == FB_TRACE_LAUNCH;
    }
    const int declared_platform = v->n_steps - v->launches;
    printf("  %" PRId64 " records in %d calls = %.3g per call (declared per call: ",
           kernels + platform, calls, (double)(kernels + platform) / calls);
    if (v->launches > 0)
        printf("%d kernel%s of ours%s", v->launches, v->launches == 1 ? "" : "s",
               v->one_launch ? " in 1 host launch"
               : v->launches > 1 ? ", one host launch each" : " in 1 host launch");
    if (declared_platform > 0)
        printf("%s%d platform call%s, %s: the platform's copy, not a kernel of ours, so 0 "
               "kernel launches", v->launches > 0 ? "; " : "", declared_platform,
               declared_platform == 1 ? "" : "s", platform_copy(backend));
    printf(")");
    if (!cupti)
        printf("; host launches seen: %.3g per call", (double)launches / calls);
    else if (declared_platform > 0)
        printf("; CUPTI's kernel records do not show the platform's calls");
    if (!cupti && v->one_launch && !marked)
        printf("; the launch is one record: the host cannot time its kernels apart");
    printf("\n");
}

static void print_retakes(const struct fb_host_trace_stats *s, const struct fb_plan_measure *m)
{
    if (s->retaken)
        printf("  %d disturbed call%s dropped and retaken (the last: %s)\n", s->retaken,
               s->retaken == 1 ? "" : "s", s->disturbance);
    if (s->kept_disturbed)
        printf("  %d disturbed call%s kept: the retake budget (max_reps %d, max_time %g s) was "
               "spent; these times are not clean\n", s->kept_disturbed,
               s->kept_disturbed == 1 ? "" : "s", m->max_reps, m->max_time_s);
}

/* What the profile keeps of each variant it traced, for the trace file and the chart. */
struct traced {
    const struct fb_variant *variant[FB_MAX_VARIANTS];
    struct fb_kernel_trace trace[FB_MAX_VARIANTS];
    size_t count;
};

/* Writes the trace and draws its timeline (profile.h). */
static int write_trace(const struct fb_app_profile_options *opt,
                       const struct fb_trace_target *target, const struct fb_trace_info *info,
                       const char *kernels_name, const struct traced *tr)
{
    struct fb_trace_track tracks[FB_MAX_VARIANTS];
    for (size_t k = 0; k < tr->count; k++)
        tracks[k] = (struct fb_trace_track){tr->variant[k]->name, tr->variant[k]->description,
                                            kernels_name, &tr->trace[k]};
    struct fb_error err = {{0}};
    int rc = fb_trace_write(target, info, tracks, tr->count, &err);
    char shown[FB_PATH_MAX * 4];
    if (rc != FB_OK) {
        fb_text_print(stderr, "--trace: ", err.msg);
        return rc;
    }
    printf("\ntrace: %s (Chrome trace format: open it in https://ui.perfetto.dev or "
           "chrome://tracing)\n", fb_text_escape(shown, sizeof shown, target->path));
    rc = fb_chart_timeline_save(target->table, tracks, tr->count, info, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "--trace: ", err.msg);
        return rc;
    }
    printf("timeline table: %s (--plot redraws the chart from it)\n",
           fb_text_escape(shown, sizeof shown, target->table));
    fflush(stdout);
    if (opt->no_plot)
        return FB_OK;
    int drawn = fb_plots_render_timeline(target->table, opt->plot_dir, NULL);
    if (drawn == 0)
        return FB_OK;
    fprintf(stderr, "--trace: the timeline chart was not drawn (the trace is written; "
                    "--no-plot leaves the chart out)\n");
    return FB_ERR_RUNTIME;
}

int fb_app_profile(struct fb_config *cfg, const struct fb_app_profile_options *opt)
{
    const int calls = FB_PROFILE_CALLS;
    long long n = 0;
    struct fb_error err = {{0}};
    struct fb_trace_target target;
    if (opt->trace_path && fb_trace_judge(opt->trace_path, opt->force, &target, &err) != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return FB_ERR_USAGE;
    }
    struct fb_plan *plan = NULL;
    int rc = parse_profile_size(cfg, opt->size_text, &n);
    if (rc == FB_OK)
        rc = profile_plan(cfg, opt->size_text, &plan);
    if (rc != FB_OK)
        return rc;
    const struct fb_backend_ops *ops;
    void *backend = NULL;
    struct fb_device_info dev;
    rc = fb_backend_open(plan, &ops, &backend, NULL, 0, &err);
    if (rc == FB_OK && (rc = ops->describe(backend, &dev, &err)) == FB_OK)
        rc = fb_memory_check(plan, ops, &dev, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        if (backend)
            ops->fini(backend);
        fb_plan_free(plan);
        return rc;
    }
    struct fb_probe probe;
    struct fb_cupti_probe *p = NULL;
    char status[256];
    struct fb_size_buffers sb;
    bool have_buffers = false;
    struct traced *tr = calloc(1, sizeof *tr);
    if (!tr)
        rc = fb_fail(&err, FB_ERR_RUNTIME, "out of memory");
    if (rc == FB_OK)
        rc = fb_cupti_probe_open(&p, &probe, ops, backend, plan, &dev, status, sizeof status, &err);
    const struct fb_sweep sweep = {plan, ops, backend, &dev, NULL, (uint64_t)fb_now_ns(), NULL};
    /* The kernel table is of the config's first format (the one the fit describes too). */
    const struct fb_format format = plan->formats[0];
    if (rc == FB_OK && ops->check_format)
        rc = ops->check_format(backend, &format, &err);
    if (rc == FB_OK && (rc = fb_size_buffers_alloc(&sweep, n, &sb, &err)) == FB_OK) {
        have_buffers = true;
        rc = fb_size_buffers_fill(&sweep, n, format.dtype, &sb, &err);
    }
    const bool cupti = p && probe.kernel_pass;
    /* the chart's subtitle: how the bars were timed, in words a reader of the chart knows */
    const char *timing = cupti ? "kernel times from the GPU's own records (CUPTI)"
                               : "kernels timed by the host's clock (a one-launch call's kernels "
                                 "from when each began)";
    char device[4 * sizeof dev.name];
    if (rc == FB_OK)
        printf("kernel table: %s on %s, n = %lld, %d calls per variant, %s\n", ops->name,
               fb_text_escape(device, sizeof device, dev.name), n, calls, timing);
    for (size_t k = 0; rc == FB_OK && k < plan->n_named; k++) {
        const struct fb_variant *variant = &plan->set.v[plan->named[k]];
        if (variant->one_launch && !ops->run_group) {
            printf("\n%s: skipped: %s\n", variant->name, fb_call_group_missing());
            continue;
        }
        struct fb_call call = {ops, backend, variant, sb.dev, n, format};
        for (int i = 0; rc == FB_OK && i < 3; i++) /* warm-up */
            rc = fb_call_run(&call, &err);
        if (rc == FB_OK)
            rc = ops->synchronize(backend, &err);
        struct fb_kernel_trace *trace = &tr->trace[tr->count];
        fb_kernel_trace_init(trace, FB_STREAM_ANY);
        tr->variant[tr->count++] = variant;
        struct fb_host_trace_stats stats;
        if (rc == FB_OK)
            rc = cupti ? trace_with_cupti(p, &call, calls, &plan->measure, trace, &stats, &err)
                       : fb_host_trace_calls(&call, calls, plan->measure.max_reps,
                                             plan->measure.max_time_s, trace, &stats, &err);
        struct fb_kernel_table table = {0};
        if (rc == FB_OK)
            rc = fb_kernel_table_build(trace, &table, &err);
        if (rc == FB_OK) {
            printf("\n%s: %s\n", variant->name, variant->description);
            print_counts(variant, trace, calls, ops->name, cupti, ops->run_group_marked != NULL);
            print_retakes(&stats, &plan->measure);
            fb_kernel_table_print(stdout, &table, 40);
        }
        fb_kernel_table_free(&table);
    }
    if (rc != FB_OK)
        fb_text_print(stderr, "--profile: ", err.msg);
    if (rc == FB_OK && opt->trace_path) {
        char kernels_name[160];
        snprintf(kernels_name, sizeof kernels_name, "%s", cupti ? "GPU stream (CUPTI activity)"
                 : strcmp(ops->name, "cpu") == 0 ? "CPU passes (timed on the host)"
                 : "GPU kernels (timed on the host)");
        const struct fb_trace_info info = {FB_VERSION, ops->name, dev.name, n, calls, timing};
        rc = write_trace(opt, &target, &info, kernels_name, tr);
    }
    if (have_buffers)
        fb_size_buffers_free(&sweep, &sb);
    for (size_t k = 0; tr && k < tr->count; k++)
        fb_kernel_trace_free(&tr->trace[k]);
    free(tr);
    fb_cupti_probe_close(p);
    ops->fini(backend);
    fb_plan_free(plan);
    return rc;
}
