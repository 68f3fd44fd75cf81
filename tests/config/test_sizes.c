/* fb_sizes_parse: ranges, suffixes, lists, ordering and every rejected token. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"

static uint64_t sizes[FB_MAX_SIZES];
static size_t n;
static struct fb_error err;

static int parse(const char *text, int ppd)
{
    n = 0;
    err.msg[0] = '\0';
    return fb_sizes_parse(text, ppd, sizes, FB_MAX_SIZES, &n, &err);
}

static int contains(uint64_t x)
{
    for (size_t i = 0; i < n; i++)
        if (sizes[i] == x)
            return 1;
    return 0;
}

static void assert_sizes(const uint64_t *want, size_t count)
{
    assert_int_equal(n, count);
    for (size_t i = 0; i < count; i++)
        assert_int_equal(sizes[i], want[i]);
}

static void test_default_range_includes_endpoints_and_every_power_of_ten(void **state)
{
    (void)state;
    assert_int_equal(parse("8..100M", 6), FB_OK);
    assert_int_equal(sizes[0], 8);
    assert_int_equal(sizes[n - 1], 100000000);
    for (uint64_t p = 10; p <= 100000000; p *= 10)
        assert_true(contains(p));
    /* 7 decades from 10 to 1e8 at 6 per decade, plus 10 itself and the endpoint 8. */
    assert_int_equal(n, 7 * 6 + 1 + 1);
}

static void test_range_is_sorted_strictly_ascending(void **state)
{
    (void)state;
    assert_int_equal(parse("8..100M", 6), FB_OK);
    for (size_t i = 1; i < n; i++)
        assert_true(sizes[i - 1] < sizes[i]);
}

static void test_range_points_are_log_spaced_by_the_density(void **state)
{
    (void)state;
    assert_int_equal(parse("1K..1M", 10), FB_OK);
    assert_int_equal(n, 31);
    /* Successive ratios equal 10^(1/10) = 1.2589 up to rounding to integers (< 0.1% here). */
    for (size_t i = 1; i < n; i++) {
        double r = (double)sizes[i] / (double)sizes[i - 1];
        assert_true(r > 1.2589 * 0.999 && r < 1.2589 * 1.001);
    }
}

static void test_range_with_one_point_per_decade_is_powers_of_ten_plus_endpoints(void **state)
{
    (void)state;
    assert_int_equal(parse("3..2000", 1), FB_OK);
    const uint64_t want[] = {3, 10, 100, 1000, 2000};
    assert_sizes(want, 5);
}

static void test_range_rounds_grid_points_to_integers(void **state)
{
    (void)state;
    assert_int_equal(parse("1..100", 2), FB_OK);
    const uint64_t want[] = {1, 3, 10, 32, 100}; /* 10^0.5 = 3.16, 10^1.5 = 31.6 */
    assert_sizes(want, 5);
}

static void test_range_of_equal_endpoints_is_one_size(void **state)
{
    (void)state;
    assert_int_equal(parse("4096..4Ki", 6), FB_OK);
    const uint64_t want[] = {4096};
    assert_sizes(want, 1);
}

static void test_suffixes_and_scientific_notation(void **state)
{
    (void)state;
    assert_int_equal(parse("1K, 1M, 1G, 1Ki, 1Mi, 1Gi, 1e6, 1.5K, 2e3, 3k", 6), FB_OK);
    const uint64_t want[] = {1000,    1024,       1500,       2000,
                             3000,    1000000,    1048576,    1000000000,
                             1073741824};
    assert_sizes(want, 9);
}

static void test_list_mixes_ranges_and_single_sizes(void **state)
{
    (void)state;
    assert_int_equal(parse("1K..1M, 4099", 3), FB_OK);
    assert_true(contains(4099));
    assert_true(contains(1000));
    assert_true(contains(1000000));
    assert_int_equal(n, 3 * 3 + 1 + 1);
}

