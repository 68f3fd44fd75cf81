#include "measure/runner.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "common/clock.h"
#include "dtype_convert.h"
#include "measure/disturbance.h"
#include "measure/disturbance_watch.h"
#include "measure/interval.h"
#include "measure/reference.h"
#include "measure/stats.h"

int fb_call_run(void *ctx, struct fb_error *err)
{
    const struct fb_call *c = ctx;
    if (c->external)
        return c->external(c->external_user, 1, err);
    if (c->variant->one_launch) {
        if (!c->ops->run_group)
            return fb_fail(err, FB_ERR_UNAVAILABLE, "%s", fb_call_group_missing());
        return c->ops->run_group(c->backend, c->variant->steps, c->variant->n_steps,
                                 &c->format, c->buffers, c->n, err);
    }
    return fb_call_run_steps(ctx, err);
}

int fb_call_run_steps(void *ctx, struct fb_error *err)
{
    const struct fb_call *c = ctx;
    for (int s = 0; s < c->variant->n_steps; s++) {
        int rc = c->ops->run_step(c->backend, &c->variant->steps[s], &c->format, c->buffers,
                                  c->n, err);
        if (rc != FB_OK)
            return rc;
    }
    return FB_OK;
}

const char *fb_call_group_missing(void)
{
    return "this backend cannot run several steps as one launch (it has no run_group): the "
           "variant is skipped rather than launched step by step under its name";
}

int fb_call_flush(void *ctx, struct fb_error *err)
{
    const struct fb_call *c = ctx;
    return c->ops->flush_cache(c->backend, err);
}

/* `calls` calls between the timer's two marks, nothing else enqueued in between: the time of
 * the calls alone, in seconds. */
static int time_calls(const struct fb_sweep *sw, struct fb_call *call, int calls, double *seconds,
                      struct fb_error *err)
{
    int rc = sw->ops->timer_start(sw->backend, err);
    if (rc == FB_OK && call->external)
        rc = call->external(call->external_user, calls, err);
    for (int i = 0; rc == FB_OK && !call->external && i < calls; i++)
        rc = fb_call_run(call, err);
    if (rc == FB_OK)
        rc = sw->ops->timer_stop(sw->backend, seconds, err);
    return rc;
}

/* time_calls, with the backend's contention readings taken at the edges, outside the marks
 * (backend.h): *disturbed says whether another program got in the way (measure/disturbance.h;
 * false when the backend cannot tell), and how in why (may be NULL; left alone when clean);
 * *wall_s is the sample's host wall time. */
static int time_calls_judged(const struct fb_sweep *sw, struct fb_call *call, int calls,
                             double *seconds, double *wall_s, bool *disturbed, char *why,
                             size_t why_size, struct fb_error *err)
{
    const struct fb_disturbance_rules rules = {sw->plan->measure.gpu_min_clock,
                                               sw->plan->measure.gpu_other_processes};
    struct fb_disturbance_watch watch;
    fb_disturbance_watch_start(sw->ops, sw->backend, &watch);
    watch.rules = &rules;
    int rc = time_calls(sw, call, calls, seconds, err);
    char how[160];
    unsigned tripped = fb_disturbance_watch_end(sw->ops, sw->backend, &watch, wall_s, how,
                                                sizeof how);
    if (rc != FB_OK)
        tripped = 0;
    *disturbed = tripped != 0;
    /* The first sample of the sweep (after warm-up: the GPU is at its working clock) already
     * disturbed: most likely the GPU's normal state, which would drop most samples. Said
     * once, up front, with the setting that relaxes the rule. */
    if (sw->judged && !*sw->judged) {
        *sw->judged = true;
        char line[900];
        if (sw->cb && sw->cb->note && fb_disturbance_first_note(tripped, how, &rules, line,
                                                                sizeof line))
            sw->cb->note(sw->cb->user, line);
    }
    if (*disturbed && why)
        snprintf(why, why_size, "%s", how);
    return rc;
}

void fb_size_buffers_free(const struct fb_sweep *sw, struct fb_size_buffers *sb)
{
    for (int b = 0; b < FB_BUF_COUNT; b++)
        if (sb->dev[b])
            sw->ops->free(sw->backend, sb->dev[b]);
    free(sb->host_a);
    free(sb->host_b);
    free(sb->host_out);
    free(sb->host_want);
    memset(sb, 0, sizeof *sb);
}

