/* Model lines: the horizontal lines a chart draws where a model says a value should sit (a
 * pair's launch limit and traffic ratios on the speedup charts, the copy fraction's 1 and
 * write-allocate ratio, the DRAM elements a role moves). Filled by the chart that draws them
 * (speedup.c, copy_fraction.c, bytes.c) and added as its table:
 *   <name>.tsv  i, value, title ("" no key entry), colour (#rrggbb), dt, from, to (the n over
 *               which the line's model applies; 0 and 1e300: all) */
#ifndef FB_CHART_LINES_H
#define FB_CHART_LINES_H

#include <stddef.h>

#include "chart/derive.h"
#include "chart/table.h"

/* Model line colours (a series' own comes from chart/identity.h). */
enum { FB_LINE_GREY = 0x555555, FB_LINE_BROWN = 0x8c564b, FB_LINE_TARGET_RED = 0xb2182b,
       FB_LINE_EAGER = 0xD55E00, FB_LINE_FUSED = 0x0072B2 };
/* Dash types of the model lines: launches, traffic, traffic with write-allocate. */
enum { FB_DASH_LAUNCH = 2, FB_DASH_TRAFFIC = 4, FB_DASH_WA = 3 };

struct fb_chart_line {
    double value;
    char title[FB_CHART_TEXT_MAX]; /* "" for no legend entry */
    unsigned colour;
    int dash;
    double from, to;               /* 0 and INFINITY: throughout */
};

struct fb_chart_lines {
    struct fb_chart_line v[32];
    size_t n;
};

/* The line of `value` and `dash`, added when new (drawn throughout) and NULL when value is
 * not finite or there is no room; one that pairs of other colours share turns grey. */
struct fb_chart_line *fb_chart_line_add(struct fb_chart_lines *lines, double value, int dash,
                                        const char *title, unsigned colour);

/* The lines of `dash`: grey when only one; past 3, only the first keeps a key entry, `many`. */
void fb_chart_lines_settle(struct fb_chart_lines *lines, int dash, const char *many);

/* A fraction of two whole numbers of arrays as text ("5/3"), or the value (%.3g). */
void fb_chart_fraction_text(double num, double den, char *out, size_t size);

/* Adds the lines as the table `name` (above). */
void fb_chart_lines_table(struct fb_tables *ts, const char *name,
                          const struct fb_chart_lines *lines);

/* The speedup charts' model lines (speedup.c; the summary's too): each pair's launch limit up
 * to n_launch, its traffic ratios from n_cache, added as speedup_lines.tsv. */
void fb_chart_speedup_lines(const struct fb_chart_derived *d, struct fb_tables *ts);

#endif
