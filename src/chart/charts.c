/* The chart table (contract in charts.h). */
#include "chart/charts.h"

#include <math.h>

#include "chart/audit.h"

static const char *no_series(const struct fb_chart_derived *d)
{
    return d->n_series ? NULL : "no series";
}

static const char *no_pairs(const struct fb_chart_derived *d)
{
    return d->n_pairs ? NULL : "no eager/fused pair at a common n";
}

static const char *no_copy_fraction(const struct fb_chart_derived *d)
{
    return d->n_fused_on_copy_chart ? NULL : "no fused series with a copy_fraction";
}

static const char *no_dram(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_series; i++)
        if (d->series[i].has_dram)
            return NULL;
    return "no measured DRAM bytes: no dram_bytes_per_element values";
}

static const char *no_launches(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_series; i++)
        if (isfinite(d->series[i].launches))
            return NULL;
    return "no launches column";
}

static const char *no_ours_ratio(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_series; i++)
        if (d->series[i].has_ours_ratio)
            return NULL;
    return "no ours_ratio (a peer measured in the same process: tools/torch_inprocess.py)";
}

static const char *one_dtype(const struct fb_chart_derived *d)
{
    return d->n_dtype_lines >= 2 ? NULL : "no eager variant in several dtypes";
}

static const char *few_chains(const struct fb_chart_derived *d)
{
    return d->chain_lengths >= 3 ? NULL : "fewer than 3 chain lengths";
}

static const char *no_glance(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_pairs; i++)
        if (d->pairs[i].primary)
            return NULL;
    return "no eager/fused pair in the charted run";
}

const struct fb_chart fb_charts[] = {
    {"time", {"time.gp"}, 1600, 1000, 20, no_series},
    {"speedup", {"regimes.gp", "speedup.gp"}, 1600, 1000, 20, no_pairs},
    {"bandwidth", {"bandwidth.gp"}, 1600, 1000, 20, no_series},
    {"copy_fraction", {"copy_fraction.gp"}, 1600, 1000, 20, no_copy_fraction},
    {"bytes", {"bytes.gp"}, 1600, 1000, 20, no_dram},
    {"launches", {"launches.gp"}, 1600, 1000, 20, no_launches},
    /* made to stand alone on a slide: bigger type */
    {"summary", {"regimes.gp", "summary.gp"}, 1600, 1000, 28, no_pairs},
    {"dtypes", {"dtypes.gp"}, 2000, 900, 18, one_dtype},
    {"speedup-k", {"chain_length.gp"}, 1600, 1000, 20, few_chains},
    {"ours_ratio", {"ours_ratio.gp"}, 1600, 1000, 20, no_ours_ratio},
    /* what each side launches and moves, and where a call's time goes, in four panels */
    {"glance", {"glance.gp"}, 2000, 1000, 20, no_glance},
    {"audit", {"audit.gp"}, 2000, 1000, 20, fb_audit_skip},
};
const size_t fb_chart_count = sizeof fb_charts / sizeof fb_charts[0];
