/* The numbers the charts show, derived once in C (src/chart/derive.h, model.h): pairs and
 * their speedups, each pair's own model lines (a custom chain against its launches and bytes,
 * never add_relu's 2 and 5/3), write-allocate only where stores read their lines, a peer's
 * rows against the charted run's copy ceiling, the regime bounds and the fit's curves, on the
 * sample runs of tests/plots/data and on rows made here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/charts.h"
#include "chart/derive.h"
#include "chart/glance.h"
#include "chart/model.h"
#include "chart/noisy.h"
#include "plan/variants.h"

struct run {
    struct fb_csv_table tables[FB_CHART_MAX_FILES];
    const char *paths[FB_CHART_MAX_FILES];
    size_t n;
    struct fb_chart_derived d;
};

/* Reads tests/plots/data/NAME for each name and derives them; the run is freed by done(). */
static struct run *derive_files(const char *first, const char *second)
{
    static char paths[2][1024];
    struct run *r = calloc(1, sizeof *r);
    assert_non_null(r);
    const char *names[2] = {first, second};
    const char *src = getenv("FB_SOURCE_DIR") ? getenv("FB_SOURCE_DIR") : ".";
    for (size_t i = 0; i < 2 && names[i]; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/tests/plots/data/%s", src, names[i]);
        struct fb_error err;
        if (fb_csv_read(paths[i], &r->tables[i], &err) != FB_OK)
            fail_msg("%s", err.msg);
        r->paths[i] = paths[i];
        r->n++;
    }
    struct fb_error err;
    if (fb_chart_derive(r->tables, r->paths, r->n, &r->d, &err) != FB_OK)
        fail_msg("%s", err.msg);
    return r;
}

static void done(struct run *r)
{
    fb_chart_derived_free(&r->d);
    for (size_t i = 0; i < r->n; i++)
        fb_csv_table_free(&r->tables[i]);
    free(r);
}

static const struct fb_chart_pair *pair_of(const struct fb_chart_derived *d, const char *eager)
{
    for (size_t i = 0; i < d->n_pairs; i++)
        if (strcmp(d->series[d->pairs[i].eager].key, eager) == 0)
            return &d->pairs[i];
    return NULL;
}

static double speedup_at(const struct fb_chart_pair *p, double n)
{
    for (size_t i = 0; i < p->n_points; i++)
        if (p->points[i].n == n)
            return p->points[i].speedup;
    return NAN;
}

/* Chart c's own tables of d (chart/charts.h), freed by the caller (fb_tables_free). */
static struct fb_tables tables_of(const struct fb_chart *c, const struct fb_chart_derived *d)
{
    struct fb_tables ts = {0};
    c->tables(d, &ts);
    assert_false(ts.failed);
    return ts;
}

static size_t rows(const struct fb_tables *ts, const char *table)
{
    const struct fb_table *t = fb_tables_find(ts, table);
    if (!t)
        fail_msg("no table %s", table);
    return fb_table_rows(t);
}

/* A cell of a table, by row and column name: its number, or its text. */
static double num(const struct fb_tables *ts, const char *table, size_t row, const char *col)
{
    const struct fb_cell *c = fb_table_cell(fb_tables_find(ts, table), row, col);
    if (!c)
        fail_msg("%s: no row %zu, column %s", table, row, col);
    return c->number;
}

static const char *text(const struct fb_tables *ts, const char *table, size_t row,
                        const char *col)
{
    const struct fb_cell *c = fb_table_cell(fb_tables_find(ts, table), row, col);
    if (!c || c->kind != FB_CELL_TEXT)
        fail_msg("%s: no text in row %zu, column %s", table, row, col);
    return c->text;
}

/* Whether the speedup charts draw a model line at value (speedup_lines.tsv). */
static bool has_line(const struct fb_chart_derived *d, double value)
{
    struct fb_tables ts = tables_of(&fb_chart_speedup, d);
    bool found = false;
    for (size_t i = 0; i < rows(&ts, "speedup_lines.tsv"); i++)
        found |= fabs(num(&ts, "speedup_lines.tsv", i, "value") - value) < 1e-9;
    fb_tables_free(&ts);
    return found;
}