int fb_size_buffers_alloc(const struct fb_sweep *sw, int64_t n, struct fb_size_buffers *sb,
                          struct fb_error *err)
{
    memset(sb, 0, sizeof *sb);
    /* checked once here: every later n * fb_dtype_size(...) is at most this */
    size_t bytes;
    if (n < 0 || !fb_mul_size((size_t)n, sw->plan->element_bytes, &bytes))
        return fb_fail(err, FB_ERR_USAGE, "%" PRId64 " elements do not fit in the address space",
                       n);
    for (int b = 0; b < FB_BUF_COUNT; b++) {
        if (!sw->plan->buffer_used[b])
            continue;
        int rc = sw->ops->alloc(sw->backend, bytes, &sb->dev[b], err);
        if (rc != FB_OK) {
            fb_size_buffers_free(sw, sb);
            return rc;
        }
    }
    sb->host_a = malloc(bytes ? bytes : 1);
    sb->host_b = malloc(bytes ? bytes : 1);
    sb->host_out = malloc(bytes ? bytes : 1);
    sb->host_want = malloc(bytes ? bytes : 1);
    if (!sb->host_a || !sb->host_b || !sb->host_out || !sb->host_want) {
        fb_size_buffers_free(sw, sb);
        return fb_fail(err, FB_ERR_RUNTIME, "out of host memory for 4 arrays of %" PRId64
                       " elements", n);
    }
    return FB_OK;
}

int fb_size_buffers_fill(const struct fb_sweep *sw, int64_t n, enum fb_dtype dtype,
                         struct fb_size_buffers *sb, struct fb_error *err)
{
    const size_t bytes = (size_t)n * fb_dtype_size(dtype);
    /* The same seed at every dtype: the same draws, rounded to each type. */
    fb_fill_random(dtype, sb->host_a, n, sw->seed ^ ((uint64_t)n * 2));
    fb_fill_random(dtype, sb->host_b, n, sw->seed ^ ((uint64_t)n * 2 + 1));
    sb->filled = false;
    int rc = FB_OK;
    if (sb->dev[FB_BUF_A])
        rc = sw->ops->upload(sw->backend, sb->dev[FB_BUF_A], sb->host_a, bytes, err);
    if (rc == FB_OK && sb->dev[FB_BUF_B])
        rc = sw->ops->upload(sw->backend, sb->dev[FB_BUF_B], sb->host_b, bytes, err);
    if (rc == FB_OK) {
        sb->filled = true;
        sb->dtype = dtype;
    }
    return rc;
}

int fb_call_verify(const struct fb_sweep *sw, struct fb_call *call, struct fb_size_buffers *sb,
                   struct fb_record *r, struct fb_error *err)
{
    const int64_t n = call->n;
    const enum fb_dtype dtype = call->format.dtype;
    const size_t bytes = (size_t)n * fb_dtype_size(dtype);
    /* 0xFF bytes are a NaN (in fp32, fp16 and bf16) no random input produces: an element the
     * kernel skipped shows. */
    for (int b = FB_BUF_TMP; b <= FB_BUF_C; b++) {
        if (!sb->dev[b])
            continue;
        int rc = sw->ops->fill_bytes(sw->backend, sb->dev[b], 0xFF, bytes, err);
        if (rc != FB_OK)
            return rc;
    }
    uint64_t before = sw->ops->launch_count(sw->backend);
    int rc = fb_call_run(call, err);
    if (rc == FB_OK)
        rc = sw->ops->synchronize(sw->backend, err);
    if (rc != FB_OK)
        return rc;
    r->launches = (int64_t)(sw->ops->launch_count(sw->backend) - before);
    rc = sw->ops->download(sw->backend, sb->host_out, sb->dev[FB_BUF_C], bytes, err);
    if (rc != FB_OK)
        return rc;
    /* The reference's temporaries can share host_want with its output: every op is
     * elementwise, so a step reads tmp[i] before it writes c[i] at the same place. */
    fb_reference_run(call->variant, dtype, sb->host_a, sb->host_b, sb->host_want, sb->host_want,
                     n);
    /* Exact variants: the same bits (but NaN payloads); with transcendental ops: within the
     * ULP bound of their ops (reference.h says how, and why). */
    int64_t bad = fb_first_mismatch_ulps(dtype, sb->host_out, sb->host_want, n,
                                         fb_variant_ulp_bound(call->variant));
    if (bad >= 0)
        return fb_fail(err, FB_ERR_VERIFY,
                       "wrong result at element %" PRId64 " of %" PRId64
                       " (%s): got %.9g, reference %.9g (a=%.9g b=%.9g)",
                       bad, n, fb_dtype_name(dtype), (double)fb_dtype_load(dtype, sb->host_out, bad),
                       (double)fb_dtype_load(dtype, sb->host_want, bad),
                       (double)fb_dtype_load(dtype, sb->host_a, bad),
                       (double)fb_dtype_load(dtype, sb->host_b, bad));
    r->verified = true;
    return FB_OK;
}

