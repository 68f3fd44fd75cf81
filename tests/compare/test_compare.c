/* Several runs side by side and the regression verdict (src/compare/): constructed runs with
 * known shifts (a 10% slowdown flagged, a 2% one not, a speedup never a regression, one
 * slowed point found among many), unusable input (disjoint sizes, different variants: exit 2
 * naming what is missing), the threshold's syntax, the interval's width, and the markdown
 * table with hostile device names. Times are random (never zero) around a model of n. */
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
#include "compare/runs.h"
#include "compare/verdict.h"

static const int64_t base_sizes[] = {1, 8, 1000, 4097, 1000000};
#define N_BASE (sizeof base_sizes / sizeof base_sizes[0])

/* How a constructed run differs from the reference. */
struct shape {
    double factor;          /* times x factor */
    double spread;          /* p10 = median x (1 - spread), p90 x (1 + spread) */
    const int64_t *sizes;   /* NULL: base_sizes */
    size_t n_sizes;
    bool no_copy;           /* leave the copy variant out */
    double slow_n, slow_by; /* the fused point at n slow_n times slow_by more (0: none) */
    const char *device;
};

static double jitter(void)
{
    return 0.998 + 0.004 * ((double)rand() / RAND_MAX);
}

static void add_row(struct fb_csv_table *t, const char *variant, const char *role,
                    const char *pair, int64_t launches, int64_t n, double median, double spread,
                    const char *device)
{
    struct fb_record *r = &t->records[t->n_records++];
    fb_record_init(r);
    snprintf(r->backend, sizeof r->backend, "cpu");
    snprintf(r->device, sizeof r->device, "%s", device);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->dtype, sizeof r->dtype, "fp32");
    snprintf(r->cache, sizeof r->cache, "warm");
    snprintf(r->stores, sizeof r->stores, "normal");
    snprintf(r->role, sizeof r->role, "%s", role);
    snprintf(r->pair, sizeof r->pair, "%s", pair);
    r->n = n;
    r->launches = r->host_launches = launches;
    r->bytes_model = (launches == 2 ? 5 : launches == 1 && !strcmp(role, "copy_ceiling") ? 2 : 3)
                     * 4 * n;
    r->reps = 40;
    r->batch = 1;
    r->time_median_s = median;
    r->time_p10_s = median * (1 - spread);
    r->time_p90_s = median * (1 + spread);
    r->time_min_s = median * (1 - 2 * spread);
    r->time_max_s = median * (1 + 3 * spread);
    r->bandwidth_gbps = (double)r->bytes_model / median / 1e9;
    r->verified = true;
    r->status = FB_POINT_OK;
}

/* A run: copy, eager_add_relu and fused_add_relu at every size of the shape. */
static void make_run(struct fb_csv_table *t, const struct shape *s)
{
    memset(t, 0, sizeof *t);
    const int64_t *sizes = s->sizes ? s->sizes : base_sizes;
    size_t n_sizes = s->sizes ? s->n_sizes : N_BASE;
    t->records = calloc(3 * n_sizes, sizeof *t->records);
    t->meta = calloc(3, sizeof *t->meta);
    assert_non_null(t->records);
    assert_non_null(t->meta);
    const char *device = s->device ? s->device : "Test CPU";
    snprintf(t->meta[0].key, sizeof t->meta[0].key, "device");
    snprintf(t->meta[0].value, sizeof t->meta[0].value, "%s", device);
    snprintf(t->meta[1].key, sizeof t->meta[1].key, "date");
    snprintf(t->meta[1].value, sizeof t->meta[1].value, "2026-12-02T03:04:05Z");
    snprintf(t->meta[2].key, sizeof t->meta[2].key, "cache_bytes");
    snprintf(t->meta[2].value, sizeof t->meta[2].value, "33554432");
    t->n_meta = 3;
    double spread = s->spread > 0 ? s->spread : 0.01;
    for (size_t i = 0; i < n_sizes; i++) {
        double n = (double)sizes[i];
        double launch = 1e-6, per = 1e-10; /* seconds per launch, per element and array */
        double copy = (launch + 2 * per * n) * jitter() * s->factor;
        double eager = (2 * launch + 5 * per * n) * jitter() * s->factor;
        double fused = (launch + 3 * per * n) * jitter() * s->factor;
        if (s->slow_by > 0 && n == s->slow_n)
            fused *= s->slow_by;
        if (!s->no_copy)
            add_row(t, "copy", "copy_ceiling", "", 1, sizes[i], copy, spread, device);
        add_row(t, "eager_add_relu", "eager", "fused_add_relu", 2, sizes[i], eager, spread,
                device);
        add_row(t, "fused_add_relu", "fused", "", 1, sizes[i], fused, spread, device);
    }
}

