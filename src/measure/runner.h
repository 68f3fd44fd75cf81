/* The runner: measures every point of a sweep on one backend and hands each finished
 * record to the caller. It never formats output (the writers do) and never exits.
 *
 * It walks the plan's points (plan/plan.h) and runs those still to do. Per size: allocate
 * once; fill a and b with fresh random values; then in each format of the plan
 * (common/format.h), for its variants:
 *   0. a variant that must run as one launch (one_launch) on a backend that cannot (run_group
 *      NULL, or FB_ERR_UNAVAILABLE from it for this format) is recorded as skipped, with the
 *      reason, and not timed;
 *   1. each: poison the outputs, run one call, count its launches, download, compare bit for
 *      bit with the host reference (a mismatch makes the point failed: it is never timed);
 *   2. each: warm up; pick a batch so one timed sample is well above the timer's resolution
 *      (cold mode: one call per sample);
 *   3. all together, interleaved: one sample of each variant per round, until each meets the
 *      stop rule (noise under target, or a cap), so drift of a shared machine hits eager
 *      and fused alike and their ratio stays honest; summarise. A sample is enqueued whole,
 *      with no host synchronisation inside it (backend.h, the timer):
 *        warm: timer_start; batch calls; timer_stop
 *        cold: flush_cache; timer_start; one call; timer_stop
 *      with the backend's contention readings (read_disturbance) just outside the marks; a
 *      sample that another program disturbed (measure/disturbance.h) is dropped and retaken,
 *      at most max_reps times and within max_time; a point left with fewer than min_reps
 *      clean samples is noisy (record.h), and `preempted` is the fraction dropped;
 *   4. each: optional probe passes (CUPTI kernel records, then counters), each in its own
 *      pass, outside the timed samples, because tracing and replay perturb time; each pass
 *      sees the call in the point's cache mode (struct fb_probe), so that
 *      launch_overhead_s = time_median_s - kernel_time_s combines two numbers of one mode.
 * The records of a size are handed over together once it is done. */
#ifndef FB_MEASURE_RUNNER_H
#define FB_MEASURE_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "backends/backend.h"
#include "common/error.h"
#include "measure/record.h"
#include "plan/plan.h"

/* What a probe runs: one call of the point's variant, and in cold mode the cache flush that
 * must come before each call the probe measures, so that the probe sees the call in the same
 * cache state as the timed samples did. Neither function synchronizes. */
struct fb_probe_call {
    int (*run)(void *ctx, struct fb_error *err);   /* enqueues one call */
    int (*flush)(void *ctx, struct fb_error *err); /* cold: enqueues a flush; NULL when warm */
    void *ctx;
    const char *variant; /* the variant's name, so that a probe can refuse one variant and not
                            the others; NULL: unknown */
};

/* Extra measurements a backend may offer (CUPTI on the GPU). Each field may be NULL.
 * Cache state: in warm mode the runner runs the call once (and synchronizes) right before each
 * pass, so the data is where warm calls leave it; in cold mode call->flush is set and the
 * probe flushes before every call it measures (below). */
struct fb_probe {
    void *self;
    /* Runs `calls` calls (cold: each after call->flush, whose kernels - named
     * FB_CACHE_FLUSH_KERNEL_PREFIX..., cupti/kernel_trace.h - are not the call's) and reports the launches per call
     * it saw and the median summed kernel time per call. FB_ERR_VERIFY with `reason` filled
     * when the count is not the declared one; FB_ERR_UNAVAILABLE to leave the columns empty. */
    int (*kernel_pass)(void *self, const struct fb_probe_call *call, int calls,
                       int declared_launches, int64_t *launches_per_call,
                       double *kernel_time_s, struct fb_error *err);
    /* Runs one call (possibly replayed) and reports its DRAM and L2 bytes. Cold: call->flush
     * runs and completes before the counters start, so the bytes are those of a call that
     * starts with a flushed L2 (what ncu's default cache control gives each kernel). */
    int (*traffic_pass)(void *self, const struct fb_probe_call *call, int64_t *dram_read,
                        int64_t *dram_write, int64_t *l2_bytes, struct fb_error *err);
};

struct fb_sweep_callbacks {
    void *user;
    /* Called before each point that is run. May be NULL. */
    void (*point_started)(void *user, const struct fb_variant *v, int64_t n,
                          const struct fb_format *format);
    /* Called with every finished point (ok, failed or skipped). A non-FB_OK return stops the
     * sweep with that error (e.g. the results file could not be written). */
    int (*point_done)(void *user, const struct fb_record *r, struct fb_error *err);
    /* Called at most once per sweep, with one line to print, when the first judged sample
     * already trips a GPU rule that a setting relaxes (fb_disturbance_first_note). May be
     * NULL. */
    void (*note)(void *user, const char *line);
};

struct fb_sweep {
    const struct fb_plan *plan;   /* the points (those with todo set run), the stop rule */
    const struct fb_backend_ops *ops;
    void *backend;
    const struct fb_device_info *device;
    const struct fb_probe *probe; /* NULL: none */
    uint64_t seed;                /* inputs of size n are drawn from seed ^ n */
    volatile sig_atomic_t *interrupted; /* set by a signal handler; checked between samples */
    /* Set by fb_sweep_run for its own copy (callers leave them NULL): the callbacks, and
     * whether a sample has been judged yet (the first one may call cb->note). */
    const struct fb_sweep_callbacks *cb;
    bool *judged;
};