/* Calls per timed sample: enough that one sample lasts at least 200 timer ticks and 20 us,
 * so the timer's resolution costs under 0.5%. A call longer than that is timed alone. */
static int choose_batch(const struct fb_sweep *sw, struct fb_call *call, int64_t *batch,
                        struct fb_error *err)
{
    *batch = 1;
    if (sw->plan->measure.cache == FB_CACHE_COLD)
        return FB_OK; /* every call must start cold: one call per sample */
    const double target = fmax(200.0 * sw->device->timer_resolution_s, 20e-6);
    double t = 0.0, wall, retiming_s = 0.0;
    int calls = 1, retimed = 0;
    bool disturbed;
    for (;;) {
        int rc = time_calls_judged(sw, call, calls, &t, &wall, &disturbed, NULL, 0, err);
        if (rc != FB_OK)
            return rc;
        /* A call that waited for a CPU looks long and would get a batch far too small for
         * the timer: time it again (8 times and max_time at most, then take what there is). */
        if (disturbed && retimed++ < 8 && retiming_s < sw->plan->measure.max_time_s) {
            retiming_s += wall;
            continue;
        }
        if (t >= target || calls >= (1 << 20))
            break;
        /* grow towards the target, at most 10x a step so one slow outlier cannot mislead */
        double factor = t > 0 ? fmin(10.0, 1.2 * target / t) : 10.0;
        calls = (int)ceil(calls * fmax(factor, 2.0));
    }
    *batch = calls;
    return FB_OK;
}

/* A point of the size being measured, from verification to its finished record. */
struct point {
    struct fb_call call;
    struct fb_record r;
    bool sampling;       /* verified: takes part in the sampling rounds */
    int reps;            /* clean samples, in `samples` */
    int dropped;         /* disturbed samples, in `dropped_samples`: never in the statistics
                            of a point that has clean ones */
    double sampled_s;    /* wall time spent taking this point's samples, dropped ones too */
    double noise;
    double *samples;     /* max_reps per call */
    double *dropped_samples; /* max_reps per call */
    /* Per round of sample_interleaved: the clean sample of that round, NaN where the round
     * took none of p (dropped, or p had stopped): what pairs p's samples with another
     * point's taken in the same round (measure/interval.h). 2 max_reps entries: a point
     * samples in at most max_reps clean + max_reps dropped rounds, and stops there. */
    double *by_round;
    char disturbance[160];   /* how the last dropped sample was disturbed */
};

static int warm_up(const struct fb_sweep *sw, struct point *p, struct fb_error *err)
{
    for (int i = 0; i < sw->plan->measure.warmup; i++) {
        int rc = fb_call_run(&p->call, err);
        if (rc != FB_OK)
            return rc;
    }
    int rc = sw->ops->synchronize(sw->backend, err);
    return rc == FB_OK ? choose_batch(sw, &p->call, &p->r.batch, err) : rc;
}

/* One timed sample of p, enqueued whole with no host synchronisation inside (backend.h):
 *   cold: flush; start mark; one call; stop mark. The start mark is taken on the queue when the
 *     flush has finished there, so the sample holds the call alone and the host's launch
 *     latency hides behind the flush instead of landing in the sample.
 *   warm: start mark; `batch` calls; stop mark. When interleaving, one untimed call (and a
 *     synchronize) comes first, so p's data is back in cache however much the previous
 *     variant's sample evicted: "warm" keeps meaning what it means without rounds. */