/* Two runs, derived alone, and the comparison of the second against the first. */
struct pair_of_runs {
    struct fb_csv_table tables[2];
    struct fb_chart_derived d[2];
    const char *paths[2];
    struct fb_compare c;
    struct fb_error err;
    int rc;
};

static struct pair_of_runs *compare(const struct shape *a, const struct shape *b,
                                    double threshold)
{
    struct pair_of_runs *p = calloc(1, sizeof *p);
    assert_non_null(p);
    p->paths[0] = "dir/base.csv";
    p->paths[1] = "dir/run.csv";
    make_run(&p->tables[0], a);
    make_run(&p->tables[1], b);
    for (int i = 0; i < 2; i++)
        if (fb_chart_derive(&p->tables[i], &p->paths[i], 1, &p->d[i], &p->err) != FB_OK)
            fail_msg("%s", p->err.msg);
    const struct fb_chart_derived *d[2] = {&p->d[0], &p->d[1]};
    p->rc = fb_compare_build(&p->c, d, p->tables, p->paths, 2, threshold, true, &p->err);
    return p;
}

static void done(struct pair_of_runs *p)
{
    fb_compare_free(&p->c);
    for (int i = 0; i < 2; i++) {
        fb_chart_derived_free(&p->d[i]);
        fb_csv_table_free(&p->tables[i]);
    }
    free(p);
}

static const struct shape reference = {.factor = 1};

static void slowdown_of_10_percent_is_flagged(void **state)
{
    (void)state;
    struct pair_of_runs *p = compare(&reference, &(struct shape){.factor = 1.10}, 0.05);
    assert_int_equal(p->rc, FB_OK);
    const struct fb_compare_verdict *v = &p->c.verdicts[1];
    assert_int_equal(v->n_points, 3 * N_BASE);
    assert_int_equal(v->regressed, 3 * N_BASE);
    assert_int_equal(v->faster, 0);
    assert_true(v->ratio_min > 1.09 && v->ratio_max < 1.11);
    assert_int_equal(fb_compare_regressed_runs(&p->c), 1);
    done(p);
}

static void slowdown_of_2_percent_is_not(void **state)
{
    (void)state;
    struct pair_of_runs *p = compare(&reference, &(struct shape){.factor = 1.02}, 0.05);
    assert_int_equal(p->rc, FB_OK);
    assert_int_equal(p->c.verdicts[1].n_points, 3 * N_BASE);
    assert_int_equal(p->c.verdicts[1].regressed, 0);
    assert_int_equal(p->c.verdicts[1].faster, 0);
    assert_int_equal(fb_compare_regressed_runs(&p->c), 0);
    done(p);
}

static void speedup_is_not_a_regression(void **state)
{
    (void)state;
    struct pair_of_runs *p = compare(&reference, &(struct shape){.factor = 0.8}, 0.05);
    assert_int_equal(p->rc, FB_OK);
    assert_int_equal(p->c.verdicts[1].regressed, 0);
    assert_int_equal(p->c.verdicts[1].faster, 3 * N_BASE);
    assert_int_equal(fb_compare_regressed_runs(&p->c), 0);
    done(p);
}

