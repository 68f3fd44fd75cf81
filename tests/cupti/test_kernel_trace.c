/* Turning kernel records into launches per call and kernel time per call
 * (src/cupti/kernel_trace.h), fed with synthesized records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "cupti/kernel_trace.h"
#include "cupti_test_util.h"

#define STREAM 13
#define OTHER_STREAM 14

static struct fb_kernel_record rec(const char *name, uint64_t start, uint64_t dur,
                                   uint32_t stream, uint32_t corr)
{
    struct fb_kernel_record r;
    memset(&r, 0, sizeof(r));
    r.kind = FB_TRACE_KERNEL;
    strcpy(r.name, name);
    r.start_ns = start;
    r.end_ns = start + dur;
    r.stream_id = stream;
    r.correlation_id = corr;
    return r;
}

static void add(struct fb_kernel_trace *t, struct fb_kernel_record r)
{
    assert_int_equal(fb_kernel_trace_append(t, &r, NULL), FB_OK);
}

/* K eager calls: add then relu, per-call durations given in ns. */
static void eager_calls(struct fb_kernel_trace *t, int calls, const uint64_t *add_ns,
                        const uint64_t *relu_ns)
{
    uint64_t now = 1000;
    uint32_t corr = 1;
    for (int c = 0; c < calls; c++) {
        add(t, rec("add", now, add_ns[c], STREAM, corr++));
        now += add_ns[c] + 500;
        add(t, rec("relu", now, relu_ns[c], STREAM, corr++));
        now += relu_ns[c] + 2000;
    }
}

static void eager_calls_give_two_launches_and_the_median_summed_time(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    /* per-call sums: 300, 900, 500 -> median 500 ns */
    const uint64_t a[] = {100, 400, 200}, r[] = {200, 500, 300};
    eager_calls(&t, 3, a, r);
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 3, 2, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_string_equal(s.reason, "");
    assert_int_equal(s.kernels, 6);
    assert_int_equal(s.launches_per_call, 2);
    assert_close(s.kernel_time_s, 500e-9, 1e-15);
    assert_close(s.kernel_time_min_s, 300e-9, 1e-15);
    assert_close(s.kernel_time_max_s, 900e-9, 1e-15);
    fb_kernel_trace_free(&t);
}

static void even_call_count_takes_the_mean_of_the_two_middle_calls(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    const uint64_t d[] = {100, 400, 200, 1000};
    for (int c = 0; c < 4; c++)
        add(&t, rec("add_relu", 1000 + 5000 * (uint64_t)c, d[c], STREAM, (uint32_t)c + 1));
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 4, 1, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_int_equal(s.launches_per_call, 1);
    assert_close(s.kernel_time_s, 300e-9, 1e-15); /* (200 + 400) / 2 */
    fb_kernel_trace_free(&t);
}

static void records_out_of_order_are_grouped_by_start_time(void **state)
{
    (void)state;
    /* Calls in time: (add 10 + relu 20) and (add 1000 + relu 2000) ns. Delivered as
     * add0, add1, relu0, relu1: grouping by arrival would give 1010 and 2020 instead. */
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    add(&t, rec("add", 100, 10, STREAM, 1));
    add(&t, rec("add", 300, 1000, STREAM, 3));
    add(&t, rec("relu", 200, 20, STREAM, 2));
    add(&t, rec("relu", 400, 2000, STREAM, 4));
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 2, 2, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_close(s.kernel_time_min_s, 30e-9, 1e-15);
    assert_close(s.kernel_time_max_s, 3000e-9, 1e-15);
    fb_kernel_trace_free(&t);
}

static void kernels_on_other_streams_do_not_count(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    for (int c = 0; c < 3; c++) {
        add(&t, rec("add_relu", 1000 + 1000 * (uint64_t)c, 100, STREAM, (uint32_t)(2 * c + 1)));
        /* a helper stream's kernel, interleaved in time with the measured ones */
        add(&t, rec("helper", 1050 + 1000 * (uint64_t)c, 5000, OTHER_STREAM,
                    (uint32_t)(2 * c + 2)));
    }
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 3, 1, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_int_equal(s.kernels, 3);
    assert_int_equal(s.launches_per_call, 1);
    assert_close(s.kernel_time_s, 100e-9, 1e-15);
    fb_kernel_trace_free(&t);
}

static void any_stream_counts_every_stream(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, FB_STREAM_ANY);
    add(&t, rec("add", 100, 10, STREAM, 1));
    add(&t, rec("relu", 200, 10, OTHER_STREAM, 2));
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 1, 2, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_int_equal(s.launches_per_call, 2);
    fb_kernel_trace_free(&t);
}

static void records_of_unknown_kind_are_ignored(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    add(&t, rec("add_relu", 100, 50, STREAM, 1));
    struct fb_kernel_record memcpy_like = rec("memcpy", 160, 9999, STREAM, 2);
    memcpy_like.kind = FB_TRACE_OTHER;
    add(&t, memcpy_like);
    add(&t, rec("add_relu", 20000, 70, STREAM, 3));
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 2, 1, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_int_equal(s.kernels, 2);
    assert_close(s.kernel_time_s, 60e-9, 1e-15);
    fb_kernel_trace_free(&t);
}

static void dropped_records_fail_the_point_with_their_number(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    const uint64_t a[] = {100, 100}, r[] = {100, 100};
    eager_calls(&t, 2, a, r);
    t.dropped = 7;
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 2, 2, &s, NULL), FB_OK);
    assert_false(s.ok);
    assert_string_equal(s.reason, "7 activity records dropped");
    assert_true(isnan(s.kernel_time_s));
    fb_kernel_trace_free(&t);
}