static void test_every_eager_chain_is_paired_with_its_own_fused_one(void **state)
{
    (void)state;
    struct run *r = derive_files("chains.csv", NULL);
    const struct fb_chart_derived *d = &r->d;
    assert_int_equal(d->n_pairs, 3);
    const struct fb_chart_pair *mul = pair_of(d, "eager_mul_relu");
    assert_non_null(mul);
    assert_string_equal(d->series[mul->fused].key, "fused_mul_relu");
    /* the CSV's speedup: 3 over fused_mul_relu, not 6 over fused_add_relu */
    assert_true(fabs(speedup_at(mul, 1000) - 3) < 1e-9);
    /* a failed pair (fused_mul_relu at 100M) gives no point */
    assert_true(isnan(speedup_at(mul, 100000000)));
    /* the generic fused kernel (role fused) is no eager/fused pair */
    assert_null(pair_of(d, "fused_generic_add_relu"));
    assert_true(has_line(d, 3)); /* scale_bias_sigmoid's 3 launches (see limits_cases) */
    done(r);
}

/* A chain-length run's 18 series: two hash to one colour and marker (fused add_k4 and eager
 * add_k6) unless the later moves on; told apart by colour and marker, never by dash alone. */
static void test_no_two_series_share_colour_and_marker(void **state)
{
    (void)state;
    const char *files[] = {"sample-chain-length.csv", "chains.csv", "sample-dtypes.csv"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        struct run *r = derive_files(files[f], NULL);
        const struct fb_chart_derived *d = &r->d;
        for (size_t s = 0; s < d->n_series; s++)
            for (size_t t = s + 1; t < d->n_series; t++)
                if (d->series[s].colour == d->series[t].colour &&
                    d->series[s].point_type == d->series[t].point_type)
                    fail_msg("%s: %s and %s share colour %06x and marker %d", files[f],
                             d->series[s].key, d->series[t].key, d->series[s].colour,
                             d->series[s].point_type);
        done(r);
    }
}

static void test_model_launches_by_role(void **state)
{
    (void)state;
    struct run *r = derive_files("chains.csv", NULL);
    const char *names[] = {"copy", "eager_add_relu", "fused_add_relu", "memcpy",
                           "eager_scale_bias_sigmoid"};
    const int want[] = {1, 2, 1, 0, 3};
    for (size_t i = 0; i < 5; i++) {
        size_t s = fb_chart_find_series(&r->d, 0, names[i]);
        assert_true(s != SIZE_MAX);
        assert_int_equal(r->d.series[s].model_launches, want[i]);
    }
    done(r);
}

/* The model's launches and arrays as plan/variants.h builds them, for every built-in. */
static void test_the_model_agrees_with_the_variant_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < fb_variant_count; i++) {
        const struct fb_variant *v = &fb_variants[i];
        assert_int_equal(fb_model_launches(fb_variant_role_name(v->role), v->elements_moved),
                         v->launches);
        if (v->role == FB_ROLE_EAGER) {
            int buffers = 0;
            for (int b = 0; b < FB_BUF_COUNT; b++)
                buffers += fb_variant_uses_buffer(v, (enum fb_buffer)b) != 0;
            assert_int_equal(fb_model_eager_arrays(v->elements_moved, v->launches), buffers);
        }
    }
}

/* Rows of a chain of k ops made here: eager_cK (k kernels, 3 + 2 (k - 1) arrays) and
 * fused_cK (1 kernel, 3 arrays) at two sizes, eager 1.5 x slower. */
static size_t chain_rows(struct fb_record *rows, int k, const char *backend, const char *stores)
{
    size_t n = 0;
    char eager[48], fused[48];
    snprintf(eager, sizeof eager, "eager_c%d", k);
    snprintf(fused, sizeof fused, "fused_c%d", k);
    const int64_t sizes[2] = {1000, 1000000};
    for (int s = 0; s < 2; s++)
        for (int side = 0; side < 2; side++) {
            struct fb_record *r = &rows[n++];
            fb_record_init(r);
            snprintf(r->backend, sizeof r->backend, "%s", backend);
            snprintf(r->device, sizeof r->device, "dev");
            snprintf(r->variant, sizeof r->variant, "%s", side ? fused : eager);
            snprintf(r->dtype, sizeof r->dtype, "fp32");
            snprintf(r->cache, sizeof r->cache, "warm");
            snprintf(r->stores, sizeof r->stores, "%s", stores);
            snprintf(r->role, sizeof r->role, "%s", side ? "fused" : "eager");
            if (!side)
                snprintf(r->pair, sizeof r->pair, "%s", fused);
            r->n = sizes[s];
            r->launches = r->host_launches = side ? 1 : k;
            r->bytes_model = (int64_t)(side ? 3 : 3 + 2 * (k - 1)) * 4 * r->n;
            r->time_median_s = (side ? 1.0 : 1.5) * 1e-6 * (double)r->n;
            r->status = FB_POINT_OK;
            r->verified = true;
        }
    return n;
}

