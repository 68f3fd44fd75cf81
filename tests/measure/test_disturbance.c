/* The decision "was this sample disturbed?" on injected readings: the host's run delay and
 * involuntary switches, and the GPU's clock, throttle reasons and processes as NVML gives
 * them, each on both sides of its threshold (measure/disturbance.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "measure/disturbance.h"

static struct fb_disturbance_reading unknown(void)
{
    struct fb_disturbance_reading r;
    fb_disturbance_reading_clear(&r);
    return r;
}

/* A host reading pair: `waited_s` more run delay and `switches` more involuntary switches at
 * the end than at the start (counters that started at 1.0 s and 100 switches). */
static void host_pair(struct fb_disturbance_reading *b, struct fb_disturbance_reading *a,
                      double waited_s, int64_t switches)
{
    *b = unknown();
    *a = unknown();
    b->run_delay_s = 1.0;
    a->run_delay_s = 1.0 + waited_s;
    b->involuntary_switches = 100;
    a->involuntary_switches = 100 + switches;
}

static struct fb_disturbance_reading gpu(unsigned clock, unsigned max, uint64_t reasons,
                                         int processes)
{
    struct fb_disturbance_reading r = unknown();
    r.gpu_valid = true;
    r.sm_clock_mhz = clock;
    r.sm_clock_max_mhz = max;
    r.clock_event_reasons = reasons;
    r.compute_processes = processes;
    return r;
}

static void nothing_known_is_clean(void **state)
{
    (void)state;
    struct fb_disturbance_reading b = unknown(), a = unknown();
    char why[160] = "stale";
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "");
}

static void run_delay_under_two_percent_of_the_sample_is_clean(void **state)
{
    (void)state;
    struct fb_disturbance_reading b, a;
    host_pair(&b, &a, 0.019e-3, 0); /* 1.9% of 1 ms */
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, NULL, 0));
    host_pair(&b, &a, 0.0, 0);
    assert_false(fb_disturbance_judge(&b, &a, 20e-6, NULL, 0));
    /* With run delay known, a switch that cost (almost) nothing is no disturbance. */
    host_pair(&b, &a, 0.1e-6, 1);
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, NULL, 0));
}

static void run_delay_over_two_percent_is_disturbed_and_says_how_much(void **state)
{
    (void)state;
    struct fb_disturbance_reading b, a;
    char why[160];
    host_pair(&b, &a, 0.021e-3, 0); /* 2.1% of 1 ms */
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_non_null(strstr(why, "waited 0.021 ms"));
    /* The motivating case: 1K-element calls at 8-16 ms, threads waiting most of it. */
    host_pair(&b, &a, 14e-3, 3);
    assert_true(fb_disturbance_judge(&b, &a, 16e-3, why, sizeof why));
    assert_non_null(strstr(why, "14 ms"));
    assert_non_null(strstr(why, "3 involuntary context switches"));
}

static void without_run_delay_any_involuntary_switch_is_disturbed(void **state)
{
    (void)state;
    struct fb_disturbance_reading b, a;
    char why[160];
    host_pair(&b, &a, 0.0, 1);
    b.run_delay_s = a.run_delay_s = NAN; /* a kernel without scheduler statistics */
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "1 involuntary context switch");
    host_pair(&b, &a, 0.0, 0);
    b.run_delay_s = a.run_delay_s = NAN;
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    /* unknown switch counts decide nothing either */
    b.involuntary_switches = -1;
    a.involuntary_switches = 5;
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
}

static void sm_clock_below_three_quarters_of_its_maximum_is_disturbed(void **state)
{
    (void)state;
    struct fb_disturbance_reading b = unknown(), a;
    char why[160];
    a = gpu(1980, 1980, 0, 1);
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    a = gpu(1485, 1980, 0, 1); /* exactly 75% */
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    a = gpu(1484, 1980, 0, 1);
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "SM clock 1484 of 1980 MHz");
    a = gpu(345, 0, 0, 1); /* maximum unknown: the clock decides nothing */
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
}

static void thermal_and_slowdown_reasons_are_disturbed_idle_and_power_cap_are_not(void **state)
{
    (void)state;
    struct fb_disturbance_reading b = unknown(), a;
    char why[160];
    a = gpu(1980, 1980, 0x1 | 0x2 | 0x4 | 0x10 | 0x100, 1); /* idle, app clocks, power cap */
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    a = gpu(1980, 1980, FB_GPU_REASON_HW_THERMAL, 1);
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "GPU clocks held down by hardware thermal slowdown");
    a = gpu(1980, 1980, FB_GPU_REASON_HW_SLOWDOWN | FB_GPU_REASON_HW_POWER_BRAKE, 1);
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "GPU clocks held down by hardware slowdown, power brake");
    a = gpu(1980, 1980, FB_GPU_REASON_SW_THERMAL, 1);
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, NULL, 0));
}

static void another_process_on_the_gpu_is_disturbed(void **state)
{
    (void)state;
    struct fb_disturbance_reading b = unknown(), a;
    char why[160];
    a = gpu(1980, 1980, 0, 1); /* this process alone */
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    a = gpu(1980, 1980, 0, -1); /* unknown */
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    a = gpu(1980, 1980, 0, 2);
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "1 other process on the GPU");
    a = gpu(1980, 1980, 0, 4);
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "3 other processes on the GPU");
}

static void gpu_part_is_ignored_when_not_valid(void **state)
{
    (void)state;
    struct fb_disturbance_reading b = unknown(), a = gpu(100, 1980, 0xff, 9);
    a.gpu_valid = false;
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, NULL, 0));
}

