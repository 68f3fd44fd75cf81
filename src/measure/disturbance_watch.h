/* Judging a piece of work as it runs: the backend's contention readings at its two edges
 * (backends/disturbance_reading.h), its host wall time, and the verdict of
 * measure/disturbance.h. The one way the sweep's timed samples and --profile's traced calls
 * are judged. */
#ifndef FB_MEASURE_DISTURBANCE_WATCH_H
#define FB_MEASURE_DISTURBANCE_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/backend.h"
#include "measure/disturbance.h"

struct fb_disturbance_watch {
    struct fb_disturbance_reading before;
    double start_s; /* host clock (common/clock.h), s */
    const struct fb_disturbance_rules *rules; /* NULL (as started): the default rules */
};

/* Takes the reading before the work (read_disturbance with at_end false; nothing when the
 * backend has none) and then the host clock. Call right before the work. */
void fb_disturbance_watch_start(const struct fb_backend_ops *ops, void *backend,
                                struct fb_disturbance_watch *w);

/* Call right after the work: puts its host wall time (s, since the start) in *wall_s, takes
 * the reading after it and returns whether another program disturbed it
 * (fb_disturbance_judge_by under w->rules: the rules tripped, 0 for clean; then `why`, size
 * bytes, may be NULL, says how). 0 when the backend has no read_disturbance. */
unsigned fb_disturbance_watch_end(const struct fb_backend_ops *ops, void *backend,
                                  const struct fb_disturbance_watch *w, double *wall_s,
                                  char *why, size_t size);

#endif