static void derive_rows(struct fb_record *rows, size_t n, const char *backend,
                        struct fb_chart_derived *d)
{
    static struct fb_csv_meta meta[1];
    snprintf(meta[0].key, sizeof meta[0].key, "backend");
    snprintf(meta[0].value, sizeof meta[0].value, "%s", backend);
    struct fb_csv_table t = {meta, 1, rows, n};
    const char *paths[1] = {"made.csv"};
    struct fb_error err;
    assert_int_equal(fb_chart_derive(&t, paths, 1, d, &err), FB_OK);
}

static void test_a_four_op_chain_is_drawn_against_its_own_limits(void **state)
{
    (void)state;
    struct fb_record rows[4];
    size_t n = chain_rows(rows, 4, "cpu", "normal");
    struct fb_chart_derived d;
    derive_rows(rows, n, "cpu", &d);
    assert_int_equal(d.n_pairs, 1);
    /* its limits: limits_cases */
    assert_true(has_line(&d, 4) && has_line(&d, 3) && has_line(&d, 3.25));
    assert_false(has_line(&d, 2));
    assert_false(has_line(&d, 5.0 / 3));
    assert_true(fabs(d.pairs[0].points[0].speedup - 1.5) < 1e-12); /* derived: 1.5 / 1.0 */
    fb_chart_derived_free(&d);
}

/* A pair's own model lines, each against its launches and bytes: the launch limit, the traffic
 * ratio and the ratio with write-allocate, which only a CPU with normal stores has (NaN: none). */
struct limits_case {
    const char *what;
    const char *file; /* tests/plots/data/FILE, or NULL: chain_rows(k, backend, stores) */
    int k;
    const char *backend, *stores;
    const char *eager; /* the pair's eager series */
    double launch_limit, traffic_ratio, traffic_ratio_wa;
};

static const struct limits_case limits_cases[] = {
    {"add_relu in chains.csv (a CPU, normal stores)", "chains.csv", 0, NULL, NULL,
     "eager_add_relu", 2, 5.0 / 3, 7.0 / 4},
    /* 3 unary ops: 6 arrays eager, 2 fused; 3 launches; with write-allocate (6+3)/(2+1) */
    {"scale_bias_sigmoid in chains.csv", "chains.csv", 0, NULL, NULL, "eager_scale_bias_sigmoid",
     3, 3, 3},
    /* 9 arrays eager, 3 fused; with write-allocate (9 + 4) / (3 + 1) */
    {"a four-op chain on a CPU", NULL, 4, "cpu", "normal", "eager_c4", 4, 9.0 / 3, 13.0 / 4},
    {"a chain on cuda: no write-allocate", NULL, 2, "cuda", "normal", "eager_c2", 2, 5.0 / 3, NAN},
    {"streaming stores on a CPU: no write-allocate", NULL, 2, "cpu", "streaming",
     "eager_c2-streaming", 2, 5.0 / 3, NAN},
};

static void check_limit(const char *what, const char *line, double got, double want)
{
    if (isnan(want) ? !isnan(got) : !(fabs(got - want) < 1e-12)) {
        print_error("%s: %s = %.15g, expected %.15g\n", what, line, got, want);
        fail();
    }
}