/* Asks the backend whether it runs every format of the plan (check_format): FB_OK, or the
 * backend's FB_ERR_USAGE for the first it does not. fb_sweep_run calls it first; a caller
 * may call it earlier (before taking locks, or on a dry run). */
int fb_sweep_check_formats(const struct fb_sweep *sweep, struct fb_error *err);

/* Runs the points of sweep->plan whose todo is set, in the plan's order (plan/plan.h: sizes,
 * then formats, then variants). Returns FB_OK when the sweep ran to the end (points may have
 * failed: see *failed), FB_ERR_INTERRUPTED after Ctrl-C (the point in progress is abandoned,
 * every finished one was already handed to point_done), or the error that stopped it. */
int fb_sweep_run(const struct fb_sweep *sweep, const struct fb_sweep_callbacks *cb, int *failed,
                 struct fb_error *err);

/* Everything one size needs, allocated once and shared by all its variants. */
/* Arrays of n elements of the dtype last filled in (every array has room for n elements of
 * the plan's widest dtype). */
struct fb_size_buffers {
    void *dev[FB_BUF_COUNT]; /* backend memory; NULL for buffers no enabled variant uses */
    void *host_a, *host_b;   /* the random inputs, stored in `dtype` */
    void *host_out;          /* the downloaded output */
    void *host_want;         /* the reference output (and its scratch) */
    bool filled;             /* a and b hold inputs of `dtype` (fb_size_buffers_fill) */
    enum fb_dtype dtype;
};

/* Allocates the buffers the plan's variants use for n elements of its widest dtype (backend
 * and host);
 * frees what it got on failure. */
int fb_size_buffers_alloc(const struct fb_sweep *sw, int64_t n, struct fb_size_buffers *sb,
                          struct fb_error *err);
/* Draws fresh random inputs for this size (uniform in [-1, 1), drawn as floats and rounded to
 * dtype: reference.h, fb_fill_random) into host a and b, stored in dtype, and uploads them
 * into the backend's a and b (n x fb_dtype_size(dtype) bytes each). */
int fb_size_buffers_fill(const struct fb_sweep *sw, int64_t n, enum fb_dtype dtype,
                         struct fb_size_buffers *sb, struct fb_error *err);
void fb_size_buffers_free(const struct fb_sweep *sw, struct fb_size_buffers *sb);

/* One call of a variant on some buffers: fb_call_run(ctx) enqueues its steps back to back
 * (no synchronization), as the timer and the probes expect: one run_step per step, or for a
 * one_launch variant one run_group for them all (FB_ERR_UNAVAILABLE when the backend has
 * none: the runner skips such variants before they get here). fb_call_run_steps(ctx) enqueues
 * the steps one run_step each whatever the variant says (the traffic pass of a one-launch
 * variant: runner.c says why). fb_call_flush(ctx) enqueues the backend's cache flush (cold
 * mode). A call with `external` set is another program's (a peer in this process,
 * src/peer/peer.h): it enqueues `calls` calls on the backend's queue through
 * external(external_user, calls) - fb_call_run one, a timed sample its whole batch in one go -
 * and nothing of variant or buffers is used. */
struct fb_call {
    const struct fb_backend_ops *ops;
    void *backend;
    const struct fb_variant *variant;
    void *const *buffers;
    int64_t n;
    struct fb_format format;
    int (*external)(void *user, int64_t calls, struct fb_error *err);
    void *external_user;
};
int fb_call_run(void *ctx, struct fb_error *err);
int fb_call_run_steps(void *ctx, struct fb_error *err);
int fb_call_flush(void *ctx, struct fb_error *err);
/* Step 1 of the runner for one call of ours on a size's buffers: poisons the outputs, runs
 * one call, counts its launches into r->launches, downloads and compares with the host
 * reference (exact, or within the variant's ULP bound); sets r->verified. FB_ERR_VERIFY with
 * the first wrong element when the output is wrong, another error when a call failed. */
int fb_call_verify(const struct fb_sweep *sw, struct fb_call *call, struct fb_size_buffers *sb,
                   struct fb_record *r, struct fb_error *err);

/* Steps 2 and 3 of the runner, and the summary, for `count` verified calls of one size
 * (ours or external ones): each warmed up with its batch chosen, then all sampled in
 * interleaved rounds under the plan's stop rule (disturbed samples dropped and retaken), then
 * records[i] (initialised by the caller: names, n, bytes_model) gets reps, batch, the times,
 * noise, bandwidth, preempted and status ok or noisy. Returns FB_OK, FB_ERR_INTERRUPTED, or
 * the error of a call (the records are then incomplete). */
int fb_sweep_time_calls(const struct fb_sweep *sw, struct fb_call *calls,
                        struct fb_record *records, int count, struct fb_error *err);

/* Why a one_launch variant is skipped on a backend without run_group (the record's reason). */
const char *fb_call_group_missing(void);

#endif
