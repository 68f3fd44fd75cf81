/* The CUDA runtime call check (contract in cuda_check.h). */
#include "common/cuda_check.h"

int fb_cuda_check(cudaError_t status, const char *call, const char *file, int line,
                  struct fb_error *err)
{
    if (status == cudaSuccess)
        return FB_OK;
    return fb_fail(err, FB_ERR_RUNTIME, "%s (%s:%d): %s", call, file, line,
                   cudaGetErrorString(status));
}

int fb_cuda_device_count(int *count, struct fb_error *err)
{
    *count = 0;
    struct fb_error why;
    if (FB_CUDA_CHECK(cudaGetDeviceCount(count), &why) != FB_OK) {
        *count = 0;
        /* Leave no sticky error behind for the caller's next CUDA call. */
        (void)cudaGetLastError();
        return fb_fail(err, FB_ERR_UNAVAILABLE, "no CUDA device answers: %s", why.msg);
    }
    if (*count == 0)
        return fb_fail(err, FB_ERR_UNAVAILABLE,
                       "no CUDA device answers: cudaGetDeviceCount found 0 devices");
    return FB_OK;
}