static void test_each_pair_has_its_own_launch_limit_and_traffic_ratio(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof limits_cases / sizeof limits_cases[0]; i++) {
        const struct limits_case *c = &limits_cases[i];
        struct run *r = NULL;
        struct fb_record rows[4];
        struct fb_chart_derived made;
        if (c->file)
            r = derive_files(c->file, NULL);
        else
            derive_rows(rows, chain_rows(rows, c->k, c->backend, c->stores), c->backend, &made);
        const struct fb_chart_pair *p = pair_of(r ? &r->d : &made, c->eager);
        if (!p)
            fail_msg("%s: no pair of %s", c->what, c->eager);
        check_limit(c->what, "launch limit", p->launch_limit, c->launch_limit);
        check_limit(c->what, "traffic ratio", p->traffic_ratio, c->traffic_ratio);
        check_limit(c->what, "traffic ratio with write-allocate", p->traffic_ratio_wa,
                    c->traffic_ratio_wa);
        if (r)
            done(r);
        else
            fb_chart_derived_free(&made);
    }
}

static void test_the_regimes_and_the_fit_come_from_the_run(void **state)
{
    (void)state;
    struct run *r = derive_files("sample-cpu.csv", NULL);
    const struct fb_chart_derived *d = &r->d;
    /* launches * L * B_c / bytes per element of fused_add_relu: 1.597e-06 * 63.72e9 / 12 */
    assert_true(d->n_launch_from_fit);
    assert_true(fabs(d->n_launch - 1.597e-06 * 63.72e9 / 12) < 1e-6 * d->n_launch);
    /* eager add, relu touches a, b, tmp, c: 16 bytes per element */
    assert_true(fabs(d->n_cache - 33554432.0 / 16) < 1e-9);
    assert_int_equal(d->n_fit_text, 4);
    assert_string_equal(d->fit_text[2], "B = 16.6 GB/s beyond the L3");
    /* the time curves: eager and fused of the pairs in the fit's format, t = l L + b n / B */
    struct fb_tables ts = tables_of(&fb_chart_time, d);
    assert_true(rows(&ts, "curves.tsv") >= 2);
    size_t s = fb_chart_find_series(d, 0, "eager_add_relu");
    double n = num(&ts, "m1.dat", FB_CHART_CURVE_POINTS / 2, "n");
    assert_true(fabs(num(&ts, "m1.dat", FB_CHART_CURVE_POINTS / 2, "t") -
                     (2 * 1.597e-06 + r->d.series[s].elements * 4 * n / 16.59e9)) < 1e-15);
    fb_tables_free(&ts);
    ts = tables_of(&fb_chart_speedup, d);
    assert_true(rows(&ts, "predicted.tsv") >= 1);
    fb_tables_free(&ts);
    done(r);
}

static void test_an_older_run_gets_built_in_pairs_and_regimes_from_the_data(void **state)
{
    (void)state;
    struct run *r = derive_files("older-run.csv", NULL);
    assert_non_null(pair_of(&r->d, "eager_add_relu"));
    assert_false(r->d.n_launch_from_fit);
    assert_int_equal(r->d.n_fit_text, 0);
    struct fb_tables ts = tables_of(&fb_chart_time, &r->d);
    assert_int_equal(rows(&ts, "curves.tsv"), 0);
    fb_tables_free(&ts);
    done(r);
}

static void test_a_peer_is_paired_and_set_against_the_runs_copy_ceiling(void **state)
{
    (void)state;
    struct run *r = derive_files("sample-gpu.csv", "sample-torch.csv");
    const struct fb_chart_derived *d = &r->d;
    const struct fb_chart_pair *p = pair_of(d, "torch_eager_add_relu");
    assert_non_null(p);
    assert_false(p->primary);
    /* the peer's file has no speedups: derived here, t_eager / t_compile */
    assert_true(fabs(speedup_at(p, 8) - 1.30241e-05 / 1.41674e-05) < 1e-9);
    size_t compiled = fb_chart_find_series(d, 1, "torch_compile_add_relu");
    assert_true(compiled != SIZE_MAX);
    bool on_copy_chart = false;
    struct fb_tables ts = tables_of(&fb_chart_copy_fraction, d);
    for (size_t i = 0; i < rows(&ts, "fused.tsv"); i++)
        on_copy_chart |= num(&ts, "fused.tsv", i, "i") == (double)compiled + 1;
    fb_tables_free(&ts);
    assert_true(on_copy_chart);
    assert_true(d->series[compiled].has_copy_fraction);
    /* the overlay's series are titled apart from the run's where a name repeats, and are
     * drawn dashed with open points */
    assert_int_equal(d->series[compiled].dash, 2);
    done(r);
}

