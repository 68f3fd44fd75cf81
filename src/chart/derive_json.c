/* The derived numbers as JSON (shape in derive_json.h): filled into tables (chart/table.h),
 * printed by the table model's JSON printer. */
#include "chart/derive_json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chart/model.h"
#include "chart/table.h"
#include "common/format.h"

/* A count of the results file: null where it was not measured (negative). */
static double count(int64_t x)
{
    return x >= 0 ? (double)x : NAN;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median time of the pair of row r (file f) at its size, NaN when not drawn. */
static double pair_time(const struct fb_chart_derived *d, size_t f, const struct fb_record *r)
{
    if (!r->pair[0] || r->status != FB_POINT_OK)
        return NAN;
    char suffix[48], k[FB_CHART_KEY_MAX];
    fb_chart_format_suffix(r, suffix, sizeof suffix);
    snprintf(k, sizeof k, "%s%s", r->pair, suffix);
    size_t s = fb_chart_find_series(d, f, k);
    if (s == SIZE_MAX)
        return NAN;
    const struct fb_chart_series *se = &d->series[s];
    for (size_t i = 0; i < se->n_points; i++)
        if (se->points[i].n == (double)r->n)
            return se->points[i].time_s;
    return NAN;
}

static void files(struct fb_tables *ts, const struct fb_csv_table *tables,
                  const char *const *paths, size_t n, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "file path stem rows noisy", "files");
    for (size_t f = 0; f < n; f++) {
        size_t noisy = 0;
        for (size_t i = 0; i < tables[f].n_records; i++)
            noisy += tables[f].records[i].status == FB_POINT_NOISY;
        fb_table_num(t, (double)f);
        fb_table_text(t, paths[f]);
        fb_table_text(t, d->stems[f]);
        fb_table_num(t, (double)tables[f].n_records);
        fb_table_num(t, (double)noisy);
    }
}

static void meta(struct fb_tables *ts, const struct fb_csv_table *tables, size_t n)
{
    struct fb_table *t = fb_table_add(ts, "file key value", "meta");
    for (size_t f = 0; f < n; f++)
        for (size_t m = 0; m < tables[f].n_meta; m++) {
            const struct fb_csv_meta *x = &tables[f].meta[m];
            if (fb_csv_meta_get(&tables[f], x->key) != x->value)
                continue; /* a repeated key: the first one counts */
            fb_table_num(t, (double)f);
            fb_table_text(t, x->key);
            fb_table_text(t, x->value);
        }
}

/* Every distinct n, ascending. Returns 0, or -1 out of memory. */
static int sizes(struct fb_tables *ts, const struct fb_csv_table *tables, size_t n)
{
    size_t total = 0;
    for (size_t f = 0; f < n; f++)
        total += tables[f].n_records;
    double *v = malloc((total ? total : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t k = 0;
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < tables[f].n_records; i++)
            v[k++] = (double)tables[f].records[i].n;
    qsort(v, k, sizeof *v, compare_doubles);
    struct fb_table *t = fb_table_add(ts, "n", "sizes");
    for (size_t i = 0; i < k; i++)
        if (i == 0 || v[i] != v[i - 1])
            fb_table_num(t, v[i]);
    free(v);
    return 0;
}

static void rows(struct fb_tables *ts, const struct fb_csv_table *tables, size_t n,
                 const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(
        ts,
        "file "
        "backend device variant dtype cache reason role pair stores mirror "
        "n launches bytes_model reps batch dram_read_bytes dram_write_bytes l2_bytes "
        "host_launches speedup_rounds "
        "time_median_s time_min_s time_max_s time_p10_s time_p90_s noise bandwidth_gbps "
        "copy_fraction kernel_time_s launch_overhead_s dram_bytes_per_element speedup "
        "preempted speedup_lo speedup_hi ours_ratio ours_ratio_lo ours_ratio_hi "
        "verified status pair_time_s elements",
        "rows");
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < tables[f].n_records; i++) {
            const struct fb_record *r = &tables[f].records[i];
            fb_table_num(t, (double)f);
            const char *texts[] = {r->backend, r->device, r->variant, r->dtype, r->cache,
                                   r->reason, r->role, r->pair, r->stores, r->mirror};
            for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
                fb_table_text(t, texts[k]);
            const double counts[] = {
                count(r->n), count(r->launches), count(r->bytes_model), count(r->reps),
                count(r->batch), count(r->dram_read_bytes), count(r->dram_write_bytes),
                count(r->l2_bytes), count(r->host_launches), count(r->speedup_rounds)};
            fb_table_nums(t, counts, sizeof counts / sizeof counts[0]);
            const double reals[] = {
                r->time_median_s, r->time_min_s, r->time_max_s, r->time_p10_s,
                r->time_p90_s, r->noise, r->bandwidth_gbps, r->copy_fraction,
                r->kernel_time_s, r->launch_overhead_s, r->dram_bytes_per_element,
                r->speedup, r->preempted, r->speedup_lo, r->speedup_hi, r->ours_ratio,
                r->ours_ratio_lo, r->ours_ratio_hi};
            fb_table_nums(t, reals, sizeof reals / sizeof reals[0]);
            fb_table_bool(t, r->verified);
            fb_table_text(t, fb_point_status_name(r->status));
            fb_table_num(t, pair_time(d, f, r));
            fb_table_num(t, fb_model_elements(r));
        }
}

