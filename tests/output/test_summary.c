/* The terminal summary: "-" for what was not measured, a row shown against its own pair
 * (the record's pair, never a name the summary knows) only within one point (same backend,
 * device, dtype, cache, stores), and the speedup as the records hold it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/fit.h"
#include "measure/pairing.h"
#include "output/retake_hint.h"
#include "output/summary.h"

static struct fb_record row(const char *variant, int64_t n, const char *cache, double t,
                            int64_t launches)
{
    struct fb_record r;
    fb_record_init(&r);
    snprintf(r.backend, sizeof r.backend, "cpu");
    snprintf(r.device, sizeof r.device, "test cpu");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    snprintf(r.dtype, sizeof r.dtype, "fp32");
    snprintf(r.cache, sizeof r.cache, "%s", cache);
    r.n = n;
    r.time_median_s = t;
    r.launches = launches;
    r.bandwidth_gbps = 1.0;
    r.status = FB_POINT_OK;
    if (strncmp(variant, "eager_", 6) == 0) { /* as the runner fills them (plan/variants.h) */
        snprintf(r.role, sizeof r.role, "eager");
        snprintf(r.pair, sizeof r.pair, "fused_%s", variant + 6);
    } else {
        snprintf(r.role, sizeof r.role, "fused");
    }
    return r;
}

/* The summary of records as one string (malloc'ed; the caller frees). */
static char *summary_of(const struct fb_record *records, size_t count)
{
    char *text = calloc(1, 65536);
    assert_non_null(text);
    FILE *f = fmemopen(text, 65535, "w");
    assert_non_null(f);
    fb_summary_print(f, records, count);
    fclose(f);
    return text;
}

/* The line of the table that starts with `label` (right-aligned in 10 columns), copied
 * into line (size bytes); NULL when there is none. */
static const char *line_for(const char *text, const char *label, char *line, size_t size)
{
    char want[32];
    snprintf(want, sizeof want, "\n%10s  ", label);
    const char *at = strstr(text, want);
    if (!at)
        return NULL;
    size_t len = strcspn(at + 1, "\n");
    snprintf(line, size, "%.*s", (int)len, at + 1);
    return line;
}

static void launches_not_measured_print_as_a_dash(void **state)
{
    (void)state;
    struct fb_record r[3] = {
        row("eager_add_relu", 8, "warm", 2e-6, 2),           /* no fused row at 8 */
        row("eager_add_relu", 16, "warm", 2e-6, -1),         /* eager launches not counted */
        row("fused_add_relu", 16, "warm", 1e-6, 1),
    };
    fb_pairing_derive_all(r, 3);
    char *text = summary_of(r, 3);
    char b8[200], b16[200];
    const char *l8 = line_for(text, "8", b8, sizeof b8);
    const char *l16 = line_for(text, "16", b16, sizeof b16);
    assert_non_null(l8);
    assert_non_null(l16);
    if (!strstr(l8, " 2/- ") || !strstr(l16, " -/1 ") || strstr(text, "-1/") ||
        !strstr(l16, " 2.00x ") || strstr(l8, "x ")) {
        print_error("summary:\n%s", text);
        fail();
    }
    free(text);
}

static void each_row_is_shown_against_its_own_pair_within_one_cache_mode(void **state)
{
    (void)state;
    struct fb_record r[6] = {
        row("eager_add_relu", 1000, "warm", 4e-6, 2),
        row("fused_add_relu", 1000, "cold", 1e-6, 1), /* another point: no 4.00x speedup */
        row("fused_add_relu", 1000, "warm", 2e-6, 1),
        row("eager_add_relu", 1000, "cold", 3e-6, 2),
        row("eager_mul_relu", 1000, "warm", 9e-6, 2),  /* against fused_mul_relu: 3x, */
        row("fused_mul_relu", 1000, "warm", 3e-6, 1),  /* not 4.5x against fused_add_relu */
    };
    fb_pairing_derive_all(r, 6);
    char *text = summary_of(r, 6);
    if (!strstr(text, "1K warm  eager_add_relu           fused_add_relu              4.00 us"
                      "     2.00 us    2.00x") ||
        !strstr(text, "1K cold  eager_add_relu           fused_add_relu              3.00 us"
                      "     1.00 us    3.00x") ||
        !strstr(text, "1K warm  eager_mul_relu           fused_mul_relu              9.00 us"
                      "     3.00 us    3.00x") ||
        strstr(text, "4.00x") || strstr(text, "4.50x")) {
        print_error("summary:\n%s", text);
        fail();
    }
    free(text);
}

/* Several dtypes in one table: each line says its dtype and pairs within it. */
static void each_dtype_is_shown_against_its_own_pair(void **state)
{
    (void)state;
    struct fb_record r[4] = {
        row("eager_add_relu", 1000, "warm", 4e-6, 2),
        row("fused_add_relu", 1000, "warm", 2e-6, 1),
        row("eager_add_relu", 1000, "warm", 3e-6, 2),
        row("fused_add_relu", 1000, "warm", 1e-6, 1),
    };
    snprintf(r[2].dtype, sizeof r[2].dtype, "bf16");
    snprintf(r[3].dtype, sizeof r[3].dtype, "bf16");
    fb_pairing_derive_all(r, 4);
    char *text = summary_of(r, 4);
    if (!strstr(text, "1K fp32  eager_add_relu           fused_add_relu              4.00 us"
                      "     2.00 us    2.00x") ||
        !strstr(text, "1K bf16  eager_add_relu           fused_add_relu              3.00 us"
                      "     1.00 us    3.00x")) {
        print_error("summary:\n%s", text);
        fail();
    }
    free(text);
}