static int take_sample(const struct fb_sweep *sw, struct point *p, bool rewarm, int round,
                       double *scratch, struct fb_error *err)
{
    int rc = FB_OK;
    if (sw->plan->measure.cache == FB_CACHE_COLD)
        rc = fb_call_flush(&p->call, err);
    else if (rewarm && (rc = fb_call_run(&p->call, err)) == FB_OK)
        rc = sw->ops->synchronize(sw->backend, err);
    if (rc != FB_OK)
        return rc;
    double t, wall;
    bool disturbed;
    rc = time_calls_judged(sw, &p->call, (int)p->r.batch, &t, &wall, &disturbed,
                           p->disturbance, sizeof p->disturbance, err);
    if (rc != FB_OK)
        return rc;
    p->sampled_s += wall;
    if (disturbed) {
        p->dropped_samples[p->dropped++] = t / (double)p->r.batch;
        return FB_OK; /* dropped: retaken in a later round, within the budget */
    }
    p->samples[p->reps++] = t / (double)p->r.batch;
    if (round < 2 * sw->plan->measure.max_reps)
        p->by_round[round] = t / (double)p->r.batch;
    memcpy(scratch, p->samples, (size_t)p->reps * sizeof *scratch);
    fb_stats_sort(scratch, (size_t)p->reps);
    p->noise = fb_stats_noise_sorted(scratch, (size_t)p->reps);
    return FB_OK;
}

/* Whether p has spent its sampling budget: the usual caps (max_reps clean samples, max_time)
 * or the retake budget for disturbed samples (fb_disturbance_may_retake). */
static bool out_of_budget(const struct fb_plan_measure *m, const struct fb_stop_rule *caps,
                          const struct point *p)
{
    return fb_stats_should_stop(caps, p->reps, p->sampled_s, p->noise) ||
           !fb_disturbance_may_retake(p->dropped, p->sampled_s, m->max_reps, m->max_time_s);
}

/* Step 3, for all the points of one size at once: rounds of one sample of each point, until
 * every point meets its stop rule. A point that is stable early keeps sampling (up to its own
 * caps) while others are not, so all medians come from the same stretch of time: a
 * neighbour that takes memory bandwidth for a second slows eager and fused alike, instead of
 * landing on whichever variant was measured then, and their ratio (the speedup) stays
 * honest on a shared machine. */
static int sample_interleaved(const struct fb_sweep *sw, struct point *points, int count,
                              double *scratch, struct fb_error *err)
{
    const struct fb_plan_measure *m = &sw->plan->measure;
    const struct fb_stop_rule rule = {m->min_reps, m->max_reps, m->min_time_s, m->max_time_s,
                                      m->target_noise};
    /* The caps alone: a point that meets them stops, however noisy. */
    const struct fb_stop_rule caps = {m->max_reps, m->max_reps, m->max_time_s, m->max_time_s,
                                      -1.0};
    for (int round = 0;; round++) {
        bool all_stable = true;
        for (int i = 0; i < count; i++)
            if (points[i].sampling &&
                !fb_stats_should_stop(&rule, points[i].reps, points[i].sampled_s,
                                      points[i].noise) &&
                !out_of_budget(m, &caps, &points[i]))
                all_stable = false;
        if (all_stable)
            return FB_OK;
        bool sampled = false;
        for (int i = 0; i < count; i++) {
            struct point *p = &points[i];
            if (!p->sampling || out_of_budget(m, &caps, p))
                continue;
            if (sw->interrupted && *sw->interrupted)
                return fb_fail(err, FB_ERR_INTERRUPTED, "interrupted");
            int rc = take_sample(sw, p, count > 1, round, scratch, err);
            if (rc != FB_OK)
                return rc;
            sampled = true;
        }
        if (!sampled)
            return FB_OK; /* every unstable point hit a cap */
    }
}

/* The statistics of the clean samples; of the disturbed ones only when there is no clean one
 * (a noisy point: its times say what the calls took under contention, nothing more). */
