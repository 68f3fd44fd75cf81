/* --profile N (contract in profile.h): a kernel table per enabled variant at one size, the
 * way torch.profiler prints one. */
#include "app/profile.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/backend_open.h"
#include "app/memory_check.h"
#include "app/probe.h"
#include "common/clock.h"
#include "common/text.h"
#include "cupti/kernel_table.h"
#include "cupti/kernel_table_print.h"
#include "cupti/kernel_trace.h"
#include "measure/runner.h"

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
        return FB_ERR_USAGE;
    }
    cfg->sizes[0] = sizes[0];
    cfg->n_sizes = 1;
    cfg->sizes_line = 0;
    snprintf(origin, sizeof origin, "--profile %s", shown);
    const struct fb_backend_ops *ops = NULL;
    void *backend = NULL;
    rc = fb_app_open_backend(cfg, &ops, &backend, NULL, 0, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return rc;
    }
    struct fb_device_info dev;
    rc = ops->describe(backend, &dev, &err);
    if (rc == FB_OK)
        rc = fb_app_check_memory(cfg, ops, &dev, origin, &err);
    ops->fini(backend);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return rc;
    }
    *n = (long long)sizes[0];
    return FB_OK;
}

/* A one-launch variant's call as one host-timed record, "add+relu (one launch)": its steps
 * cannot be timed apart without launching them apart. */
static int trace_group_on_host(const struct fb_call *call, int calls, struct fb_kernel_trace *t,
                               struct fb_error *err)
{
    struct fb_kernel_record r = {.kind = FB_TRACE_KERNEL, .stream_id = 0};
    size_t len = 0;
    for (int s = 0; s < call->variant->n_steps && len < sizeof r.name; s++)
        len += (size_t)snprintf(r.name + len, sizeof r.name - len, "%s%s", s ? "+" : "",
                                fb_step_name(&call->variant->steps[s]));
    if (len < sizeof r.name)
        snprintf(r.name + len, sizeof r.name - len, " (one launch)");
    for (int i = 0; i < calls; i++) {
        r.start_ns = fb_now_ns();
        int rc = fb_call_run((void *)call, err);
        if (rc == FB_OK)
            rc = call->ops->synchronize(call->backend, err);
        r.end_ns = fb_now_ns();
        r.correlation_id = (uint32_t)i;
        if (rc == FB_OK)
            rc = fb_kernel_trace_append(t, &r, err);
        if (rc != FB_OK)
            return rc;
    }
    return FB_OK;
}

/* Without CUPTI: time every step on its own, as a host-side trace (synchronizing after each,
 * so on a GPU this is launch + kernel + sync time, and says so in the heading); a one-launch
 * variant's steps together. */
static int trace_steps_on_host(const struct fb_call *call, int calls, struct fb_kernel_trace *t,
                               struct fb_error *err)
{
    fb_kernel_trace_clear(t);
    if (call->variant->one_launch)
        return trace_group_on_host(call, calls, t, err);
    for (int i = 0; i < calls; i++) {
        for (int s = 0; s < call->variant->n_steps; s++) {
            const struct fb_step *step = &call->variant->steps[s];
            struct fb_kernel_record r = {.kind = FB_TRACE_KERNEL, .stream_id = 0};
            snprintf(r.name, sizeof r.name, "%s", fb_step_name(step));
            r.start_ns = fb_now_ns();
            int rc = call->ops->run_step(call->backend, step, &call->format, call->buffers,
                                         call->n, err);
            if (rc == FB_OK)
                rc = call->ops->synchronize(call->backend, err);
            r.end_ns = fb_now_ns();
            r.correlation_id = (uint32_t)(i * call->variant->n_steps + s);
            if (rc == FB_OK)
                rc = fb_kernel_trace_append(t, &r, err);
            if (rc != FB_OK)
                return rc;
        }
    }
    return FB_OK;
}

