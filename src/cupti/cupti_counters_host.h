/* The host half of the range profiler: what needs only the chip's name, no GPU.
 * Compiled only with CUPTI (FB_HAVE_CUPTI). Used by fb_cupti_session_open and by the tests,
 * which check the configuration for a chip without the chip. */
#ifndef FB_CUPTI_CUPTI_COUNTERS_HOST_H
#define FB_CUPTI_CUPTI_COUNTERS_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "cupti/traffic.h"

/* Builds the range-profiler config image for the traffic metrics on chip `chip` (CUPTI's
 * name, e.g. "GH100"): the L2 metric and the first DRAM set of fb_traffic_dram_metric_names
 * the chip resolves, or no DRAM metric where it resolves none (then names->dram_why says why).
 * counter_availability is the device's counter availability image, or NULL to assume every
 * counter is available (host-only use). On FB_OK, *image (malloc'ed, free it) holds
 * *image_size bytes, *passes is the number of replay passes it needs and *names the metrics it
 * asks for. Returns FB_ERR_UNAVAILABLE when the chip is not supported or has no L2 metric;
 * FB_ERR_RUNTIME when a call fails or memory runs out. */
int fb_cupti_traffic_config(const char *chip, const uint8_t *counter_availability,
                            uint8_t **image, size_t *image_size, size_t *passes,
                            struct fb_traffic_names *names, struct fb_error *err);

#endif
