/* The charts fusebench draws, one file each (src/chart/<chart>.c: what it derives, the tables
 * it adds, when it is left out; plots/<script>.gp draws it), registered in one table as
 * dav1d registers its muxers. A chart is drawn once per format into
 * <stem>-<name>.<format> (stem: the first results file's name less ".csv", then
 * "-vs-<stem>" for each overlay), from the run's tables (chart/tables.h) and its own. */
#ifndef FB_CHART_CHARTS_H
#define FB_CHART_CHARTS_H

#include <stddef.h>

#include "chart/derive.h"
#include "chart/table.h"

struct fb_chart {
    const char *name;
    const char *scripts[3]; /* run after plots/style.gp, in order; NULL-terminated when fewer */
    int width, height, font; /* pixels, and points of the main text */
    /* NULL when the chart has something to draw, else why not (for the message); NULL: drawn */
    const char *(*skip)(const struct fb_chart_derived *d);
    /* Adds the chart's own tables; NULL: none. */
    void (*tables)(const struct fb_chart_derived *d, struct fb_tables *ts);
    /* The chart's own table whose rows stack down the page a line of text each (launches'
     * bars and their labels), for a page tall enough for them (chart/page.h); NULL: none. */
    const char *text_rows_table;
};

extern const struct fb_chart fb_chart_time, fb_chart_speedup, fb_chart_bandwidth,
    fb_chart_copy_fraction, fb_chart_bytes, fb_chart_launches, fb_chart_summary,
    fb_chart_dtypes, fb_chart_speedup_k, fb_chart_ours_ratio, fb_chart_glance, fb_chart_audit;

/* Every chart of a results file, in the order they are drawn. */
extern const struct fb_chart *const fb_charts[];
extern const size_t fb_chart_count;

/* The longest chart name plus ".<format>" and the '-' before it, for file name checks. */
#define FB_CHART_SUFFIX_MAX 24

#endif