int fb_app_profile(struct fb_config *cfg, const char *size_text)
{
    const int calls = 20;
    long long n = 0;
    int rc = check_profile_size(cfg, size_text, &n);
    if (rc != FB_OK)
        return rc;
    struct fb_error err = {{0}};
    const struct fb_backend_ops *ops;
    void *backend = NULL;
    rc = fb_app_open_backend(cfg, &ops, &backend, NULL, 0, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return rc;
    }
    struct fb_device_info dev;
    struct fb_probe probe;
    struct fb_app_probe *p = NULL;
    char status[256];
    struct fb_size_buffers sb;
    bool have_buffers = false;
    struct fb_kernel_trace host_trace;
    fb_kernel_trace_init(&host_trace, FB_STREAM_ANY);
    rc = ops->describe(backend, &dev, &err);
    if (rc == FB_OK)
        rc = fb_app_probe_open(&p, &probe, ops, backend, cfg, &dev, status, sizeof status, &err);
    const struct fb_sweep sweep = {cfg, ops, backend, &dev, NULL, (uint64_t)fb_now_ns(), NULL};
    /* The kernel table is of the config's first format (the one the fit describes too). */
    const struct fb_format format = fb_config_format(cfg, 0);
    if (rc == FB_OK && ops->check_format)
        rc = ops->check_format(backend, &format, &err);
    if (rc == FB_OK && (rc = fb_size_buffers_alloc(&sweep, n, &sb, &err)) == FB_OK) {
        have_buffers = true;
        rc = fb_size_buffers_fill(&sweep, n, format.dtype, &sb, &err);
    }
    bool cupti = p && probe.kernel_pass;
    char device[4 * sizeof dev.name];
    if (rc == FB_OK)
        printf("kernel table: %s on %s, n = %lld, %d calls per variant, %s\n", ops->name,
               fb_text_escape(device, sizeof device, dev.name), n, calls,
               cupti ? "kernel durations from CUPTI activity records"
                     : "each step timed on the host around a synchronize");
    struct fb_variant_set *set = NULL;
    if (rc == FB_OK)
        rc = fb_variant_set_new(cfg, &set, &err);
    for (size_t v = 0; rc == FB_OK && v < set->count; v++) {
        if (!fb_variant_set_enabled(cfg, set, v))
            continue;
        const struct fb_variant *variant = &set->v[v];
        if (variant->one_launch && !ops->run_group) {
            printf("\n%s: skipped: %s\n", variant->name, fb_call_group_missing());
            continue;
        }
        struct fb_call call = {ops, backend, variant, sb.dev, n, format};
        for (int i = 0; rc == FB_OK && i < 3; i++) /* warm-up */
            rc = fb_call_run(&call, &err);
        if (rc == FB_OK)
            rc = ops->synchronize(backend, &err);
        const struct fb_kernel_trace *trace = &host_trace;
        if (rc == FB_OK)
            rc = cupti ? fb_app_probe_trace(p, &(struct fb_probe_call){fb_call_run, NULL, &call},
                                            calls, &trace, &err)
                       : trace_steps_on_host(&call, calls, &host_trace, &err);
        struct fb_kernel_table table = {0};
        if (rc == FB_OK)
            rc = fb_kernel_table_build(trace, &table, &err);
        if (rc == FB_OK) {
            int64_t kernels = 0;
            for (size_t r = 0; r < table.count; r++)
                kernels += table.rows[r].calls;
            printf("\n%s: %s\n  %" PRId64 " records in %d calls = %.3g per call (kernel launches "
                   "declared: %d)\n",
                   variant->name, variant->description, kernels, calls,
                   (double)kernels / calls, variant->launches);
            fb_kernel_table_print(stdout, &table, 40);
        }
        fb_kernel_table_free(&table);
    }
    free(set);
    if (rc != FB_OK)
        fb_text_print(stderr, "--profile: ", err.msg);
    if (have_buffers)
        fb_size_buffers_free(&sweep, &sb);
    fb_kernel_trace_free(&host_trace);
    fb_app_probe_close(p);
    ops->fini(backend);
    return rc;
}
