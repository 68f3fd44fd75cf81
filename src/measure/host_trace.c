/* Tracing a variant's calls on the host (contract and record layout in host_trace.h). */
#include "measure/host_trace.h"

#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "measure/disturbance.h"
#include "measure/disturbance_watch.h"

static int append(struct fb_kernel_trace *t, enum fb_trace_kind kind, const char *name,
                  uint64_t start_ns, uint64_t end_ns, int call, struct fb_error *err)
{
    struct fb_kernel_record r = {.kind = kind, .start_ns = start_ns, .end_ns = end_ns,
                                 .stream_id = 0, .correlation_id = (uint32_t)call};
    snprintf(r.name, sizeof r.name, "%s", name);
    return fb_kernel_trace_append(t, &r, err);
}

/* "add+relu (one launch)": the name of a launch whose steps are not timed apart. */
static void group_name(const struct fb_variant *v, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (int s = 0; s < v->n_steps && len < size; s++)
        len += (size_t)snprintf(out + len, size - len, "%s%s", s ? "+" : "",
                                fb_step_name(&v->steps[s]));
    if (len < size)
        snprintf(out + len, size - len, " (one launch)");
}

/* One call of a one-launch variant: its launch, then its steps from the launch's marks, or
 * the launch as one record when the backend cannot mark it. */
static int trace_group(const struct fb_call *c, int call, struct fb_kernel_trace *t,
                       struct fb_error *err)
{
    const struct fb_variant *v = c->variant;
    if (!c->ops->run_group)
        return fb_fail(err, FB_ERR_UNAVAILABLE, "%s", fb_call_group_missing());
    uint64_t marks[FB_MAX_STEPS + 1];
    const uint64_t launch = fb_now_ns();
    int rc = c->ops->run_group_marked
                 ? c->ops->run_group_marked(c->backend, v->steps, v->n_steps, &c->format,
                                            c->buffers, c->n, marks, err)
                 : c->ops->run_group(c->backend, v->steps, v->n_steps, &c->format, c->buffers,
                                     c->n, err);
    if (rc == FB_OK)
        rc = c->ops->synchronize(c->backend, err);
    const uint64_t end = fb_now_ns();
    if (rc == FB_OK)
        rc = append(t, FB_TRACE_LAUNCH, "launch", launch, launch, call, err);
    if (rc != FB_OK)
        return rc;
    if (!c->ops->run_group_marked) {
        char name[FB_KERNEL_NAME_MAX];
        group_name(v, name, sizeof name);
        return append(t, FB_TRACE_KERNEL, name, launch, end, call, err);
    }
    for (int s = 0; rc == FB_OK && s < v->n_steps; s++)
        rc = append(t, FB_TRACE_KERNEL, fb_step_name(&v->steps[s]), marks[s], marks[s + 1],
                    call, err);
    return rc;
}

/* One call of a variant whose steps are launched one by one: each launched and timed alone. */
static int trace_steps(const struct fb_call *c, int call, struct fb_kernel_trace *t,
                       struct fb_error *err)
{
    for (int s = 0; s < c->variant->n_steps; s++) {
        const struct fb_step *step = &c->variant->steps[s];
        const uint64_t start = fb_now_ns();
        int rc = c->ops->run_step(c->backend, step, &c->format, c->buffers, c->n, err);
        if (rc == FB_OK)
            rc = c->ops->synchronize(c->backend, err);
        const uint64_t end = fb_now_ns();
        const bool kernel = fb_step_is_kernel(step);
        if (rc == FB_OK && kernel)
            rc = append(t, FB_TRACE_LAUNCH, "launch", start, start, call, err);
        if (rc == FB_OK)
            rc = append(t, kernel ? FB_TRACE_KERNEL : FB_TRACE_PLATFORM, fb_step_name(step),
                        start, end, call, err);
        if (rc != FB_OK)
            return rc;
    }
    return FB_OK;
}

int fb_host_trace_calls(const struct fb_call *call, int calls, int max_reps, double max_time_s,
                        struct fb_kernel_trace *t, struct fb_host_trace_stats *stats,
                        struct fb_error *err)
{
    memset(stats, 0, sizeof *stats);
    fb_kernel_trace_clear(t);
    if (calls < 1)
        return fb_fail(err, FB_ERR_USAGE, "host trace: %d calls (at least 1)", calls);
    double spent_s = 0.0;
    for (int i = 0; i < calls;) {
        const size_t mark = t->count;
        struct fb_disturbance_watch watch;
        fb_disturbance_watch_start(call->ops, call->backend, &watch);
        int rc = call->variant->one_launch ? trace_group(call, i, t, err)
                                           : trace_steps(call, i, t, err);
        if (rc != FB_OK)
            return rc;
        double wall_s;
        char why[sizeof stats->disturbance];
        const bool disturbed = fb_disturbance_watch_end(call->ops, call->backend, &watch,
                                                        &wall_s, why, sizeof why);
        spent_s += wall_s;
        if (disturbed) {
            snprintf(stats->disturbance, sizeof stats->disturbance, "%s", why);
            if (fb_disturbance_may_retake(stats->retaken, spent_s, max_reps, max_time_s)) {
                t->count = mark; /* dropped: the call is run again */
                stats->retaken++;
                continue;
            }
            stats->kept_disturbed++;
        }
        i++;
    }
    return FB_OK;
}