static int summarize_point(struct point *p, double *scratch, struct fb_error *err)
{
    struct fb_stats_summary s;
    bool clean = p->reps > 0;
    int rc = fb_stats_summarize(clean ? p->samples : p->dropped_samples,
                                (size_t)(clean ? p->reps : p->dropped), scratch, &s, err);
    if (rc != FB_OK)
        return rc;
    struct fb_record *r = &p->r;
    r->reps = clean ? p->reps : p->dropped;
    if (p->reps + p->dropped > 0)
        r->preempted = (double)p->dropped / (double)(p->reps + p->dropped);
    r->time_median_s = s.median;
    r->time_min_s = s.min;
    r->time_max_s = s.max;
    r->time_p10_s = s.p10;
    r->time_p90_s = s.p90;
    r->noise = s.noise;
    /* A median the timer did not resolve (0 s) or could not read is no time per call: its
     * bandwidth would be inf. NaN (NA) instead; set_status says why. */
    r->bandwidth_gbps = s.median > 0 && isfinite(s.median)
                            ? (double)r->bytes_model / s.median / 1e9
                            : NAN;
    return FB_OK;
}

/* Warm mode, before a probe pass: one untimed call, waited for, so the pass finds the data
 * where warm calls leave it even if another variant's samples ran last. */
static int rewarm_for_probe(const struct fb_sweep *sw, struct fb_call *call, struct fb_error *err)
{
    if (sw->plan->measure.cache == FB_CACHE_COLD)
        return FB_OK; /* the probe flushes before each call instead */
    int rc = fb_call_run(call, err);
    return rc == FB_OK ? sw->ops->synchronize(sw->backend, err) : rc;
}

/* Step 4: CUPTI's view of the same call, each in its own pass and in the point's cache mode.
 * A probe that cannot measure leaves its columns empty; a launch count that contradicts the
 * variant fails the point. */
static int probe_point(const struct fb_sweep *sw, struct fb_call *call, struct fb_record *r,
                       struct fb_error *err)
{
    const struct fb_probe *p = sw->probe;
    /* A variant without kernels of ours (memcpy) has nothing for kernel records or per-kernel
     * counter ranges to see: its columns stay empty rather than read 0. */
    if (!p || call->variant->launches == 0)
        return FB_OK;
    const struct fb_probe_call pc = {
        fb_call_run, sw->plan->measure.cache == FB_CACHE_COLD ? fb_call_flush : NULL, call,
        call->variant->name};
    if (p->kernel_pass) {
        int64_t launches;
        double kernel_time;
        int calls = r->reps > 0 && r->reps < 20 ? (int)r->reps : 20;
        int rc = rewarm_for_probe(sw, call, err);
        if (rc == FB_OK)
            rc = p->kernel_pass(p->self, &pc, calls, call->variant->launches, &launches,
                                &kernel_time, err);
        if (rc == FB_ERR_VERIFY)
            return rc;
        if (rc == FB_OK) {
            r->launches = launches;
            r->kernel_time_s = kernel_time;
            /* Both medians were taken in the point's cache mode (cold: each call after a
             * flush, in the samples and in the kernel pass alike), so their difference is the
             * launch gaps of that mode, not a cold time minus a warm kernel time. */
            r->launch_overhead_s = r->time_median_s - kernel_time;
        } else if (rc != FB_ERR_UNAVAILABLE) {
            return rc;
        }
    }
    if (p->traffic_pass) {
        int64_t rd, wr, l2;
        /* A one-launch variant's bytes are counted on its steps launched one by one: the same
         * kernels on the same buffers in the same order, so the same reads and writes (a
         * graph changes when its kernels start, not what they touch), while whether the
         * range profiler's per-kernel replay takes kernels inside a graph launch is not
         * checked on a GPU yet; a refusal there would cost that variant its counters only
         * (the probe refuses per variant: measure/probe.c). */
        const struct fb_probe_call steps_pc = {fb_call_run_steps, pc.flush, call, pc.variant};
        int rc = rewarm_for_probe(sw, call, err);
        if (rc == FB_OK)
            rc = p->traffic_pass(p->self, call->variant->one_launch ? &steps_pc : &pc, &rd, &wr,
                                 &l2, err);
        if (rc == FB_OK) {
            r->dram_read_bytes = rd;
            r->dram_write_bytes = wr;
            r->l2_bytes = l2;
            r->dram_bytes_per_element =
                (double)(rd + wr) / (double)call->n / (double)fb_dtype_size(call->format.dtype);
        } else if (rc != FB_ERR_UNAVAILABLE) {
            return rc;
        }
    }
    return FB_OK;
}

