/* The runner against backends that misbehave on purpose: a wrong result must fail the point
 * before any timing, a launch count that contradicts the variant must fail it too, and a
 * correct backend must give ok points with counted launches and the model's bytes.
 * A recording backend checks the order of what the runner enqueues: a cold sample is
 * flush, start mark, one call, stop mark, with no synchronize in between, and the probe passes
 * see the call in the point's cache mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "config/config.h"
#include "measure/runner.h"

enum fault { FAULT_NONE, FAULT_WRONG_ELEMENT, FAULT_EXTRA_PASS };
static enum fault fault;

/* The CPU backend with one fault injected into run_step. */
static int faulty_run_step(void *state, const struct fb_step *step,
                           const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                           int64_t n, struct fb_error *err)
{
    int rc = fb_cpu_backend.run_step(state, step, format, buffers, n, err);
    if (rc != FB_OK || step->kind != FB_STEP_ADD_RELU)
        return rc;
    if (fault == FAULT_WRONG_ELEMENT && n > 0)
        ((float *)buffers[step->out])[n / 2] += 1.0f;
    if (fault == FAULT_EXTRA_PASS)
        rc = fb_cpu_backend.run_step(state, step, format, buffers, n, err);
    return rc;
}

/* The recording backend: the CPU backend, with every queue operation logged as one letter:
 *   F flush_cache, S timer_start, T timer_stop, Y synchronize, R run_step (one step),
 *   G run_group (the steps of a one-launch variant, one call),
 *   K a probe's kernel pass begins, D a probe's traffic pass begins, k / d they end.
 * A call is therefore R, RR (a variant of one or two steps) or G. */
static char events[1 << 16];
static size_t n_events;

static void record(char e)
{
    if (n_events < sizeof events - 1)
        events[n_events++] = e;
    events[n_events] = '\0';
}

static int rec_flush(void *state, struct fb_error *err)
{
    record('F');
    return fb_cpu_backend.flush_cache(state, err);
}
static int rec_timer_start(void *state, struct fb_error *err)
{
    record('S');
    return fb_cpu_backend.timer_start(state, err);
}
static int rec_timer_stop(void *state, double *seconds, struct fb_error *err)
{
    record('T');
    return fb_cpu_backend.timer_stop(state, seconds, err);
}
static int rec_synchronize(void *state, struct fb_error *err)
{
    record('Y');
    return fb_cpu_backend.synchronize(state, err);
}
static int rec_run_step(void *state, const struct fb_step *step, const struct fb_format *format,
                        void *const buffers[FB_BUF_COUNT], int64_t n, struct fb_error *err)
{
    record('R');
    return fb_cpu_backend.run_step(state, step, format, buffers, n, err);
}

static int rec_run_group(void *state, const struct fb_step *steps, int count,
                         const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                         int64_t n, struct fb_error *err)
{
    record('G');
    return fb_cpu_backend.run_group(state, steps, count, format, buffers, n, err);
}

static struct fb_backend_ops recording_backend(void)
{
    struct fb_backend_ops ops = fb_cpu_backend;
    ops.flush_cache = rec_flush;
    ops.timer_start = rec_timer_start;
    ops.timer_stop = rec_timer_stop;
    ops.synchronize = rec_synchronize;
    ops.run_step = rec_run_step;
    ops.run_group = rec_run_group;
    /* the order tests look at the queue alone; contention has tests of its own below */
    ops.read_disturbance = NULL;
    return ops;
}

/* A probe that does what the CUPTI probe does with the queue, and remembers what it got. */
#define FAKE_KERNEL_TIME_S 1e-9
static int probe_passes, probe_passes_with_flush;

/* One call as the probe makes it: its flush (cold mode), then the call. */
static int flush_and_run(const struct fb_probe_call *call, struct fb_error *err)
{
    if (call->flush && call->flush(call->ctx, err) != FB_OK)
        return FB_ERR_RUNTIME;
    return call->run(call->ctx, err);
}

static int fake_kernel_pass(void *self, const struct fb_probe_call *call, int calls,
                            int declared_launches, int64_t *launches_per_call,
                            double *kernel_time_s, struct fb_error *err)
{
    (void)self;
    record('K');
    probe_passes++;
    probe_passes_with_flush += call->flush != NULL;
    for (int i = 0; i < calls; i++)
        if (flush_and_run(call, err) != FB_OK)
            return FB_ERR_RUNTIME;
    record('k');
    *launches_per_call = declared_launches;
    *kernel_time_s = FAKE_KERNEL_TIME_S;
    return FB_OK;
}

static int fake_traffic_pass(void *self, const struct fb_probe_call *call, int64_t *dram_read,
                             int64_t *dram_write, int64_t *l2_bytes, struct fb_error *err)
{
    (void)self;
    record('D');
    probe_passes++;
    probe_passes_with_flush += call->flush != NULL;
    if (flush_and_run(call, err) != FB_OK)
        return FB_ERR_RUNTIME;
    record('d');
    *dram_read = 1000;
    *dram_write = 500;
    *l2_bytes = 2000;
    return FB_OK;
}

static struct fb_backend_ops faulty_backend(void)
{
    struct fb_backend_ops ops = fb_cpu_backend;
    ops.run_step = faulty_run_step;
    /* a shared test machine must not make these points noisy: contention is tested below */
    ops.read_disturbance = NULL;
    return ops;
}

struct collected {
    struct fb_record records[64];
    int count;
};