static void test_list_is_sorted_and_unique(void **state)
{
    (void)state;
    assert_int_equal(parse("100, 8, 100, 8, 1e2, 0.1K", 6), FB_OK);
    const uint64_t want[] = {8, 100};
    assert_sizes(want, 2);
}

static void test_unknown_suffix_names_the_token(void **state)
{
    (void)state;
    assert_int_equal(parse("8, 1X, 16", 6), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "\"1X\""));
    assert_non_null(strstr(err.msg, "unknown suffix \"X\""));
}

static void test_bad_range_endpoint_names_the_token(void **state)
{
    (void)state;
    assert_int_equal(parse("8..lots", 6), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "\"lots\""));
    assert_non_null(strstr(err.msg, "not a number"));
}

static void test_zero_is_rejected(void **state)
{
    (void)state;
    assert_int_equal(parse("0", 6), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "at least 1"));
    assert_int_equal(parse("0..100", 6), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "\"0\""));
}

static void test_negative_is_rejected(void **state)
{
    (void)state;
    assert_int_equal(parse("-5", 6), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "\"-5\""));
    assert_non_null(strstr(err.msg, "at least 1"));
}

static void test_fraction_is_rejected(void **state)
{
    (void)state;
    assert_int_equal(parse("2.5", 6), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "not a whole number"));
    assert_int_equal(parse("1.0001K", 6), FB_ERR_USAGE);
}

static void test_backwards_range_is_rejected(void **state)
{
    (void)state;
    assert_int_equal(parse("100..8", 6), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "backwards"));
}

static void test_empty_item_and_empty_text_are_rejected(void **state)
{
    (void)state;
    assert_int_equal(parse("8,,16", 6), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "empty item"));
    assert_int_equal(parse("8,", 6), FB_ERR_USAGE);
    assert_int_equal(parse("", 6), FB_ERR_USAGE);
}

static void test_hex_inf_and_nan_are_not_numbers(void **state)
{
    (void)state;
    assert_int_equal(parse("0x10", 6), FB_ERR_USAGE);
    assert_int_equal(parse("inf", 6), FB_ERR_USAGE);
    assert_int_equal(parse("nan", 6), FB_ERR_USAGE);
}

static void test_more_sizes_than_the_limit_is_rejected(void **state)
{
    (void)state;
    size_t count = 0;
    /* 1..1G at 100 per decade gives 901 sizes: more than a limit of 100. */
    assert_int_equal(fb_sizes_parse("1..1G", 100, sizes, 100, &count, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "limit of 100"));
}

static void test_density_out_of_range_is_rejected(void **state)
{
    (void)state;
    assert_int_equal(parse("8..100", 0), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "points_per_decade"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_range_includes_endpoints_and_every_power_of_ten),
        cmocka_unit_test(test_range_is_sorted_strictly_ascending),
        cmocka_unit_test(test_range_points_are_log_spaced_by_the_density),
        cmocka_unit_test(test_range_with_one_point_per_decade_is_powers_of_ten_plus_endpoints),
        cmocka_unit_test(test_range_rounds_grid_points_to_integers),
        cmocka_unit_test(test_range_of_equal_endpoints_is_one_size),
        cmocka_unit_test(test_suffixes_and_scientific_notation),
        cmocka_unit_test(test_list_mixes_ranges_and_single_sizes),
        cmocka_unit_test(test_list_is_sorted_and_unique),
        cmocka_unit_test(test_unknown_suffix_names_the_token),
        cmocka_unit_test(test_bad_range_endpoint_names_the_token),
        cmocka_unit_test(test_zero_is_rejected),
        cmocka_unit_test(test_negative_is_rejected),
        cmocka_unit_test(test_fraction_is_rejected),
        cmocka_unit_test(test_backwards_range_is_rejected),
        cmocka_unit_test(test_empty_item_and_empty_text_are_rejected),
        cmocka_unit_test(test_hex_inf_and_nan_are_not_numbers),
        cmocka_unit_test(test_more_sizes_than_the_limit_is_rejected),
        cmocka_unit_test(test_density_out_of_range_is_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