/* The same run as two files of one name in two directories (two machines' default.csv):
 * the overlay's series are named by their directory, in brackets before the count that a
 * narrow key drops first; a long directory's name is cut at 16 bytes, between characters
 * (there, a 16th byte that starts an "é" is left out with it). */
static void test_overlays_of_one_name_are_told_apart_by_their_directory(void **state)
{
    (void)state;
    static const char *const dirs[] = {"cpu-amd-epyc",
                                       "d\xc3\xa9j\xc3\xa0-vu-machi\xc3\xa9-\xc3\xa9t\xc3\xa9"};
    for (size_t k = 0; k < 2; k++) {
        struct run *r = derive_files("sample-cpu.csv", "sample-cpu.csv");
        char second[256];
        snprintf(second, sizeof second, "results/%s/sample-cpu.csv", dirs[k]);
        r->paths[0] = "results/cpu-intel-xeon/sample-cpu.csv";
        r->paths[1] = second;
        fb_chart_derived_free(&r->d);
        struct fb_error err;
        assert_int_equal(fb_chart_derive(r->tables, r->paths, 2, &r->d, &err), FB_OK);
        const char *name = k == 0 ? "cpu-amd-epyc" : "d\xc3\xa9j\xc3\xa0-vu-machi\xe2\x80\xa6";
        assert_string_equal(r->d.names[1], name);
        size_t first = fb_chart_find_series(&r->d, 0, "eager_add_relu");
        size_t over = fb_chart_find_series(&r->d, 1, "eager_add_relu");
        assert_true(first != SIZE_MAX && over != SIZE_MAX);
        assert_null(strchr(r->d.series[first].title, '['));
        char want[128];
        snprintf(want, sizeof want, "eager: add, relu [%s] (2 kernels)", name);
        assert_string_equal(r->d.series[over].title, want);
        done(r);
    }
    /* files of different names keep their stems */
    struct run *r = derive_files("sample-gpu.csv", "sample-torch.csv");
    assert_string_equal(r->d.names[1], "sample-torch");
    done(r);
}

/* An in-process run (tools/torch_inprocess.py): the peer's rows get ours_ratio = t_mirror /
 * t_peer from fusebench where the file has none, and the charts carry it with its interval. */
static void test_an_in_process_peer_carries_ours_ratio(void **state)
{
    (void)state;
    struct run *r = derive_files("sample-inprocess.csv", NULL);
    const struct fb_chart_derived *d = &r->d;
    size_t out = fb_chart_find_series(d, 0, "torch_compile_out");
    size_t ours = fb_chart_find_series(d, 0, "fused_add_relu");
    assert_true(out != SIZE_MAX && ours != SIZE_MAX);
    assert_true(d->series[out].has_ours_ratio);
    assert_false(d->series[ours].has_ours_ratio);
    const struct fb_chart_point *p = &d->series[out].points[1]; /* n = 1M */
    assert_true(p->n == 1e6);
    assert_true(fabs(p->ours_ratio - 1.4e-4 / 1.75e-4) < 1e-9);
    assert_true(fabs(p->ours_lo - 0.8 * 0.98 / 1.03) < 1e-9);
    assert_true(fabs(p->ours_hi - 0.8 * 1.02 / 0.97) < 1e-9);
    assert_non_null(pair_of(d, "torch_eager_add_relu_out")); /* its own pair still */
    done(r);
}

static void test_dtypes_and_chain_lengths(void **state)
{
    (void)state;
    struct run *r = derive_files("sample-dtypes.csv", NULL);
    assert_null((fb_chart_dtypes.skip)(&r->d));
    struct fb_tables ts = tables_of(&fb_chart_dtypes, &r->d);
    assert_int_equal(rows(&ts, "dtypes.tsv"), 3);
    assert_string_equal(text(&ts, "dtypes.tsv", 1, "dtype"), "fp16");
    /* eager add, relu touches 4 tensors: the cache's quarter */
    assert_true(num(&ts, "dtype_labels.tsv", 0, "cache_x") == r->d.cache_bytes / 4);
    fb_tables_free(&ts);
    assert_non_null((fb_chart_speedup_k.skip)(&r->d));
    done(r);
    r = derive_files("sample-chain-length.csv", NULL);
    assert_null((fb_chart_speedup_k.skip)(&r->d));
    ts = tables_of(&fb_chart_speedup_k, &r->d);
    assert_true(rows(&ts, "chain_model.tsv") >= 8); /* a row per length */
    bool trans_marked = false;
    for (size_t i = 0; i < rows(&ts, "chain_others.tsv"); i++)
        trans_marked |= strcmp(text(&ts, "chain_others.tsv", i, "name"), "eager_add_trans4") == 0;
    assert_true(trans_marked); /* a second chain of 5 ops: marked, not joined */
    fb_tables_free(&ts);
    done(r);
}

