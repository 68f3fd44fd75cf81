/* CUDA_TRY(call): run a CUDA runtime call; on failure return FB_ERR_RUNTIME from the
 * enclosing function with "call (file:line): message" in `err` (which must be in scope).
 * Like BabelStream's check, but the error goes back to the caller: only main exits. */
#ifndef FB_BACKENDS_CUDA_CUDA_CHECK_H
#define FB_BACKENDS_CUDA_CUDA_CHECK_H

#include <cuda_runtime.h>

#include "common/error.h"

#define CUDA_TRY(call)                                                                        \
    do {                                                                                      \
        cudaError_t fb_status_ = (call);                                                      \
        if (fb_status_ != cudaSuccess)                                                        \
            return fb_fail(err, FB_ERR_RUNTIME, "%s (%s:%d): %s", #call, __FILE__, __LINE__,  \
                           cudaGetErrorString(fb_status_));                                   \
    } while (0)

/* How many CUDA devices answer. FB_ERR_UNAVAILABLE with the runtime's reason when none does
 * (no driver: cudaErrorInsufficientDriver; driver without device: cudaErrorNoDevice). */
int fb_cuda_device_count(int *count, struct fb_error *err);

#endif
