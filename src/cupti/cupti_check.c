/* Error messages for failed CUPTI calls (contract in cupti_check.h). */
#include "cupti/cupti_check.h"

#include <cupti.h>

/* What the user can do about the results that are not bugs. */
static const char *hint(CUptiResult r)
{
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return "; GPU performance counters are restricted to administrators: run as root or "
               "load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return "; another CUPTI client (ncu, nsys, a profiler) is attached to this process";
    case CUPTI_ERROR_NOT_COMPATIBLE:
        return "; CUPTI and the driver are not compatible (update the driver)";
    default:
        return "";
    }
}

static int code_of(CUptiResult r)
{
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        return FB_ERR_UNAVAILABLE;
    default:
        return FB_ERR_RUNTIME;
    }
}

int fb_cupti_check(CUptiResult r, const char *call, const char *file, int line,
                   struct fb_error *err)
{
    if (r == CUPTI_SUCCESS)
        return FB_OK;
    const char *name = NULL;
    if (cuptiGetResultString(r, &name) != CUPTI_SUCCESS || !name)
        name = "unknown CUPTI result";
    return fb_fail(err, code_of(r), "%s (%s:%d): %s (%d)%s", call, file, line, name, (int)r,
                   hint(r));
}