/* The at-a-glance figure: a pair per distinct count, each chain with its own kernels and
 * arrays (a 4-op chain 4 -> 1 and 9 -> 3, never add_relu's 2 and 5), one size per regime,
 * and each call split into launches x L and bytes / B. */
static void test_the_glance_shows_each_chain_its_own_counts(void **state)
{
    (void)state;
    struct run *r = derive_files("sample-chain-length.csv", NULL);
    static struct fb_glance g;
    fb_glance_derive(&r->d, &g);
    assert_true(g.n_pairs >= 2 && g.n_pairs <= FB_GLANCE_PAIRS);
    bool four = false;
    for (size_t k = 0; k < g.n_pairs; k++) {
        const struct fb_glance_side *e = &g.side[k][0], *f = &g.side[k][1];
        assert_true(f->kernels == 1);
        assert_true(f->arrays == 3);
        /* eager k ops: k kernels, 3 + 2 (k - 1) arrays */
        assert_true(e->arrays == 3 + 2 * (e->kernels - 1));
        four |= e->kernels == 4 && e->arrays == 9;
        for (size_t q = 0; q < k; q++) /* one pair per distinct count */
            assert_false(g.side[q][0].kernels == e->kernels && g.side[q][0].arrays == e->arrays);
    }
    assert_true(four);
    done(r);
}

static void test_the_glance_splits_each_call_by_the_fit(void **state)
{
    (void)state;
    struct run *r = derive_files("sample-cpu.csv", NULL);
    const struct fb_chart_derived *d = &r->d;
    static struct fb_glance g;
    fb_glance_derive(d, &g);
    assert_true(g.n_pairs >= 1);
    assert_true(g.launch_fitted && g.bytes_fitted);
    assert_int_equal(g.n_sizes, 3);
    assert_string_equal(g.regime[0], "launch-bound");
    assert_string_equal(g.regime[2], "memory-bound");
    assert_true(g.n[0] <= d->n_launch && g.n[1] > d->n_launch && g.n[1] <= d->n_cache &&
                g.n[2] > d->n_cache);
    const struct fb_chart_pair *p = &d->pairs[g.pair[0]];
    const struct fb_chart_series *e = &d->series[p->eager];
    /* launch part: host launches x L; bytes part: arrays x 4 bytes x n / B beyond the cache */
    assert_true(fabs(g.launch_s[2][0][0] - e->host_launches * d->fit_launch_s) <
                1e-12 * g.launch_s[2][0][0] + 1e-18);
    double bytes = e->elements * 4 * g.n[2];
    assert_true(fabs(g.bytes_s[2][0][0] - bytes / (d->fit_gbps * 1e9)) < 1e-9 * g.bytes_s[2][0][0]);
    assert_true(g.measured_s[2][0][0] > 0);
    done(r);
}

/* Titles in words, renamed by names from the config; a pair's from its sides'. */
static void test_titles_are_words_and_renamed_by_the_config(void **state)
{
    (void)state;
    struct run *r = derive_files("sample-cpu.csv", NULL);
    struct fb_chart_derived *d = &r->d;
    const struct fb_chart_pair *p = pair_of(d, "eager_add_relu");
    assert_non_null(p);
    assert_string_equal(d->series[p->eager].title, "eager: add, relu (2 kernels)");
    assert_string_equal(p->title, "eager: add, relu (2 kernels) / fused (1 kernel)");
    const struct fb_chart_name names[] = {{"eager_add_relu", "two passes", true},
                                          {"fused_add_relu", "one pass", true}};
    fb_chart_derive_titles(d, names, 2);
    assert_string_equal(d->series[p->eager].title, "two passes");
    assert_string_equal(p->title, "two passes / one pass");
    done(r);
}

