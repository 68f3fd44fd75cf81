/* The derived numbers (measure/pairing.h): speedup = t_row / t_pair and copy_fraction =
 * bandwidth / the copy ceiling's, found by pair and by role whatever the rows' order, empty
 * when a row they need is missing or not ok, and kept apart per size and cache mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/pairing.h"

static struct fb_record row(const char *variant, const char *role, const char *pair, int64_t n,
                            double time_s, double gbps)
{
    struct fb_record r;
    fb_record_init(&r);
    snprintf(r.backend, sizeof r.backend, "cpu");
    snprintf(r.device, sizeof r.device, "test cpu");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    snprintf(r.role, sizeof r.role, "%s", role);
    snprintf(r.pair, sizeof r.pair, "%s", pair);
    snprintf(r.dtype, sizeof r.dtype, "fp32");
    snprintf(r.cache, sizeof r.cache, "warm");
    r.n = n;
    r.time_median_s = time_s;
    r.bandwidth_gbps = gbps;
    r.status = FB_POINT_OK;
    r.verified = true;
    return r;
}

static void assert_near(double got, double want)
{
    assert_false(isnan(got));
    assert_true(fabs(got - want) <= 1e-12 * fabs(want));
}

static void speedup_is_the_row_time_over_its_pair_fused_after_eager(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("eager_mul_relu", "eager", "fused_mul_relu", 1000, 6e-6, 1),
        row("fused_mul_relu", "fused", "", 1000, 2e-6, 1),
    };
    fb_pairing_derive_group(r, 2, 1);
    assert_near(r[0].speedup, 3.0);
    assert_true(isnan(r[1].speedup)); /* the fused row has no pair */
}

static void speedup_is_found_when_the_fused_row_comes_first(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("fused_mul_relu", "fused", "", 1000, 2e-6, 1),
        row("eager_mul_relu", "eager", "fused_mul_relu", 1000, 5e-6, 1),
    };
    fb_pairing_derive_group(r, 2, 1);
    assert_near(r[1].speedup, 2.5);
}

static void each_chain_is_held_against_its_own_pair(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("eager_add_relu", "eager", "fused_add_relu", 8, 4e-6, 1),
        row("eager_mul_relu", "eager", "fused_mul_relu", 8, 9e-6, 1),
        row("fused_add_relu", "fused", "", 8, 1e-6, 1),
        row("fused_mul_relu", "fused", "", 8, 3e-6, 1),
        row("fused_generic_add_relu", "fused", "fused_add_relu", 8, 1.25e-6, 1),
    };
    fb_pairing_derive_all(r, 5);
    assert_near(r[0].speedup, 4.0);
    assert_near(r[1].speedup, 3.0);
    assert_near(r[4].speedup, 1.25); /* t_generic / t_handwritten */
}

static void a_missing_pair_leaves_speedup_empty(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("eager_mul_relu", "eager", "fused_mul_relu", 1000, 6e-6, 1),
        row("fused_mul_relu", "fused", "", 2000, 2e-6, 1), /* another size */
    };
    fb_pairing_derive_all(r, 2);
    assert_true(isnan(r[0].speedup));
}

static void a_pair_that_is_not_ok_gives_no_speedup(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("eager_mul_relu", "eager", "fused_mul_relu", 1000, 6e-6, 1),
        row("fused_mul_relu", "fused", "", 1000, 2e-6, 1),
    };
    r[0].speedup = 42; /* a stale value is cleared, not kept */
    r[1].status = FB_POINT_FAILED;
    fb_pairing_derive_all(r, 2);
    assert_true(isnan(r[0].speedup));
    r[1].status = FB_POINT_SKIPPED;
    fb_pairing_derive_all(r, 2);
    assert_true(isnan(r[0].speedup));
    /* the row itself not ok (or any status other than ok: noisy too) */
    r[1].status = FB_POINT_OK;
    r[0].status = FB_POINT_FAILED;
    fb_pairing_derive_all(r, 2);
    assert_true(isnan(r[0].speedup));
    r[0].status = (enum fb_point_status)(FB_POINT_SKIPPED + 1);
    fb_pairing_derive_all(r, 2);
    assert_true(isnan(r[0].speedup));
    /* ok, but without a time */
    r[0].status = FB_POINT_OK;
    r[1].time_median_s = NAN;
    fb_pairing_derive_all(r, 2);
    assert_true(isnan(r[0].speedup));
}

