/* The page a chart is drawn on: its size, its type and its line width, per format. A chart's
 * own page (chart/charts.h: width x height pixels, font points, made for a screen) is drawn
 * at 200 pixels per inch, a fifth taller for the key under the plot: 1600 x 1000 pixels is
 * 1600 x 1200, 8 x 6 inches with 9.6-point text (pngcairo's 20 points: 96 per inch). A size
 * preset replaces it with a page for print or a slide, the same for every chart:
 *
 *   column   3.5 x 3.2 in, 7 pt, PNG at 300 dpi   one column of a two-column paper
 *   double   7.0 x 3.6 in, 8 pt, PNG at 300 dpi   a figure across both columns
 *   slide   13.33 x 7.5 in, 18 pt, PNG at 144 dpi a 16:9 slide (1920 x 1080 pixels)
 *
 * Per format (what the gnuplot terminal takes, plots/style.gp):
 *   png (pngcairo)  pixels = inches x dpi; font scaled by dpi / 96, lines and markers by
 *                   dpi / 200; on a preset narrower than 8 inches lines and markers are
 *                   thinner in proportion (to half at most)
 *   svg             the same pixels and font as the PNG (a viewer scales it)
 *   pdf (pdfcairo)  inches and points as they are: vector, its fonts embedded by cairo */
#ifndef FB_CHART_PAGE_H
#define FB_CHART_PAGE_H

#include <stddef.h>

#include "chart/charts.h"

struct fb_chart_size {
    const char *name;       /* "column", "double", "slide" */
    double width_in, height_in, font_pt;
    int dpi;                /* of the PNG */
};

extern const struct fb_chart_size fb_chart_sizes[];
extern const size_t fb_chart_size_count;

/* The size preset named `name`, or NULL. */
const struct fb_chart_size *fb_chart_size_find(const char *name);

/* What page.tsv holds for one chart in one format: width and height in the terminal's unit
 * (pixels, or inches for pdf), font and small (the main and the small type, never under 7
 * points at 1:1) and rows (the type of rows of text stacked a line each: text_rows below; the
 * main type when none) in the terminal's points, lw the line width factor, ps the marker
 * scale (png and pdf; the svg terminal has none). */
struct fb_chart_page {
    double width, height, font, small, rows, lw, ps;
};

/* The page of chart c in format (a fb_chart_formats name) at size (NULL: the chart's own).
 * A chart's bigger type (summary's 28 against 20 points) is kept in a preset, in proportion,
 * at most 1.25 x the preset's and at most a slide's 18 points; a smaller one (dtypes' 18)
 * down to 7 points. text_rows: the rows of c's text_rows_table (0: none), which make a preset's
 * page taller where they would not fit a line of 7-point type each (page.c says how). */
struct fb_chart_page fb_chart_page_of(const struct fb_chart *c, const char *format,
                                      const struct fb_chart_size *size, size_t text_rows);

#endif
