/* The C interface to the CUDA kernels: one launcher per operation.
 *
 * Each launcher plans the launch (kernels/launch_plan.h: blocks per SM from ctx->sm and the
 * kernel's registers on the device, asked once per kernel), launches one kernel on the given
 * stream (none when n == 0), checks the launch with cudaGetLastError, and returns FB_OK or
 * FB_ERR_RUNTIME with "call (file:line): message" in err. Launches are asynchronous: the
 * caller synchronizes. Pointers are device pointers to arrays of n elements of the storage
 * type `dtype` (kernels/dtype.h: fp32, fp16, bf16; computed in fp32, rounded once at the
 * store); n is a 64-bit element count.
 * The only header of kernels/ that host C code includes. */
#ifndef FB_KERNELS_KERNELS_H
#define FB_KERNELS_KERNELS_H

#include <stdint.h>

#include "common/error.h"
#include "common/format.h"
#include "launch_plan.h"
#include "op_table.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fb_cuda_launch_context {
    void *stream;           /* a cudaStream_t */
    int sm_count;           /* caps the grid at one full wave (launch_plan.h) */
    struct fb_sm_limits sm; /* what one SM holds: a kernel's blocks per SM follow from it and
                               from the kernel's registers (fb_blocks_per_sm) */
};

/* One kernel of op `op` of the table (kernels/op_table.h) with its parameters: c = op(a)
 * for a unary op (b is ignored, may be NULL), c = op(a, b) for a binary one. */
int fb_cuda_op(const struct fb_cuda_launch_context *ctx, enum fb_op_id op,
               struct fb_op_params params, enum fb_dtype dtype, const void *a, const void *b,
               void *c, int64_t n, struct fb_error *err);
/* The generic fused kernel: c = the chain's ops applied in registers, in one kernel; the
 * first op reads a (unary) or a and b (binary). FB_ERR_RUNTIME for an empty or too long
 * chain. */
int fb_cuda_chain(const struct fb_cuda_launch_context *ctx, const struct fb_chain *chain,
                  enum fb_dtype dtype, const void *a, const void *b, void *c, int64_t n,
                  struct fb_error *err);
/* The registers per thread of the fp32 copy kernel (the bandwidth ceiling) on the current
 * device, into *registers: cudaFuncGetAttributes, which fails with "no kernel image is
 * available" when the binary holds no code the device can run. FB_OK or FB_ERR_RUNTIME. */
int fb_cuda_copy_kernel_registers(int *registers, struct fb_error *err);
/* Asks the attributes (registers) of every kernel once, before anything is timed or
 * captured into a graph, so that no launch asks later: every launcher with n = 0 on the
 * vector and the scalar path, every dtype, every shape of the generic fused kernel. FB_OK,
 * or FB_ERR_RUNTIME from the first kernel the device has no image for. */
int fb_cuda_prepare_kernels(const struct fb_cuda_launch_context *ctx, struct fb_error *err);
/* The handwritten fused kernel: c = relu(a + b). */
int fb_cuda_add_relu(const struct fb_cuda_launch_context *ctx, enum fb_dtype dtype,
                     const void *a, const void *b, void *c, int64_t n, struct fb_error *err);

#ifdef __cplusplus
}
#endif

#endif
