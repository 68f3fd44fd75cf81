/* --profile's host-side trace (measure/host_trace.h) on a stand-in backend whose steps do
 * nothing and whose contention readings the test decides: what each kind of variant leaves in
 * the trace (eager: a launch and a kernel per step; the graph variant: one launch, two kernels
 * from the marks inside it; memcpy: a platform call, no launch), and disturbed calls dropped
 * and retaken within the sweep's budget (fb_disturbance_may_retake). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/clock.h"
#include "measure/host_trace.h"

static int steps_run, groups_run;
static int disturbed_left; /* the next this many calls read as disturbed */

static int fake_run_step(void *state, const struct fb_step *step, const struct fb_format *format,
                         void *const buffers[FB_BUF_COUNT], int64_t n, struct fb_error *err)
{
    (void)state, (void)step, (void)format, (void)buffers, (void)n, (void)err;
    steps_run++;
    return FB_OK;
}

static int fake_run_group(void *state, const struct fb_step *steps, int count,
                          const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                          int64_t n, struct fb_error *err)
{
    (void)state, (void)steps, (void)count, (void)format, (void)buffers, (void)n, (void)err;
    groups_run++;
    return FB_OK;
}

/* Marks as a CPU region takes them: after the fork, then after each step. */
static int fake_run_group_marked(void *state, const struct fb_step *steps, int count,
                                 const struct fb_format *format,
                                 void *const buffers[FB_BUF_COUNT], int64_t n,
                                 uint64_t *marks_ns, struct fb_error *err)
{
    (void)state, (void)steps, (void)format, (void)buffers, (void)n, (void)err;
    groups_run++;
    for (int k = 0; k <= count; k++)
        marks_ns[k] = fb_now_ns() + 1000u * (uint64_t)k;
    return FB_OK;
}

static int fake_synchronize(void *state, struct fb_error *err)
{
    (void)state, (void)err;
    return FB_OK;
}

/* Run delay: 0 at the start of a call; at its end a second's wait (far over 2% of any wall
 * time here) while disturbed_left lasts, else 0. */
static void fake_read_disturbance(void *state, bool at_end, struct fb_disturbance_reading *out)
{
    (void)state;
    fb_disturbance_reading_clear(out);
    out->run_delay_s = 0.0;
    if (at_end && disturbed_left > 0) {
        disturbed_left--;
        out->run_delay_s = 1.0;
    }
}

static struct fb_backend_ops fake_backend(bool marked)
{
    struct fb_backend_ops ops = {0};
    ops.name = "fake";
    ops.run_step = fake_run_step;
    ops.run_group = fake_run_group;
    ops.run_group_marked = marked ? fake_run_group_marked : NULL;
    ops.synchronize = fake_synchronize;
    ops.read_disturbance = fake_read_disturbance;
    return ops;
}

struct counts {
    int kernels, launches, platform;
};

/* Counts the records of call `call`, and checks every record belongs to a call < calls. */
static struct counts of_call(const struct fb_kernel_trace *t, uint32_t call, int calls)
{
    struct counts c = {0, 0, 0};
    for (size_t i = 0; i < t->count; i++) {
        const struct fb_kernel_record *r = &t->items[i];
        assert_true(r->correlation_id < (uint32_t)calls);
        if (r->correlation_id != call)
            continue;
        c.kernels += r->kind == FB_TRACE_KERNEL;
        c.launches += r->kind == FB_TRACE_LAUNCH;
        c.platform += r->kind == FB_TRACE_PLATFORM;
        assert_true(r->end_ns >= r->start_ns);
    }
    return c;
}

static void trace(const char *variant, bool marked, int calls, int max_reps, double max_time_s,
                  struct fb_kernel_trace *t, struct fb_host_trace_stats *stats)
{
    const struct fb_backend_ops ops = fake_backend(marked);
    const struct fb_variant *v = fb_variant_find(variant);
    assert_non_null(v);
    void *buffers[FB_BUF_COUNT] = {0};
    const struct fb_call call = {&ops, NULL, v, buffers, 1000, {FB_DTYPE_FP32, FB_STORES_NORMAL}};
    struct fb_error err;
    fb_kernel_trace_init(t, FB_STREAM_ANY);
    steps_run = groups_run = 0;
    assert_int_equal(fb_host_trace_calls(&call, calls, max_reps, max_time_s, t, stats, &err),
                     FB_OK);
}

static void test_eager_is_a_launch_and_a_kernel_per_step(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    struct fb_host_trace_stats stats;
    disturbed_left = 0;
    trace("eager_add_relu", true, 5, 20, 10.0, &t, &stats);
    for (uint32_t c = 0; c < 5; c++) {
        const struct counts n = of_call(&t, c, 5);
        assert_int_equal(n.kernels, 2);
        assert_int_equal(n.launches, 2);
        assert_int_equal(n.platform, 0);
    }
    assert_int_equal(steps_run, 10);
    assert_string_equal(t.items[1].name, "add");
    assert_string_equal(t.items[3].name, "relu");
    assert_int_equal(stats.retaken, 0);
    fb_kernel_trace_free(&t);
}