/* The speedup chart's bars are the speedup's interval from the paired rounds (the CSV's
 * speedup_lo, speedup_hi), not eager p10 / fused p90 .. eager p90 / fused p10, which for the
 * 100M rows of intervals.csv would run from 1.28 to 2.21 around a speedup of 1.69; a row
 * without the columns gets no bar (NaN), never a band made from other columns. */
static void test_speedup_bars_are_the_interval_from_paired_rounds(void **state)
{
    (void)state;
    struct run *r = derive_files("intervals.csv", NULL);
    const struct fb_chart_pair *p = pair_of(&r->d, "eager_add_relu");
    assert_non_null(p);
    bool seen_1e8 = false, seen_1e6 = false;
    for (size_t i = 0; i < p->n_points; i++) {
        const struct fb_chart_speedup *pt = &p->points[i];
        if (pt->n == 1e8) {
            seen_1e8 = true;
            assert_true(fabs(pt->speedup - 1.69491525) < 1e-6);
            assert_true(fabs(pt->lo - 1.68) < 1e-9);
            assert_true(fabs(pt->hi - 1.71) < 1e-9);
        } else if (pt->n == 1e6) {
            seen_1e6 = true;
            assert_true(fabs(pt->speedup - 2.0) < 1e-9);
            assert_true(isnan(pt->lo) && isnan(pt->hi));
        }
    }
    assert_true(seen_1e8 && seen_1e6);
    done(r);
}

/* A noisy row stays visible: drawn hollow beside its series, with the speedup of its pair
 * at that size (t_eager / t_fused, which pairing leaves empty for a row that is not ok). */
static void test_noisy_points_are_kept_hollow_with_their_speedup(void **state)
{
    (void)state;
    struct run *r = derive_files("intervals.csv", NULL);
    const struct fb_chart_derived *d = &r->d;
    assert_int_equal(d->noisy, 1);
    size_t eager = fb_chart_find_series(d, 0, "eager_add_relu");
    assert_true(eager != SIZE_MAX);
    assert_int_equal(d->n_noisy_times, 1);
    assert_int_equal(d->noisy_times[0].of, eager);
    assert_true(d->noisy_times[0].n == 1e7);
    assert_true(fabs(d->noisy_times[0].value - 0.18) < 1e-12);
    assert_true(fabs(d->noisy_times[0].bandwidth_gbps - 2e8 / 0.18 / 1e9) < 1e-9);
    assert_int_equal(d->noisy_times[0].colour, d->series[eager].colour);
    assert_int_equal(d->noisy_times[0].point_type,
                     fb_chart_open_marker(d->series[eager].point_type));
    assert_int_equal(d->noisy_times[0].point_type % 2, 0); /* gnuplot's open markers */
    assert_int_equal(d->n_noisy_speedups, 1);
    assert_true(d->noisy_speedups[0].n == 1e7);
    assert_true(fabs(d->noisy_speedups[0].value - 0.18 / 0.075) < 1e-12);
    const struct fb_chart_pair *p = pair_of(d, "eager_add_relu");
    assert_ptr_equal(&d->pairs[d->noisy_speedups[0].of], p);
    /* never a point of the series itself: the series has no point at 1e7 */
    for (size_t i = 0; i < d->series[eager].n_points; i++)
        assert_true(d->series[eager].points[i].n != 1e7);
    done(r);
}

/* issue 33: the graph pair (2 kernels in 1 launch) was given the fit's prediction, 1.0 at
 * small n, where its data sits at 1.7-1.9: the fit prices launches, not kernels, so neither
 * the graph side's time curve nor its pair's prediction is drawn; the other pairs keep
 * theirs. */
