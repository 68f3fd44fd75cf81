/* The ours_ratio chart: a peer's rows measured in the same process as ours, ours / theirs with
 * its interval (plots/ours_ratio.gp).
 *   ours.tsv  j, i: the series with an ours_ratio */
#include "chart/charts.h"

static const char *no_ours_ratio(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_series; i++)
        if (d->series[i].has_ours_ratio)
            return NULL;
    return "no ours_ratio (a peer measured in the same process: tools/torch_inprocess.py)";
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    struct fb_table *t = fb_table_add(ts, "j i", "ours.tsv");
    for (size_t i = 0; i < d->n_series; i++)
        if (d->series[i].has_ours_ratio)
            fb_table_nums(t, (const double[]){fb_table_rows(t) + 1, i + 1}, 2);
}

const struct fb_chart fb_chart_ours_ratio = {"ours_ratio", {"ours_ratio.gp"}, 1600, 1000, 20,
                                             no_ours_ratio, tables};