static int collect(void *user, const struct fb_record *r, struct fb_error *err)
{
    (void)err;
    struct collected *c = user;
    assert_true(c->count < 64);
    c->records[c->count++] = *r;
    return FB_OK;
}

static const struct fb_record *find(const struct collected *c, const char *variant, int64_t n)
{
    for (int i = 0; i < c->count; i++)
        if (c->records[i].n == n && strcmp(c->records[i].variant, variant) == 0)
            return &c->records[i];
    return NULL;
}

static int max_reps_override; /* > 0: replaces max_reps 5 */

/* A tiny sweep's config: sizes 1000 and 4099, every variant, in `cache` mode. */
static void tiny_config(struct fb_config *cfg, enum fb_cache_mode cache)
{
    fb_config_defaults(cfg);
    cfg->n_sizes = 2;
    cfg->sizes[0] = 1000;
    cfg->sizes[1] = 4099;
    cfg->warmup = 1;
    cfg->min_reps = 3;
    cfg->max_reps = max_reps_override > 0 ? max_reps_override : 5;
    cfg->min_time_s = 0.0;
    cfg->max_time_s = 0.01;
    cfg->cache = cache;
}

/* The plan of cfg (plan/plan.h), freed by the caller with fb_plan_free. */
static struct fb_plan *plan_of(const struct fb_config *cfg)
{
    struct fb_plan *plan = NULL;
    struct fb_error err;
    assert_int_equal(fb_plan_build(cfg, 0, &plan, &err), FB_OK);
    return plan;
}

/* Runs the sweep of cfg on ops with `probe` (may be NULL), its records into out. */
static int run_sweep_of(const struct fb_config *cfg, const struct fb_backend_ops *ops,
                        const struct fb_probe *probe, struct collected *out, int *failed)
{
    void *state = NULL;
    struct fb_error err;
    const struct fb_backend_params params = {0, 0};
    assert_int_equal(ops->init(&state, &params, &err), FB_OK);
    struct fb_device_info dev;
    assert_int_equal(ops->describe(state, &dev, &err), FB_OK);
    struct fb_plan *plan = plan_of(cfg);
    const struct fb_sweep sweep = {plan, ops, state, &dev, probe, 42, NULL};
    const struct fb_sweep_callbacks cb = {out, NULL, collect};
    memset(out, 0, sizeof *out);
    int rc = fb_sweep_run(&sweep, &cb, failed, &err);
    ops->fini(state);
    fb_plan_free(plan);
    return rc;
}

/* Runs a tiny sweep on ops, in `cache` mode, with `probe` (may be NULL). */
static int run_sweep_with(const struct fb_backend_ops *ops, enum fb_cache_mode cache,
                          const struct fb_probe *probe, struct collected *out, int *failed)
{
    static struct fb_config cfg;
    tiny_config(&cfg, cache);
    return run_sweep_of(&cfg, ops, probe, out, failed);
}

static int run_sweep(const struct fb_backend_ops *ops, struct collected *out, int *failed)
{
    return run_sweep_with(ops, FB_CACHE_WARM, NULL, out, failed);
}

static int run_recorded_sweep(enum fb_cache_mode cache, struct collected *out)
{
    struct fb_backend_ops ops = recording_backend();
    const struct fb_probe probe = {NULL, fake_kernel_pass, fake_traffic_pass};
    n_events = 0;
    events[0] = '\0';
    probe_passes = probe_passes_with_flush = 0;
    int failed = -1;
    int rc = run_sweep_with(&ops, cache, &probe, out, &failed);
    assert_int_equal(failed, 0);
    return rc;
}

/* Every timed sample, S...T, in the log: *samples counts them; returns the first one whose
 * inside is not only run steps (NULL when all are clean). */
static const char *first_dirty_sample(const char *log, int *samples)
{
    *samples = 0;
    for (const char *p = strchr(log, 'S'); p; p = strchr(p + 1, 'S')) {
        (*samples)++;
        size_t inside = strspn(p + 1, "RG");
        if (p[1 + inside] != 'T' || inside == 0)
            return p;
    }
    return NULL;
}

/* The recorded log has timed samples, and each holds only run steps (first_dirty_sample). */
static void assert_every_sample_is_only_run_steps(void)
{
    int samples = 0;
    const char *bad = first_dirty_sample(events, &samples);
    if (bad)
        fail_msg("a sample holds more than run steps: ...%.12s...", bad);
    assert_true(samples > 0);
}

