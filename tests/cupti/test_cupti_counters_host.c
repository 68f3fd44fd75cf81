/* The host half of the range profiler, which needs no GPU: the config image for the traffic
 * metrics on Hopper (src/cupti/cupti_counters_host.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cupti/cupti_counters_host.h"
#include "cupti_driverless.h"

static void hopper_traffic_metrics_fit_in_one_pass(void **state)
{
    (void)state;
    if (!fb_test_cupti_answers())
        skip();
    uint8_t *image = NULL;
    size_t size = 0, passes = 0;
    struct fb_error err = {{0}};
    int rc = fb_cupti_traffic_config("GH100", NULL, &image, &size, &passes, &err);
    if (rc != FB_OK)
        fail_msg("fb_cupti_traffic_config(GH100): %s", err.msg);
    assert_non_null(image);
    assert_true(size > 0);
    /* One pass: kernel replay runs each kernel once more, no more. */
    assert_int_equal(passes, 1);
    free(image);
}

static void an_unknown_chip_is_unavailable_not_a_crash(void **state)
{
    (void)state;
    uint8_t *image = (uint8_t *)&image;
    size_t size = 1, passes = 1;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_traffic_config("NOT_A_CHIP", NULL, &image, &size, &passes, &err),
                     FB_ERR_UNAVAILABLE);
    assert_null(image);
    assert_int_equal(passes, 0);
    assert_non_null(strstr(err.msg, "NOT_A_CHIP"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hopper_traffic_metrics_fit_in_one_pass),
        cmocka_unit_test(an_unknown_chip_is_unavailable_not_a_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
