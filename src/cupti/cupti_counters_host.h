/* The host half of the range profiler: what needs only the chip's name, no GPU.
 * Compiled only with CUPTI (FB_HAVE_CUPTI). Used by fb_cupti_session_open and by the tests,
 * which check the configuration for a chip without the chip. */
#ifndef FB_CUPTI_CUPTI_COUNTERS_HOST_H
#define FB_CUPTI_CUPTI_COUNTERS_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Builds the range-profiler config image for the traffic metrics (fb_traffic_metric_names)
 * on chip `chip` (CUPTI's name, e.g. "GH100"). counter_availability is the device's counter
 * availability image, or NULL to assume every counter is available (host-only use).
 * On FB_OK, *image (malloc'ed, free it) holds *image_size bytes and *passes is the number of
 * replay passes it needs. Returns FB_ERR_UNAVAILABLE when the chip is not supported or a metric
 * does not exist on it; FB_ERR_RUNTIME when a call fails or memory runs out. */
int fb_cupti_traffic_config(const char *chip, const uint8_t *counter_availability,
                            uint8_t **image, size_t *image_size, size_t *passes,
                            struct fb_error *err);

#endif