static void correct_backend_gives_ok_points_with_counted_launches(void **unused)
{
    (void)unused;
    struct collected c;
    int failed = -1;
    fault = FAULT_NONE;
    struct fb_backend_ops ops = faulty_backend();
    assert_int_equal(run_sweep(&ops, &c, &failed), FB_OK);
    assert_int_equal(failed, 0);
    assert_int_equal(c.count, 2 * (int)fb_variant_count);
    /* copy runs first at each size, so copy_fraction can be filled as rows arrive */
    assert_string_equal(c.records[0].variant, "copy");
    const struct fb_record *eager = find(&c, "eager_add_relu", 4099);
    const struct fb_record *fused = find(&c, "fused_add_relu", 4099);
    assert_non_null(eager);
    assert_non_null(fused);
    assert_int_equal(eager->status, FB_POINT_OK);
    assert_true(eager->verified);
    assert_int_equal(eager->launches, 2);
    assert_int_equal(fused->launches, 1);
    assert_int_equal(find(&c, "memcpy", 4099)->launches, 0); /* libc's copy: no pass of ours */
    assert_int_equal(find(&c, "memcpy", 4099)->status, FB_POINT_OK);
    assert_int_equal(eager->bytes_model, 5 * 4 * 4099);
    assert_int_equal(fused->bytes_model, 3 * 4 * 4099);
    assert_int_equal(eager->host_launches, 2);
    assert_int_equal(fused->host_launches, 1);
    /* eager's two kernels in one parallel region: 2 counted passes, 1 launch of the host,
     * eager's bytes, paired with the fused kernel like eager */
    const struct fb_record *graph = find(&c, "eager_add_relu_graph", 4099);
    assert_non_null(graph);
    assert_int_equal(graph->status, FB_POINT_OK);
    assert_true(graph->verified);
    assert_int_equal(graph->launches, 2);
    assert_int_equal(graph->host_launches, 1);
    assert_int_equal(graph->bytes_model, 5 * 4 * 4099);
    assert_string_equal(graph->role, "eager");
    assert_string_equal(graph->pair, "fused_add_relu");
    assert_true(graph->time_median_s > 0);
    assert_true(fused->reps >= 1 && fused->reps <= 5);
    assert_true(fused->time_median_s > 0);
    assert_true(fused->time_p10_s <= fused->time_median_s &&
                fused->time_median_s <= fused->time_p90_s);
    assert_true(fabs(fused->bandwidth_gbps - fused->bytes_model / fused->time_median_s / 1e9) <
                1e-9 * fused->bandwidth_gbps + 1e-12);
}

/* A backend that cannot run steps as one launch: the one-launch variant is skipped with the
 * reason, never run step by step under its name; every other variant runs as before. */
static void a_backend_without_run_group_skips_the_one_launch_variant(void **unused)
{
    (void)unused;
    struct collected c;
    int failed = -1;
    fault = FAULT_NONE;
    struct fb_backend_ops ops = faulty_backend();
    ops.run_group = NULL;
    assert_int_equal(run_sweep(&ops, &c, &failed), FB_OK);
    assert_int_equal(failed, 0);
    assert_int_equal(c.count, 2 * (int)fb_variant_count);
    for (int i = 0; i < c.count; i++) {
        const struct fb_record *r = &c.records[i];
        if (strcmp(r->variant, "eager_add_relu_graph") != 0) {
            assert_int_equal(r->status, FB_POINT_OK);
            continue;
        }
        assert_int_equal(r->status, FB_POINT_SKIPPED);
        assert_false(r->verified);
        assert_true(isnan(r->time_median_s));
        assert_int_equal(r->launches, -1);
        assert_non_null(strstr(r->reason, "cannot run several steps as one launch"));
    }
}

static int refusing_run_group(void *state, const struct fb_step *steps, int count,
                              const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                              int64_t n, struct fb_error *err)
{
    (void)state, (void)steps, (void)count, (void)buffers, (void)n;
    return fb_fail(err, FB_ERR_UNAVAILABLE, "no group in dtype %s", fb_dtype_name(format->dtype));
}

/* A run_group that leaves its last step out: the launch count (1 pass counted, 2 declared)
 * fails the point before any timing; one that writes a wrong element fails verification. */
static int short_run_group(void *state, const struct fb_step *steps, int count,
                           const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                           int64_t n, struct fb_error *err)
{
    return fb_cpu_backend.run_group(state, steps, count - 1, format, buffers, n, err);
}

static int wrong_run_group(void *state, const struct fb_step *steps, int count,
                           const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                           int64_t n, struct fb_error *err)
{
    int rc = fb_cpu_backend.run_group(state, steps, count, format, buffers, n, err);
    if (rc == FB_OK && n > 0)
        ((float *)buffers[steps[count - 1].out])[n - 1] = 12345.0f;
    return rc;
}

/* One fault in the backend, one point that shows it: its status and reason, the number of
 * points the sweep counts as failed, and a variant at the same size that stays ok. A failed
 * point fails before any timing (no reps, no time, not verified). */
enum group_fault { GROUP_AS_IS, GROUP_REFUSES_THE_FORMAT, GROUP_SHORT, GROUP_WRONG };

struct fault_case {
    const char *what;
    enum fault fault;
    enum group_fault group;
    int failed;
    const char *variant;
    int64_t n;
    enum fb_point_status status;
    const char *reason;    /* a fragment of the point's reason */
    const char *reason_or; /* another acceptable fragment, or NULL */
    int launches;          /* the launches the point counted, where > 0 */
    bool verified;         /* whether its result was right (a count can fail a right one) */
};

static const struct fault_case fault_cases[] = {
    {"a wrong element of the fused kernel", FAULT_WRONG_ELEMENT, GROUP_AS_IS, 2,
     "fused_add_relu", 1000, FB_POINT_FAILED, "element 500", NULL, 0, false},
    {"an extra pass: the launch count contradicts the plan", FAULT_EXTRA_PASS, GROUP_AS_IS, -1,
     "fused_add_relu", 4099, FB_POINT_FAILED, "2 launches counted, 1 declared", NULL, 2, true},
    {"a run_group that does not run this format", FAULT_NONE, GROUP_REFUSES_THE_FORMAT, 0,
     "eager_add_relu_graph", 4099, FB_POINT_SKIPPED, "no group in dtype fp32", NULL, 0, false},
    /* relu never ran: the poisoned output fails the comparison first, or the count does */
    {"a run_group that leaves its last step out", FAULT_NONE, GROUP_SHORT, 2,
     "eager_add_relu_graph", 1000, FB_POINT_FAILED, "wrong result", "1 launches", 0, false},
    {"a run_group that writes a wrong element", FAULT_NONE, GROUP_WRONG, 2,
     "eager_add_relu_graph", 4099, FB_POINT_FAILED, "element 4098", NULL, 0, false},
};

