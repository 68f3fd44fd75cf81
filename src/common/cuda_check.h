/* The one check for CUDA runtime calls, for C (src/, tests/) and CUDA C++ (kernels/) alike.
 * Like BabelStream's CU(expr), but the error goes back to the caller (only main exits):
 *   if ((rc = FB_CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind), err)) != FB_OK) goto out;
 *   FB_CUDA_TRY(cudaStreamSynchronize(s->stream));   returns rc from the enclosing function,
 *                                                    whose struct fb_error * is named err
 * On failure err holds "call (file:line): cudaGetErrorString(status)", e.g.
 *   "cudaMalloc(ptr, bytes) (src/backends/cuda/backend_cuda.c:137): out of memory".
 * A kernel launch is checked with cudaGetLastError() under the call name "kernel<<<>>>".
 * Compiled only in CUDA builds (src/common/cuda_check.c). */
#ifndef FB_COMMON_CUDA_CHECK_H
#define FB_COMMON_CUDA_CHECK_H

#include <cuda_runtime_api.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* FB_OK when status is cudaSuccess; otherwise fills err (may be NULL) with
 * "call (file:line): cudaGetErrorString(status)" and returns FB_ERR_RUNTIME. */
int fb_cuda_check(cudaError_t status, const char *call, const char *file, int line,
                  struct fb_error *err);

/* How many CUDA devices answer, into *count. FB_OK when at least one does; otherwise
 * *count = 0 and FB_ERR_UNAVAILABLE with "no CUDA device answers: " and the reason (no driver:
 * cudaErrorInsufficientDriver; driver without device: cudaErrorNoDevice; or 0 devices), no
 * sticky error left behind. A fact about this machine, not a failure. */
int fb_cuda_device_count(int *count, struct fb_error *err);

#ifdef __cplusplus
}
#endif

#define FB_CUDA_CHECK(call, err) fb_cuda_check((call), #call, __FILE__, __LINE__, (err))

#define FB_CUDA_TRY(call)                                                                     \
    do {                                                                                      \
        int fb_cuda_rc_ = FB_CUDA_CHECK(call, err);                                           \
        if (fb_cuda_rc_ != FB_OK)                                                             \
            return fb_cuda_rc_;                                                               \
    } while (0)

#endif