/* Normal and streaming stores in one table: each line says which, and is shown against the
 * pair and copy ceiling of its own store kind. */
static void each_line_names_its_store_kind_and_pairs_within_it(void **state)
{
    (void)state;
    struct fb_record r[6] = {
        row("eager_add_relu", 1000000, "warm", 4e-3, 2),
        row("fused_add_relu", 1000000, "warm", 2e-3, 1),
        row("copy", 1000000, "warm", 1e-3, 1),
        row("eager_add_relu", 1000000, "warm", 5e-3, 2),
        row("fused_add_relu", 1000000, "warm", 1e-3, 1),
        row("copy", 1000000, "warm", 1e-3, 1),
    };
    for (int i = 0; i < 6; i++)
        snprintf(r[i].stores, sizeof r[i].stores, "%s", i < 3 ? "normal" : "streaming");
    snprintf(r[2].role, sizeof r[2].role, "copy_ceiling");
    snprintf(r[5].role, sizeof r[5].role, "copy_ceiling");
    r[5].bandwidth_gbps = 2.0; /* the streaming copy: the streaming fused row is at 50% */
    fb_pairing_derive_all(r, 6);
    char *text = summary_of(r, 6);
    if (!strstr(text, "1M normal  eager_add_relu           fused_add_relu              4.00 ms"
                      "     2.00 ms    2.00x") ||
        !strstr(text, "1M streaming  eager_add_relu           fused_add_relu              "
                      "5.00 ms     1.00 ms    5.00x") ||
        !strstr(text, "1.0         2.0        50%") || !strstr(text, "1.0         1.0       100%")) {
        print_error("summary:\n%s", text);
        fail();
    }
    free(text);
}

/* fb_retake_hint_print's text for these rows and fit (malloc'ed). */
static char *hint_of(const struct fb_record *records, size_t count, const struct fb_fit *fit,
                     uint64_t cache_bytes)
{
    char *text = calloc(1, 8192);
    assert_non_null(text);
    FILE *f = fmemopen(text, 8191, "w");
    assert_non_null(f);
    fb_retake_hint_print(f, records, count, fit, cache_bytes, "L3");
    fclose(f);
    return text;
}

static struct fb_fit fit_without_b(size_t memory_points)
{
    struct fb_fit fit = {.launch = {6.5e-7, 0.01, 5},
                         .bandwidth = {NAN, 0, memory_points},
                         .cache_bandwidth = {40e9, 0.05, 9},
                         .used = 20};
    return fit;
}

/* Noisy rows: the summary says how to retake them, with --resume, and that the rest stays. */
static void noisy_points_come_with_the_command_that_retakes_them(void **state)
{
    (void)state;
    struct fb_record r[3] = {row("eager_add_relu", 1000000, "warm", 2e-3, 2),
                             row("fused_add_relu", 1000000, "warm", 1e-3, 1),
                             row("eager_add_relu", 3000000, "warm", 6e-3, 2)};
    r[0].status = r[2].status = FB_POINT_NOISY;
    char *text = hint_of(r, 3, NULL, 32 << 20);
    assert_non_null(strstr(text, "retake: 2 noisy points (n = 1M .. 3M)"));
    assert_non_null(strstr(text, "--resume"));
    assert_non_null(strstr(text, "every other row is kept"));
    free(text);
    r[0].status = r[2].status = FB_POINT_OK; /* nothing noisy, B and B_c fitted: silence */
    struct fb_fit fit = fit_without_b(5);
    fit.bandwidth.value = 20e9;
    text = hint_of(r, 3, &fit, 32 << 20);
    assert_string_equal(text, "");
    free(text);
}

/* B = ?: why (the fit's memory-bound points against the 3 needed, the noisy ones there) and
 * what to do (retake them; or, with none noisy, measure larger sizes). */
static void an_unfitted_bandwidth_says_why_and_what_to_do(void **state)
{
    (void)state;
    const uint64_t cache = 32 << 20; /* 4x: beyond 134 MB a call is memory-bound */
    struct fb_record r[2] = {row("eager_add_relu", 10000000, "warm", 2e-2, 2),  /* 200 MB */
                             row("fused_add_relu", 100000000, "warm", 1e-1, 1)}; /* 1.2 GB */
    r[0].bytes_model = 200000000;
    r[1].bytes_model = 1200000000;
    r[0].status = r[1].status = FB_POINT_NOISY;
    struct fb_fit fit = fit_without_b(0);
    char *text = hint_of(r, 2, &fit, cache);
    assert_non_null(strstr(text, "B = ? (not fitted): 0 ok points beyond 4x the L3 (calls "
                                 "moving over 134 MB), 3 needed; 2 noisy points there were "
                                 "left out: retake them"));
    free(text);
    r[0].status = r[1].status = FB_POINT_OK; /* ok but too few of them: larger sizes */
    fit = fit_without_b(2);
    text = hint_of(r, 2, &fit, cache);
    assert_non_null(strstr(text, "B = ? (not fitted): 2 ok points beyond 4x the L3"));
    assert_non_null(strstr(text, "measure larger sizes"));
    assert_null(strstr(text, "retake"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_dtype_is_shown_against_its_own_pair),
        cmocka_unit_test(launches_not_measured_print_as_a_dash),
        cmocka_unit_test(each_row_is_shown_against_its_own_pair_within_one_cache_mode),
        cmocka_unit_test(each_line_names_its_store_kind_and_pairs_within_it),
        cmocka_unit_test(noisy_points_come_with_the_command_that_retakes_them),
        cmocka_unit_test(an_unfitted_bandwidth_says_why_and_what_to_do),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