/* One slowed point among 15 is the one flagged, and the ratio chart sees it. */
static void one_slowed_point_is_found(void **state)
{
    (void)state;
    struct pair_of_runs *p = compare(&reference,
                                     &(struct shape){.factor = 1, .slow_n = 4097,
                                                     .slow_by = 1.3}, 0.05);
    assert_int_equal(p->rc, FB_OK);
    const struct fb_compare_verdict *v = &p->c.verdicts[1];
    assert_int_equal(v->regressed, 1);
    assert_int_not_equal(v->worst, SIZE_MAX);
    assert_string_equal(v->points[v->worst].key, "fused_add_relu");
    assert_true(v->points[v->worst].n == 4097);
    assert_true(v->points[v->worst].lo > 1.05);
    const struct fb_compare_run *r = &p->c.runs[1];
    assert_int_equal(r->n_ratio, N_BASE);
    bool seen = false;
    for (size_t k = 0; k < r->n_ratio; k++)
        if (r->ratio[k].n == 4097)
            seen = r->ratio[k].ratio > 1.25 && r->ratio[k].state == FB_COMPARE_REGRESSED;
    assert_true(seen);
    done(p);
}

/* A 10% shift inside a +-10% spread of samples is within the noise (the interval is the
 * p10..p90 bound), and a larger threshold forgives a 10% shift with a tight spread. */
static void interval_and_threshold_decide(void **state)
{
    (void)state;
    struct pair_of_runs *p = compare(&(struct shape){.factor = 1, .spread = 0.1},
                                     &(struct shape){.factor = 1.10, .spread = 0.1}, 0.05);
    assert_int_equal(p->rc, FB_OK);
    assert_int_equal(p->c.verdicts[1].regressed, 0);
    const struct fb_compare_point *q = &p->c.verdicts[1].points[0];
    assert_true(q->lo < q->ratio && q->ratio < q->hi);
    assert_true(q->lo < 1.0 && q->hi > 1.2);
    done(p);
    p = compare(&reference, &(struct shape){.factor = 1.10}, 0.15);
    assert_int_equal(p->rc, FB_OK);
    assert_int_equal(p->c.verdicts[1].regressed, 0);
    done(p);
}

static void disjoint_sizes_are_unusable(void **state)
{
    (void)state;
    static const int64_t other[] = {2, 16, 2000};
    struct pair_of_runs *p = compare(&reference,
                                     &(struct shape){.factor = 1, .sizes = other, .n_sizes = 3},
                                     0.05);
    assert_int_equal(p->rc, FB_ERR_USAGE);
    assert_non_null(strstr(p->err.msg, "no common sizes"));
    assert_non_null(strstr(p->err.msg, "dir/base.csv has n = 1 .. 1e+06 (15 points)"));
    assert_non_null(strstr(p->err.msg, "dir/run.csv has n = 2 .. 2000 (9 points)"));
    done(p);
}

static void some_common_sizes_are_compared(void **state)
{
    (void)state;
    static const int64_t fewer[] = {8, 1000, 4097, 1000000, 5000000};
    struct pair_of_runs *p = compare(&reference,
                                     &(struct shape){.factor = 1, .sizes = fewer, .n_sizes = 5},
                                     0.05);
    assert_int_equal(p->rc, FB_OK);
    assert_int_equal(p->c.verdicts[1].n_points, 3 * 4);
    assert_int_equal(p->c.verdicts[1].only_base, 3);
    assert_int_equal(p->c.verdicts[1].only_run, 3);
    done(p);
}

static void different_variants_are_unusable(void **state)
{
    (void)state;
    struct pair_of_runs *p = compare(&reference, &(struct shape){.factor = 1, .no_copy = true},
                                     0.05);
    assert_int_equal(p->rc, FB_ERR_USAGE);
    assert_non_null(strstr(p->err.msg, "different variants: dir/base.csv has copy that "
                                       "dir/run.csv lacks"));
    done(p);
}

