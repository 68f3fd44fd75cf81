/* The device facts that CUPTI's parts share (internal to src/cupti/, CUPTI builds only):
 * whether a device answers, and the profiler's one-time initialization. The chip name,
 * fb_cupti_chip_name, is declared with the session API (cupti_session.h) and defined in
 * cupti_device.c. */
#ifndef FB_CUPTI_CUPTI_DEVICE_H
#define FB_CUPTI_CUPTI_DEVICE_H

#include "common/error.h"

/* FB_OK when `device` names a device that answers; FB_ERR_UNAVAILABLE ("no CUDA device
 * answers: ...") when none does; FB_ERR_USAGE for an index out of range. Touches only the CUDA
 * runtime, never CUPTI: the guard every target-side CUPTI call stands behind. */
int fb_cupti_check_device(int device, struct fb_error *err);

/* cuptiProfilerInitialize, once per process (never deinitialized: the range profiler and the
 * chip-name query both need it, and they may be used in any order). */
int fb_cupti_profiler_init(struct fb_error *err);

#endif
