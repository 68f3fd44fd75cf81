/* The charts fusebench draws, as data: one entry per chart, with the scripts that draw it
 * (plots/, run after plots/style.gp, in order), its page (size and type; the formats are
 * chart/chart_file.h's) and when it is left out. A chart is drawn once per format into
 * <stem>-<name>.<format> (stem: the first results file's name less ".csv", then
 * "-vs-<stem>" for each overlay). */
#ifndef FB_CHART_CHARTS_H
#define FB_CHART_CHARTS_H

#include <stddef.h>

#include "chart/derive.h"

struct fb_chart {
    const char *name;
    const char *scripts[3]; /* NULL-terminated when fewer */
    int width, height, font; /* pixels, and points of the main text */
    /* NULL when the chart has something to draw, else why not (for the message) */
    const char *(*skip)(const struct fb_chart_derived *d);
};

extern const struct fb_chart fb_charts[];
extern const size_t fb_chart_count;

/* The longest chart name plus ".<format>" and the '-' before it, for file name checks. */
#define FB_CHART_SUFFIX_MAX 24

#endif