static void pairs(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts,
                                      "pair file eager fused title launch_limit traffic_ratio "
                                      "traffic_ratio_write_allocate",
                                      "pairs");
    struct fb_table *pt = fb_table_add(ts, "pair n speedup lo hi", "points");
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        fb_table_num(t, (double)i);
        fb_table_num(t, (double)d->series[p->eager].file);
        fb_table_text(t, d->series[p->eager].key);
        fb_table_text(t, d->series[p->fused].key);
        fb_table_text(t, p->title);
        fb_table_nums(t, (const double[]){p->launch_limit, p->traffic_ratio,
                                          p->traffic_ratio_wa}, 3);
        for (size_t j = 0; j < p->n_points; j++) {
            fb_table_num(pt, (double)i);
            fb_table_nums(pt, (const double[]){p->points[j].n, p->points[j].speedup,
                                               p->points[j].lo, p->points[j].hi}, 4);
        }
    }
}

static void fit_and_regimes(struct fb_tables *ts, const struct fb_chart_derived *d)
{
    struct fb_table *t = fb_table_add(ts, "launch_s bandwidth_gbps cache_bandwidth_gbps", "fit");
    t->record = true;
    fb_table_nums(t, (const double[]){d->fit_launch_s, d->fit_gbps, d->fit_cache_gbps}, 3);
    t = fb_table_add(ts, "n_launch n_launch_from n_cache", "regimes");
    t->record = true;
    fb_table_num(t, d->n_launch);
    fb_table_text(t, isfinite(d->n_launch) ? (d->n_launch_from_fit ? "fit" : "data") : "");
    fb_table_num(t, d->n_cache);
}

int fb_chart_json_write(FILE *out, const struct fb_csv_table *tables, const char *const *paths,
                        size_t n, const struct fb_chart_derived *d)
{
    struct fb_tables ts = {0};
    files(&ts, tables, paths, n, d);
    meta(&ts, tables, n);
    bool whole = sizes(&ts, tables, n) == 0;
    rows(&ts, tables, n, d);
    pairs(&ts, d);
    fit_and_regimes(&ts, d);
    whole = whole && !ts.failed;
    for (size_t i = 0; i < ts.n; i++)
        whole = whole && !ts.v[i]->torn;
    /* nothing printed out of memory; else {"files":TABLE,"meta":TABLE,...} */
    for (size_t i = 0; whole && i < ts.n; i++) {
        fprintf(out, "%s\"%s\":", i ? "," : "{", ts.v[i]->name);
        fb_table_print_json(out, ts.v[i]);
    }
    fb_tables_free(&ts);
    if (whole)
        fputs("}\n", out);
    return whole && fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
