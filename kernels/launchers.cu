/* The extern "C" launchers of kernels/kernels.h. Everything but the <<<>>> line is shared
 * with the CPU emulation (tests/kernels/emulated_launchers.cpp): plan, kernel choice, args. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "common/cuda_check.h"
#include "elementwise_kernels.cuh"
#include "kernels.h"

/* A launch is asynchronous: cudaGetLastError catches bad configurations now; execution
 * errors surface at the caller's next synchronize, which is checked there. */
static int check_launch(const char *kernel, const char *file, int line, struct fb_error *err)
{
    cudaError_t status = cudaGetLastError();
    if (status == cudaSuccess) /* the timed path: nothing formatted */
        return FB_OK;
    char call[96];
    snprintf(call, sizeof call, "%s<<<>>>", kernel);
    return fb_cuda_check(status, call, file, line, err);
}

template <typename Op>
static int launch_unary(const fb_cuda_launch_context *ctx, const char *name, const float *x,
                        float *y, int64_t n, Op op, struct fb_error *err)
{
    fb_launch_plan plan = fb_plan_launch(n, 1, x, y, NULL, ctx->sm_count);
    if (plan.blocks == 0)
        return FB_OK;
    cudaStream_t stream = static_cast<cudaStream_t>(ctx->stream);
    if (plan.vector)
        fb_unary_vector_kernel<<<(unsigned)plan.blocks, plan.threads, 0, stream>>>(x, y, n, op);
    else
        fb_unary_scalar_kernel<<<(unsigned)plan.blocks, plan.threads, 0, stream>>>(x, y, n, op);
    return check_launch(name, __FILE__, __LINE__, err);
}

template <typename Op>
static int launch_binary(const fb_cuda_launch_context *ctx, const char *name, const float *a,
                         const float *b, float *c, int64_t n, Op op, struct fb_error *err)
{
    fb_launch_plan plan = fb_plan_launch(n, 2, a, b, c, ctx->sm_count);
    if (plan.blocks == 0)
        return FB_OK;
    cudaStream_t stream = static_cast<cudaStream_t>(ctx->stream);
    if (plan.vector)
        fb_binary_vector_kernel<<<(unsigned)plan.blocks, plan.threads, 0, stream>>>(a, b, c, n,
                                                                                    op);
    else
        fb_binary_scalar_kernel<<<(unsigned)plan.blocks, plan.threads, 0, stream>>>(a, b, c, n,
                                                                                    op);
    return check_launch(name, __FILE__, __LINE__, err);
}

extern "C" int fb_cuda_copy(const fb_cuda_launch_context *ctx, const float *x, float *y,
                            int64_t n, struct fb_error *err)
{
    return launch_unary(ctx, "copy", x, y, n, fb_copy_op{}, err);
}

extern "C" int fb_cuda_relu(const fb_cuda_launch_context *ctx, const float *x, float *y,
                            int64_t n, struct fb_error *err)
{
    return launch_unary(ctx, "relu", x, y, n, fb_relu_op{}, err);
}

extern "C" int fb_cuda_threshold(const fb_cuda_launch_context *ctx, const float *x, float *y,
                                 int64_t n, float threshold, float value, struct fb_error *err)
{
    return launch_unary(ctx, "threshold", x, y, n, fb_threshold_op{threshold, value}, err);
}

extern "C" int fb_cuda_add(const fb_cuda_launch_context *ctx, const float *a, const float *b,
                           float *c, int64_t n, struct fb_error *err)
{
    return launch_binary(ctx, "add", a, b, c, n, fb_add_op{}, err);
}

extern "C" int fb_cuda_add_relu(const fb_cuda_launch_context *ctx, const float *a,
                                const float *b, float *c, int64_t n, struct fb_error *err)
{
    return launch_binary(ctx, "add_relu", a, b, c, n, fb_add_relu_op{}, err);
}