static void test_no_fitted_curve_where_kernels_outnumber_launches(void **state)
{
    (void)state;
    struct run *r = derive_files("../../../results/cpu-intel-xeon/default.csv", NULL);
    const struct fb_chart_derived *d = &r->d;
    const struct fb_chart_pair *graph = pair_of(d, "eager_add_relu_graph");
    const struct fb_chart_pair *plain = pair_of(d, "eager_add_relu");
    assert_non_null(graph);
    assert_non_null(plain);
    const struct fb_chart_series *ge = &d->series[graph->eager];
    assert_true(ge->launches > ge->host_launches);
    char graph_colour[8], plain_colour[8];
    snprintf(graph_colour, sizeof graph_colour, "#%06x", ge->colour);
    snprintf(plain_colour, sizeof plain_colour, "#%06x", d->series[plain->eager].colour);
    bool plain_predicted = false;
    struct fb_tables ts = tables_of(&fb_chart_speedup, d);
    for (size_t i = 0; i < rows(&ts, "predicted.tsv"); i++) {
        assert_string_not_equal(text(&ts, "predicted.tsv", i, "colour"), graph_colour);
        plain_predicted |= strcmp(text(&ts, "predicted.tsv", i, "colour"), plain_colour) == 0;
    }
    fb_tables_free(&ts);
    assert_true(plain_predicted);
    ts = tables_of(&fb_chart_time, d);
    for (size_t i = 0; i < rows(&ts, "curves.tsv"); i++)
        assert_string_not_equal(text(&ts, "curves.tsv", i, "colour"), graph_colour);
    fb_tables_free(&ts);
    done(r);
}

/* issue 33: model lines are labelled as models and drawn only where their model applies: a
 * launch limit up to the end of the launch-bound regime, a traffic ratio from the cache's
 * bound on (speedup_lines' from and to) */
static void test_model_lines_are_models_where_they_apply(void **state)
{
    (void)state;
    struct run *r = derive_files("sample-cpu.csv", NULL);
    const struct fb_chart_derived *d = &r->d;
    struct fb_tables ts = tables_of(&fb_chart_speedup, d);
    const char *lines = "speedup_lines.tsv";
    assert_true(rows(&ts, lines) >= 3);
    bool launch = false, traffic = false;
    for (size_t i = 0; i < rows(&ts, lines); i++) {
        const char *title = text(&ts, lines, i, "title");
        double from = num(&ts, lines, i, "from"), to = num(&ts, lines, i, "to");
        if (title[0])
            assert_memory_equal(title, "model", 5);
        if (strstr(title, "launch limit")) {
            launch = true;
            assert_string_equal(title, "model: launch limit 2 (launches: 2 / 1)");
            assert_true(from == 0 && to == d->n_launch);
        } else {
            traffic = true;
            assert_true(from == d->n_cache && to == 1e300); /* no bound: gnuplot has no inf */
        }
    }
    fb_tables_free(&ts);
    assert_true(launch && traffic);
    done(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_glance_shows_each_chain_its_own_counts),
        cmocka_unit_test(test_the_glance_splits_each_call_by_the_fit),
        cmocka_unit_test(test_titles_are_words_and_renamed_by_the_config),
        cmocka_unit_test(test_every_eager_chain_is_paired_with_its_own_fused_one),
        cmocka_unit_test(test_each_pair_has_its_own_launch_limit_and_traffic_ratio),
        cmocka_unit_test(test_no_two_series_share_colour_and_marker),
        cmocka_unit_test(test_model_launches_by_role),
        cmocka_unit_test(test_the_model_agrees_with_the_variant_table),
        cmocka_unit_test(test_a_four_op_chain_is_drawn_against_its_own_limits),
        cmocka_unit_test(test_the_regimes_and_the_fit_come_from_the_run),
        cmocka_unit_test(test_an_older_run_gets_built_in_pairs_and_regimes_from_the_data),
        cmocka_unit_test(test_a_peer_is_paired_and_set_against_the_runs_copy_ceiling),
        cmocka_unit_test(test_an_in_process_peer_carries_ours_ratio),
        cmocka_unit_test(test_dtypes_and_chain_lengths),
        cmocka_unit_test(test_speedup_bars_are_the_interval_from_paired_rounds),
        cmocka_unit_test(test_noisy_points_are_kept_hollow_with_their_speedup),
        cmocka_unit_test(test_no_fitted_curve_where_kernels_outnumber_launches),
        cmocka_unit_test(test_model_lines_are_models_where_they_apply),
        cmocka_unit_test(test_overlays_of_one_name_are_told_apart_by_their_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