static void each_fault_fails_or_skips_its_point_alone(void **unused)
{
    (void)unused;
    typedef int (*run_group_fn)(void *, const struct fb_step *, int, const struct fb_format *,
                                void *const[FB_BUF_COUNT], int64_t, struct fb_error *);
    static const run_group_fn groups[] = {
        [GROUP_REFUSES_THE_FORMAT] = refusing_run_group,
        [GROUP_SHORT] = short_run_group,
        [GROUP_WRONG] = wrong_run_group,
    };
    for (size_t i = 0; i < sizeof fault_cases / sizeof fault_cases[0]; i++) {
        const struct fault_case *k = &fault_cases[i];
        print_message("case: %s\n", k->what);
        struct collected c;
        int failed = -1;
        fault = k->fault;
        struct fb_backend_ops ops = faulty_backend();
        if (k->group != GROUP_AS_IS)
            ops.run_group = groups[k->group];
        assert_int_equal(run_sweep(&ops, &c, &failed), FB_OK);
        if (k->failed >= 0)
            assert_int_equal(failed, k->failed);
        const struct fb_record *r = find(&c, k->variant, k->n);
        assert_non_null(r);
        assert_int_equal(r->status, k->status);
        assert_true(strstr(r->reason, k->reason) ||
                    (k->reason_or && strstr(r->reason, k->reason_or)));
        if (k->launches > 0)
            assert_int_equal(r->launches, k->launches);
        assert_int_equal(r->verified, k->verified);
        if (k->status == FB_POINT_FAILED) {
            assert_int_equal(r->reps, -1);
            assert_true(isnan(r->time_median_s));
        }
        /* the other variants at that size are unaffected */
        assert_int_equal(find(&c, "copy", k->n)->status, FB_POINT_OK);
        assert_int_equal(find(&c, "eager_add_relu", k->n)->status, FB_POINT_OK);
    }
    fault = FAULT_NONE;
}

static void a_cold_sample_is_flush_start_call_stop_with_no_synchronize_inside(void **unused)
{
    (void)unused;
    struct collected c;
    assert_int_equal(run_recorded_sweep(FB_CACHE_COLD, &c), FB_OK);
    assert_every_sample_is_only_run_steps();
    /* Every start mark comes right after a flush, and holds exactly one call: the steps of one
     * variant (1 or 2), or one group, never a batch. */
    int groups = 0;
    for (const char *p = strchr(events, 'S'); p; p = strchr(p + 1, 'S')) {
        assert_true(p > events && p[-1] == 'F');
        size_t steps = strspn(p + 1, "R");
        groups += p[1] == 'G';
        assert_true(steps == 1 || steps == 2 || (p[1] == 'G' && p[2] == 'T'));
    }
    assert_true(groups > 0); /* eager_add_relu_graph's samples: one launch each */
    for (int i = 0; i < c.count; i++)
        assert_int_equal(c.records[i].batch, 1);
}

static void a_warm_sample_has_no_flush_and_no_synchronize_inside(void **unused)
{
    (void)unused;
    struct collected c;
    assert_int_equal(run_recorded_sweep(FB_CACHE_WARM, &c), FB_OK);
    assert_every_sample_is_only_run_steps();
    assert_null(strchr(events, 'F'));
}

static void cold_probe_passes_flush_before_every_call(void **unused)
{
    (void)unused;
    struct collected c;
    assert_int_equal(run_recorded_sweep(FB_CACHE_COLD, &c), FB_OK);
    assert_true(probe_passes > 0);
    assert_int_equal(probe_passes_with_flush, probe_passes);
    /* Inside each pass, every call (a run of steps) comes right after a flush. */
    for (const char *p = strpbrk(events, "KD"); p; p = strpbrk(p + 1, "KD")) {
        const char *end = strpbrk(p, "kd");
        assert_non_null(end);
        for (const char *q = p + 1; q < end; q++)
            if ((*q == 'R' && q[-1] != 'R') || *q == 'G')
                assert_int_equal(q[-1], 'F');
    }
}

static void warm_probe_passes_follow_a_warm_call(void **unused)
{
    (void)unused;
    struct collected c;
    assert_int_equal(run_recorded_sweep(FB_CACHE_WARM, &c), FB_OK);
    assert_true(probe_passes > 0);
    assert_int_equal(probe_passes_with_flush, 0);
    /* Right before each pass: one untimed call, waited for ("RY", "RRY" or "GY"). */
    for (const char *p = strpbrk(events, "KD"); p; p = strpbrk(p + 1, "KD")) {
        assert_true(p - events >= 2);
        assert_int_equal(p[-1], 'Y');
        assert_true(p[-2] == 'R' || p[-2] == 'G');
    }
    /* A one-launch variant's traffic pass runs its steps one by one (runner.c says why): a
     * "GYD" is followed by "RRd", never by a group. */
    const char *gd = strstr(events, "GYD");
    assert_non_null(gd);
    assert_int_equal(strncmp(gd + 3, "RRd", 3), 0);
}

