/* The CUDA kernels themselves: one template per shape (unary, binary) and per path
 * (float4 vector, scalar), instantiated with the element operations of
 * kernels/elementwise_ops.h. Both paths of a shape share one loop (fb_unary_pass,
 * fb_binary_pass), templated over the item type (float4 or float) and the op.
 *
 * This header is included by kernels/launchers.cu (nvcc, for the GPU) and by
 * tests/kernels/emulated_launchers.cpp (the host C++ compiler, with a small emulation of
 * threadIdx/blockIdx), so the exact code that runs on the GPU is also run on the CPU in
 * every test run. Keep it free of anything else CUDA-specific.
 *
 * The loop (kernels/launch_plan.h gives the numbers and why): with P loads per input
 * (FB_LOADS_PER_INPUT: 4 for one input, 2 for two) and T threads in the grid, thread t's
 * turn of the main loop loads items i, i + T, ..., i + (P-1) T of every input (i starts at
 * t and grows by P T per turn), all before it stores any: P * inputs independent loads in
 * flight per thread. Each load instruction of a warp reads 32 consecutive items, so every
 * access coalesces. The main loop runs while all P items exist; the fewer than P a thread
 * has left then go in one last turn, each load and store guarded, loads first (remainder).
 * On the vector path the last n % 4 floats, past the last whole float4, go one each to
 * threads 0 .. n % 4 - 1 (scalar tail). Every index in [0, n) is written exactly once,
 * which test_kernels_emulated checks by running these very loops over items that count
 * their reads and writes.
 *
 * Memory traffic per element, which the PTX audit (tests/kernels/ptx_audit.py) checks:
 *   copy, relu, threshold: 1 load, 1 store;  add, add_relu: 2 loads, 1 store.
 * The main loop carries `#pragma unroll 1` (and the P-way inner loops a full
 * `#pragma unroll`), so the PTX holds exactly one copy of it and the audit can count: per
 * input, P loads in the main loop, P - 1 in the remainder, 1 in the vector path's tail. */
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

/* At most 32 registers per thread: 65536 per SM / (16 blocks x 128 threads), so the 16
 * blocks per SM that the one-wave grid counts on (launch_plan.h) do fit, on every GPU with
 * 2048 threads per SM. __launch_bounds__(128, 16) would say the same, but makes ptxas warn
 * (and ignore it) on GPUs with fewer threads per SM, and nvcc accepts only one of the two.
 * ptx_audit.py checks the registers and that nothing spills. */
#define FB_KERNEL_REGISTERS 32

/* An op applied to one item: a float, or each lane of a float4. */
template <typename Op>
__device__ inline float fb_apply(const Op &op, float x)
{
    return op(x);
}
template <typename Op>
__device__ inline float4 fb_apply(const Op &op, float4 x)
{
    return make_float4(op(x.x), op(x.y), op(x.z), op(x.w));
}
template <typename Op>
__device__ inline float fb_apply(const Op &op, float a, float b)
{
    return op(a, b);
}
template <typename Op>
__device__ inline float4 fb_apply(const Op &op, float4 a, float4 b)
{
    return make_float4(op(a.x, b.x), op(a.y, b.y), op(a.z, b.z), op(a.w, b.w));
}

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

/* y[j] = op(x[j]) for j in [0, count), items of type Item (float4 or float): this thread's
 * share of the grid. Main loop: P loads, then P stores, per turn. Then the last turn, with
 * fewer than P items left (the loop ended, so i + (P-1) stride >= count): its loads, each
 * guarded, then its stores, so they too are in flight together. */