static void init_record(const struct fb_sweep *sw, const struct fb_variant *v, int64_t n,
                        const struct fb_format *format, struct fb_record *r)
{
    fb_record_init(r);
    snprintf(r->backend, sizeof r->backend, "%s", sw->ops->name);
    snprintf(r->device, sizeof r->device, "%s", sw->device->name);
    snprintf(r->variant, sizeof r->variant, "%s", v->name);
    snprintf(r->role, sizeof r->role, "%s", fb_variant_role_name(v->role));
    snprintf(r->pair, sizeof r->pair, "%s", v->pair);
    r->host_launches = v->host_launches;
    snprintf(r->dtype, sizeof r->dtype, "%s", fb_dtype_name(format->dtype));
    snprintf(r->stores, sizeof r->stores, "%s", fb_store_kind_name(format->stores));
    snprintf(r->cache, sizeof r->cache, "%s", fb_cache_mode_name(sw->plan->measure.cache));
    r->n = n;
    /* elements moved x the bytes of the format's dtype (4 fp32, 2 fp16 and bf16) */
    r->bytes_model = (int64_t)v->elements_moved * (int64_t)fb_dtype_size(format->dtype) * n;
}

/* A failed point (wrong result, contradicted launch count): recorded, never an error of the
 * sweep. Any other error is passed on. */
static int settle(struct point *p, int rc, const struct fb_error *err)
{
    if (rc != FB_ERR_VERIFY)
        return rc;
    p->r.status = FB_POINT_FAILED;
    p->sampling = false;
    snprintf(p->r.reason, sizeof p->r.reason, "%.255s", err->msg);
    return FB_OK;
}

/* ok, or noisy when disturbed samples kept the point from min_reps clean ones within its
 * budget (out_of_budget). A point short of min_reps for its max_time alone, undisturbed,
 * stays ok as before. A median that is not a positive time (the timer read 0 for most samples:
 * coarser than the sample, or broken) is noisy too: not a clean measurement, so charts, fits
 * and speedups leave it out and --resume measures it again, as for contention. */
static void set_status(const struct fb_sweep *sw, struct point *p)
{
    const int min_reps = sw->plan->measure.min_reps;
    p->r.status = FB_POINT_OK;
    if (!(p->r.time_median_s > 0 && isfinite(p->r.time_median_s))) {
        p->r.status = FB_POINT_NOISY;
        snprintf(p->r.reason, sizeof p->r.reason,
                 "median time %g s over %" PRId64 " call%s per sample: the timer (resolution "
                 "%g s) did not resolve it; no bandwidth",
                 p->r.time_median_s, p->r.batch, p->r.batch == 1 ? "" : "s",
                 sw->device->timer_resolution_s);
        return;
    }
    if (p->dropped == 0 || p->reps >= min_reps)
        return;
    p->r.status = FB_POINT_NOISY;
    snprintf(p->r.reason, sizeof p->r.reason,
             "%d of %d samples disturbed by other programs, %d clean (min_reps %d); times are "
             "%s; last: %.120s",
             p->dropped, p->dropped + p->reps, p->reps, min_reps,
             p->reps ? "of the clean ones" : "of disturbed samples", p->disturbance);
}

/* Each ok point with an ok pair among points[0..count-1] gets the interval of its speedup
 * from the rounds both took part in (measure/interval.h); the others keep NaN, as their
 * speedup will be empty (measure/pairing.h: both rows must be ok). */
static void pair_intervals(struct point *points, int count, size_t rounds)
{
    for (int i = 0; i < count; i++) {
        struct point *p = &points[i];
        if (p->r.status != FB_POINT_OK || !p->r.pair[0])
            continue;
        for (int j = 0; j < count; j++) {
            const struct point *q = &points[j];
            if (j == i || q->r.status != FB_POINT_OK || strcmp(q->r.variant, p->r.pair) != 0)
                continue;
            struct fb_ratio_interval ci = fb_interval_paired(p->by_round, q->by_round, rounds);
            p->r.speedup_lo = ci.lo;
            p->r.speedup_hi = ci.hi;
            p->r.speedup_rounds = (int64_t)ci.rounds;
            break;
        }
    }
}

/* Measures the points of one size and format still to do, group[0..count): verify each
 * (step 1), warm each up (2), sample them interleaved (3), probe each (4), then hand the
 * records over in the plan's order. */
