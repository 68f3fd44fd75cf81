/* The at-a-glance figure: per pair, what each side launches and moves, and at one size in
 * each regime each call's time split into its launch part and its bytes part by the fit,
 * beside the measured time. Derived here from the charts' numbers (chart/derive.h) and added
 * as the chart's tables (chart/charts.h: fb_chart_glance) for plots/glance.gp:
 *
 *   glance_pairs.tsv  k, title (the eager series' title, "eager: add, relu (2 kernels)"), ek, fk (kernels
 *                     counted per call, eager and fused), el, fl (host launches), ea, fa
 *                     (array-sized transfers of the model: arrays of n moved per call),
 *                     ed, fd (measured DRAM traffic in arrays of n, at the largest n with
 *                     counters; NaN without), ec, fc (colours, 0xRRGGBB integers), ep,
 *                     fp, edt, fdt (markers and dashes: each side's identity,
 *                     chart/identity.h), fpairs ("1, 2": the pairs whose fused side is
 *                     this one's, on the first of them; empty on the others), ftitle (the
 *                     fused series' title), name (the pair's name on the x axis: the eager
 *                     title less its count, "eager graph: add, relu")
 *   glance.tsv        j, title ("launch-bound: n = 8", with unfitted: "(B not fitted)"),
 *                     unit ("µs"), scale (seconds to it); then one row per missing regime,
 *                     j 0, its note as title
 *   g<j>.dat          one row per pair and side at size j: x, launch, bytes, measured (in
 *                     the unit), colour, side ("eager", "fused"), k, pt (marker)
 *
 * The pairs: the charted run's, in its plain format, each whose counts (kernels and arrays,
 * both sides) differ from an earlier one's (eager add, threshold says what add, relu says),
 * at most FB_GLANCE_PAIRS. The sizes: the main pair's measured n nearest (on a log scale) to
 * the middle of each regime (derive.h: n_launch, n_cache): sqrt(nmin n_launch),
 * sqrt(n_launch n_cache) and the largest n; a regime with no measured size is left out, and
 * said (missing). The split, per side: launch = host launches x L, bytes = arrays x element size x n / B (B_c when
 * those bytes fit the cache and the fit has B_c): the fitted model of measure/fit.h. */
#ifndef FB_CHART_GLANCE_H
#define FB_CHART_GLANCE_H

#include <stddef.h>

#include "chart/derive.h"

#define FB_GLANCE_PAIRS 4
#define FB_GLANCE_SIZES 3

struct fb_glance_side {
    double kernels, launches, arrays, dram;
    double launch_s, bytes_s, measured_s; /* at each size; NaN where not known */
};

struct fb_glance {
    size_t n_pairs, n_sizes;
    size_t pair[FB_GLANCE_PAIRS];          /* indices into d->pairs */
    char what[FB_GLANCE_PAIRS][FB_CHART_TEXT_MAX];
    char name[FB_GLANCE_PAIRS][FB_CHART_TEXT_MAX]; /* what less " (2 kernels)" */
    struct fb_glance_side side[FB_GLANCE_PAIRS][2]; /* eager, fused: counts */
    double n[FB_GLANCE_SIZES];
    const char *regime[FB_GLANCE_SIZES];   /* "launch-bound", "in cache", "memory-bound" */
    double launch_s[FB_GLANCE_SIZES][FB_GLANCE_PAIRS][2];
    double bytes_s[FB_GLANCE_SIZES][FB_GLANCE_PAIRS][2];
    double measured_s[FB_GLANCE_SIZES][FB_GLANCE_PAIRS][2];
    bool launch_fitted, bytes_fitted;      /* the fit has L; it has B */
    char unfitted[24];                     /* "(L not fitted)", "(B not fitted)",
                                              "(L and B not fitted)" or "" */
    size_t n_missing;                      /* regimes without a measured size, each said: */
    char missing[FB_GLANCE_SIZES][128];     /* "no memory-bound panel: no size measured
                                              beyond n = 2.3M" */
};

/* Fills g from d (above). g->n_pairs is 0 when the run has no pair to show. */
void fb_glance_derive(const struct fb_chart_derived *d, struct fb_glance *g);

#endif