static void launch_overhead_is_the_median_less_the_kernel_time_of_the_same_mode(void **unused)
{
    (void)unused;
    struct collected c;
    assert_int_equal(run_recorded_sweep(FB_CACHE_COLD, &c), FB_OK);
    const struct fb_record *fused = find(&c, "fused_add_relu", 4099);
    assert_non_null(fused);
    assert_string_equal(fused->cache, "cold");
    assert_true(fabs(fused->launch_overhead_s - (fused->time_median_s - FAKE_KERNEL_TIME_S)) <
                1e-15);
    assert_int_equal(fused->dram_read_bytes, 1000);
    /* memcpy launches no kernel of ours: no probe, empty columns */
    assert_true(isnan(find(&c, "memcpy", 4099)->launch_overhead_s));
}

/* A timer that resolves nothing: every sample reads 0 s (a timer coarser than a cold call,
 * which is one call per sample and cannot batch more). */
static int zero_timer_stop(void *state, double *seconds, struct fb_error *err)
{
    int rc = fb_cpu_backend.timer_stop(state, seconds, err);
    *seconds = 0.0;
    return rc;
}

static void a_zero_median_time_is_no_clean_point_and_has_no_bandwidth(void **unused)
{
    (void)unused;
    struct fb_backend_ops ops = fb_cpu_backend;
    ops.timer_stop = zero_timer_stop;
    ops.read_disturbance = NULL;
    struct collected c;
    int failed = -1;
    assert_int_equal(run_sweep_with(&ops, FB_CACHE_COLD, NULL, &c, &failed), FB_OK);
    assert_int_equal(failed, 0);
    int timed = 0;
    for (int i = 0; i < c.count; i++) {
        const struct fb_record *r = &c.records[i];
        if (r->status == FB_POINT_SKIPPED)
            continue; /* never sampled (the CPU backend's one-launch variants may be) */
        timed++;
        assert_int_equal(r->status, FB_POINT_NOISY);
        assert_true(r->verified);
        assert_true(r->time_median_s == 0.0);
        assert_true(isnan(r->bandwidth_gbps));
        assert_non_null(strstr(r->reason, "did not resolve"));
        assert_true(isnan(r->speedup_lo)); /* no interval from a point that is not ok */
    }
    assert_true(timed > 0);
}

/* Injected contention: readings whose run delay jumps by a second (far over the 2% of any
 * sample here) at the end of the chosen samples, and is still otherwise. */
enum disturb { DISTURB_NEVER, DISTURB_ALWAYS, DISTURB_A_QUARTER };
static enum disturb disturb;
static double fake_run_delay_s;
static uint32_t fake_random = 12345, fake_pairs, fake_pairs_disturbed;

static void fake_read_disturbance(void *state, bool at_end, struct fb_disturbance_reading *out)
{
    (void)state;
    fb_disturbance_reading_clear(out);
    out->involuntary_switches = 0;
    if (at_end) {
        /* xorshift32: a pattern that cannot line up with the round-robin of the variants */
        fake_random ^= fake_random << 13;
        fake_random ^= fake_random >> 17;
        fake_random ^= fake_random << 5;
        bool hit = disturb == DISTURB_ALWAYS || (disturb == DISTURB_A_QUARTER && fake_random % 4 == 0);
        fake_pairs++;
        fake_pairs_disturbed += hit;
        if (hit)
            fake_run_delay_s += 1.0;
    }
    out->run_delay_s = fake_run_delay_s;
}

static int run_disturbed_sweep(enum disturb how, int max_reps, struct collected *c)
{
    struct fb_backend_ops ops = fb_cpu_backend;
    ops.read_disturbance = fake_read_disturbance;
    disturb = how;
    fake_pairs = fake_pairs_disturbed = 0;
    max_reps_override = max_reps;
    int failed = -1;
    int rc = run_sweep_with(&ops, FB_CACHE_WARM, NULL, c, &failed);
    max_reps_override = 0;
    assert_int_equal(failed, 0);
    return rc;
}

static void undisturbed_samples_give_ok_points_with_preempted_zero(void **unused)
{
    (void)unused;
    struct collected c;
    assert_int_equal(run_disturbed_sweep(DISTURB_NEVER, 5, &c), FB_OK);
    assert_true(fake_pairs > 0);
    for (int i = 0; i < c.count; i++) {
        assert_int_equal(c.records[i].status, FB_POINT_OK);
        assert_true(c.records[i].preempted == 0.0);
    }
}

static void disturbed_samples_are_dropped_retaken_and_counted(void **unused)
{
    (void)unused;
    struct collected c;
    /* max_reps 40: room to retake, so a quarter disturbed never exhausts the budget */
    assert_int_equal(run_disturbed_sweep(DISTURB_A_QUARTER, 40, &c), FB_OK);
    assert_true(fake_pairs_disturbed > 0);
    int with_drops = 0;
    for (int i = 0; i < c.count; i++) {
        const struct fb_record *r = &c.records[i];
        assert_true(r->preempted >= 0.0 && r->preempted <= 1.0);
        if (r->status == FB_POINT_NOISY) {
            /* only when max_time ran out (a loaded test machine) before min_reps clean ones */
            assert_true(r->preempted > 0.0 && r->reps < 3);
            continue;
        }
        assert_int_equal(r->status, FB_POINT_OK);
        assert_true(r->preempted < 1.0);
        /* ok with drops means min_reps clean samples (a loaded test machine may still stop an
         * undisturbed point at max_time with fewer) */
        assert_true(r->reps >= 3 || r->preempted == 0.0);
        /* the statistics hold only clean samples: none is near the injected second */
        assert_true(r->time_max_s < 0.5);
        with_drops += r->preempted > 0;
    }
    assert_true(with_drops > 0);
}

