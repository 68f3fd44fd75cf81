/* The device facts CUPTI's parts share (contracts in cupti_device.h and, for the chip name,
 * cupti_session.h). Below the session and its parts: it calls none of them. */
#include "cupti/cupti_device.h"

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <stdbool.h>
#include <string.h>

#include "common/cuda_check.h"
#include "cupti/cupti_check.h"
#include "cupti/cupti_session.h"

int fb_cupti_check_device(int device, struct fb_error *err)
{
    int count = 0;
    int rc = fb_cuda_device_count(&count, err);
    if (rc != FB_OK)
        return rc;
    if (device < 0 || device >= count)
        return fb_fail(err, FB_ERR_USAGE, "CUDA device %d does not exist (%d device%s)", device,
                       count, count == 1 ? "" : "s");
    return FB_OK;
}

int fb_cupti_profiler_init(struct fb_error *err)
{
    static bool done;
    if (done)
        return FB_OK;
    CUpti_Profiler_Initialize_Params p = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    int rc = FB_CUPTI_CALL(cuptiProfilerInitialize(&p), err);
    done = rc == FB_OK;
    return rc;
}

int fb_cupti_chip_name(int device, char *buf, size_t size, struct fb_error *err)
{
    if (!buf || size == 0)
        return fb_fail(err, FB_ERR_USAGE, "fb_cupti_chip_name: no room for the name");
    buf[0] = '\0';
    /* cuptiDeviceGetChipName segfaults inside libcupti when no GPU answers: ask CUDA first. */
    int rc = fb_cupti_check_device(device, err);
    if (rc < 0)
        return rc;
    if ((rc = fb_cupti_profiler_init(err)) < 0)
        return rc;
    CUpti_Device_GetChipName_Params p = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    p.deviceIndex = (size_t)device;
    if ((rc = FB_CUPTI_CALL(cuptiDeviceGetChipName(&p), err)) < 0)
        return rc;
    if (!p.pChipName)
        return fb_fail(err, FB_ERR_RUNTIME, "cuptiDeviceGetChipName (%s:%d): no name returned",
                       __FILE__, __LINE__);
    size_t len = strlen(p.pChipName);
    if (len >= size)
        return fb_fail(err, FB_ERR_USAGE, "chip name \"%s\" needs %zu bytes, got %zu",
                       p.pChipName, len + 1, size);
    memcpy(buf, p.pChipName, len + 1);
    return FB_OK;
}
