/* The CUDA kernels themselves: one template per shape (unary, binary) and per path
 * (float4 vector, scalar), instantiated with the element operations of
 * kernels/elementwise_ops.h.
 *
 * This header is included by kernels/launchers.cu (nvcc, for the GPU) and by
 * tests/kernels/emulated_launchers.cpp (the host C++ compiler, with a small emulation of
 * threadIdx/blockIdx), so the exact code that runs on the GPU is also run on the CPU in
 * every test run. Keep it free of anything else CUDA-specific.
 *
 * Memory traffic per element, which the PTX audit (tests/kernels/ptx_audit.py) checks:
 *   copy, relu, threshold: 1 load, 1 store;  add, add_relu: 2 loads, 1 store.
 * The loops carry `#pragma unroll 1` so that each path has exactly one load per input
 * and one store in the PTX, which makes that audit a count rather than a guess. */
#ifndef FB_KERNELS_ELEMENTWISE_KERNELS_CUH
#define FB_KERNELS_ELEMENTWISE_KERNELS_CUH

#include <stdint.h>

#include "elementwise_ops.h"
#include "launch_plan.h"

struct fb_copy_op {
    __device__ float operator()(float x) const { return fb_op_copy(x); }
};
struct fb_relu_op {
    __device__ float operator()(float x) const { return fb_op_relu(x); }
};
struct fb_threshold_op {
    float threshold, value;
    __device__ float operator()(float x) const { return fb_op_threshold(x, threshold, value); }
};
struct fb_add_op {
    __device__ float operator()(float a, float b) const { return fb_op_add(a, b); }
};
struct fb_add_relu_op {
    __device__ float operator()(float a, float b) const { return fb_op_add_relu(a, b); }
};

/* First global thread index and grid stride, in 64 bits: blockIdx.x * blockDim.x overflows
 * 32 bits long before n does. */
__device__ inline int64_t fb_thread_index(void)
{
    return (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ inline int64_t fb_grid_stride(void)
{
    return (int64_t)gridDim.x * blockDim.x;
}

template <typename Op>
__global__ void __launch_bounds__(FB_BLOCK_THREADS)
    fb_unary_vector_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, Op op)
{
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *y4 = reinterpret_cast<float4 *>(y);
    const int64_t vectors = n / FB_VECTOR_FLOATS;
#pragma unroll 1
    for (int64_t i = fb_thread_index(); i < vectors; i += fb_grid_stride()) {
        float4 v = x4[i];
        y4[i] = make_float4(op(v.x), op(v.y), op(v.z), op(v.w));
    }
    const int64_t tail = vectors * FB_VECTOR_FLOATS + fb_thread_index();
    if (tail < n)
        y[tail] = op(x[tail]);
}

template <typename Op>
__global__ void __launch_bounds__(FB_BLOCK_THREADS)
    fb_unary_scalar_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, Op op)
{
#pragma unroll 1
    for (int64_t i = fb_thread_index(); i < n; i += fb_grid_stride())
        y[i] = op(x[i]);
}

template <typename Op>
__global__ void __launch_bounds__(FB_BLOCK_THREADS)
    fb_binary_vector_kernel(const float *__restrict__ a, const float *__restrict__ b,
                            float *__restrict__ c, int64_t n, Op op)
{
    const float4 *a4 = reinterpret_cast<const float4 *>(a);
    const float4 *b4 = reinterpret_cast<const float4 *>(b);
    float4 *c4 = reinterpret_cast<float4 *>(c);
    const int64_t vectors = n / FB_VECTOR_FLOATS;
#pragma unroll 1
    for (int64_t i = fb_thread_index(); i < vectors; i += fb_grid_stride()) {
        float4 u = a4[i], v = b4[i];
        c4[i] = make_float4(op(u.x, v.x), op(u.y, v.y), op(u.z, v.z), op(u.w, v.w));
    }
    const int64_t tail = vectors * FB_VECTOR_FLOATS + fb_thread_index();
    if (tail < n)
        c[tail] = op(a[tail], b[tail]);
}

template <typename Op>
__global__ void __launch_bounds__(FB_BLOCK_THREADS)
    fb_binary_scalar_kernel(const float *__restrict__ a, const float *__restrict__ b,
                            float *__restrict__ c, int64_t n, Op op)
{
#pragma unroll 1
    for (int64_t i = fb_thread_index(); i < n; i += fb_grid_stride())
        c[i] = op(a[i], b[i]);
}

#endif
