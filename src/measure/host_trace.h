/* The calls of one variant traced on the host (--profile without CUPTI, and its --trace):
 * every launch the host issues and every step it runs, as records on the host clock
 * (common/clock.h), with calls that another program disturbed dropped and retaken as the
 * sweep retakes its samples (measure/disturbance.h, fb_disturbance_may_retake).
 *
 * What a call leaves in the trace, by how its variant runs (plan/variants.h):
 *   steps launched one by one (one_launch false): per step, the step timed on the host around
 *     run_step and a synchronize: for a kernel of ours a FB_TRACE_LAUNCH record when the host
 *     issues it and a FB_TRACE_KERNEL record; for the memcpy step (the platform's copy, no
 *     launch of ours) a FB_TRACE_PLATFORM record. On the CPU a kernel is one parallel pass
 *     with its fork and join; on a GPU, launch + kernel + synchronize.
 *   one launch with run_group_marked (the CPU's parallel region): one FB_TRACE_LAUNCH, then a
 *     FB_TRACE_KERNEL per step from the marks inside the launch (backend.h): the kernels
 *     after the fork, back to back, with the region's barrier in between.
 *   one launch without it (a GPU without CUPTI): one FB_TRACE_LAUNCH and one FB_TRACE_KERNEL
 *     record for the whole launch, named "add+relu (one launch)": its kernels cannot be timed
 *     apart on the host.
 * Every record's correlation_id is the index of its call (0 .. calls - 1, in order), its
 * stream_id 0; names are fb_step_name's ("add", "relu", "add_relu", "chain", "memcpy"). */
#ifndef FB_MEASURE_HOST_TRACE_H
#define FB_MEASURE_HOST_TRACE_H

#include "common/error.h"
#include "cupti/kernel_trace.h"
#include "measure/runner.h"

struct fb_host_trace_stats {
    int retaken;          /* disturbed calls dropped and run again */
    int kept_disturbed;   /* disturbed calls kept because the retake budget was spent */
    char disturbance[160]; /* how the last disturbed call was disturbed; "" if none was */
};

/* Runs `calls` (>= 1) calls of call->variant one after another and records them into t
 * (cleared first; see the top of this file). Each call is judged
 * (measure/disturbance_watch.h); a disturbed one's records are removed and the call run
 * again while fb_disturbance_may_retake(retaken so far, the time spent in all calls,
 * max_reps, max_time_s) allows, else kept and counted. Returns FB_OK; FB_ERR_USAGE when calls
 * < 1; FB_ERR_UNAVAILABLE for a one-launch variant on a backend without run_group; a step's
 * own error; FB_ERR_RUNTIME when memory runs out. */
int fb_host_trace_calls(const struct fb_call *call, int calls, int max_reps, double max_time_s,
                        struct fb_kernel_trace *t, struct fb_host_trace_stats *stats,
                        struct fb_error *err);

#endif
