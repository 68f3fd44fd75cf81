/* The [plot] section: its keys read and validated like every key (a misspelled one names
 * file, line and key), label.<variant>, and the chart names, formats, sizes and variants
 * checked against the chart tables and the plan (app/plot_options.h) with the line they
 * were given on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "app/plot_options.h"
#include "config/config.h"
#include "config_fixture.h"

static struct fb_config cfg;

static void test_plot_keys_are_read_with_their_lines(void **state)
{
    (void)state;
    struct fixture_result res;
    fixture_load("[plot]\n"
                 "charts = speedup, time ,launches\n"
                 "size = column\n"
                 "formats = pdf\n"
                 "label.eager_add_relu = two kernels: add, then relu\n"
                 "label.fused_mine = one kernel\n",
                 &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.plot.n_charts, 3);
    assert_string_equal(cfg.plot.charts[0], "speedup");
    assert_string_equal(cfg.plot.charts[1], "time");
    assert_string_equal(cfg.plot.charts[2], "launches");
    assert_int_equal(cfg.plot.charts_line, 2);
    assert_string_equal(cfg.plot.size, "column");
    assert_int_equal(cfg.plot.size_line, 3);
    assert_int_equal(cfg.plot.n_formats, 1);
    assert_string_equal(cfg.plot.formats[0], "pdf");
    assert_int_equal(cfg.plot.n_labels, 2);
    assert_string_equal(cfg.plot.labels[0].variant, "eager_add_relu");
    assert_string_equal(cfg.plot.labels[0].text, "two kernels: add, then relu");
    assert_int_equal(cfg.plot.labels[0].line, 5);
    assert_int_equal(cfg.plot.labels[1].line, 6);
}

static void test_a_misspelled_or_malformed_plot_key_names_file_line_and_key(void **state)
{
    (void)state;
    struct fixture_result res;
    fixture_load("[plot]\n"
                 "chart = speedup\n"         /* 2: misspelled */
                 "charts = speedup,,time\n"  /* 3: an empty item */
                 "size = column, slide\n"    /* 4: a list */
                 "formats = PNG\n"           /* 5: not a name */
                 "label.eager_add_relu =\n"  /* 6: empty */
                 "label. = x\n"              /* 7: no variant */
                 "label.Eager = x\n"         /* 8: not a variant name */
                 "label.copy = a\n"
                 "label.copy = b\n",         /* 10: a duplicate */
                 &cfg, &res);
    assert_int_equal(res.rc, FB_ERR_USAGE);
    assert_true(fixture_line_contains(&res, 2, "[plot] chart: unknown key"));
    assert_true(fixture_line_contains(&res, 2, "charts"));
    assert_true(fixture_line_contains(&res, 3, "[plot] charts: an empty item"));
    assert_true(fixture_line_contains(&res, 4, "[plot] size: \"column, slide\": one size"));
    assert_true(fixture_line_contains(&res, 5, "[plot] formats: \"PNG\" is not a name"));
    assert_true(fixture_line_contains(&res, 6, "[plot] label.eager_add_relu: must not be empty"));
    assert_true(fixture_line_contains(&res, 7, "[plot] label.: "));
    assert_true(fixture_line_contains(&res, 8, "[plot] label.Eager: \"Eager\" is not a variant"));
    assert_true(fixture_line_contains(&res, 10, "[plot] label.copy: duplicate key (first set "
                                                "on line 9)"));
    assert_int_equal(res.diag_lines, 8);
}

