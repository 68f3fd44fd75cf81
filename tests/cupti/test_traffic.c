/* Summing range-profiler values into a call's traffic (src/cupti/traffic.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "cupti/traffic.h"
#include "cupti_test_util.h"

static void a_fresh_traffic_is_not_measured(void **state)
{
    (void)state;
    struct fb_traffic t;
    fb_traffic_init(&t);
    assert_int_equal(t.dram_read_bytes, -1);
    assert_int_equal(t.dram_write_bytes, -1);
    assert_int_equal(t.l2_bytes, -1);
    assert_int_equal(t.ranges, 0);
    assert_true(isnan(fb_traffic_dram_bytes_per_element(&t, 1000, 4)));
}

static void the_ranges_of_an_eager_call_add_up(void **state)
{
    (void)state;
    /* n = 1M floats: add reads 8 MB, writes 4 MB; relu reads 4 MB, writes 4 MB. The values
     * come from CUPTI as doubles, not always whole numbers of bytes. */
    struct fb_traffic t;
    fb_traffic_init(&t);
    const double add[FB_METRIC_COUNT] = {8e6 + 0.4, 4e6, 12.5e6};
    const double relu[FB_METRIC_COUNT] = {4e6, 4e6 + 0.6, 8.25e6};
    assert_int_equal(fb_traffic_add_range(&t, add, true), 0);
    assert_int_equal(fb_traffic_add_range(&t, relu, true), 0);
    assert_int_equal(t.ranges, 2);
    assert_int_equal(t.dram_read_bytes, 12000000);
    assert_int_equal(t.dram_write_bytes, 8000001);
    assert_int_equal(t.l2_bytes, 20750000);
}

static void dram_bytes_per_element_is_elements_moved_for_an_ideal_call(void **state)
{
    (void)state;
    struct fb_traffic t;
    fb_traffic_init(&t);
    const int64_t n = 1000000;
    /* eager: 5 elements of 4 bytes per output element */
    const double eager[FB_METRIC_COUNT] = {3.0 * 4 * n, 2.0 * 4 * n, 0};
    assert_int_equal(fb_traffic_add_range(&t, eager, true), 0);
    assert_close(fb_traffic_dram_bytes_per_element(&t, n, sizeof(float)), 5.0, 1e-12);
    /* fused, with the output still in L2 (written back later): fewer than 3 */
    fb_traffic_init(&t);
    const double fused[FB_METRIC_COUNT] = {2.0 * 4 * n, 0.5 * 4 * n, 0};
    assert_int_equal(fb_traffic_add_range(&t, fused, true), 0);
    assert_close(fb_traffic_dram_bytes_per_element(&t, n, sizeof(float)), 2.5, 1e-12);
    assert_true(isnan(fb_traffic_dram_bytes_per_element(&t, 0, sizeof(float))));
    assert_true(isnan(fb_traffic_dram_bytes_per_element(&t, n, 0)));
}

static void a_failed_counter_value_adds_nothing(void **state)
{
    (void)state;
    struct fb_traffic t;
    fb_traffic_init(&t);
    const double good[FB_METRIC_COUNT] = {100, 200, 300};
    const double nan_read[FB_METRIC_COUNT] = {NAN, 1, 1};
    const double negative_l2[FB_METRIC_COUNT] = {1, 1, -1};
    assert_int_equal(fb_traffic_add_range(&t, good, true), 0);
    assert_int_equal(fb_traffic_add_range(&t, nan_read, true), -1);
    assert_int_equal(fb_traffic_add_range(&t, negative_l2, true), -1);
    assert_int_equal(t.dram_read_bytes, 100);
    assert_int_equal(t.dram_write_bytes, 200);
    assert_int_equal(t.l2_bytes, 300);
    assert_int_equal(t.ranges, 1);
}

static void the_metric_names_are_those_of_nsight_compute(void **state)
{
    (void)state;
    assert_string_equal(fb_traffic_metric_names[FB_METRIC_DRAM_READ], "dram__bytes_read.sum");
    assert_string_equal(fb_traffic_metric_names[FB_METRIC_DRAM_WRITE], "dram__bytes_write.sum");
    assert_string_equal(fb_traffic_metric_names[FB_METRIC_L2], "lts__t_bytes.sum");
}

/* A chip without DRAM metrics (GB10B): the L2 bytes add up, the DRAM columns stay NA, and
 * the DRAM values (not asked for: whatever is in the array) are not looked at. */
static void without_dram_metrics_only_l2_adds_up(void **state)
{
    (void)state;
    struct fb_traffic t;
    fb_traffic_init(&t);
    const double l2_only[FB_METRIC_COUNT] = {NAN, -1.0, 4096.0};
    assert_int_equal(fb_traffic_add_range(&t, l2_only, false), 0);
    assert_int_equal(fb_traffic_add_range(&t, l2_only, false), 0);
    assert_int_equal(t.l2_bytes, 8192);
    assert_int_equal(t.dram_read_bytes, -1);
    assert_int_equal(t.dram_write_bytes, -1);
    assert_true(isnan(fb_traffic_dram_bytes_per_element(&t, 1024, 4)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_fresh_traffic_is_not_measured),
        cmocka_unit_test(the_ranges_of_an_eager_call_add_up),
        cmocka_unit_test(dram_bytes_per_element_is_elements_moved_for_an_ideal_call),
        cmocka_unit_test(a_failed_counter_value_adds_nothing),
        cmocka_unit_test(the_metric_names_are_those_of_nsight_compute),
        cmocka_unit_test(without_dram_metrics_only_l2_adds_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
