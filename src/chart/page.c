/* Chart pages (contract in page.h). */
#include "chart/page.h"

#include <string.h>

/* The charts' own pages are made for a screen at this many pixels per inch. */
#define OWN_DPI 200.0
/* The charts' own pages' height is for a plot with its key beside it. */
#define OWN_KEY_ROOM 1.2
#define OWN_WIDTH_PX 1600.0
/* pngcairo's and the svg terminal's pixels per point of type */
#define CAIRO_DPI 96.0
/* Type of the charts' own pages: the usual size, which the preset's font stands for. */
#define OWN_FONT 20.0
/* No text under 7 points at 1:1 (a paper's smallest readable type); the small type, for
 * annotations and keys, is 85% of the main type down to it. */
#define MIN_PT 7.0
/* A slide's type: a chart's bigger type (summary's) is not bigger than that in a preset, as
 * a slide's key of two columns holds no more (plots/style.gp's key_auto). */
#define MAX_PT 18.0
#define SMALL 0.85
/* A chart whose rows of text stack down the page (launches: a label beside each bar) takes
 * about 8 lines of the main type for its title, x axis and key, lines 1.25 apart per point,
 * and the plot, a row more than its rows high: the rows' type is what fits there, between 7
 * points and the main type. A preset's page too short for 7 points (a column's or a
 * double's, for a chain-length run's 26 bars: 4.13 and 4.27 inches) is made that tall; a
 * slide's keeps its 16:9 and takes smaller type. */
#define LINE_PITCH 1.25
#define ROWS_AROUND 8

const struct fb_chart_size fb_chart_sizes[] = {
    {"column", 3.5, 3.2, 7, 300},
    {"double", 7.0, 3.6, 8, 300},
    {"slide", 13.333, 7.5, 18, 144},
};
const size_t fb_chart_size_count = sizeof fb_chart_sizes / sizeof fb_chart_sizes[0];

const struct fb_chart_size *fb_chart_size_find(const char *name)
{
    for (size_t i = 0; i < fb_chart_size_count; i++)
        if (strcmp(fb_chart_sizes[i].name, name) == 0)
            return &fb_chart_sizes[i];
    return NULL;
}

struct fb_chart_page fb_chart_page_of(const struct fb_chart *c, const char *format,
                                      const struct fb_chart_size *size, size_t text_rows)
{
    double w_in, h_in, pt, dpi, thin = 1;
    if (size) {
        double bigger = c->font / OWN_FONT;
        w_in = size->width_in;
        h_in = size->height_in;
        pt = size->font_pt * (bigger > 1.25 ? 1.25 : bigger < 0.8 ? 0.8 : bigger);
        dpi = size->dpi;
        /* lines and markers shrink with a page narrower than the own 8 inches, to half */
        thin = w_in / (OWN_WIDTH_PX / OWN_DPI);
        thin = thin > 1 ? 1 : thin < 0.5 ? 0.5 : thin;
    } else {
        /* a fifth more height than the chart's own: the key goes under the plot */
        w_in = c->width / OWN_DPI;
        h_in = c->height * OWN_KEY_ROOM / OWN_DPI;
        pt = c->font * CAIRO_DPI / OWN_DPI;
        dpi = OWN_DPI;
    }
    pt = pt < MIN_PT ? MIN_PT : size && pt > MAX_PT ? MAX_PT : pt;
    double small = pt * SMALL < MIN_PT ? MIN_PT : pt * SMALL;
    const double around = ROWS_AROUND * pt * LINE_PITCH, rows = text_rows + 1.0;
    if (size && text_rows && h_in * 72 < around + rows * MIN_PT * LINE_PITCH)
        h_in = (around + rows * MIN_PT * LINE_PITCH) / 72;
    double row = text_rows ? (h_in * 72 - around) / rows / LINE_PITCH : pt;
    row = row < MIN_PT ? MIN_PT : row > pt ? pt : row;
    /* pdfcairo's line width 1 is half a point: 1.5 is the 2 pixels of the own 200-dpi PNG;
     * it draws a marker in points where pngcairo draws it in pixels (pointscale 1: about 6
     * of either), so the own PNG's marker scale 1 at 200 dpi is 72 / 200 here */
    if (strcmp(format, "pdf") == 0)
        return (struct fb_chart_page){w_in, h_in, pt, small, row, 1.5 * thin,
                                      thin * 72.0 / OWN_DPI};
    /* pixels; pngcairo draws a font's point as 1/96 inch of its pixels (a 72-point "H" is
     * about 100 pixels tall, CSS's 96 px per inch), lines and markers in pixels */
    double px = dpi / CAIRO_DPI, own = dpi / OWN_DPI;
    return (struct fb_chart_page){w_in * dpi, h_in * dpi, pt * px, small * px, row * px,
                                  2.0 * own * thin, own * thin};
}
