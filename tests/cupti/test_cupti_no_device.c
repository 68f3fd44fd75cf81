/* Without a GPU, CUPTI reports itself unavailable with the reason, and never crashes
 * (src/cupti/cupti_probe.h). Skips, saying so, where a device answers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "cupti/cupti_probe.h"

static bool device_answers(void)
{
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

static void open_reports_unavailable_because_no_device_answers(void **state)
{
    (void)state;
    if (device_answers()) {
        printf("skip: a CUDA device answers here; this test is for machines without one\n");
        skip();
    }
    struct fb_cupti *c = (struct fb_cupti *)&c; /* must be overwritten with NULL */
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_open(&c, 0, true, true, &err), FB_ERR_UNAVAILABLE);
    assert_null(c);
    assert_non_null(strstr(err.msg, "no CUDA device answers"));
    printf("reason: %s\n", err.msg);
    fb_cupti_close(c); /* closing NULL is fine */
}

static void activity_only_is_unavailable_too(void **state)
{
    (void)state;
    if (device_answers()) {
        printf("skip: a CUDA device answers here; this test is for machines without one\n");
        skip();
    }
    struct fb_cupti *c = NULL;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_open(&c, 0, true, false, &err), FB_ERR_UNAVAILABLE);
    assert_null(c);
    assert_non_null(strstr(err.msg, "no CUDA device answers"));
}

static void chip_name_asks_cuda_before_cupti(void **state)
{
    (void)state;
    if (device_answers()) {
        printf("skip: a CUDA device answers here; this test is for machines without one\n");
        skip();
    }
    /* cuptiDeviceGetChipName would segfault here; reaching the asserts is the test. */
    char chip[64] = "untouched";
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_chip_name(0, chip, sizeof(chip), &err), FB_ERR_UNAVAILABLE);
    assert_string_equal(chip, "");
    assert_non_null(strstr(err.msg, "no CUDA device answers"));
}

static void a_closed_handle_has_no_parts(void **state)
{
    (void)state;
    const char *reason = NULL;
    assert_false(fb_cupti_available(NULL, FB_CUPTI_ACTIVITY, &reason));
    assert_non_null(reason);
    assert_true(strlen(reason) > 0);
    assert_false(fb_cupti_available(NULL, FB_CUPTI_COUNTERS, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(open_reports_unavailable_because_no_device_answers),
        cmocka_unit_test(activity_only_is_unavailable_too),
        cmocka_unit_test(chip_name_asks_cuda_before_cupti),
        cmocka_unit_test(a_closed_handle_has_no_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