static void copy_fraction_comes_from_the_row_whose_role_is_the_ceiling(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("fused_mul_relu", "fused", "", 64, 1e-6, 30),
        row("copy", "platform_reference", "", 64, 1e-6, 100), /* named copy, not the ceiling */
        row("my_ceiling", "copy_ceiling", "", 64, 1e-6, 40),
        row("fused_mul_relu", "fused", "", 128, 1e-6, 30), /* no ceiling at this size */
    };
    fb_pairing_derive_all(r, 4);
    assert_near(r[0].copy_fraction, 0.75);
    assert_near(r[2].copy_fraction, 1.0);
    assert_true(isnan(r[3].copy_fraction));
    r[2].status = FB_POINT_FAILED;
    fb_pairing_derive_all(r, 4);
    assert_true(isnan(r[0].copy_fraction));
}

static void sizes_and_cache_modes_are_kept_apart_and_the_later_row_wins(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("eager_x", "eager", "fused_x", 8, 4e-6, 1),
        row("fused_x", "fused", "", 8, 1e-6, 1),
        row("fused_x", "fused", "", 8, 5e-6, 1), /* cold: another group */
        row("fused_x", "fused", "", 8, 2e-6, 1), /* measured again (a resumed run) */
    };
    snprintf(r[2].cache, sizeof r[2].cache, "cold");
    fb_pairing_derive_group(r, 4, 0);
    assert_near(r[0].speedup, 2.0);
}

static void rows_of_older_files_take_role_and_pair_from_the_builtins(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("eager_add_threshold", "", "", 8, 4e-6, 1),
        row("copy", "", "", 8, 4e-6, 1),
        row("torch_eager_add_relu", "", "", 8, 4e-6, 1),
        row("eager_add_relu", "eager", "something_else", 8, 4e-6, 1),
    };
    fb_pairing_fill_builtin_roles(r, 4);
    assert_string_equal(r[0].role, "eager");
    assert_string_equal(r[0].pair, "fused_add_relu");
    assert_string_equal(r[1].role, "copy_ceiling");
    assert_string_equal(r[1].pair, "");
    assert_string_equal(r[2].role, ""); /* not a built-in: left alone */
    assert_string_equal(r[3].pair, "something_else"); /* has a role: left alone */
}

static void missing_numbers_are_filled_and_present_ones_kept(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        row("eager_x", "eager", "fused_x", 8, 4e-6, 0),
        row("fused_x", "fused", "", 8, 1e-6, 0),
        row("ceiling", "copy_ceiling", "", 8, 1e-6, 0),
    };
    /* bandwidth_gbps as a file rounds it (0.0000 at n = 8): taken from bytes and time */
    r[0].bytes_model = 160;
    r[1].bytes_model = 96;
    r[2].bytes_model = 64;
    r[1].speedup = 7; /* a fused row holding one: kept */
    r[2].copy_fraction = 1;
    fb_pairing_derive_missing(r, 3);
    assert_near(r[0].speedup, 4.0);
    assert_near(r[0].copy_fraction, (160 / 4e-6) / (64 / 1e-6));
    assert_near(r[1].speedup, 7.0);
    assert_near(r[2].copy_fraction, 1.0);
}

/* A peer's row measured beside ours: ours_ratio = t_mirror / t_row, with the interval from
 * both rows' noise; the peer's own speedup is still taken against its own pair. */
