/* The CUPTI probe behind the runner's struct fb_probe.
 * CUPTI's own code is in src/cupti/; builds without it link a stub that reports
 * "unavailable", so nothing here needs #ifdefs. */
#include "measure/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti/cupti_session.h"
#include "cupti/kernel_trace.h"
#include "cupti/traffic.h"

/* Variants whose counters were refused, at most this many (more are refused all the same:
 * see counters_refused). */
#define FB_PROBE_MAX_REFUSED 16

struct fb_probe_refusal {
    char variant[48];
    char reason[192];
};

struct fb_cupti_probe {
    struct fb_cupti_session *cupti;
    const struct fb_backend_ops *ops;
    void *backend;
    struct fb_kernel_trace trace;
    bool activity_failed, counters_failed; /* a CUPTI error mid-sweep switches a part off */
    fb_probe_traffic_fn measure;  /* fb_cupti_measure_traffic, or a test's */
    bool counters_assumed;      /* a test's probe: counters taken as working */
    struct fb_probe_refusal refused[FB_PROBE_MAX_REFUSED]; /* counters, per variant */
    int n_refused;
    bool refused_overflow; /* a refusal past FB_PROBE_MAX_REFUSED: counters off for all */
};

/* A part that fails mid-sweep is switched off with one warning: its columns stay empty for
 * the remaining points and the sweep goes on (the timing does not depend on it). */
static int give_up(bool *failed, const char *part, const struct fb_error *err)
{
    *failed = true;
    fprintf(stderr, "warning: CUPTI %s failed, its columns stay empty from here on: %s\n", part,
            err->msg);
    return FB_ERR_UNAVAILABLE;
}

/* One activity window over `calls` calls, each after call->flush when it is set (cold mode:
 * the flush kernels land in the window too, and the activity collector files them as not
 * kernels of ours, by name); the trace goes to p->trace. *cupti_failed says whether an error
 * came from CUPTI itself (rather than from a launch or a synchronize). */
static int trace_calls(struct fb_cupti_probe *p, const struct fb_probe_call *call, int calls,
                       bool *cupti_failed, struct fb_error *err)
{
    *cupti_failed = false;
    int rc = fb_cupti_activity_start(p->cupti, p->ops->stream(p->backend), err);
    if (rc != FB_OK) {
        *cupti_failed = true;
        return rc;
    }
    for (int i = 0; rc == FB_OK && i < calls; i++) {
        if (call->flush)
            rc = call->flush(call->ctx, err);
        if (rc == FB_OK)
            rc = call->run(call->ctx, err);
    }
    if (rc == FB_OK)
        rc = p->ops->synchronize(p->backend, err);
    struct fb_error stop_err;
    int stop_rc = fb_cupti_activity_stop(p->cupti, &p->trace, &stop_err);
    if (rc == FB_OK && stop_rc != FB_OK) {
        *err = stop_err;
        *cupti_failed = true;
        rc = stop_rc;
    }
    /* Count the kernels of every stream: nothing but this window's calls runs in the process
     * meanwhile, and whether CUPTI's id for our runtime-created stream matches the records'
     * streamId is not yet checked on a GPU; a mismatch would fail every point. */
    p->trace.stream_id = FB_STREAM_ANY;
    return rc;
}

static int kernel_pass(void *self, const struct fb_probe_call *call, int calls,
                       int declared_launches, int64_t *launches_per_call, double *kernel_time_s,
                       struct fb_error *err)
{
    struct fb_cupti_probe *p = self;
    if (p->activity_failed || !fb_cupti_session_available(p->cupti, FB_CUPTI_ACTIVITY, NULL))
        return FB_ERR_UNAVAILABLE;
    bool cupti_failed;
    int rc = trace_calls(p, call, calls, &cupti_failed, err);
    if (rc != FB_OK && cupti_failed)
        return give_up(&p->activity_failed, "activity", err);
    if (rc != FB_OK)
        return rc;
    struct fb_kernel_summary summary;
    rc = fb_kernel_trace_summarize(&p->trace, calls, declared_launches, &summary, err);
    if (rc != FB_OK)
        return rc;
    *launches_per_call = summary.launches_per_call;
    if (!summary.ok)
        return fb_fail(err, FB_ERR_VERIFY, "CUPTI: %s", summary.reason);
    *kernel_time_s = summary.kernel_time_s;
    return FB_OK;
}

/* The range profiler's two hooks: before a pass (cold: flush and wait, outside the profiled
 * range, so the flush's own bytes are not counted) and the pass's call (run and wait: kernel
 * replay happens inside it). */
struct synced_call {
    const struct fb_probe_call *call;
    struct fb_cupti_probe *probe;
};

static int flush_synced(void *ctx, struct fb_error *err)
{
    struct synced_call *s = ctx;
    int rc = s->call->flush(s->call->ctx, err);
    return rc == FB_OK ? s->probe->ops->synchronize(s->probe->backend, err) : rc;
}

