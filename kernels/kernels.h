/* The C interface to the CUDA kernels: one launcher per operation.
 *
 * Each launcher plans the launch (kernels/launch_plan.h), launches one kernel on the given
 * stream (none when n == 0), checks the launch with cudaGetLastError, and returns FB_OK or
 * FB_ERR_RUNTIME with "call (file:line): message" in err. Launches are asynchronous: the
 * caller synchronizes. Pointers are device pointers; n is a 64-bit element count.
 * The only header of kernels/ that host C code includes. */
#ifndef FB_KERNELS_KERNELS_H
#define FB_KERNELS_KERNELS_H

#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fb_cuda_launch_context {
    void *stream;  /* a cudaStream_t */
    int sm_count;  /* caps the grid at one full wave (launch_plan.h) */
};

int fb_cuda_copy(const struct fb_cuda_launch_context *ctx, const float *x, float *y, int64_t n,
                 struct fb_error *err);
int fb_cuda_relu(const struct fb_cuda_launch_context *ctx, const float *x, float *y, int64_t n,
                 struct fb_error *err);
int fb_cuda_threshold(const struct fb_cuda_launch_context *ctx, const float *x, float *y,
                      int64_t n, float threshold, float value, struct fb_error *err);
int fb_cuda_add(const struct fb_cuda_launch_context *ctx, const float *a, const float *b,
                float *c, int64_t n, struct fb_error *err);
int fb_cuda_add_relu(const struct fb_cuda_launch_context *ctx, const float *a, const float *b,
                     float *c, int64_t n, struct fb_error *err);

#ifdef __cplusplus
}
#endif

#endif