static void test_fused_is_one_kernel_per_call(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    struct fb_host_trace_stats stats;
    disturbed_left = 0;
    trace("fused_add_relu", true, 4, 20, 10.0, &t, &stats);
    for (uint32_t c = 0; c < 4; c++) {
        const struct counts n = of_call(&t, c, 4);
        assert_int_equal(n.kernels, 1);
        assert_int_equal(n.launches, 1);
    }
    fb_kernel_trace_free(&t);
}

/* The graph variant: 2 kernels under 1 host launch, back to back inside it. */
static void test_graph_is_two_kernels_under_one_launch(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    struct fb_host_trace_stats stats;
    disturbed_left = 0;
    trace("eager_add_relu_graph", true, 3, 20, 10.0, &t, &stats);
    assert_int_equal(groups_run, 3);
    assert_int_equal(steps_run, 0);
    for (uint32_t c = 0; c < 3; c++) {
        const struct counts n = of_call(&t, c, 3);
        assert_int_equal(n.kernels, 2);
        assert_int_equal(n.launches, 1);
    }
    /* per call: the launch, then add and relu from the marks, relu starting where add ends */
    assert_int_equal(t.count, 9);
    assert_int_equal(t.items[0].kind, FB_TRACE_LAUNCH);
    assert_string_equal(t.items[1].name, "add");
    assert_string_equal(t.items[2].name, "relu");
    assert_true(t.items[1].start_ns >= t.items[0].start_ns);
    assert_int_equal(t.items[1].end_ns, t.items[2].start_ns);
    fb_kernel_trace_free(&t);
}

/* Without marks (a GPU without CUPTI) the launch is one record, named for its steps. */
static void test_unmarked_group_is_one_record(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    struct fb_host_trace_stats stats;
    disturbed_left = 0;
    trace("eager_add_relu_graph", false, 2, 20, 10.0, &t, &stats);
    const struct counts n = of_call(&t, 1, 2);
    assert_int_equal(n.kernels, 1);
    assert_int_equal(n.launches, 1);
    assert_string_equal(t.items[1].name, "add+relu (one launch)");
    fb_kernel_trace_free(&t);
}

/* memcpy is the platform's copy: a platform call, no launch of ours. */
static void test_memcpy_is_a_platform_call(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    struct fb_host_trace_stats stats;
    disturbed_left = 0;
    trace("memcpy", true, 3, 20, 10.0, &t, &stats);
    for (uint32_t c = 0; c < 3; c++) {
        const struct counts n = of_call(&t, c, 3);
        assert_int_equal(n.kernels, 0);
        assert_int_equal(n.launches, 0);
        assert_int_equal(n.platform, 1);
    }
    fb_kernel_trace_free(&t);
}

/* Three disturbed calls are dropped and retaken: the trace still holds each call once. */
static void test_disturbed_calls_are_retaken(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    struct fb_host_trace_stats stats;
    disturbed_left = 3;
    trace("eager_add_relu", true, 5, 20, 10.0, &t, &stats);
    assert_int_equal(stats.retaken, 3);
    assert_int_equal(stats.kept_disturbed, 0);
    assert_non_null(strstr(stats.disturbance, "waited"));
    assert_int_equal(steps_run, 2 * (5 + 3));
    assert_int_equal(t.count, 5 * 4);
    for (uint32_t c = 0; c < 5; c++)
        assert_int_equal(of_call(&t, c, 5).kernels, 2);
    fb_kernel_trace_free(&t);
}

/* The retake budget is the sweep's: at most max_reps dropped; past it, a disturbed call is
 * kept and counted. */
static void test_retakes_stop_at_the_budget(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    struct fb_host_trace_stats stats;
    disturbed_left = 1000;
    trace("fused_add_relu", true, 4, 2, 10.0, &t, &stats);
    assert_int_equal(stats.retaken, 2);
    assert_int_equal(stats.kept_disturbed, 4);
    assert_int_equal(t.count, 4 * 2);
    fb_kernel_trace_free(&t);
    /* and max_time: with none left, nothing is retaken */
    disturbed_left = 1000;
    trace("fused_add_relu", true, 3, 20, 0.0, &t, &stats);
    assert_int_equal(stats.retaken, 0);
    assert_int_equal(stats.kept_disturbed, 3);
    fb_kernel_trace_free(&t);
}

static void test_at_least_one_call(void **state)
{
    (void)state;
    const struct fb_backend_ops ops = fake_backend(true);
    void *buffers[FB_BUF_COUNT] = {0};
    const struct fb_call call = {&ops, NULL, fb_variant_find("fused_add_relu"), buffers, 8,
                                 {FB_DTYPE_FP32, FB_STORES_NORMAL}};
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, FB_STREAM_ANY);
    struct fb_host_trace_stats stats;
    struct fb_error err;
    assert_int_equal(fb_host_trace_calls(&call, 0, 20, 1.0, &t, &stats, &err), FB_ERR_USAGE);
    fb_kernel_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eager_is_a_launch_and_a_kernel_per_step),
        cmocka_unit_test(test_fused_is_one_kernel_per_call),
        cmocka_unit_test(test_graph_is_two_kernels_under_one_launch),
        cmocka_unit_test(test_unmarked_group_is_one_record),
        cmocka_unit_test(test_memcpy_is_a_platform_call),
        cmocka_unit_test(test_disturbed_calls_are_retaken),
        cmocka_unit_test(test_retakes_stop_at_the_budget),
        cmocka_unit_test(test_at_least_one_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