static void a_launch_count_other_than_declared_fails_the_point(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    const uint64_t a[] = {100, 100, 100}, r[] = {100, 100, 100};
    eager_calls(&t, 3, a, r); /* 2 launches per call, but the variant says 1 */
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 3, 1, &s, NULL), FB_OK);
    assert_false(s.ok);
    assert_int_equal(s.launches_per_call, 2);
    assert_string_equal(s.reason, "counted 2 launches per call, the variant declares 1");
    assert_true(isnan(s.kernel_time_s));
    fb_kernel_trace_free(&t);
}

static void a_total_not_divisible_by_the_calls_fails_the_point(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    const uint64_t a[] = {100, 100, 100}, r[] = {100, 100, 100};
    eager_calls(&t, 3, a, r);
    t.count--; /* one relu missing: 5 kernels for 3 calls */
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 3, 2, &s, NULL), FB_OK);
    assert_false(s.ok);
    assert_int_equal(s.launches_per_call, -1);
    assert_string_equal(s.reason,
                        "5 kernels for 3 calls is not a whole number per call (declared 2)");
    fb_kernel_trace_free(&t);
}

static void no_kernels_for_an_empty_call_is_ok_with_zero_time(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 5, 0, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_int_equal(s.launches_per_call, 0);
    assert_close(s.kernel_time_s, 0.0, 0.0);
    /* ...but a declared launch that never came is a failure */
    assert_int_equal(fb_kernel_trace_summarize(&t, 5, 1, &s, NULL), FB_OK);
    assert_false(s.ok);
    assert_string_equal(s.reason, "counted 0 launches per call, the variant declares 1");
    fb_kernel_trace_free(&t);
}

static void nonsense_call_counts_are_usage_errors(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    struct fb_kernel_summary s;
    struct fb_error err = {{0}};
    assert_int_equal(fb_kernel_trace_summarize(&t, 0, 1, &s, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "calls must be >= 1"));
    assert_int_equal(fb_kernel_trace_summarize(&t, 3, -1, &s, NULL), FB_ERR_USAGE);
}

static void the_trace_grows_past_its_first_allocation(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    for (uint32_t i = 0; i < 1000; i++)
        add(&t, rec("copy", 100 * (uint64_t)i, 10 + i % 7, STREAM, i + 1));
    assert_int_equal(t.count, 1000);
    assert_int_equal(t.items[999].correlation_id, 1000);
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 1000, 1, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_close(s.kernel_time_s, 13e-9, 1e-15); /* durations 10..16, evenly spread */
    fb_kernel_trace_clear(&t);
    assert_int_equal(t.count, 0);
    assert_true(t.capacity >= 1000);
    fb_kernel_trace_free(&t);
    assert_null(t.items);
}

static void cache_flush_kernels_are_not_the_calls_kernels(void **state)
{
    (void)state;
    assert_int_equal(fb_kernel_record_kind("fb_cache_flush_read"), FB_TRACE_OTHER);
    assert_int_equal(fb_kernel_record_kind(FB_CACHE_FLUSH_KERNEL_PREFIX "_write"),
                     FB_TRACE_OTHER);
    assert_int_equal(fb_kernel_record_kind("void fb_binary_vector_kernel<AddOp>(...)"),
                     FB_TRACE_KERNEL);
    assert_int_equal(fb_kernel_record_kind("fb_cache"), FB_TRACE_KERNEL);
    assert_int_equal(fb_kernel_record_kind(NULL), FB_TRACE_KERNEL);

    /* A cold kernel pass: flush, add, relu per call. The flushes (long, interleaved) neither
     * count as launches nor add to the kernel time. */
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, FB_STREAM_ANY);
    uint64_t now = 0;
    uint32_t corr = 1;
    for (int c = 0; c < 3; c++) {
        struct fb_kernel_record flush = rec("fb_cache_flush_read", now, 50000, STREAM, corr++);
        flush.kind = fb_kernel_record_kind(flush.name);
        add(&t, flush);
        now += 60000;
        add(&t, rec("add", now, 300, STREAM, corr++));
        now += 1000;
        add(&t, rec("relu", now, 200, STREAM, corr++));
        now += 1000;
    }
    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&t, 3, 2, &s, NULL), FB_OK);
    assert_true(s.ok);
    assert_int_equal(s.launches_per_call, 2);
    assert_close(s.kernel_time_s, 500e-9, 1e-15);
    fb_kernel_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cache_flush_kernels_are_not_the_calls_kernels),
        cmocka_unit_test(eager_calls_give_two_launches_and_the_median_summed_time),
        cmocka_unit_test(even_call_count_takes_the_mean_of_the_two_middle_calls),
        cmocka_unit_test(records_out_of_order_are_grouped_by_start_time),
        cmocka_unit_test(kernels_on_other_streams_do_not_count),
        cmocka_unit_test(any_stream_counts_every_stream),
        cmocka_unit_test(records_of_unknown_kind_are_ignored),
        cmocka_unit_test(dropped_records_fail_the_point_with_their_number),
        cmocka_unit_test(a_launch_count_other_than_declared_fails_the_point),
        cmocka_unit_test(a_total_not_divisible_by_the_calls_fails_the_point),
        cmocka_unit_test(no_kernels_for_an_empty_call_is_ok_with_zero_time),
        cmocka_unit_test(nonsense_call_counts_are_usage_errors),
        cmocka_unit_test(the_trace_grows_past_its_first_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
