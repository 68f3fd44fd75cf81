/* common/cuda_check.h, the one check every CUDA runtime call goes through: its message format
 * ("call (file:line): cudaGetErrorString"), its return codes, FB_CUDA_TRY's early return, and
 * the device count's answer on a machine without a device. No GPU needed (CUDA builds only). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "common/cuda_check.h"

static void success_returns_ok_and_leaves_the_message_alone(void **state)
{
    (void)state;
    struct fb_error err = {"untouched"};
    assert_int_equal(fb_cuda_check(cudaSuccess, "cudaFree(p)", "x.c", 7, &err), FB_OK);
    assert_string_equal(err.msg, "untouched");
}

static void failure_names_the_call_file_line_and_cuda_message(void **state)
{
    (void)state;
    struct fb_error err = {{0}};
    int rc = fb_cuda_check(cudaErrorMemoryAllocation, "cudaMalloc(&p, 64)", "src/x.c", 42, &err);
    assert_int_equal(rc, FB_ERR_RUNTIME);
    char want[sizeof err.msg];
    snprintf(want, sizeof want, "cudaMalloc(&p, 64) (src/x.c:42): %s",
             cudaGetErrorString(cudaErrorMemoryAllocation));
    assert_string_equal(err.msg, want);
}

static void failure_without_an_error_struct_still_returns_the_code(void **state)
{
    (void)state;
    assert_int_equal(fb_cuda_check(cudaErrorInvalidValue, "cudaMemset", "x.c", 1, NULL),
                     FB_ERR_RUNTIME);
}

/* FB_CUDA_TRY returns from the enclosing function, whose error struct is named err. */
static int try_twice(cudaError_t first, int *reached_second, struct fb_error *err)
{
    FB_CUDA_TRY(first);
    *reached_second = 1;
    FB_CUDA_TRY(cudaSuccess);
    return FB_OK;
}

static void try_returns_at_the_first_failure_with_the_expression_as_the_call(void **state)
{
    (void)state;
    struct fb_error err = {{0}};
    int reached = 0;
    assert_int_equal(try_twice(cudaErrorInvalidValue, &reached, &err), FB_ERR_RUNTIME);
    assert_int_equal(reached, 0);
    assert_non_null(strstr(err.msg, "first (")); /* #call: the expression as written */
    assert_non_null(strstr(err.msg, "test_cuda_check.c:"));
    reached = 0;
    assert_int_equal(try_twice(cudaSuccess, &reached, &err), FB_OK);
    assert_int_equal(reached, 1);
}

static void device_count_is_unavailable_with_a_reason_where_none_answers(void **state)
{
    (void)state;
    int count = -1;
    struct fb_error err = {{0}};
    int rc = fb_cuda_device_count(&count, &err);
    if (rc == FB_OK) {
        printf("a CUDA device answers here (%d): the no-device case cannot be checked\n", count);
        skip();
    }
    assert_int_equal(rc, FB_ERR_UNAVAILABLE);
    assert_int_equal(count, 0);
    assert_ptr_equal(strstr(err.msg, "no CUDA device answers: "), err.msg);
    /* The reason is the runtime's, through the one check: "cudaGetDeviceCount(count) (...". */
    assert_non_null(strstr(err.msg, "cudaGetDeviceCount"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(success_returns_ok_and_leaves_the_message_alone),
        cmocka_unit_test(failure_names_the_call_file_line_and_cuda_message),
        cmocka_unit_test(failure_without_an_error_struct_still_returns_the_code),
        cmocka_unit_test(try_returns_at_the_first_failure_with_the_expression_as_the_call),
        cmocka_unit_test(device_count_is_unavailable_with_a_reason_where_none_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
