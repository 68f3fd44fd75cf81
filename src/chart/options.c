/* The charts' default options (contract in options.h). */
#include "chart/options.h"

#include <string.h>

#include "chart/chart_file.h"
#include "chart/charts.h"

void fb_plot_options_defaults(struct fb_plot_options *o)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < fb_chart_count && i < FB_PLOT_MAX_CHARTS; i++)
        o->chart_on[i] = true;
    for (size_t i = 0; i < fb_chart_format_count && i < FB_PLOT_MAX_FORMATS; i++)
        o->format_on[i] = true;
}
