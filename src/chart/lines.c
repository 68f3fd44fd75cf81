/* Model lines (contract in lines.h). */
#include "chart/lines.h"

#include <math.h>
#include <stdio.h>

struct fb_chart_line *fb_chart_line_add(struct fb_chart_lines *lines, double value, int dash,
                                        const char *title, unsigned colour)
{
    if (!isfinite(value))
        return NULL;
    for (size_t i = 0; i < lines->n; i++) {
        struct fb_chart_line *l = &lines->v[i];
        if (l->dash == dash && fabs(l->value - value) <= 1e-9 * fabs(value)) {
            if (l->colour != colour)
                l->colour = FB_LINE_GREY;
            return l;
        }
    }
    if (lines->n == sizeof lines->v / sizeof lines->v[0])
        return NULL;
    struct fb_chart_line *l = &lines->v[lines->n++];
    *l = (struct fb_chart_line){.value = value, .dash = dash, .from = 0, .to = INFINITY,
                                .colour = colour};
    snprintf(l->title, sizeof l->title, "%s", title);
    return l;
}

void fb_chart_lines_settle(struct fb_chart_lines *lines, int dash, const char *many)
{
    size_t count = 0;
    for (size_t i = 0; i < lines->n; i++)
        count += lines->v[i].dash == dash;
    bool first = true;
    for (size_t i = 0; i < lines->n; i++) {
        struct fb_chart_line *l = &lines->v[i];
        if (l->dash != dash)
            continue;
        if (count == 1)
            l->colour = FB_LINE_GREY;
        if (count > 3) {
            snprintf(l->title, sizeof l->title, "%s", first ? many : "");
            first = false;
        }
    }
}

void fb_chart_fraction_text(double num, double den, char *out, size_t size)
{
    if (num == floor(num) && den == floor(den) && num > 0 && den > 0 && num < 1e6 && den < 1e6)
        snprintf(out, size, "%.0f/%.0f", num, den);
    else
        snprintf(out, size, "%.3g", num / den);
}

void fb_chart_lines_table(struct fb_tables *ts, const char *name,
                          const struct fb_chart_lines *lines)
{
    struct fb_table *t = fb_table_add(ts, "i value title colour dt from to", "%s", name);
    for (size_t i = 0; i < lines->n; i++) {
        const struct fb_chart_line *l = &lines->v[i];
        fb_table_nums(t, (const double[]){i + 1, l->value}, 2);
        fb_table_text(t, l->title);
        fb_table_colour(t, l->colour);
        /* gnuplot reads no infinity: the largest double for "no bound" */
        fb_table_nums(t, (const double[]){l->dash, l->from, isfinite(l->to) ? l->to : 1e300}, 3);
    }
}
