/* The summary chart (README's figure): the speedups and their model lines for a slide,
 * overlays included, in big type (plots/regimes.gp, plots/summary.gp); the tables are the
 * speedup chart's model lines (chart/lines.h). */
#include "chart/charts.h"
#include "chart/lines.h"

static const char *no_pairs(const struct fb_chart_derived *d)
{
    return d->n_pairs ? NULL : "no eager/fused pair at a common n";
}

/* made to stand alone on a slide: bigger type */
const struct fb_chart fb_chart_summary = {"summary", {"regimes.gp", "summary.gp"}, 1600, 1000,
                                          28, no_pairs, fb_chart_speedup_lines};
