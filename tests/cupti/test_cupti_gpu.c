/* CUPTI on a real device: the kernels of a launch are counted and timed (those of a CUDA graph
 * launch too: eager_add_relu_graph's two), and (where counters
 * are permitted) the DRAM traffic of one add, measured after an L2 flush, is what the add must
 * move: a and b read (8 bytes per element), c written (4).
 *
 * Sizes come from the device's L2 (60 MB on an H200): each array is at least 4 times the L2,
 * so even without the flush at most a quarter of an input could still be cached, and the
 * bounds below allow for one L2's worth of bytes either way (inputs still cached, or dirty
 * output lines not yet written back when the range ends). A fixed 16 MB array, measured after
 * warm calls, read ~0 DRAM bytes on a 60 MB L2: that is what this layout prevents.
 * Exits 77 (skip), saying why, where no device answers or a part this test needs (activity,
 * counters) is refused, e.g. CUPTI_ERROR_INSUFFICIENT_PRIVILEGES in a sandbox. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "common/cuda_check.h"
#include "cupti/cupti_session.h"
#include "cupti/kernel_table.h"
#include "cupti/kernel_table_print.h"
#include "kernels/cache_flush.h"
#include "kernels/kernels.h"
#include "plan/variants.h"

#define CALLS 5

struct fixture {
    struct fb_cupti_session *cupti;
    struct fb_cuda_launch_context launch;
    int64_t n;          /* elements per array: 4 L2s' worth of bytes, or more */
    int64_t l2_bytes;   /* cudaDevAttrL2CacheSize */
    float *a, *b, *c;
    void *flush;        /* fb_cache_flush_bytes(L2) */
    size_t flush_bytes;
};

/* A part skipped anywhere makes the whole program exit 77 once the rest has passed. */
static bool skipped_a_part;

/* A failed CUDA call fails the test with common/cuda_check.h's message (call, file, line). */
#define CHECK_CUDA(call)                                                                      \
    do {                                                                                      \
        struct fb_error cuda_err_;                                                            \
        if (FB_CUDA_CHECK(call, &cuda_err_) != FB_OK)                                         \
            fail_msg("%s", cuda_err_.msg);                                                    \
    } while (0)

static int setup(void **state)
{
    static struct fixture fx;
    memset(&fx, 0, sizeof(fx));
    struct fb_error err = {{0}};
    int rc = fb_cupti_session_open(&fx.cupti, 0, true, true, &err);
    if (rc == FB_ERR_UNAVAILABLE) {
        printf("skip: %s\n", err.msg);
        *state = NULL;
        return 0;
    }
    if (rc != FB_OK) {
        printf("fb_cupti_session_open: %s\n", err.msg);
        return -1;
    }
    CHECK_CUDA(cudaDeviceGetAttribute(&fx.launch.sm_count, cudaDevAttrMultiProcessorCount, 0));
    int l2 = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    fx.l2_bytes = l2 > 0 ? l2 : (64 << 20);
    fx.n = 4 * fx.l2_bytes / (int64_t)sizeof(float) + 4099; /* and an odd tail */
    const size_t bytes = (size_t)fx.n * sizeof(float);
    fx.launch.stream = NULL;
    CHECK_CUDA(cudaMalloc((void **)&fx.a, bytes));
    CHECK_CUDA(cudaMalloc((void **)&fx.b, bytes));
    CHECK_CUDA(cudaMalloc((void **)&fx.c, bytes));
    fx.flush_bytes = (size_t)fb_cache_flush_bytes((uint64_t)fx.l2_bytes);
    CHECK_CUDA(cudaMalloc(&fx.flush, fx.flush_bytes));
    /* Not zeros: 0x3f bytes are floats near 0.75. */
    CHECK_CUDA(cudaMemset(fx.a, 0x3f, bytes));
    CHECK_CUDA(cudaMemset(fx.b, 0x3f, bytes));
    CHECK_CUDA(cudaMemset(fx.flush, 0x5a, fx.flush_bytes));
    CHECK_CUDA(cudaDeviceSynchronize());
    printf("L2 %lld bytes: arrays of %lld floats (%.0f MB each), flush buffer %.0f MB\n",
           (long long)fx.l2_bytes, (long long)fx.n, bytes / 1e6, fx.flush_bytes / 1e6);
    *state = &fx;
    return 0;
}