static int measure_group(const struct fb_sweep *sw, const struct fb_sweep_callbacks *cb,
                         const struct fb_plan_point *group, size_t count_in_group,
                         struct fb_size_buffers *sb, int *failed, struct fb_error *err)
{
    const struct fb_plan *plan = sw->plan;
    const int64_t n = fb_plan_n(plan, &group[0]);
    const struct fb_format *format = &plan->formats[group[0].format];
    const int max_reps = plan->measure.max_reps;
    struct point points[FB_MAX_VARIANTS];
    int count = 0;
    /* per point: max_reps clean and max_reps dropped samples, 2 max_reps rounds; then the
     * scratch */
    const size_t per_point = 4 * (size_t)max_reps;
    double *memory = calloc((count_in_group + 1) * per_point, sizeof *memory);
    if (!memory)
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory for %d samples", max_reps);
    double *scratch = memory + count_in_group * per_point;

    int rc = FB_OK;
    for (size_t k = 0; rc == FB_OK && k < count_in_group; k++) {
        const struct fb_variant *v = fb_plan_variant(plan, &group[k]);
        if (!group[k].todo)
            continue;
        if (sw->interrupted && *sw->interrupted) {
            rc = fb_fail(err, FB_ERR_INTERRUPTED, "interrupted");
            break;
        }
        struct point *p = &points[count];
        double *mine = memory + (size_t)count * per_point;
        *p = (struct point){.call = {sw->ops, sw->backend, v, sb->dev, n, *format},
                            .noise = NAN,
                            .samples = mine,
                            .dropped_samples = mine + max_reps,
                            .by_round = mine + 2 * (size_t)max_reps};
        for (int r = 0; r < 2 * max_reps; r++)
            p->by_round[r] = NAN;
        count++;
        init_record(sw, v, n, format, &p->r);
        if (v->one_launch && !sw->ops->run_group) {
            /* never measured: record_init's status is skipped; say why */
            snprintf(p->r.reason, sizeof p->r.reason, "%s", fb_call_group_missing());
            continue;
        }
        if (cb->point_started)
            cb->point_started(cb->user, v, n, format);
        rc = fb_call_verify(sw, &p->call, sb, &p->r, err);
        if (rc == FB_ERR_UNAVAILABLE && v->one_launch) {
            /* run_group does not run this format (backend.h): skipped, with its reason */
            snprintf(p->r.reason, sizeof p->r.reason, "%.255s", err->msg);
            rc = FB_OK;
            continue;
        }
        if (rc == FB_OK && p->r.launches != v->launches)
            rc = fb_fail(err, FB_ERR_VERIFY, "%" PRId64 " launches counted, %d declared",
                         p->r.launches, v->launches);
        if (rc == FB_OK) {
            p->sampling = true;
            rc = warm_up(sw, p, err);
        }
        rc = settle(p, rc, err);
    }
    if (rc == FB_OK)
        rc = sample_interleaved(sw, points, count, scratch, err);
    for (int i = 0; rc == FB_OK && i < count; i++) {
        struct point *p = &points[i];
        if (p->r.status == FB_POINT_FAILED || !p->sampling)
            continue;
        rc = summarize_point(p, scratch, err);
        if (rc == FB_OK)
            rc = probe_point(sw, &p->call, &p->r, err);
        if (rc == FB_OK)
            set_status(sw, p);
        rc = settle(p, rc, err);
    }
    if (rc == FB_OK)
        pair_intervals(points, count, 2 * (size_t)max_reps);
    /* Nothing is handed over before the whole size is measured: Ctrl-C abandons it whole. */
    for (int i = 0; rc == FB_OK && i < count; i++) {
        if (points[i].r.status == FB_POINT_FAILED)
            (*failed)++;
        rc = cb->point_done(cb->user, &points[i].r, err);
    }
    free(memory);
    return rc;
}

