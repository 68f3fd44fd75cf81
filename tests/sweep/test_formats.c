/* Which formats each backend runs (backend.h's check_format, asked before a sweep starts):
 * the CPU runs fp32 with normal and with streaming stores; the CUDA backend refuses
 * streaming with a message that says why (a GPU store never reads its line first, and
 * st.global.cs is only a cache hint) and what to use instead. check_format needs no device:
 * it reads nothing of the backend's state, so it is called here with none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "backends/backend.h"

static int check(const struct fb_backend_ops *ops, enum fb_dtype dtype,
                 enum fb_store_kind stores, struct fb_error *err)
{
    const struct fb_format format = {dtype, stores};
    err->msg[0] = '\0';
    return ops->check_format(NULL, &format, err);
}

static void test_cpu_runs_normal_and_streaming_stores(void **state)
{
    (void)state;
    struct fb_error err;
    assert_int_equal(check(&fb_cpu_backend, FB_DTYPE_FP32, FB_STORES_NORMAL, &err), FB_OK);
    assert_int_equal(check(&fb_cpu_backend, FB_DTYPE_FP32, FB_STORES_STREAMING, &err), FB_OK);
}

/* The metadata a run with streaming points writes says what streaming was (results.c). */
static void test_cpu_describes_its_streaming_stores(void **state)
{
    (void)state;
    struct fb_error err;
    void *backend = NULL;
    const struct fb_backend_params params = {0};
    assert_int_equal(fb_cpu_backend.init(&backend, &params, &err), FB_OK);
    struct fb_device_info dev;
    assert_int_equal(fb_cpu_backend.describe(backend, &dev, &err), FB_OK);
    assert_true(dev.streaming_stores[0] != '\0');
#if defined(__x86_64__)
    assert_false(dev.streaming_falls_back);
    assert_non_null(strstr(dev.streaming_stores, "non-temporal"));
#endif
    fb_cpu_backend.fini(backend);
}

static void test_cuda_refuses_streaming_stores_saying_why(void **state)
{
    (void)state;
#ifdef FB_HAVE_CUDA
    struct fb_error err;
    assert_int_equal(check(&fb_cuda_backend, FB_DTYPE_FP32, FB_STORES_NORMAL, &err), FB_OK);
    assert_int_equal(check(&fb_cuda_backend, FB_DTYPE_FP32, FB_STORES_STREAMING, &err),
                     FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "cuda backend: stores = streaming is not supported"));
    assert_non_null(strstr(err.msg, "st.global.cs"));
    assert_non_null(strstr(err.msg, "use stores = normal"));
#else
    print_message("skip: this build has no CUDA backend\n");
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_runs_normal_and_streaming_stores),
        cmocka_unit_test(test_cpu_describes_its_streaming_stores),
        cmocka_unit_test(test_cuda_refuses_streaming_stores_saying_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