static int run_synced(void *ctx, struct fb_error *err)
{
    struct synced_call *s = ctx;
    int rc = s->call->run(s->call->ctx, err);
    return rc == FB_OK ? s->probe->ops->synchronize(s->probe->backend, err) : rc;
}

static bool is_refused(const struct fb_cupti_probe *p, const char *variant)
{
    for (int i = 0; variant && i < p->n_refused; i++)
        if (strcmp(p->refused[i].variant, variant) == 0)
            return true;
    return false;
}

/* The range profiler refused this variant's call (a graph launch, say): its columns stay
 * empty, the other variants keep theirs. Without a variant name, or past the table, it is the
 * old rule: the counters are switched off for the rest of the sweep. */
static int refuse_variant(struct fb_cupti_probe *p, const char *variant, const struct fb_error *err)
{
    if (!variant || p->n_refused >= FB_PROBE_MAX_REFUSED) {
        p->refused_overflow = variant != NULL;
        return give_up(&p->counters_failed, "counters", err);
    }
    struct fb_probe_refusal *r = &p->refused[p->n_refused++];
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->reason, sizeof r->reason, "%.191s", err->msg);
    fprintf(stderr, "warning: CUPTI counters refused variant %s; its DRAM and L2 columns stay "
                    "empty, the other variants keep theirs: %s\n", variant, err->msg);
    return FB_ERR_UNAVAILABLE;
}

bool fb_cupti_probe_refusals(const struct fb_cupti_probe *p, char *out, size_t size)
{
    if (size)
        out[0] = '\0';
    if (!p || (p->n_refused == 0 && !p->refused_overflow))
        return false;
    size_t used = 0;
    for (int i = 0; i < p->n_refused && used + 1 < size; i++) {
        int w = snprintf(out + used, size - used, "%s%s: %s", i ? "; " : "",
                         p->refused[i].variant, p->refused[i].reason);
        if (w < 0)
            break;
        used += (size_t)w < size - used ? (size_t)w : size - used - 1;
    }
    if (p->refused_overflow && used + 1 < size)
        snprintf(out + used, size - used, "%smore variants refused: counters off for all from "
                 "then on", used ? "; " : "");
    return true;
}

static int traffic_pass(void *self, const struct fb_probe_call *call, int64_t *dram_read,
                        int64_t *dram_write, int64_t *l2_bytes, struct fb_error *err)
{
    struct fb_cupti_probe *p = self;
    if (p->counters_failed || is_refused(p, call->variant) ||
        (!p->counters_assumed && !fb_cupti_session_available(p->cupti, FB_CUPTI_COUNTERS, NULL)))
        return FB_ERR_UNAVAILABLE;
    struct synced_call synced = {call, p};
    struct fb_traffic traffic;
    int rc = p->measure(p->cupti, call->flush ? flush_synced : NULL, run_synced, &synced,
                        &traffic, err);
    if (rc == FB_ERR_RUNTIME || rc == FB_ERR_USAGE)
        return refuse_variant(p, call->variant, err);
    if (rc != FB_OK)
        return rc;
    *dram_read = traffic.dram_read_bytes;
    *dram_write = traffic.dram_write_bytes;
    *l2_bytes = traffic.l2_bytes;
    return FB_OK;
}

/* "on", "off (why)" or "unavailable (why)" for one part. */
static void part_state(char *out, size_t size, bool requested, bool ok, const char *reason,
                       const char *off_why)
{
    if (!requested)
        snprintf(out, size, "off (%s)", off_why);
    else if (ok)
        snprintf(out, size, "on");
    else
        snprintf(out, size, "unavailable (%s)", reason && reason[0] ? reason : "no reason given");
}

void fb_cupti_probe_describe(const struct fb_probe_setup *s, char *status, size_t status_size,
                             char *warning, size_t warning_size)
{
    char counters[700], activity[700];
    part_state(counters, sizeof counters, s->counters_requested, s->counters_ok,
               s->counters_reason, "[cupti] counters = false");
    /* One reason for both (CUPTI as a whole could not open) is written once. */
    const bool same_reason = s->activity_reason && s->activity_reason == s->counters_reason &&
                             s->counters_requested;
    part_state(activity, sizeof activity, s->activity_requested, s->activity_ok,
               same_reason ? "the same reason" : s->activity_reason,
               "[cupti] activity = false");
    const char *state = s->cache == FB_CACHE_COLD
                            ? "cache cold: an L2 flush before each profiled call"
                            : "cache warm: each profiled call follows a warm call";
    if (s->counters_requested && s->counters_ok)
        snprintf(status, status_size, "on (%s%s%s); activity %s", state,
                 s->metrics && s->metrics[0] ? "; " : "", s->metrics ? s->metrics : "",
                 activity);
    else
        snprintf(status, status_size, "%s; activity %s", counters, activity);

    const bool counters_lost = s->counters_requested && !s->counters_ok;
    const bool activity_lost = s->activity_requested && !s->activity_ok;
    if (counters_lost && activity_lost && same_reason)
        snprintf(warning, warning_size, "warning: CUPTI unavailable, the kernel-time and DRAM "
                 "columns stay empty and the sweep goes on: %s", s->counters_reason);
    else if (counters_lost && activity_lost)
        snprintf(warning, warning_size, "warning: CUPTI unavailable, the kernel-time and DRAM "
                 "columns stay empty and the sweep goes on: counters: %s; activity: %s",
                 s->counters_reason, s->activity_reason);
    else if (counters_lost)
        snprintf(warning, warning_size, "warning: CUPTI counters unavailable, the DRAM columns "
                 "stay empty and the sweep goes on: %s", s->counters_reason);
    else if (activity_lost)
        snprintf(warning, warning_size, "warning: CUPTI activity unavailable, launches are "
                 "counted on the host and kernel_time_s stays empty: %s", s->activity_reason);
    else if (warning_size)
        warning[0] = '\0';
}