int fb_sweep_time_calls(const struct fb_sweep *sw, struct fb_call *calls,
                        struct fb_record *records, int count, struct fb_error *err)
{
    const int max_reps = sw->plan->measure.max_reps;
    /* per point as measure_size: samples, dropped samples, 2 max_reps rounds; then scratch */
    const size_t per_point = 4 * (size_t)max_reps;
    struct point *points = calloc(count > 0 ? (size_t)count : 1, sizeof *points);
    double *memory = calloc(((size_t)count + 1) * per_point, sizeof *memory);
    int rc = points && memory ? FB_OK
                              : fb_fail(err, FB_ERR_RUNTIME, "out of memory for %d samples",
                                        max_reps);
    double *scratch = memory ? memory + (size_t)count * per_point : NULL;
    for (int i = 0; rc == FB_OK && i < count; i++) {
        double *mine = memory + (size_t)i * per_point;
        points[i] = (struct point){.call = calls[i], .r = records[i], .sampling = true,
                                   .noise = NAN, .samples = mine,
                                   .dropped_samples = mine + max_reps,
                                   .by_round = mine + 2 * (size_t)max_reps};
        for (int k = 0; k < 2 * max_reps; k++)
            points[i].by_round[k] = NAN;
        rc = warm_up(sw, &points[i], err);
    }
    if (rc == FB_OK)
        rc = sample_interleaved(sw, points, count, scratch, err);
    for (int i = 0; rc == FB_OK && i < count; i++) {
        rc = summarize_point(&points[i], scratch, err);
        if (rc == FB_OK)
            set_status(sw, &points[i]);
    }
    if (rc == FB_OK)
        pair_intervals(points, count, 2 * (size_t)max_reps);
    for (int i = 0; rc == FB_OK && i < count; i++)
        records[i] = points[i].r;
    free(memory);
    free(points);
    return rc;
}

int fb_sweep_check_formats(const struct fb_sweep *sweep, struct fb_error *err)
{
    for (size_t i = 0; i < sweep->plan->n_formats; i++) {
        const struct fb_format format = sweep->plan->formats[i];
        int rc = FB_OK;
        if (sweep->ops->check_format)
            rc = sweep->ops->check_format(sweep->backend, &format, err);
        else if (format.dtype != FB_DTYPE_FP32 || format.stores != FB_STORES_NORMAL)
            rc = fb_fail(err, FB_ERR_USAGE, "%s backend: only fp32 with normal stores",
                         sweep->ops->name);
        if (rc != FB_OK)
            return rc;
    }
    return FB_OK;
}

/* The end of the run of points from `first` that share the key's size (by_format false) or
 * its size and format (true). */
static size_t group_end(const struct fb_plan *plan, size_t first, bool by_format)
{
    const struct fb_plan_point *p = &plan->points[first];
    size_t end = first;
    while (end < plan->n_points && plan->points[end].size == p->size &&
           (!by_format || plan->points[end].format == p->format))
        end++;
    return end;
}

static bool any_todo(const struct fb_plan *plan, size_t first, size_t end)
{
    for (size_t i = first; i < end; i++)
        if (plan->points[i].todo)
            return true;
    return false;
}

int fb_sweep_run(const struct fb_sweep *sweep, const struct fb_sweep_callbacks *cb, int *failed,
                 struct fb_error *err)
{
    *failed = 0;
    int rc = fb_sweep_check_formats(sweep, err);
    if (rc != FB_OK)
        return rc;
    struct fb_sweep with_cb = *sweep;
    bool judged = false;
    with_cb.cb = cb;
    with_cb.judged = &judged;
    const struct fb_sweep *sw = &with_cb;
    const struct fb_plan *plan = sw->plan;
    for (size_t first = 0, end; rc == FB_OK && first < plan->n_points; first = end) {
        end = group_end(plan, first, false);
        if (!any_todo(plan, first, end))
            continue;
        const int64_t n = fb_plan_n(plan, &plan->points[first]);
        struct fb_size_buffers sb;
        rc = fb_size_buffers_alloc(sw, n, &sb, err);
        /* The formats share the size's buffers: each is a point key of its own, measured and
         * handed over whole before the next. The inputs are drawn once per dtype (dtypes are
         * the outer loop), stored in it. */
        for (size_t g = first, g_end; rc == FB_OK && g < end; g = g_end) {
            g_end = group_end(plan, g, true);
            const struct fb_format format = plan->formats[plan->points[g].format];
            if (!sb.filled || sb.dtype != format.dtype)
                rc = fb_size_buffers_fill(sw, n, format.dtype, &sb, err);
            if (rc == FB_OK)
                rc = measure_group(sw, cb, &plan->points[g], g_end - g, &sb, failed, err);
        }
        fb_size_buffers_free(sw, &sb);
    }
    return rc;
}