static struct fb_record peer_row(const char *variant, const char *mirror, const char *pair,
                                 double time_s, double noise)
{
    struct fb_record r = row(variant, pair[0] ? "eager" : "fused", pair, 1000, time_s, 1);
    snprintf(r.backend, sizeof r.backend, "torch");
    snprintf(r.mirror, sizeof r.mirror, "%s", mirror);
    r.noise = noise;
    return r;
}

static void ours_ratio_is_the_mirror_time_over_the_peer_row_with_its_interval(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        peer_row("torch_eager_add_relu", "eager_add_relu", "torch_compile_add_relu", 8e-6, 0.02),
        row("eager_add_relu", "eager", "fused_add_relu", 1000, 4e-6, 1),
        peer_row("torch_compile_add_relu", "fused_add_relu", "", 5e-6, 0.5),
        row("fused_add_relu", "fused", "", 1000, 2e-6, 1),
    };
    r[1].noise = 0.01;
    r[3].noise = 0.1;
    assert_true(fb_pairing_derive_all(r, 4));
    assert_near(r[0].ours_ratio, 0.5);
    assert_near(r[0].ours_ratio_lo, 0.5 * 0.99 / 1.02);
    assert_near(r[0].ours_ratio_hi, 0.5 * 1.01 / 0.98);
    assert_near(r[2].ours_ratio, 0.4);
    assert_near(r[2].ours_ratio_lo, 0.4 * 0.9 / 1.5);
    assert_near(r[2].ours_ratio_hi, 0.4 * 1.1 / 0.5);
    assert_near(r[0].speedup, 8.0 / 5.0); /* torch's own eager / compile */
    assert_true(isnan(r[1].ours_ratio));  /* our rows mirror nothing */
}

static void ours_ratio_needs_the_mirror_at_the_same_size_and_ok(void **unused)
{
    (void)unused;
    struct fb_record r[] = {
        peer_row("torch_eager_add_relu", "eager_add_relu", "", 8e-6, 0.02),
        row("eager_add_relu", "eager", "", 2000, 4e-6, 1), /* another size */
        peer_row("torch_compile_add_relu", "fused_add_relu", "", 5e-6, 1.5),
        row("fused_add_relu", "fused", "", 1000, 2e-6, 1),
        peer_row("torch_x", "eager_x", "", 5e-6, 0.1),
        row("eager_x", "eager", "", 1000, 2e-6, 1),
    };
    r[3].noise = 0.1;
    r[5].status = FB_POINT_FAILED;
    assert_true(fb_pairing_derive_all(r, 6));
    assert_true(isnan(r[0].ours_ratio));
    assert_near(r[2].ours_ratio, 0.4);
    assert_true(isnan(r[2].ours_ratio_hi)); /* e_row >= 1: no upper bound */
    assert_true(isnan(r[4].ours_ratio));    /* its mirror failed */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(speedup_is_the_row_time_over_its_pair_fused_after_eager),
        cmocka_unit_test(speedup_is_found_when_the_fused_row_comes_first),
        cmocka_unit_test(each_chain_is_held_against_its_own_pair),
        cmocka_unit_test(a_missing_pair_leaves_speedup_empty),
        cmocka_unit_test(a_pair_that_is_not_ok_gives_no_speedup),
        cmocka_unit_test(copy_fraction_comes_from_the_row_whose_role_is_the_ceiling),
        cmocka_unit_test(sizes_and_cache_modes_are_kept_apart_and_the_later_row_wins),
        cmocka_unit_test(rows_of_older_files_take_role_and_pair_from_the_builtins),
        cmocka_unit_test(missing_numbers_are_filled_and_present_ones_kept),
        cmocka_unit_test(ours_ratio_is_the_mirror_time_over_the_peer_row_with_its_interval),
        cmocka_unit_test(ours_ratio_needs_the_mirror_at_the_same_size_and_ok),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
