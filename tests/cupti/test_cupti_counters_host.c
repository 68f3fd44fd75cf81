/* The host half of the range profiler, which needs no GPU: the config image for the traffic
 * metrics on Hopper, and the DRAM metrics each chip resolves (src/cupti/cupti_counters_host.h). */
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
    struct fb_traffic_names names;
    int rc = fb_cupti_traffic_config("GH100", NULL, &image, &size, &passes, &names, &err);
    if (rc != FB_OK)
        fail_msg("fb_cupti_traffic_config(GH100): %s", err.msg);
    assert_non_null(image);
    assert_true(size > 0);
    /* One pass: kernel replay runs each kernel once more, no more. */
    assert_int_equal(passes, 1);
    assert_string_equal(names.metrics[FB_METRIC_DRAM_READ], "dram__bytes_read.sum");
    assert_string_equal(names.metrics[FB_METRIC_DRAM_WRITE], "dram__bytes_write.sum");
    free(image);
}

/* What CUPTI 13.0's host API answers per chip (no GPU): the DRAM metric names each chip
 * resolves, NULL where it resolves none. */
struct chip_case {
    const char *chip, *dram_read, *dram_write;
};
static const struct chip_case chip_cases[] = {
    {"TU104", "dram__bytes_read.sum", "dram__bytes_write.sum"},   /* T4 */
    {"GA100", "dram__bytes_read.sum", "dram__bytes_write.sum"},   /* A100 */
    {"GA102", "dram__bytes_read.sum", "dram__bytes_write.sum"},   /* RTX 30xx, A10 */
    {"AD102", "dram__bytes_read.sum", "dram__bytes_write.sum"},   /* RTX 4090, L40S */
    {"GB100", "dram__bytes_read.sum", "dram__bytes_write.sum"},   /* B200 */
    {"GB202", "dram__bytes_op_read.sum", "dram__bytes_op_write.sum"}, /* RTX 5090, PRO 6000 */
    {"GB203", "dram__bytes_op_read.sum", "dram__bytes_op_write.sum"},
    {"GB205", "dram__bytes_op_read.sum", "dram__bytes_op_write.sum"},
    {"GB206", "dram__bytes_op_read.sum", "dram__bytes_op_write.sum"},
    {"GB207", "dram__bytes_op_read.sum", "dram__bytes_op_write.sum"},
    {"GA10B", NULL, NULL}, /* Jetson Orin: system memory */
    {"GB10B", NULL, NULL}, /* DGX Spark */
};

static void each_chip_gets_the_dram_metrics_it_has_or_none_with_a_reason(void **state)
{
    (void)state;
    if (!fb_test_cupti_answers())
        skip();
    for (size_t i = 0; i < sizeof chip_cases / sizeof chip_cases[0]; i++) {
        const struct chip_case *c = &chip_cases[i];
        uint8_t *image = NULL;
        size_t size = 0, passes = 0;
        struct fb_error err = {{0}};
        struct fb_traffic_names names;
        if (fb_cupti_traffic_config(c->chip, NULL, &image, &size, &passes, &names, &err) != FB_OK)
            fail_msg("fb_cupti_traffic_config(%s): %s", c->chip, err.msg);
        assert_non_null(image);
        assert_string_equal(names.metrics[FB_METRIC_L2], "lts__t_bytes.sum");
        char said[600];
        fb_traffic_names_describe(&names, said, sizeof said);
        if (c->dram_read) {
            assert_non_null(names.metrics[FB_METRIC_DRAM_READ]);
            assert_string_equal(names.metrics[FB_METRIC_DRAM_READ], c->dram_read);
            assert_string_equal(names.metrics[FB_METRIC_DRAM_WRITE], c->dram_write);
            assert_non_null(strstr(said, c->dram_read));
        } else {
            assert_null(names.metrics[FB_METRIC_DRAM_READ]);
            assert_null(names.metrics[FB_METRIC_DRAM_WRITE]);
            assert_non_null(strstr(said, "DRAM bytes NA ("));
            assert_non_null(strstr(said, "no DRAM byte metric resolved on chip"));
            assert_non_null(strstr(said, c->chip));
            assert_non_null(strstr(said, "CUPTI_ERROR_INVALID_PARAMETER"));
            print_message("%s: %s\n", c->chip, said);
        }
        free(image);
    }
}

static void an_unknown_chip_is_unavailable_not_a_crash(void **state)
{
    (void)state;
    uint8_t *image = (uint8_t *)&image;
    size_t size = 1, passes = 1;
    struct fb_error err = {{0}};
    struct fb_traffic_names names;
    assert_int_equal(fb_cupti_traffic_config("NOT_A_CHIP", NULL, &image, &size, &passes, &names,
                                             &err),
                     FB_ERR_UNAVAILABLE);
    assert_null(image);
    assert_int_equal(passes, 0);
    assert_non_null(strstr(err.msg, "NOT_A_CHIP"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hopper_traffic_metrics_fit_in_one_pass),
        cmocka_unit_test(each_chip_gets_the_dram_metrics_it_has_or_none_with_a_reason),
        cmocka_unit_test(an_unknown_chip_is_unavailable_not_a_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
