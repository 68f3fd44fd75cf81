/* The at-a-glance figure's words (src/chart/glance.h): the fit's note names exactly the part
 * it lacks, the x ticks name the pairs, and a regime without a measured size is said. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/derive.h"
#include "chart/glance.h"

static struct fb_csv_table table;
static struct fb_chart_derived derived;
static struct fb_glance g;

static int setup(void **state)
{
    (void)state;
    static char path[1024];
    const char *src = getenv("FB_SOURCE_DIR") ? getenv("FB_SOURCE_DIR") : ".";
    snprintf(path, sizeof path, "%s/tests/plots/data/sample-cpu.csv", src);
    const char *paths[1] = {path};
    struct fb_error err;
    if (fb_csv_read(path, &table, &err) != FB_OK ||
        fb_chart_derive(&table, paths, 1, &derived, &err) != FB_OK)
        fail_msg("%s", err.msg);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fb_chart_derived_free(&derived);
    fb_csv_table_free(&table);
    return 0;
}

/* Old code: one flag, L && B, so a missing B read "(L not fitted)". */
static void test_the_note_names_the_part_the_fit_lacks(void **state)
{
    (void)state;
    struct fb_chart_derived d = derived;
    fb_glance_derive(&d, &g);
    assert_string_equal(g.unfitted, "");
    d.fit_gbps = NAN;
    fb_glance_derive(&d, &g);
    assert_string_equal(g.unfitted, "(B not fitted)");
    assert_true(g.launch_fitted && isfinite(g.launch_s[0][0][0])); /* L still drawn */
    d = derived;
    d.fit_launch_s = NAN;
    fb_glance_derive(&d, &g);
    assert_string_equal(g.unfitted, "(L not fitted)");
    assert_true(isnan(g.launch_s[0][0][0]) && isfinite(g.bytes_s[2][0][0]));
    d.fit_gbps = NAN;
    fb_glance_derive(&d, &g);
    assert_string_equal(g.unfitted, "(L and B not fitted)");
}

/* The ticks carry the pair's name, not its number, without the count the bars show. */
static void test_the_ticks_name_the_pairs(void **state)
{
    (void)state;
    fb_glance_derive(&derived, &g);
    assert_true(g.n_pairs >= 1);
    assert_string_equal(g.name[0], "eager: add, relu");
}

/* A run whose sizes all fit the cache: no memory-bound panel, and the figure says why. */
static void test_a_missing_regime_is_said(void **state)
{
    (void)state;
    struct fb_chart_derived d = derived;
    fb_glance_derive(&d, &g);
    assert_int_equal(g.n_sizes, 3);
    assert_int_equal(g.n_missing, 0);
    d.n_cache = d.nmax * 2;
    fb_glance_derive(&d, &g);
    assert_int_equal(g.n_sizes, 2);
    assert_int_equal(g.n_missing, 1);
    assert_non_null(strstr(g.missing[0], "no memory-bound panel: no size measured beyond the cache (n = "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_note_names_the_part_the_fit_lacks),
        cmocka_unit_test(test_the_ticks_name_the_pairs),
        cmocka_unit_test(test_a_missing_regime_is_said),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