static void threshold_syntax(void **state)
{
    (void)state;
    struct fb_error err;
    double t = 0;
    assert_int_equal(fb_compare_threshold_parse("5%", &t, &err), FB_OK);
    assert_true(fabs(t - 0.05) < 1e-12);
    assert_int_equal(fb_compare_threshold_parse("0.05", &t, &err), FB_OK);
    assert_true(fabs(t - 0.05) < 1e-12);
    assert_int_equal(fb_compare_threshold_parse("12.5%", &t, &err), FB_OK);
    assert_true(fabs(t - 0.125) < 1e-12);
    static const char *const bad[] = {"5", "0", "0%", "-1%", "1000%", "abc", "", "5%%",
                                      "nan", "inf%", "1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t = -7;
        assert_int_equal(fb_compare_threshold_parse(bad[i], &t, &err), FB_ERR_USAGE);
        assert_true(t == -7);
        assert_non_null(strstr(err.msg, "--threshold"));
    }
    assert_int_equal(fb_compare_threshold_parse("5", &t, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "5%"));
}

/* Device names reach the markdown table escaped: a '|' cannot open a cell, '<' no tag, a
 * newline no row; two runs that would read the same get their files' stems. */
static void markdown_escapes_and_labels(void **state)
{
    (void)state;
    const char *hostile = "GPU|x <b>*y*</b>\n| 9 |";
    struct pair_of_runs *p = compare(&(struct shape){.factor = 1, .device = hostile},
                                     &(struct shape){.factor = 1.10, .device = hostile}, 0.05);
    assert_int_equal(p->rc, FB_OK);
    assert_non_null(strstr(p->c.runs[0].label, "(base)"));
    assert_non_null(strstr(p->c.runs[1].label, "(run)"));
    assert_null(strstr(p->c.runs[0].label, "#1"));
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    assert_int_equal(fb_compare_markdown(f, &p->c), 0);
    fclose(f);
    assert_non_null(strstr(text, "GPU\\|x \\<b\\>\\*y\\*\\<\\/b\\>\\\\n\\| 9 \\|"));
    assert_null(strstr(text, "<b>"));
    assert_null(strstr(text, "\n| 9"));
    assert_non_null(strstr(text, "**regressed**"));
    assert_non_null(strstr(text, "### Regressed points"));
    free(text);
    done(p);
}

/* Runs of the same device, minute and file name (two partitions' run.csv) are told apart by
 * their numbers. */
static void same_stems_get_numbers(void **state)
{
    (void)state;
    struct pair_of_runs *p = compare(&reference, &(struct shape){.factor = 1}, 0.05);
    assert_int_equal(p->rc, FB_OK);
    assert_string_equal(p->c.runs[0].label, "Test CPU, 2026-12-02 03:04 (base)");
    fb_compare_free(&p->c);
    p->paths[1] = "other/base.csv";
    fb_chart_derived_free(&p->d[1]);
    if (fb_chart_derive(&p->tables[1], &p->paths[1], 1, &p->d[1], &p->err) != FB_OK)
        fail_msg("%s", p->err.msg);
    const struct fb_chart_derived *d[2] = {&p->d[0], &p->d[1]};
    assert_int_equal(fb_compare_build(&p->c, d, p->tables, p->paths, 2, 0.05, true, &p->err),
                     FB_OK);
    assert_string_equal(p->c.runs[0].label, "Test CPU, 2026-12-02 03:04 (base) #1");
    assert_string_equal(p->c.runs[1].label, "Test CPU, 2026-12-02 03:04 (base) #2");
    done(p);
}

int main(void)
{
    srand(20261202);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slowdown_of_10_percent_is_flagged),
        cmocka_unit_test(slowdown_of_2_percent_is_not),
        cmocka_unit_test(speedup_is_not_a_regression),
        cmocka_unit_test(one_slowed_point_is_found),
        cmocka_unit_test(interval_and_threshold_decide),
        cmocka_unit_test(disjoint_sizes_are_unusable),
        cmocka_unit_test(some_common_sizes_are_compared),
        cmocka_unit_test(different_variants_are_unusable),
        cmocka_unit_test(threshold_syntax),
        cmocka_unit_test(markdown_escapes_and_labels),
        cmocka_unit_test(same_stems_get_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