static void a_point_never_undisturbed_is_noisy_within_its_budget(void **unused)
{
    (void)unused;
    struct collected c;
    assert_int_equal(run_disturbed_sweep(DISTURB_ALWAYS, 5, &c), FB_OK);
    assert_int_equal(c.count, 2 * (int)fb_variant_count);
    for (int i = 0; i < c.count; i++) {
        const struct fb_record *r = &c.records[i];
        assert_int_equal(r->status, FB_POINT_NOISY);
        assert_true(r->verified);
        assert_true(r->preempted == 1.0);
        /* the budget: at most max_reps (5) samples dropped, and its times are still there */
        assert_true(r->reps >= 1 && r->reps <= 5);
        assert_true(r->time_median_s > 0);
        assert_non_null(strstr(r->reason, "disturbed by other programs, 0 clean"));
        assert_non_null(strstr(r->reason, "waited 1e+03 ms"));
    }
}

/* A GPU that a notebook already holds: every reading has 2 processes with a compute context.
 * The first judged sample says so once, up front, naming the setting; with the setting, the
 * samples are clean and no note is given. */
static void fake_read_two_processes(void *state, bool at_end, struct fb_disturbance_reading *out)
{
    (void)state, (void)at_end;
    fb_disturbance_reading_clear(out);
    out->gpu_valid = true;
    out->sm_clock_mhz = out->sm_clock_max_mhz = 1590;
    out->compute_processes = 2;
}

static int notes;
static char last_note[1024];
static void count_note(void *user, const char *line)
{
    (void)user;
    notes++;
    snprintf(last_note, sizeof last_note, "%s", line);
}

static void a_gpu_rule_tripped_by_the_first_sample_is_said_once_with_its_setting(void **unused)
{
    (void)unused;
    struct fb_backend_ops ops = fb_cpu_backend;
    ops.read_disturbance = fake_read_two_processes;
    for (int allowed = 0; allowed <= 1; allowed++) {
        static struct fb_config cfg;
        tiny_config(&cfg, FB_CACHE_WARM);
        cfg.gpu_other_processes = allowed;
        void *state = NULL;
        struct fb_error err;
        const struct fb_backend_params params = {0, 0};
        assert_int_equal(ops.init(&state, &params, &err), FB_OK);
        struct fb_device_info dev;
        assert_int_equal(ops.describe(state, &dev, &err), FB_OK);
        struct fb_plan *plan = plan_of(&cfg);
        const struct fb_sweep sweep = {plan, &ops, state, &dev, NULL, 42, NULL};
        struct collected c;
        memset(&c, 0, sizeof c);
        const struct fb_sweep_callbacks cb = {&c, NULL, collect, count_note};
        notes = 0;
        int failed = -1;
        assert_int_equal(fb_sweep_run(&sweep, &cb, &failed, &err), FB_OK);
        ops.fini(state);
        fb_plan_free(plan);
        if (allowed == 0) {
            assert_int_equal(notes, 1);
            assert_non_null(strstr(last_note, "1 other process on the GPU"));
            assert_non_null(strstr(last_note, "gpu_other_processes = 1"));
        } else {
            assert_int_equal(notes, 0);
            for (int i = 0; i < c.count; i++)
                assert_true(c.records[i].preempted == 0.0);
        }
    }
}

/* A chain from the config, run end to end through the runner on the CPU backend: its eager
 * variant counts one launch per op, its fused variant 1, both verified against the
 * reference, and their model bytes are derived from the chain. */
