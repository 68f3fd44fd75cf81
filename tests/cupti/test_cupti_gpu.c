/* CUPTI on a real device: the kernels of a tiny launch are counted and timed, and (where
 * counters are permitted) the traffic of one add is about 3 x 4 bytes per element.
 * Skips, saying why, where no device answers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "cupti/cupti_probe.h"
#include "cupti/kernel_table.h"
#include "cupti/kernel_table_print.h"
#include "kernels/kernels.h"

#define N (1 << 22) /* 4M floats, 16 MB per array */
#define CALLS 5

struct fixture {
    struct fb_cupti *cupti;
    struct fb_cuda_launch_context launch;
    float *a, *b, *c;
};

static void check_cuda(cudaError_t r, const char *what)
{
    if (r != cudaSuccess)
        fail_msg("%s: %s", what, cudaGetErrorString(r));
}

static int setup(void **state)
{
    static struct fixture fx;
    memset(&fx, 0, sizeof(fx));
    struct fb_error err = {{0}};
    int rc = fb_cupti_open(&fx.cupti, 0, true, true, &err);
    if (rc == FB_ERR_UNAVAILABLE) {
        printf("skip: %s\n", err.msg);
        *state = NULL;
        return 0;
    }
    if (rc != FB_OK) {
        printf("fb_cupti_open: %s\n", err.msg);
        return -1;
    }
    check_cuda(cudaDeviceGetAttribute(&fx.launch.sm_count, cudaDevAttrMultiProcessorCount, 0),
               "cudaDeviceGetAttribute(SM count)");
    fx.launch.stream = NULL;
    check_cuda(cudaMalloc((void **)&fx.a, N * sizeof(float)), "cudaMalloc a");
    check_cuda(cudaMalloc((void **)&fx.b, N * sizeof(float)), "cudaMalloc b");
    check_cuda(cudaMalloc((void **)&fx.c, N * sizeof(float)), "cudaMalloc c");
    check_cuda(cudaMemset(fx.a, 0, N * sizeof(float)), "cudaMemset a");
    check_cuda(cudaMemset(fx.b, 0, N * sizeof(float)), "cudaMemset b");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    if (fx) {
        cudaFree(fx->a);
        cudaFree(fx->b);
        cudaFree(fx->c);
        fb_cupti_close(fx->cupti);
    }
    return 0;
}

static struct fixture *need_device(void **state)
{
    if (!*state) {
        printf("skip: no CUDA device with CUPTI answers (reason printed above)\n");
        skip();
    }
    return *state;
}

static void each_add_call_is_one_counted_kernel(void **state)
{
    struct fixture *fx = need_device(state);
    const char *why = NULL;
    if (!fb_cupti_available(fx->cupti, FB_CUPTI_ACTIVITY, &why)) {
        printf("skip: CUPTI activity unavailable: %s\n", why);
        skip();
    }
    struct fb_error err = {{0}};
    if (fb_cupti_activity_start(fx->cupti, fx->launch.stream, &err) != FB_OK)
        fail_msg("activity start: %s", err.msg);
    for (int i = 0; i < CALLS; i++)
        if (fb_cuda_add(&fx->launch, fx->a, fx->b, fx->c, N, &err) != FB_OK)
            fail_msg("fb_cuda_add: %s", err.msg);
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
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
    /* 48 MB moved at most ~5 TB/s: at least ~10 us; and surely under 10 ms. */
    assert_true(s.kernel_time_s > 5e-6 && s.kernel_time_s < 1e-2);

    struct fb_kernel_table tab;
    assert_int_equal(fb_kernel_table_build(&trace, &tab, &err), FB_OK);
    assert_int_equal(tab.count, 1);
    assert_non_null(strstr(tab.rows[0].name, "fb_"));
    fb_kernel_table_print(stdout, &tab, 60);
    fb_kernel_table_free(&tab);
    fb_kernel_trace_free(&trace);
}

static int run_add(void *ctx, struct fb_error *err)
{
    struct fixture *fx = ctx;
    return fb_cuda_add(&fx->launch, fx->a, fx->b, fx->c, N, err);
}

static void one_add_moves_about_three_elements_of_dram_traffic_per_element(void **state)
{
    struct fixture *fx = need_device(state);
    const char *why = NULL;
    if (!fb_cupti_available(fx->cupti, FB_CUPTI_COUNTERS, &why)) {
        printf("skip: CUPTI counters unavailable: %s\n", why);
        skip();
    }
    struct fb_traffic t;
    struct fb_error err = {{0}};
    if (fb_cupti_measure_traffic(fx->cupti, run_add, fx, &t, &err) != FB_OK)
        fail_msg("measure traffic: %s", err.msg);
    printf("add of %d floats: dram read %lld, write %lld, L2 %lld bytes, %lld ranges\n", N,
           (long long)t.dram_read_bytes, (long long)t.dram_write_bytes, (long long)t.l2_bytes,
           (long long)t.ranges);
    assert_int_equal(t.ranges, 1);
    /* Reads a and b (8 bytes per element) unless L2 still holds them; writes c (4), though
     * the write-back of c may happen after the range ends: accept a wide band. */
    double per_element = fb_traffic_dram_bytes_per_element(&t, N, sizeof(float));
    assert_true(per_element > 0.5 && per_element < 4.0);
    assert_true(t.l2_bytes >= (int64_t)N * 8);
}

int main(void)
{
    /* No device: say why and exit 77, which meson reports as SKIP. */
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        printf("skip: no CUDA device answers: cudaGetDeviceCount: %s\n",
               status != cudaSuccess ? cudaGetErrorString(status) : "0 devices");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_add_call_is_one_counted_kernel),
        cmocka_unit_test(one_add_moves_about_three_elements_of_dram_traffic_per_element),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
