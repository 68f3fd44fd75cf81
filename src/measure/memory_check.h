/* Whether a sweep (or --profile's one size) fits in memory, checked before anything is
 * allocated: a sweep that cannot fit is a config error, not a crash halfway through. */
#ifndef FB_MEASURE_MEMORY_CHECK_H
#define FB_MEASURE_MEMORY_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"
#include "common/error.h"
#include "plan/plan.h"

/* Checks that the plan's largest size fits (plan->memory_bytes, backend_bytes): on a GPU backend in the
 * device's free memory (dev->memory_available_bytes); on the host in 90% of the available RAM
 * and 90% of what RLIMIT_AS (`ulimit -v`) still lets the process map (on the CPU backend the
 * backend's arrays are host memory too). Returns FB_OK, or FB_ERR_USAGE with a message that
 * starts with where the largest size came from (plan->sizes_origin, e.g.
 * "configs/x.ini:7: [sweep] sizes") and gives the need and what is free. */
int fb_memory_check(const struct fb_plan *plan, const struct fb_backend_ops *ops,
                    const struct fb_device_info *dev, struct fb_error *err);

#endif
