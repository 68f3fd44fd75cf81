/* The rule that ends a timing loop: rep cap, time cap, and "stable enough" (min reps,
 * min time and noise at or under target, all three). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "measure/stats.h"

static const struct fb_stop_rule rule = {
    .min_reps = 10,
    .max_reps = 1000,
    .min_time_s = 0.1,
    .max_time_s = 2.0,
    .target_noise = 0.01,
};

static void stops_when_stable_after_min_reps_and_min_time(void **state)
{
    (void)state;
    assert_true(fb_stats_should_stop(&rule, 10, 0.1, 0.01));
    assert_true(fb_stats_should_stop(&rule, 50, 0.5, 0.001));
}

static void continues_below_min_reps_even_when_quiet(void **state)
{
    (void)state;
    assert_false(fb_stats_should_stop(&rule, 9, 1.0, 0.0));
}

static void continues_below_min_time_even_when_quiet(void **state)
{
    (void)state;
    assert_false(fb_stats_should_stop(&rule, 500, 0.05, 0.0));
}

static void continues_while_noise_is_over_target(void **state)
{
    (void)state;
    assert_false(fb_stats_should_stop(&rule, 100, 1.0, 0.0101));
}

static void unknown_noise_never_counts_as_stable(void **state)
{
    (void)state;
    assert_false(fb_stats_should_stop(&rule, 100, 1.0, NAN));
    assert_false(fb_stats_should_stop(&rule, 100, 1.0, INFINITY));
}

static void stops_at_max_reps_however_noisy(void **state)
{
    (void)state;
    assert_true(fb_stats_should_stop(&rule, 1000, 0.01, 0.5));
    assert_true(fb_stats_should_stop(&rule, 1001, 0.01, NAN));
}

static void time_cap_overrides_min_reps(void **state)
{
    (void)state;
    /* A point that takes 3 s per call: one sample, then stop. */
    assert_true(fb_stats_should_stop(&rule, 1, 3.0, INFINITY));
    assert_true(fb_stats_should_stop(&rule, 5, 2.0, 0.5));
}

static void never_stops_before_the_first_sample(void **state)
{
    (void)state;
    assert_false(fb_stats_should_stop(&rule, 0, 10.0, 0.0));
    const struct fb_stop_rule zero_cap = {.min_reps = 0, .max_reps = 0};
    assert_false(fb_stats_should_stop(&zero_cap, 0, 0.0, 0.0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stops_when_stable_after_min_reps_and_min_time),
        cmocka_unit_test(continues_below_min_reps_even_when_quiet),
        cmocka_unit_test(continues_below_min_time_even_when_quiet),
        cmocka_unit_test(continues_while_noise_is_over_target),
        cmocka_unit_test(unknown_noise_never_counts_as_stable),
        cmocka_unit_test(stops_at_max_reps_however_noisy),
        cmocka_unit_test(time_cap_overrides_min_reps),
        cmocka_unit_test(never_stops_before_the_first_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