static void chain_variants_run_end_to_end_with_derived_launches_and_bytes(void **unused)
{
    (void)unused;
    static struct fb_config cfg;
    fb_config_defaults(&cfg);
    cfg.n_sizes = 2;
    cfg.sizes[0] = 1000;
    cfg.sizes[1] = 4099;
    cfg.warmup = 1;
    cfg.min_reps = 3;
    cfg.max_reps = 5;
    cfg.min_time_s = 0.0;
    cfg.max_time_s = 0.01;
    /* [chain mul_bias_relu] ops = mul, bias(0.5), relu: the first op binary, 3 ops */
    struct fb_config_chain *mbr = &cfg.chains[0];
    snprintf(mbr->name, sizeof mbr->name, "mul_bias_relu");
    mbr->chain.n_ops = 3;
    mbr->chain.ops[0].op = FB_OPID_mul;
    mbr->chain.ops[1].op = FB_OPID_bias;
    mbr->chain.ops[1].params.v[0] = 0.5f;
    mbr->chain.ops[2].op = FB_OPID_relu;
    /* [chain long_unary] ops = scale(2), sigmoid, bias(-0.5), threshold(0.1, 7), gelu: the
     * first op unary, 5 ops (temporaries ping-pong), transcendental ops inside */
    struct fb_config_chain *lu = &cfg.chains[1];
    snprintf(lu->name, sizeof lu->name, "long_unary");
    lu->chain.n_ops = 5;
    lu->chain.ops[0].op = FB_OPID_scale;
    lu->chain.ops[0].params.v[0] = 2.0f;
    lu->chain.ops[1].op = FB_OPID_sigmoid;
    lu->chain.ops[2].op = FB_OPID_bias;
    lu->chain.ops[2].params.v[0] = -0.5f;
    lu->chain.ops[3].op = FB_OPID_threshold;
    lu->chain.ops[3].params.v[0] = 0.1f;
    lu->chain.ops[3].params.v[1] = 7.0f;
    lu->chain.ops[4].op = FB_OPID_gelu;
    cfg.n_chains = 2;
    /* select the chains' variants only, by name, as the variants key does */
    struct fb_error err;
    assert_int_equal(fb_config_override(&cfg, "variants",
                                        "eager_mul_bias_relu, fused_mul_bias_relu, "
                                        "eager_long_unary, fused_long_unary",
                                        &err),
                     FB_OK);

    void *state = NULL;
    const struct fb_backend_params params = {0, 0};
    assert_int_equal(fb_cpu_backend.init(&state, &params, &err), FB_OK);
    struct fb_device_info dev;
    assert_int_equal(fb_cpu_backend.describe(state, &dev, &err), FB_OK);
    struct fb_plan *plan = plan_of(&cfg);
    const struct fb_sweep sweep = {plan, &fb_cpu_backend, state, &dev, NULL, 42, NULL};
    struct collected c;
    memset(&c, 0, sizeof c);
    const struct fb_sweep_callbacks cb = {&c, NULL, collect};
    int failed = -1;
    assert_int_equal(fb_sweep_run(&sweep, &cb, &failed, &err), FB_OK);
    fb_cpu_backend.fini(state);
    fb_plan_free(plan);
    assert_int_equal(failed, 0);
    assert_int_equal(c.count, 2 * 4);
    const struct {
        const char *variant;
        int launches;
        int elements; /* eager: sum over ops of (arity + 1); fused: inputs + 1 */
    } want[] = {
        {"eager_mul_bias_relu", 3, 3 + 2 + 2},
        {"fused_mul_bias_relu", 1, 3},
        {"eager_long_unary", 5, 5 * 2},
        {"fused_long_unary", 1, 2},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        for (int s = 0; s < 2; s++) {
            const int64_t n = s ? 4099 : 1000;
            const struct fb_record *r = find(&c, want[i].variant, n);
            assert_non_null(r);
            /* noisy: measured and verified, but another program disturbed the samples (this
             * machine may be shared while the tests run) */
            assert_true(r->status == FB_POINT_OK || r->status == FB_POINT_NOISY);
            assert_true(r->verified);
            assert_int_equal(r->launches, want[i].launches);
            assert_int_equal(r->bytes_model, (int64_t)want[i].elements * 4 * n);
        }
    }
}

/* A format the backend does not run stops the sweep before anything is measured, with the
 * backend's message, as a usage error (exit 2 in the sweep command). */
static int refuse_streaming(void *state, const struct fb_format *format, struct fb_error *err)
{
    (void)state;
    if (format->stores == FB_STORES_STREAMING)
        return fb_fail(err, FB_ERR_USAGE, "test backend: no streaming stores");
    return FB_OK;
}

static void a_format_the_backend_refuses_stops_the_sweep_before_any_point(void **state)
{
    (void)state;
    static struct fb_config cfg;
    fb_config_defaults(&cfg);
    cfg.n_sizes = 1;
    cfg.sizes[0] = 1000;
    cfg.stores[1] = FB_STORES_STREAMING; /* normal, then streaming */
    cfg.n_stores = 2;
    struct fb_backend_ops ops = fb_cpu_backend;
    ops.check_format = refuse_streaming;
    void *backend = NULL;
    struct fb_error err;
    const struct fb_backend_params params = {0, 0};
    assert_int_equal(ops.init(&backend, &params, &err), FB_OK);
    struct fb_device_info dev;
    assert_int_equal(ops.describe(backend, &dev, &err), FB_OK);
    struct fb_plan *plan = plan_of(&cfg);
    const struct fb_sweep sweep = {plan, &ops, backend, &dev, NULL, 42, NULL};
    struct collected out;
    memset(&out, 0, sizeof out);
    const struct fb_sweep_callbacks cb = {&out, NULL, collect};
    int failed = 0;
    assert_int_equal(fb_sweep_run(&sweep, &cb, &failed, &err), FB_ERR_USAGE);
    fb_plan_free(plan);
    assert_string_equal(err.msg, "test backend: no streaming stores");
    assert_int_equal(out.count, 0); /* not even the normal-stores points ran */
    ops.fini(backend);
}

/* Every record says its format: dtype and stores columns. */
static void records_carry_their_format(void **state)
{
    (void)state;
    struct collected out;
    int failed = 0;
    assert_int_equal(run_sweep(&fb_cpu_backend, &out, &failed), FB_OK);
    assert_true(out.count > 0);
    for (int i = 0; i < out.count; i++) {
        assert_string_equal(out.records[i].dtype, "fp32");
        assert_string_equal(out.records[i].stores, "normal");
    }
}

/* The CPU backend's step, but one bit of add_relu's result wrong at fp16 (a dtype case). */
static int off_by_one_ulp_in_fp16(void *state, const struct fb_step *step,
                                  const struct fb_format *format,
                                  void *const buffers[FB_BUF_COUNT], int64_t n,
                                  struct fb_error *err)
{
    int rc = fb_cpu_backend.run_step(state, step, format, buffers, n, err);
    /* the step that writes add_relu's result: fused add_relu's one, eager's relu */
    const bool relu_out = step->kind == FB_STEP_ADD_RELU ||
                          (step->kind == FB_STEP_OP && step->chain.ops[0].op == FB_OPID_relu);
    if (rc == FB_OK && format->dtype == FB_DTYPE_FP16 && relu_out && n > 0)
        ((uint16_t *)buffers[step->out])[n / 2] ^= 1u; /* the last bit of one element */
    return rc;
}

