/* Progress on stderr while a sweep runs: a bar with an ETA on a terminal, one line per
 * finished point otherwise (logs, CI). Formatting only. */
#ifndef FB_OUTPUT_PROGRESS_H
#define FB_OUTPUT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/record.h"

struct fb_progress {
    FILE *out;
    bool terminal;     /* redraw one line with \r */
    bool quiet;
    double total_work; /* sum of point weights (see fb_progress_weight) */
    double done_work;
    int total_points, done_points;
    double start_s;
};

/* A point's expected share of the sweep's time: a fixed cost plus one proportional to the
 * bytes it moves (large points dominate), so the ETA does not lie early in a sweep. */
double fb_progress_weight(int64_t n);

void fb_progress_begin(struct fb_progress *p, FILE *out, bool quiet, int total_points,
                       double total_work);
void fb_progress_point_started(struct fb_progress *p, const char *variant, int64_t n);
void fb_progress_point_done(struct fb_progress *p, const struct fb_record *r);
void fb_progress_end(struct fb_progress *p);

#endif
