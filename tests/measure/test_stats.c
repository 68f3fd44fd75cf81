/* Order statistics of timing samples: median, percentiles (numpy's "linear" definition),
 * min/max, the median's confidence-interval noise, and that the input is never modified. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "measure/stats.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define EPS 1e-12

/* cmocka 1.1.5's assert_float_equal works in float; timing values need double. */
#define assert_near(a, b, eps)                                                            \
    do {                                                                                  \
        double a_ = (a), b_ = (b);                                                        \
        if (!(fabs(a_ - b_) <= (eps))) {                                                  \
            print_error("%s = %.17g, expected %.17g (+-%g)\n", #a, a_, b_, (double)(eps)); \
            fail();                                                                       \
        }                                                                                 \
    } while (0)

static void median_of_odd_count_is_the_middle_sample(void **state)
{
    (void)state;
    const double x[] = {5.0, 1.0, 3.0, 9.0, 7.0};
    double scratch[COUNT(x)];
    assert_near(fb_stats_median(x, COUNT(x), scratch), 5.0, EPS);
}

static void median_of_even_count_is_the_mean_of_the_two_middle_samples(void **state)
{
    (void)state;
    const double x[] = {4.0, 1.0, 10.0, 2.0};
    double scratch[COUNT(x)];
    /* sorted 1 2 4 10: (2 + 4) / 2 */
    assert_near(fb_stats_median(x, COUNT(x), scratch), 3.0, EPS);
}

static void one_sample_is_its_own_median_min_max_and_percentiles(void **state)
{
    (void)state;
    const double x[] = {2.5e-6};
    double scratch[1];
    assert_near(fb_stats_median(x, 1, scratch), 2.5e-6, 0);
    assert_near(fb_stats_percentile(x, 1, 10, scratch), 2.5e-6, 0);
    assert_near(fb_stats_percentile(x, 1, 90, scratch), 2.5e-6, 0);
    assert_near(fb_stats_min(x, 1), 2.5e-6, 0);
    assert_near(fb_stats_max(x, 1), 2.5e-6, 0);
}

static void no_samples_give_nan(void **state)
{
    (void)state;
    double scratch[1];
    assert_true(isnan(fb_stats_median(NULL, 0, scratch)));
    assert_true(isnan(fb_stats_min(NULL, 0)));
    assert_true(isnan(fb_stats_max(NULL, 0)));
    assert_true(isnan(fb_stats_noise_sorted(NULL, 0)));
    struct fb_stats_summary s;
    assert_int_equal(fb_stats_summarize(NULL, 0, NULL, &s, NULL), FB_OK);
    assert_int_equal(s.n, 0);
    assert_true(isnan(s.median));
}

/* Hand-computed with h = (n - 1) * p / 100 on sorted 10 20 30 40 (n = 4):
 *   p10: h = 0.3 -> 10 + 0.3 * 10 = 13
 *   p25: h = 0.75 -> 17.5;  p90: h = 2.7 -> 30 + 0.7 * 10 = 37;  p100: 40;  p0: 10 */
static void percentiles_interpolate_linearly_between_order_statistics(void **state)
{
    (void)state;
    const double x[] = {40.0, 10.0, 30.0, 20.0};
    double scratch[COUNT(x)];
    assert_near(fb_stats_percentile(x, 4, 0, scratch), 10.0, EPS);
    assert_near(fb_stats_percentile(x, 4, 10, scratch), 13.0, EPS);
    assert_near(fb_stats_percentile(x, 4, 25, scratch), 17.5, EPS);
    assert_near(fb_stats_percentile(x, 4, 90, scratch), 37.0, EPS);
    assert_near(fb_stats_percentile(x, 4, 100, scratch), 40.0, EPS);
}

static void percentiles_outside_0_to_100_are_clamped(void **state)
{
    (void)state;
    const double x[] = {3.0, 1.0, 2.0};
    double scratch[COUNT(x)];
    assert_near(fb_stats_percentile(x, 3, -5, scratch), 1.0, EPS);
    assert_near(fb_stats_percentile(x, 3, 250, scratch), 3.0, EPS);
}

static void min_and_max_of_unsorted_samples(void **state)
{
    (void)state;
    const double x[] = {3.0, -1.0, 8.0, 2.0, 8.0, 0.5};
    assert_near(fb_stats_min(x, COUNT(x)), -1.0, 0);
    assert_near(fb_stats_max(x, COUNT(x)), 8.0, 0);
}

static void unsorted_input_is_left_unchanged(void **state)
{
    (void)state;
    double x[] = {9.0, 2.0, 7.0, 1.0, 5.0, 3.0, 8.0};
    double before[COUNT(x)];
    memcpy(before, x, sizeof x);
    double scratch[COUNT(x)];
    (void)fb_stats_median(x, COUNT(x), scratch);
    (void)fb_stats_percentile(x, COUNT(x), 90, scratch);
    struct fb_stats_summary s;
    assert_int_equal(fb_stats_summarize(x, COUNT(x), NULL, &s, NULL), FB_OK);
    assert_int_equal(fb_stats_summarize(x, COUNT(x), scratch, &s, NULL), FB_OK);
    assert_memory_equal(x, before, sizeof x);
}

static void sort_puts_nan_last(void **state)
{
    (void)state;
    double x[] = {3.0, NAN, 1.0, 2.0};
    fb_stats_sort(x, COUNT(x));
    assert_near(x[0], 1.0, 0);
    assert_near(x[1], 2.0, 0);
    assert_near(x[2], 3.0, 0);
    assert_true(isnan(x[3]));
}

static void noise_of_identical_samples_is_zero(void **state)
{
    (void)state;
    const double x[] = {1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3};
    assert_near(fb_stats_noise_sorted(x, COUNT(x)), 0.0, 0);
    const double zeros[] = {0.0, 0.0, 0.0};
    assert_near(fb_stats_noise_sorted(zeros, COUNT(zeros)), 0.0, 0);
}

static void noise_of_one_sample_is_infinite(void **state)
{
    (void)state;
    const double x[] = {1e-3};
    assert_true(isinf(fb_stats_noise_sorted(x, 1)));
}

/* n = 100: half = 1.96 * 10 / 2 = 9.8; j = floor(50 - 9.8) = 40, k = ceil(51 + 9.8) = 61.
 * Samples 1..100: x_(40) = 40, x_(61) = 61, median 50.5 -> (61 - 40) / 2 / 50.5. */
static void noise_uses_the_binomial_order_statistic_ranks(void **state)
{
    (void)state;
    double x[100];
    for (int i = 0; i < 100; i++)
        x[i] = i + 1;
    assert_near(fb_stats_noise_sorted(x, 100), 21.0 / 2.0 / 50.5, EPS);
}

/* n = 3 (below 8 the ranks clamp): the interval is the full range: (3 - 1) / 2 / 2 = 0.5. */
static void noise_of_few_samples_is_the_full_range(void **state)
{
    (void)state;
    const double x[] = {1.0, 2.0, 3.0};
    assert_near(fb_stats_noise_sorted(x, 3), 0.5, EPS);
}

/* n = 8 is the first count where both ranks fit: j = floor(4 - 2.77) = 1,
 * k = ceil(5 + 2.77) = 8; n = 9: j = floor(4.5 - 2.94) = 1, k = ceil(5.5 + 2.94) = 9;
 * n = 20: half = 4.38, j = floor(5.62) = 5, k = ceil(15.38) = 16. */
static void noise_ranks_at_small_counts(void **state)
{
    (void)state;
    double x[20];
    for (int i = 0; i < 20; i++)
        x[i] = i + 1;
    assert_near(fb_stats_noise_sorted(x, 20), (16.0 - 5.0) / 2.0 / 10.5, EPS);
    assert_near(fb_stats_noise_sorted(x, 9), (9.0 - 1.0) / 2.0 / 5.0, EPS);
    assert_near(fb_stats_noise_sorted(x, 8), (8.0 - 1.0) / 2.0 / 4.5, EPS);
}

static void noise_with_zero_median_and_spread_is_infinite(void **state)
{
    (void)state;
    const double x[] = {-1.0, 0.0, 1.0};
    assert_true(isinf(fb_stats_noise_sorted(x, 3)));
}

static void summary_holds_every_statistic(void **state)
{
    (void)state;
    double x[11];
    for (int i = 0; i < 11; i++)
        x[i] = (double)((i * 7) % 11); /* a permutation of 0..10 */
    struct fb_stats_summary s;
    assert_int_equal(fb_stats_summarize(x, 11, NULL, &s, NULL), FB_OK);
    assert_int_equal(s.n, 11);
    assert_near(s.median, 5.0, EPS);
    assert_near(s.min, 0.0, EPS);
    assert_near(s.max, 10.0, EPS);
    assert_near(s.p10, 1.0, EPS); /* h = 10 * 0.1 = 1 */
    assert_near(s.p90, 9.0, EPS);
    /* n = 11: half = 3.25, j = floor(2.25) = 2, k = ceil(9.75) = 10: x_(2) = 1, x_(10) = 9 */
    assert_near(s.noise, (9.0 - 1.0) / 2.0 / 5.0, EPS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median_of_odd_count_is_the_middle_sample),
        cmocka_unit_test(median_of_even_count_is_the_mean_of_the_two_middle_samples),
        cmocka_unit_test(one_sample_is_its_own_median_min_max_and_percentiles),
        cmocka_unit_test(no_samples_give_nan),
        cmocka_unit_test(percentiles_interpolate_linearly_between_order_statistics),
        cmocka_unit_test(percentiles_outside_0_to_100_are_clamped),
        cmocka_unit_test(min_and_max_of_unsorted_samples),
        cmocka_unit_test(unsorted_input_is_left_unchanged),
        cmocka_unit_test(sort_puts_nan_last),
        cmocka_unit_test(noise_of_identical_samples_is_zero),
        cmocka_unit_test(noise_of_one_sample_is_infinite),
        cmocka_unit_test(noise_uses_the_binomial_order_statistic_ranks),
        cmocka_unit_test(noise_of_few_samples_is_the_full_range),
        cmocka_unit_test(noise_ranks_at_small_counts),
        cmocka_unit_test(noise_with_zero_median_and_spread_is_infinite),
        cmocka_unit_test(summary_holds_every_statistic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
