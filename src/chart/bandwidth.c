/* The bandwidth chart: each series' model bytes over its time (GB/s), the copy ceiling's best
 * and the peak where the run has one (plots/bandwidth.gp); the run's tables only. */
#include "chart/charts.h"

static const char *no_series(const struct fb_chart_derived *d)
{
    return d->n_series ? NULL : "no series";
}

const struct fb_chart fb_chart_bandwidth = {"bandwidth", {"bandwidth.gp"}, 1600, 1000, 20,
                                            no_series, NULL};