/* Teardown runs outside any test, where cmocka cannot fail one: a failed free is printed. */
static void free_device(void *p)
{
    struct fb_error err;
    if (FB_CUDA_CHECK(cudaFree(p), &err) != FB_OK)
        printf("teardown: %s\n", err.msg);
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    if (fx) {
        free_device(fx->a);
        free_device(fx->b);
        free_device(fx->c);
        free_device(fx->flush);
        fb_cupti_session_close(fx->cupti);
    }
    return 0;
}

static struct fixture *need_device(void **state)
{
    if (!*state) {
        printf("skip: no CUDA device with CUPTI answers (reason printed above)\n");
        skipped_a_part = true;
        skip();
    }
    return *state;
}

static void each_add_call_is_one_counted_kernel(void **state)
{
    struct fixture *fx = need_device(state);
    const char *why = NULL;
    if (!fb_cupti_session_available(fx->cupti, FB_CUPTI_ACTIVITY, &why)) {
        printf("skip: CUPTI activity unavailable: %s\n", why);
        skipped_a_part = true;
        skip();
    }
    struct fb_error err = {{0}};
    if (fb_cupti_activity_start(fx->cupti, fx->launch.stream, &err) != FB_OK)
        fail_msg("activity start: %s", err.msg);
    /* As a cold kernel pass does it: a flush before each call, whose kernel must not count. */
    for (int i = 0; i < CALLS; i++) {
        if (fb_cuda_cache_flush(&fx->launch, fx->flush, fx->flush_bytes, &err) != FB_OK)
            fail_msg("fb_cuda_cache_flush: %s", err.msg);
        const struct fb_op_params none = {{0.0f, 0.0f}};
        if (fb_cuda_op(&fx->launch, FB_OPID_add, none, FB_DTYPE_FP32, fx->a, fx->b, fx->c, fx->n,
                       &err) != FB_OK)
            fail_msg("fb_cuda_op(add): %s", err.msg);
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    struct fb_kernel_trace trace;
    fb_kernel_trace_init(&trace, FB_STREAM_ANY);
    if (fb_cupti_activity_stop(fx->cupti, &trace, &err) != FB_OK)
        fail_msg("activity stop: %s", err.msg);
    printf("trace: %zu records, stream id %u%s, %llu dropped\n", trace.count, trace.stream_id,
           trace.stream_id == FB_STREAM_ANY ? " (any)" : "", (unsigned long long)trace.dropped);

    struct fb_kernel_summary s;
    assert_int_equal(fb_kernel_trace_summarize(&trace, CALLS, 1, &s, &err), FB_OK);
    if (!s.ok)
        fail_msg("summary not ok: %s", s.reason);
    assert_int_equal(s.launches_per_call, 1);
    /* 12 bytes per element at no more than 10 TB/s, and surely above 10 GB/s. */
    const double moved = 12.0 * (double)fx->n;
    assert_true(s.kernel_time_s > moved / 10e12 && s.kernel_time_s < moved / 10e9);

    struct fb_kernel_table tab;
    assert_int_equal(fb_kernel_table_build(&trace, &tab, &err), FB_OK);
    assert_int_equal(tab.count, 1);
    assert_non_null(strstr(tab.rows[0].name, "fb_"));
    fb_kernel_table_print(stdout, &tab, 60);
    fb_kernel_table_free(&tab);
    fb_kernel_trace_free(&trace);
}

/* eager_add_relu_graph through the CUDA backend (run_group: one cudaGraphLaunch per call):
 * CUPTI sees the graph's two kernels of every call, as it sees eager_add_relu's two
 * launches, so the launches column of the one-launch variant stays 2 kernels. */
static void each_graph_call_is_two_counted_kernels(void **state)
{
    struct fixture *fx = need_device(state);
    const char *why = NULL;
    if (!fb_cupti_session_available(fx->cupti, FB_CUPTI_ACTIVITY, &why)) {
        printf("skip: CUPTI activity unavailable: %s\n", why);
        skipped_a_part = true;
        skip();
    }
    const struct fb_backend_ops *ops = &fb_cuda_backend;
    const struct fb_variant *v = fb_variant_find("eager_add_relu_graph");
    assert_non_null(v);
    assert_true(v->one_launch);
    void *backend = NULL;
    struct fb_error err = {{0}};
    const struct fb_backend_params params = {0, 0};
    if (ops->init(&backend, &params, &err) != FB_OK)
        fail_msg("cuda backend init: %s", err.msg);
    /* a, b from the fixture; tmp and c of their own (n floats each, the fixture's n) */
    void *tmp = NULL, *c = NULL;
    const size_t bytes = (size_t)fx->n * sizeof(float);
    CHECK_CUDA(cudaMalloc(&tmp, bytes));
    CHECK_CUDA(cudaMalloc(&c, bytes));
    const struct fb_format format = FB_FORMAT_DEFAULT; /* fp32, normal stores */
    void *buffers[FB_BUF_COUNT] = {0};
    buffers[FB_BUF_A] = fx->a;
    buffers[FB_BUF_B] = fx->b;
    buffers[FB_BUF_TMP] = tmp;
    buffers[FB_BUF_C] = c;
    /* the first call captures and instantiates the graph, outside the window */
    if (ops->run_group(backend, v->steps, v->n_steps, &format, buffers, fx->n, &err) != FB_OK ||
        ops->synchronize(backend, &err) != FB_OK)
        fail_msg("first graph call: %s", err.msg);
    if (fb_cupti_activity_start(fx->cupti, ops->stream(backend), &err) != FB_OK)
        fail_msg("activity start: %s", err.msg);
    const uint64_t before = ops->launch_count(backend);
    for (int i = 0; i < CALLS; i++)
        if (ops->run_group(backend, v->steps, v->n_steps, &format, buffers, fx->n, &err) != FB_OK)
            fail_msg("run_group: %s", err.msg);
    if (ops->synchronize(backend, &err) != FB_OK)
        fail_msg("synchronize: %s", err.msg);
    struct fb_kernel_trace trace;
    fb_kernel_trace_init(&trace, FB_STREAM_ANY);
    if (fb_cupti_activity_stop(fx->cupti, &trace, &err) != FB_OK)
        fail_msg("activity stop: %s", err.msg);
    /* every stream, as the runner's probe counts (src/measure/probe.c): a graph's kernels may
     * carry a stream id of their own */
    trace.stream_id = FB_STREAM_ANY;
    assert_int_equal(ops->launch_count(backend) - before, 2 * CALLS);
    struct fb_kernel_summary sum;
    assert_int_equal(fb_kernel_trace_summarize(&trace, CALLS, 2, &sum, &err), FB_OK);
    if (!sum.ok)
        fail_msg("summary not ok: %s", sum.reason);
    assert_int_equal(sum.launches_per_call, 2);
    struct fb_kernel_table tab;
    assert_int_equal(fb_kernel_table_build(&trace, &tab, &err), FB_OK);
    fb_kernel_table_print(stdout, &tab, 60);
    fb_kernel_table_free(&tab);
    fb_kernel_trace_free(&trace);
    CHECK_CUDA(cudaFree(tmp));
    CHECK_CUDA(cudaFree(c));
    ops->fini(backend);
}

static int run_add(void *ctx, struct fb_error *err)
{
    struct fixture *fx = ctx;
    const struct fb_op_params none = {{0.0f, 0.0f}};
    int rc = fb_cuda_op(&fx->launch, FB_OPID_add, none, FB_DTYPE_FP32, fx->a, fx->b, fx->c,
                        fx->n, err);
    if (rc == FB_OK)
        rc = FB_CUDA_CHECK(cudaDeviceSynchronize(), err);
    return rc;
}

/* Before the counters start: the cold mode's flush, waited for. */
static int flush_l2(void *ctx, struct fb_error *err)
{
    struct fixture *fx = ctx;
    int rc = fb_cuda_cache_flush(&fx->launch, fx->flush, fx->flush_bytes, err);
    if (rc == FB_OK)
        rc = FB_CUDA_CHECK(cudaDeviceSynchronize(), err);
    return rc;
}

static void one_add_after_a_flush_moves_its_three_arrays_through_dram(void **state)
{
    struct fixture *fx = need_device(state);
    const char *why = NULL;
    if (!fb_cupti_session_available(fx->cupti, FB_CUPTI_COUNTERS, &why)) {
        printf("skip: CUPTI counters unavailable: %s\n", why);
        skipped_a_part = true;
        skip();
    }
    struct fb_error err = {{0}};
    /* Warm calls first: the state in which a 16 MB array read ~0 DRAM bytes. */
    for (int i = 0; i < 3; i++)
        if (run_add(fx, &err) != FB_OK)
            fail_msg("warm-up add: %s", err.msg);
    struct fb_traffic t;
    if (fb_cupti_measure_traffic(fx->cupti, flush_l2, run_add, fx, &t, &err) != FB_OK)
        fail_msg("measure traffic: %s", err.msg);
    const double n = (double)fx->n, l2 = (double)fx->l2_bytes;
    printf("add of %lld floats after a flush: dram read %lld (%.2f B/element), write %lld "
           "(%.2f B/element), L2 %lld bytes, %lld ranges\n", (long long)fx->n,
           (long long)t.dram_read_bytes, t.dram_read_bytes / n, (long long)t.dram_write_bytes,
           t.dram_write_bytes / n, (long long)t.l2_bytes, (long long)t.ranges);
    assert_int_equal(t.ranges, 1); /* the flush ran before the range: not profiled */
    /* Reads: a and b, 8 bytes per element, all from DRAM after the flush; allow one L2 of
     * slack below (a cache that kept some lines) and 10% + one L2 above (ECC, page tables). */
    const double want_read = 8.0 * n, want_write = 4.0 * n;
    assert_true((double)t.dram_read_bytes >= want_read - l2);
    assert_true((double)t.dram_read_bytes <= 1.1 * want_read + l2);
    /* Writes: c, 4 bytes per element, less at most one L2 of dirty lines not yet written
     * back when the range ends. */
    assert_true((double)t.dram_write_bytes >= want_write - l2);
    assert_true((double)t.dram_write_bytes <= 1.1 * want_write + l2);
    assert_true((double)t.l2_bytes >= 12.0 * n * 0.9);
}

int main(void)
{
    /* No device: say why and exit 77, which meson reports as SKIP. */
    int count = 0;
    struct fb_error why;
    if (fb_cuda_device_count(&count, &why) != FB_OK) {
        printf("skip: %s\n", why.msg);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_add_call_is_one_counted_kernel),
        cmocka_unit_test(each_graph_call_is_two_counted_kernels),
        cmocka_unit_test(one_add_after_a_flush_moves_its_three_arrays_through_dram),
    };
    int failed = cmocka_run_group_tests(tests, setup, teardown);
    if (failed == 0 && skipped_a_part) {
        printf("skip: a part this test needs is unavailable here (reason printed above); what "
               "could run passed\n");
        return 77;
    }
    return failed;
}