static void host_and_gpu_reasons_are_all_given(void **state)
{
    (void)state;
    struct fb_disturbance_reading b, a;
    char why[300];
    host_pair(&b, &a, 5e-3, 2);
    struct fb_disturbance_reading g = gpu(900, 1980, 0, 2);
    a.gpu_valid = true;
    a.sm_clock_mhz = g.sm_clock_mhz;
    a.sm_clock_max_mhz = g.sm_clock_max_mhz;
    a.compute_processes = g.compute_processes;
    assert_true(fb_disturbance_judge(&b, &a, 10e-3, why, sizeof why));
    assert_non_null(strstr(why, "waited 5 ms"));
    assert_non_null(strstr(why, "; SM clock 900 of 1980 MHz; 1 other process on the GPU"));
    /* A short buffer is cut, never overrun. */
    char tiny[12];
    assert_true(fb_disturbance_judge(&b, &a, 10e-3, tiny, sizeof tiny));
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

/* A T4 at its 70 W cap: ~900 MHz under a memory-bound kernel, below 75% of its 1590 MHz
 * boost but far over its 585 MHz application clock, which is what it holds: not disturbed.
 * The held clock still judges a clock that really falls. */
static void the_clock_is_judged_against_the_clock_the_gpu_holds(void **state)
{
    (void)state;
    char why[200];
    struct fb_disturbance_reading b = unknown(), a = gpu(900, 1590, 0x4, 1);
    a.sm_clock_held_mhz = 585;
    assert_false(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    a.sm_clock_mhz = 400;
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "SM clock 400 MHz, under 75% of the 585 MHz it holds (max 1590)");
    a.sm_clock_held_mhz = 0; /* NVML gives no application clock (GeForce): the maximum */
    a.sm_clock_mhz = 900;
    assert_true(fb_disturbance_judge(&b, &a, 1e-3, why, sizeof why));
    assert_string_equal(why, "SM clock 900 of 1590 MHz");
}

/* [measure] gpu_min_clock and gpu_other_processes relax the rules they name, and say which
 * rules a sample tripped. */
static void the_rules_relax_by_their_settings(void **state)
{
    (void)state;
    struct fb_disturbance_reading b = unknown(), a = gpu(300, 1590, 0, 2);
    const struct fb_disturbance_rules strict = FB_DISTURBANCE_RULES_DEFAULT;
    assert_int_equal(fb_disturbance_judge_by(&b, &a, 1e-3, &strict, NULL, 0),
                     FB_DISTURBED_CLOCK | FB_DISTURBED_PROCESSES);
    const struct fb_disturbance_rules relaxed = {0.0, 1};
    assert_int_equal(fb_disturbance_judge_by(&b, &a, 1e-3, &relaxed, NULL, 0), 0);
    a.compute_processes = 3; /* a second other process is still one too many */
    assert_int_equal(fb_disturbance_judge_by(&b, &a, 1e-3, &relaxed, NULL, 0),
                     FB_DISTURBED_PROCESSES);
    a.clock_event_reasons = FB_GPU_REASON_HW_THERMAL; /* no setting relaxes these */
    assert_int_equal(fb_disturbance_judge_by(&b, &a, 1e-3, &relaxed, NULL, 0),
                     FB_DISTURBED_PROCESSES | FB_DISTURBED_REASONS);
}

/* The up-front note names the setting of each relaxable rule tripped, and only those. */
static void the_first_note_names_the_setting_of_each_rule_tripped(void **state)
{
    (void)state;
    const struct fb_disturbance_rules rules = FB_DISTURBANCE_RULES_DEFAULT;
    char line[900];
    assert_true(fb_disturbance_first_note(FB_DISTURBED_PROCESSES, "1 other process on the GPU",
                                          &rules, line, sizeof line));
    assert_non_null(strstr(line, "(1 other process on the GPU)"));
    assert_non_null(strstr(line, "[measure] gpu_other_processes = 1"));
    assert_null(strstr(line, "gpu_min_clock"));
    assert_null(strchr(line, '\n'));
    assert_true(fb_disturbance_first_note(FB_DISTURBED_CLOCK | FB_DISTURBED_HOST, "x", &rules,
                                          line, sizeof line));
    assert_non_null(strstr(line, "[measure] gpu_min_clock = 0"));
    assert_null(strstr(line, "gpu_other_processes"));
    strcpy(line, "untouched");
    assert_false(fb_disturbance_first_note(FB_DISTURBED_HOST | FB_DISTURBED_REASONS, "x", &rules,
                                           line, sizeof line));
    assert_false(fb_disturbance_first_note(0, "", &rules, line, sizeof line));
    assert_string_equal(line, "untouched");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_known_is_clean),
        cmocka_unit_test(run_delay_under_two_percent_of_the_sample_is_clean),
        cmocka_unit_test(run_delay_over_two_percent_is_disturbed_and_says_how_much),
        cmocka_unit_test(without_run_delay_any_involuntary_switch_is_disturbed),
        cmocka_unit_test(sm_clock_below_three_quarters_of_its_maximum_is_disturbed),
        cmocka_unit_test(thermal_and_slowdown_reasons_are_disturbed_idle_and_power_cap_are_not),
        cmocka_unit_test(another_process_on_the_gpu_is_disturbed),
        cmocka_unit_test(gpu_part_is_ignored_when_not_valid),
        cmocka_unit_test(host_and_gpu_reasons_are_all_given),
        cmocka_unit_test(the_clock_is_judged_against_the_clock_the_gpu_holds),
        cmocka_unit_test(the_rules_relax_by_their_settings),
        cmocka_unit_test(the_first_note_names_the_setting_of_each_rule_tripped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