/* fb_plot_options_from_config's messages, with cfg loaded from text. */
static int options(const char *text, struct fb_plot_options *o, char *diag, size_t size)
{
    struct fixture_result res;
    fixture_load(text, &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    snprintf(cfg.path, sizeof cfg.path, "x.ini");
    FILE *f = fmemopen(diag, size, "w");
    assert_non_null(f);
    int rc = fb_plot_options_from_config(o, &cfg, true, f);
    fclose(f);
    return rc;
}

static void test_unknown_charts_formats_sizes_and_variants_are_refused_with_the_list(void **state)
{
    (void)state;
    static struct fb_plot_options o;
    char diag[4096] = "";
    int rc = options("[plot]\ncharts = speedup, spedup\nformats = png, eps\nsize = poster\n"
                     "label.eager_add_rleu = x\n", &o, diag, sizeof diag);
    assert_int_equal(rc, FB_ERR_USAGE);
    assert_non_null(strstr(diag, "x.ini:2: [plot] charts: \"spedup\" is not a chart; the "
                                 "charts: time, speedup,"));
    assert_non_null(strstr(diag, "x.ini:3: [plot] formats: \"eps\" is not a chart format; "
                                 "the formats: png, svg, pdf\n"));
    assert_non_null(strstr(diag, "x.ini:4: [plot] size: \"poster\" is not a size; the sizes: "
                                 "column, double, slide\n"));
    assert_non_null(strstr(diag, "x.ini:5: [plot] label.eager_add_rleu: no variant"));
    /* refused: the defaults, nothing half-applied */
    assert_true(o.chart_on[0] && o.chart_on[1] && o.format_on[1]);
    assert_null(o.size);
    assert_int_equal(o.n_names, 0);
}

static void test_valid_options_choose_charts_formats_size_and_names(void **state)
{
    (void)state;
    static struct fb_plot_options o;
    char diag[4096] = "";
    int rc = options("[plot]\ncharts = speedup\nformats = pdf, png\nsize = slide\n"
                     "label.eager_mine = mine, eagerly\n"
                     "[chain mine]\nops = add, relu, scale(0.5)\n", &o, diag, sizeof diag);
    assert_int_equal(rc, FB_OK);
    assert_string_equal(diag, "");
    for (size_t i = 0; i < fb_chart_count; i++)
        assert_int_equal(o.chart_on[i], strcmp(fb_charts[i]->name, "speedup") == 0);
    assert_true(o.chart_asked);
    assert_true(o.format_on[0] && !o.format_on[1] && o.format_on[2]);
    assert_string_equal(o.size->name, "slide");
    /* the chain's ops for both sides, then the label, which wins for eager_mine */
    assert_int_equal(o.n_names, 3);
    assert_string_equal(o.names[0].variant, "eager_mine");
    assert_string_equal(o.names[0].text, "add, relu, scale(0.5)");
    assert_false(o.names[0].whole);
    assert_string_equal(o.names[1].variant, "fused_mine");
    assert_string_equal(o.names[2].variant, "eager_mine");
    assert_string_equal(o.names[2].text, "mine, eagerly");
    assert_true(o.names[2].whole);
}

static void test_the_command_line_sets_plot_keys_and_labels(void **state)
{
    (void)state;
    fb_config_defaults(&cfg);
    const struct fb_config_setting s[] = {{"charts", "summary"}, {"size", "double"},
                                          {"label.copy", "the copy kernel"},
                                          {"label.copy", "copy, again"}};
    struct fb_error err;
    assert_int_equal(fb_config_override_all(&cfg, s, 4, &err), FB_OK);
    assert_int_equal(cfg.plot.n_charts, 1);
    assert_int_equal(cfg.plot.charts_line, 0);
    assert_string_equal(cfg.plot.size, "double");
    assert_int_equal(cfg.plot.n_labels, 1); /* given twice: the later */
    assert_string_equal(cfg.plot.labels[0].text, "copy, again");
    const struct fb_config_setting bad = {"label.", "x"};
    assert_int_equal(fb_config_override_all(&cfg, &bad, 1, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--label.: "));
    /* and a wrong chart name from the command line says --charts */
    static struct fb_plot_options o;
    const struct fb_config_setting wrong = {"charts", "speedupp"};
    assert_int_equal(fb_config_override_all(&cfg, &wrong, 1, &err), FB_OK);
    char diag[1024] = "";
    FILE *f = fmemopen(diag, sizeof diag, "w");
    assert_int_equal(fb_plot_options_from_config(&o, &cfg, false, f), FB_ERR_USAGE);
    fclose(f);
    assert_non_null(strstr(diag, "--charts: \"speedupp\" is not a chart"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_keys_are_read_with_their_lines),
        cmocka_unit_test(test_a_misspelled_or_malformed_plot_key_names_file_line_and_key),
        cmocka_unit_test(test_unknown_charts_formats_sizes_and_variants_are_refused_with_the_list),
        cmocka_unit_test(test_valid_options_choose_charts_formats_size_and_names),
        cmocka_unit_test(test_the_command_line_sets_plot_keys_and_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
