/* Checking every CUPTI call (internal to src/cupti/, CUPTI builds only; CUDA runtime calls
 * go through common/cuda_check.h).
 *
 * Like BabelStream's CU(expr), but the error is returned, not printed:
 *   if ((rc = FB_CUPTI_CALL(cuptiActivityFlushAll(0), err)) < 0) goto out;
 * fills err with "cuptiActivityFlushAll(0) (src/cupti/x.c:42): CUPTI_ERROR_... " and yields a
 * negative fb_status. Privilege and unsupported-device results map to FB_ERR_UNAVAILABLE
 * (nothing the program can fix), everything else to FB_ERR_RUNTIME. */
#ifndef FB_CUPTI_CUPTI_CHECK_H
#define FB_CUPTI_CUPTI_CHECK_H

#include <cupti_result.h>

#include "common/error.h"

#define FB_CUPTI_CALL(call, err) fb_cupti_check((call), #call, __FILE__, __LINE__, (err))

/* FB_OK when r is CUPTI_SUCCESS; otherwise fills err (see above) and returns the code. */
int fb_cupti_check(CUptiResult r, const char *call, const char *file, int line,
                   struct fb_error *err);

#endif
