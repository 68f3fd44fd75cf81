/* What the charts draw and how: which charts, which formats, which page size, and the
 * series' labels. Filled from the config's [plot] and the command line by
 * app/plot_options.h; read by the gnuplot runner (chart/gnuplot.h). */
#ifndef FB_CHART_OPTIONS_H
#define FB_CHART_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "chart/derive.h"
#include "chart/page.h"
#include "common/limits.h"

#define FB_PLOT_MAX_CHARTS 32
#define FB_PLOT_MAX_FORMATS 8
#define FB_PLOT_OPS_CHARS 160

struct fb_plot_options {
    bool chart_on[FB_PLOT_MAX_CHARTS];    /* by fb_charts index */
    bool chart_asked;                     /* [plot] charts was given: say what is left out */
    bool format_on[FB_PLOT_MAX_FORMATS];  /* by fb_chart_formats index */
    const struct fb_chart_size *size;     /* NULL: each chart's own page */
    /* The labels: the config's label.<variant> (whole), the chains' ops (words). */
    struct fb_chart_name names[FB_PLOT_MAX_LABELS + 2 * FB_MAX_CHAINS];
    size_t n_names;
    char variants[FB_PLOT_MAX_LABELS + 2 * FB_MAX_CHAINS][FB_VARIANT_NAME_CHARS];
    char texts[FB_PLOT_MAX_LABELS + 2 * FB_MAX_CHAINS][FB_PLOT_OPS_CHARS];
};

/* The defaults: every chart, every format, each chart's own page, no names. */
void fb_plot_options_defaults(struct fb_plot_options *o);

#endif