template <int P, typename Item, typename Op>
__device__ inline void fb_unary_pass(const Item *__restrict__ x, Item *__restrict__ y,
                                     int64_t count, const Op &op)
{
    static_assert(P >= 2, "the last turn holds P - 1 items");
    const int64_t stride = fb_grid_stride();
    int64_t i = fb_thread_index();
#pragma unroll 1
    for (; i + (P - 1) * stride < count; i += P * stride) {
        Item u[P];
#pragma unroll
        for (int k = 0; k < P; k++)
            u[k] = x[i + k * stride];
#pragma unroll
        for (int k = 0; k < P; k++)
            y[i + k * stride] = fb_apply(op, u[k]);
    }
    Item u[P - 1];
#pragma unroll
    for (int k = 0; k < P - 1; k++)
        if (i + k * stride < count)
            u[k] = x[i + k * stride];
#pragma unroll
    for (int k = 0; k < P - 1; k++)
        if (i + k * stride < count)
            y[i + k * stride] = fb_apply(op, u[k]);
}

/* c[j] = op(a[j], b[j]) for j in [0, count): as fb_unary_pass, P items of each input. */
template <int P, typename Item, typename Op>
__device__ inline void fb_binary_pass(const Item *__restrict__ a, const Item *__restrict__ b,
                                      Item *__restrict__ c, int64_t count, const Op &op)
{
    static_assert(P >= 2, "the last turn holds P - 1 items");
    const int64_t stride = fb_grid_stride();
    int64_t i = fb_thread_index();
#pragma unroll 1
    for (; i + (P - 1) * stride < count; i += P * stride) {
        Item u[P], v[P];
#pragma unroll
        for (int k = 0; k < P; k++) {
            u[k] = a[i + k * stride];
            v[k] = b[i + k * stride];
        }
#pragma unroll
        for (int k = 0; k < P; k++)
            c[i + k * stride] = fb_apply(op, u[k], v[k]);
    }
    Item u[P - 1], v[P - 1];
#pragma unroll
    for (int k = 0; k < P - 1; k++) {
        if (i + k * stride < count) {
            u[k] = a[i + k * stride];
            v[k] = b[i + k * stride];
        }
    }
#pragma unroll
    for (int k = 0; k < P - 1; k++)
        if (i + k * stride < count)
            c[i + k * stride] = fb_apply(op, u[k], v[k]);
}

template <typename Op>
__global__ void __maxnreg__(FB_KERNEL_REGISTERS)
    fb_unary_vector_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, Op op)
{
    const int64_t vectors = n / FB_VECTOR_FLOATS;
    fb_unary_pass<FB_LOADS_PER_INPUT(1)>(reinterpret_cast<const float4 *>(x),
                                         reinterpret_cast<float4 *>(y), vectors, op);
    const int64_t tail = vectors * FB_VECTOR_FLOATS + fb_thread_index();
    if (tail < n)
        y[tail] = op(x[tail]);
}

template <typename Op>
__global__ void __maxnreg__(FB_KERNEL_REGISTERS)
    fb_unary_scalar_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, Op op)
{
    fb_unary_pass<FB_LOADS_PER_INPUT(1)>(x, y, n, op);
}

template <typename Op>
__global__ void __maxnreg__(FB_KERNEL_REGISTERS)
    fb_binary_vector_kernel(const float *__restrict__ a, const float *__restrict__ b,
                            float *__restrict__ c, int64_t n, Op op)
{
    const int64_t vectors = n / FB_VECTOR_FLOATS;
    fb_binary_pass<FB_LOADS_PER_INPUT(2)>(reinterpret_cast<const float4 *>(a),
                                          reinterpret_cast<const float4 *>(b),
                                          reinterpret_cast<float4 *>(c), vectors, op);
    const int64_t tail = vectors * FB_VECTOR_FLOATS + fb_thread_index();
    if (tail < n)
        c[tail] = op(a[tail], b[tail]);
}

template <typename Op>
__global__ void __maxnreg__(FB_KERNEL_REGISTERS)
    fb_binary_scalar_kernel(const float *__restrict__ a, const float *__restrict__ b,
                            float *__restrict__ c, int64_t n, Op op)
{
    fb_binary_pass<FB_LOADS_PER_INPUT(2)>(a, b, c, n, op);
}

#endif