int fb_cupti_probe_open(struct fb_cupti_probe **state, struct fb_probe *probe,
                        const struct fb_backend_ops *ops, void *backend,
                        const struct fb_plan *plan, struct fb_device_info *dev, char *status,
                        size_t status_size, struct fb_error *err)
{
    *state = NULL;
    if (!ops->stream) {
        snprintf(status, status_size, "not applicable (%s backend)", ops->name);
        return FB_OK;
    }
    if (!plan->cupti_activity && !plan->cupti_counters) {
        snprintf(status, status_size, "off ([cupti] activity and counters are false)");
        return FB_OK;
    }
    struct fb_probe_setup setup = {.activity_requested = plan->cupti_activity,
                                   .counters_requested = plan->cupti_counters,
                                   .cache = plan->measure.cache};
    char warning[1200];
    struct fb_cupti_session *cupti = NULL;
    /* fb_cupti_session_open tries each part once (a trial enable of the activity API and of the
     * range profiler): a refusal is a normal state of a GPU node, reported once, here. */
    int rc = fb_cupti_session_open(&cupti, plan->device, plan->cupti_activity,
                                   plan->cupti_counters, err);
    if (rc == FB_ERR_UNAVAILABLE) {
        setup.activity_reason = setup.counters_reason = err->msg;
        fb_cupti_probe_describe(&setup, status, status_size, warning, sizeof warning);
        fprintf(stderr, "%s\n", warning);
        return FB_OK;
    }
    if (rc != FB_OK)
        return rc;
    struct fb_cupti_probe *p = calloc(1, sizeof *p);
    if (!p) {
        fb_cupti_session_close(cupti);
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory");
    }
    p->cupti = cupti;
    p->ops = ops;
    p->backend = backend;
    p->measure = fb_cupti_measure_traffic;
    fb_kernel_trace_init(&p->trace, FB_STREAM_ANY);
    setup.activity_ok =
        fb_cupti_session_available(cupti, FB_CUPTI_ACTIVITY, &setup.activity_reason);
    setup.counters_ok =
        fb_cupti_session_available(cupti, FB_CUPTI_COUNTERS, &setup.counters_reason);
    char metrics[512];
    fb_cupti_session_metrics(cupti, metrics, sizeof metrics);
    setup.metrics = metrics;
    fb_cupti_probe_describe(&setup, status, status_size, warning, sizeof warning);
    if (warning[0])
        fprintf(stderr, "%s\n", warning);
    if (!dev->chip[0])
        fb_cupti_chip_name(plan->device, dev->chip, sizeof dev->chip, &(struct fb_error){{0}});
    *probe = (struct fb_probe){p, setup.activity_ok ? kernel_pass : NULL,
                               setup.counters_ok ? traffic_pass : NULL};
    *state = p;
    return FB_OK;
}

int fb_cupti_probe_open_counters(struct fb_cupti_probe **state, struct fb_probe *probe,
                                 const struct fb_backend_ops *ops, void *backend,
                                 fb_probe_traffic_fn measure, struct fb_error *err)
{
    struct fb_cupti_probe *p = calloc(1, sizeof *p);
    *state = p;
    if (!p)
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory");
    p->ops = ops;
    p->backend = backend;
    p->measure = measure;
    p->counters_assumed = true;
    fb_kernel_trace_init(&p->trace, FB_STREAM_ANY);
    *probe = (struct fb_probe){p, NULL, traffic_pass};
    return FB_OK;
}

void fb_cupti_probe_close(struct fb_cupti_probe *state)
{
    if (!state)
        return;
    fb_kernel_trace_free(&state->trace);
    fb_cupti_session_close(state->cupti);
    free(state);
}

int fb_cupti_probe_trace(struct fb_cupti_probe *p, const struct fb_probe_call *call, int calls,
                         const struct fb_kernel_trace **trace, struct fb_error *err)
{
    bool cupti_failed;
    int rc = trace_calls(p, call, calls, &cupti_failed, err);
    *trace = &p->trace;
    return rc;
}
