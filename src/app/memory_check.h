/* Whether a sweep (or --profile's one size) fits in memory, checked before anything is
 * allocated: a sweep that cannot fit is a config error, not a crash halfway through. */
#ifndef FB_APP_MEMORY_CHECK_H
#define FB_APP_MEMORY_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"
#include "common/error.h"
#include "config/config.h"

/* "12.3 GiB" (from 1 GiB up) or "45.6 MiB" into buf (size bytes). */
void fb_app_format_bytes(char *buf, size_t size, uint64_t bytes);

/* Checks that cfg's largest size fits (fb_sweep_memory_bytes): on a GPU backend in the
 * device's free memory (dev->memory_available_bytes); on the host in 90% of the available RAM
 * and 90% of what RLIMIT_AS (`ulimit -v`) still lets the process map (on the CPU backend the
 * backend's arrays are host memory too). `origin` names where the largest size came from,
 * e.g. "configs/x.ini:7: [sweep] sizes". Returns FB_OK, or FB_ERR_USAGE with a message that
 * starts with origin and gives the need and what is free. */
int fb_app_check_memory(const struct fb_config *cfg, const struct fb_backend_ops *ops,
                        const struct fb_device_info *dev, const char *origin,
                        struct fb_error *err);

#endif
