/* fb_chart_page_of: what the pages of a chart give gnuplot's terminals, checked against how
 * pngcairo and pdfcairo draw (measured with gnuplot 5.4): pngcairo draws a font's point as
 * 1/96 inch of its pixels and a marker of pointscale 1 about 6 pixels wide; pdfcairo, with
 * style.gp's fontscale 0.75, a point as a point and the marker about 6 points wide. So the
 * PNG and the PDF of one chart at one size show the same type and markers at 1:1. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "chart/page.h"

#define PT_CLOSE(a, b) assert_true((a) > (b) - 1e-9 && (a) < (b) + 1e-9)

/* Every chart at every preset and on its own page. */
static void each_page(void (*check)(const struct fb_chart *, const struct fb_chart_size *,
                                    double dpi))
{
    for (size_t c = 0; c < fb_chart_count; c++) {
        check(fb_charts[c], NULL, 200); /* the own page: 200 pixels per inch (page.h) */
        for (size_t s = 0; s < fb_chart_size_count; s++)
            check(fb_charts[c], &fb_chart_sizes[s], fb_chart_sizes[s].dpi);
    }
}

/* no text under 7 points at 1:1, the small type included, in either format */
static void type_at_least_7pt(const struct fb_chart *c, const struct fb_chart_size *size,
                              double dpi)
{
    struct fb_chart_page pdf = fb_chart_page_of(c, "pdf", size, 0);
    struct fb_chart_page png = fb_chart_page_of(c, "png", size, 0);
    assert_true(pdf.small >= 7 && pdf.font >= pdf.small && pdf.rows >= 7);
    PT_CLOSE(png.font * 96 / dpi, pdf.font);
    PT_CLOSE(png.small * 96 / dpi, pdf.small);
}

/* a marker as big in the PDF (points) as in the PNG (pixels at its dpi) */
static void markers_alike(const struct fb_chart *c, const struct fb_chart_size *size,
                          double dpi)
{
    struct fb_chart_page pdf = fb_chart_page_of(c, "pdf", size, 0);
    struct fb_chart_page png = fb_chart_page_of(c, "png", size, 0);
    PT_CLOSE(pdf.ps / 72, png.ps / dpi);
}

static void test_type(void **state)
{
    (void)state;
    each_page(type_at_least_7pt);
}

static void test_markers(void **state)
{
    (void)state;
    each_page(markers_alike);
}

/* Rows of text stacked down a page (launches' 26 bars of a chain-length run) make a preset's
 * page tall enough for a line of 7-point type each, 1.25 apart, a row more and 8 lines of the
 * main type around them; their type fits the page between 7 points and the main type; the
 * width, the main type and a page tall enough already (a slide's) stay as they were. */
static void test_rows_of_text(void **state)
{
    (void)state;
    for (size_t s = 0; s < fb_chart_size_count; s++) {
        const struct fb_chart_size *size = &fb_chart_sizes[s];
        struct fb_chart_page none = fb_chart_page_of(&fb_chart_launches, "pdf", size, 0);
        struct fb_chart_page few = fb_chart_page_of(&fb_chart_launches, "pdf", size, 7);
        struct fb_chart_page many = fb_chart_page_of(&fb_chart_launches, "pdf", size, 26);
        struct fb_chart_page png = fb_chart_page_of(&fb_chart_launches, "png", size, 26);
        PT_CLOSE(none.height, size->height_in);
        PT_CLOSE(none.rows, none.font);
        PT_CLOSE(few.height, size->height_in);
        const double need = (8 * many.font + 27 * 7) * 1.25 / 72;
        PT_CLOSE(many.height, need > size->height_in ? need : size->height_in);
        PT_CLOSE(png.height, many.height * size->dpi);
        PT_CLOSE(many.width, none.width);
        PT_CLOSE(many.font, none.font);
        /* the rows a line of their type apart in the page less the lines around them */
        const double rows = (many.height * 72 - 8 * many.font * 1.25) / 27 / 1.25;
        PT_CLOSE(many.rows, rows < 7 ? 7 : rows > many.font ? many.font : rows);
        assert_true(many.rows >= 7 && many.rows <= many.font);
    }
    /* the column's 3.2 inches are too short, a slide's 7.5 are not: there the rows take
     * smaller type than its 18 points */
    assert_true(fb_chart_page_of(&fb_chart_launches, "pdf", fb_chart_size_find("column"), 26)
                    .height > 4);
    struct fb_chart_page slide =
        fb_chart_page_of(&fb_chart_launches, "pdf", fb_chart_size_find("slide"), 26);
    PT_CLOSE(slide.height, 7.5);
    assert_true(slide.rows > 7 && slide.rows < 12);
    /* the chart's own page is made for a screen and keeps its size */
    PT_CLOSE(fb_chart_page_of(&fb_chart_launches, "pdf", NULL, 26).height,
             fb_chart_page_of(&fb_chart_launches, "pdf", NULL, 0).height);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_type),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_rows_of_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