static void run_dtype_sweep(const struct fb_backend_ops *ops, const char *dtypes,
                            struct collected *out, int *failed)
{
    static struct fb_config cfg;
    tiny_config(&cfg, FB_CACHE_WARM);
    struct fb_error err;
    assert_int_equal(fb_config_override(&cfg, "dtype", dtypes, &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "variants",
                                        "copy,memcpy,eager_add_relu,fused_add_relu", &err),
                     FB_OK);
    assert_int_equal(run_sweep_of(&cfg, ops, NULL, out, failed), FB_OK);
}

/* The dtype sweeps on the CPU backend: the config's dtypes (in order), the step run (NULL:
 * the CPU backend's own) and how many points fail. Per size, the 4 variants of each dtype in
 * config order, every point verified at its own dtype with the model bytes in that dtype's element size;
 * but those the broken step hits, fp16's eager and fused add_relu, which fail naming
 * "(fp16)". 16-bit dtypes alone: the buffers are n x 2 bytes (no fp32 to size them for), and
 * every step, memcpy's n x 2 bytes included, stays inside them (ASan in CI would see a step
 * that moved n x 4). */
typedef int (*run_step_fn)(void *, const struct fb_step *, const struct fb_format *,
                           void *const[FB_BUF_COUNT], int64_t, struct fb_error *);
struct dtype_case {
    const char *what, *dtypes;
    const char *order[3];
    int n_dtypes;
    run_step_fn step;
    int failed;
};

static const struct dtype_case dtype_cases[] = {
    {"every dtype verified, counting its own bytes", "fp32,fp16,bf16", {"fp32", "fp16", "bf16"},
     3, NULL, 0},
    {"16-bit dtypes alone fit their buffers", "bf16,fp16", {"bf16", "fp16"}, 2, NULL, 0},
    {"a wrong fp16 bit fails the fp16 points only (eager and fused add_relu, both sizes)",
     "fp32,fp16,bf16", {"fp32", "fp16", "bf16"}, 3, off_by_one_ulp_in_fp16, 2 * 2},
};

static void each_dtype_sweep_verifies_its_points_as_its_case_says(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof dtype_cases / sizeof dtype_cases[0]; c++) {
        const struct dtype_case *k = &dtype_cases[c];
        print_message("case: %s\n", k->what);
        struct fb_backend_ops ops = fb_cpu_backend;
        ops.read_disturbance = NULL;
        if (k->step)
            ops.run_step = k->step;
        struct collected out;
        int failed = 0;
        run_dtype_sweep(&ops, k->dtypes, &out, &failed);
        assert_int_equal(failed, k->failed);
        assert_int_equal(out.count, 2 * k->n_dtypes * 4);
        for (int i = 0; i < out.count; i++) {
            const struct fb_record *r = &out.records[i];
            assert_string_equal(r->dtype, k->order[(i % (4 * k->n_dtypes)) / 4]);
            const bool hit = k->step && strcmp(r->dtype, "fp16") == 0 &&
                             strstr(r->variant, "add_relu");
            assert_int_equal(r->status == FB_POINT_FAILED, hit);
            if (hit) {
                assert_non_null(strstr(r->reason, "(fp16)"));
                continue;
            }
            assert_true(r->status == FB_POINT_OK || r->status == FB_POINT_NOISY);
            assert_true(r->verified);
            const int64_t size = strcmp(r->dtype, "fp32") == 0 ? 4 : 2;
            const int64_t elements = strcmp(r->variant, "eager_add_relu") == 0   ? 5
                                     : strcmp(r->variant, "fused_add_relu") == 0 ? 3
                                                                                 : 2;
            assert_int_equal(r->bytes_model, elements * size * r->n);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_dtype_sweep_verifies_its_points_as_its_case_says),
        cmocka_unit_test(correct_backend_gives_ok_points_with_counted_launches),
        cmocka_unit_test(a_format_the_backend_refuses_stops_the_sweep_before_any_point),
        cmocka_unit_test(records_carry_their_format),
        cmocka_unit_test(undisturbed_samples_give_ok_points_with_preempted_zero),
        cmocka_unit_test(disturbed_samples_are_dropped_retaken_and_counted),
        cmocka_unit_test(a_point_never_undisturbed_is_noisy_within_its_budget),
        cmocka_unit_test(a_gpu_rule_tripped_by_the_first_sample_is_said_once_with_its_setting),
        cmocka_unit_test(chain_variants_run_end_to_end_with_derived_launches_and_bytes),
        cmocka_unit_test(each_fault_fails_or_skips_its_point_alone),
        cmocka_unit_test(a_backend_without_run_group_skips_the_one_launch_variant),
        cmocka_unit_test(a_cold_sample_is_flush_start_call_stop_with_no_synchronize_inside),
        cmocka_unit_test(a_warm_sample_has_no_flush_and_no_synchronize_inside),
        cmocka_unit_test(cold_probe_passes_flush_before_every_call),
        cmocka_unit_test(warm_probe_passes_follow_a_warm_call),
        cmocka_unit_test(launch_overhead_is_the_median_less_the_kernel_time_of_the_same_mode),
        cmocka_unit_test(a_zero_median_time_is_no_clean_point_and_has_no_bandwidth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
