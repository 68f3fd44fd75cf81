/* Several runs side by side (--compare): for each results file, derived alone
 * (chart/derive.h, file 0 of its own derivation), what its charts' curves and its headline
 * numbers are, all about one pair: the main pair of the first run (its first eager/fused
 * pair, e.g. eager_add_relu / fused_add_relu in fp32, normal stores, warm), found in the
 * others by the same series keys, with the copy ceiling of the same format.
 *
 * Per run: its label, "DEVICE, DATE HH:MM" from its metadata (device and date lines; the
 * file's stem added when two runs would read the same, then its number "#i" when their
 * stems are the same too); its speedup against n and against
 * the working set relative to its last-level cache, x = n / n_cache (n_cache: where the main
 * eager chain's arrays fill cache_bytes; chart/derive.h), fused / copy (copy_fraction), the
 * copy ceiling's and the fused kernel's bandwidth, and, for every run but the first, the
 * ratio of its fused median time to the first run's at each common n with the verdict's
 * interval (compare/verdict.h). */
#ifndef FB_COMPARE_RUNS_H
#define FB_COMPARE_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "chart/charts.h"
#include "chart/derive.h"
#include "compare/verdict.h"
#include "common/error.h"
#include "results/csv.h"

struct fb_compare_run {
    const struct fb_chart_derived *d;   /* borrowed: this run derived alone */
    const char *path;                   /* borrowed: its results file */
    char label[FB_CHART_TEXT_MAX];      /* as read: chart/label.h makes it safe to draw */
    char date[32];                      /* "YYYY-MM-DD HH:MM" (UTC), "" unknown */
    size_t pair;                        /* d->pairs index of the main pair, SIZE_MAX none */
    size_t copy;                        /* d->series index of the copy ceiling, SIZE_MAX */
    /* Headline numbers (NaN where unknown): the main pair's speedup at its smallest and
     * largest n, fused / copy at the largest n, the copy ceiling's highest bandwidth (GB/s),
     * the fitted launch cost (s) and bandwidth (GB/s) of the run's metadata. */
    double n_small, speedup_small, n_large, speedup_large, copy_fraction_large;
    double copy_gbps_max, fit_launch_s, fit_gbps;
    /* Every run but the first: its fused time against the first run's (ratio, lo, hi per
     * common n), and the whole verdict when one was asked for. */
    struct fb_compare_point *ratio;
    size_t n_ratio;
};

struct fb_compare {
    size_t n_runs;
    struct fb_compare_run runs[FB_CHART_MAX_FILES];
    char eager_key[FB_CHART_KEY_MAX], fused_key[FB_CHART_KEY_MAX], copy_key[FB_CHART_KEY_MAX];
    char pair_title[FB_CHART_TEXT_MAX];  /* the main pair's title, as the speedup chart's */
    bool cache_axis;                     /* every run has a cache size: the working-set chart */
    double nmin, nmax, ws_min, ws_max;   /* drawn ranges over all runs (NaN none) */
    double threshold;                    /* the verdict's (a fraction) */
    bool verdict;                        /* the verdict was asked for */
    struct fb_compare_verdict verdicts[FB_CHART_MAX_FILES]; /* [i] run i against run 0 */
};

/* Fills c from d[0..n-1] (each derived alone from paths[i], read into tables[i], whose
 * metadata gives the date; 2 <= n <= FB_CHART_MAX_FILES) at
 * threshold. With `verdict`, also judges every run against the first (compare/verdict.h).
 * Returns FB_OK; FB_ERR_USAGE when the first run has no eager/fused pair (nothing to
 * compare), or from the verdict (unusable input: its message names the files and what is
 * missing); FB_ERR_RUNTIME out of memory. Free with fb_compare_free (also after a failure).
 * c only borrows d and paths: they must outlive it. */
int fb_compare_build(struct fb_compare *c, const struct fb_chart_derived *const *d,
                     const struct fb_csv_table *tables, const char *const *paths, size_t n, double threshold, bool verdict,
                     struct fb_error *err);

void fb_compare_free(struct fb_compare *c);

/* The runs whose regression verdict found at least one regressed point. */
size_t fb_compare_regressed_runs(const struct fb_compare *c);

/* Writes the headline table (markdown: a row per run) and, with a verdict, a table per run
 * of its result and one of every regressed point, to out. Text from the results files is
 * escaped for markdown (control bytes as \xNN, markdown's punctuation with a backslash).
 * Returns 0, or -1 when a write failed. */
int fb_compare_markdown(FILE *out, const struct fb_compare *c);

/* The markdown's first bytes: what tells a comparison fusebench wrote from a foreign file. */
#define FB_COMPARE_MD_SIGNATURE "## Headline numbers per run"

/* The compare charts' tables (plots/compare_*.gp), added to ts (chart/table.h) after
 * chart/tables.h's:
 *   cmp_numbers.tsv  nmin, nmax, ws_min, ws_max, cache_axis (0/1), threshold (the verdict's
 *                    fraction; -1 without one)
 *   cmp_labels.tsv   pair (the main pair's title), fused (its fused series), copy (the copy
 *                    ceiling's)
 *   cmp_runs.tsv     i, title, colour (#rrggbb), pt: one row per run
 *   r<i>.dat         n, ws (n / n_cache), speedup, lo, hi, copy_fraction (percent), copy_gbps,
 *                    fused_gbps: one row per n of the run's main pair or copy ceiling
 *   q<i>.dat         n, ratio, lo, hi: run i's fused time against the first run's (i >= 2) */
struct fb_tables;
void fb_compare_tables_add(struct fb_tables *ts, const void *compare);

/* The charts of a comparison (names and scripts, chart/gnuplot.h draws them): speedup,
 * speedup-cache (only with cache_axis), copy_fraction, bandwidth, ratio. Fills charts (room
 * for 5) and returns how many. */
size_t fb_compare_charts(const struct fb_compare *c, const struct fb_chart **charts);

#endif
