/* The one printer of the tables gnuplot reads: a TAB-separated file with a header row,
 * created new in a directory, every write checked and the first failure kept for the
 * message, text cells through the one quoting routine (chart/label.h). The charts'
 * (chart/tables.c), the timeline's (chart/timeline.c) and --compare's (compare/draw.c) tables
 * are all written through it. */
#ifndef FB_CHART_TSV_H
#define FB_CHART_TSV_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"

struct fb_tsv {
    FILE *f;
    const char *name; /* for messages */
    int failed;       /* the first write's errno, 0 while every write succeeded */
};

/* Creates the table `name` in the directory dirfd (O_EXCL, no symlink followed; replace:
 * an existing one is removed first). FB_OK, or FB_ERR_RUNTIME naming the table. */
int fb_tsv_open(struct fb_tsv *t, int dirfd, const char *name, bool replace,
                struct fb_error *err);

/* Raw text (a header row, a separator), printf-style. */
void fb_tsv_printf(struct fb_tsv *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A number cell (%.10g; "NaN" when not finite: gnuplot leaves it undrawn), then sep. */
void fb_tsv_num(struct fb_tsv *t, double x, const char *sep);

/* A text cell through fb_chart_label (an empty text is a space: strcol reads it as ""),
 * then sep. */
void fb_tsv_text(struct fb_tsv *t, const char *s, const char *sep);

/* Closes t. Returns rc when it is not FB_OK, else FB_OK or FB_ERR_RUNTIME naming the table
 * when a write, the flush or the close failed. */
int fb_tsv_close(struct fb_tsv *t, int rc, struct fb_error *err);

#endif
