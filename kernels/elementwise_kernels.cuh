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
 * (each functor's loads_per_input: FB_LOADS_PER_INPUT, 4 for one input, 2 for two; 2 for
 * the transcendental ops and the generic fused kernel) and T threads in the grid, thread t's
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
 *   unary ops of the table (arity 1) and a chain whose first op is unary: 1 load, 1 store;
 *   binary ops (arity 2), add_relu and a chain whose first op is binary: 2 loads, 1 store.
 * The main loop carries `#pragma unroll 1` (and the P-way inner loops a full
 * `#pragma unroll`), so the PTX holds exactly one copy of it and the audit can count: per
 * input, P loads in the main loop, P - 1 in the remainder, 1 in the vector path's tail. */
#ifndef FB_KERNELS_ELEMENTWISE_KERNELS_CUH
#define FB_KERNELS_ELEMENTWISE_KERNELS_CUH

#include <stdint.h>

#include "elementwise_ops.h"
#include "launch_plan.h"

/* At most 32 registers per thread: 65536 per SM / (16 blocks x 128 threads), so the 16
 * blocks per SM that the one-wave grid counts on (launch_plan.h) do fit, on every GPU with
 * 2048 threads per SM. __launch_bounds__(128, 16) would say the same, but makes ptxas warn
 * (and ignore it) on GPUs with fewer threads per SM, and nvcc accepts only one of the two.
 * ptx_audit.py checks the registers and that nothing spills. */
#define FB_KERNEL_REGISTERS 32

/* Loads per input per turn of a table op's kernels: FB_LOADS_PER_INPUT(arity) (4 for one
 * input, 2 for two), except for the transcendental ops (ULP_BOUND > 0): 2, because expf's
 * temporaries on top of 4 float4 in flight went past 32 registers and ptxas spilled. They
 * are compute-heavy; 2 float4 per thread still keep 64 KB per SM in flight (launch_plan.h). */
#define FB_OP_LOADS_PER_INPUT(arity, ulp) ((ulp) > 0 ? 2 : FB_LOADS_PER_INPUT(arity))

/* One functor per op of the table (fb_<name>_op), holding the op's parameters: the unary
 * kernels call op(x), the binary ones op(a, b). Generated from FB_OP_TABLE, so an op added
 * to the table has its functor (and, in launchers.cu, its kernels and launcher). */
#define FB_OP_FUNCTOR(name, arity, n_params, param_names, ulp)                                 \
    struct fb_##name##_op {                                                                    \
        static constexpr int loads_per_input = FB_OP_LOADS_PER_INPUT(arity, ulp);              \
        static constexpr int registers = FB_KERNEL_REGISTERS;                                  \
        static constexpr int blocks_per_sm = FB_BLOCKS_PER_SM;                                 \
        struct fb_op_params p;                                                                 \
        __device__ float operator()(float x) const { return fb_op_##name(x, 0.0f, p); }        \
        __device__ float operator()(float a, float b) const { return fb_op_##name(a, b, p); }  \
    };
FB_OP_TABLE(FB_OP_FUNCTOR)
#undef FB_OP_FUNCTOR

/* The handwritten fused kernel's functor: relu(a + b), the reference the generic fused
 * kernel is held against. */
struct fb_add_relu_op {
    static constexpr int loads_per_input = FB_LOADS_PER_INPUT(2);
    static constexpr int registers = FB_KERNEL_REGISTERS;
    static constexpr int blocks_per_sm = FB_BLOCKS_PER_SM;
    __device__ float operator()(float a, float b) const { return fb_op_add_relu(a, b); }
};

/* The generic fused kernel's functor: the chain's ops applied one after the other to a value
 * in registers. The chain arrives by value as a kernel parameter (kernels/op_table.h: 196
 * bytes for 16 ops, in the constant parameter bank, read with ld.param: no global memory);
 * the loop over ops and the switch on each op id are the same for every thread, so they
 * never diverge. The first op takes the input(s) (unary kernels: x; binary: a, b), each
 * later one the previous result.
 *
 * Two instantiations, picked by the launcher from the chain (fb_chain_is_exact):
 * - Exact = true, the ops with ULP_BOUND 0 only: 2 loads per input per turn (whatever the
 *   first op's arity: with 4 of one input, ptxas spilled at 32 registers), 32 registers,
 *   16 blocks per SM, as the other kernels.
 * - Exact = false, every op: the switch's expf code on top of the items in flight needs
 *   41 registers (ptxas -v, no cap) and spilled at 32; it gets 40 (ptx_audit.py checks: no
 *   spill) and so 65536 / (40 x 128) = 12 resident blocks per SM, which its grid uses
 *   (launch_plan.h). Such a chain is compute-heavy (expf per element per op): 3/4 of the
 *   threads in flight cost it less than spilling would. */
template <bool Exact>
struct fb_chain_functor {
    static constexpr int loads_per_input = 2;
    static constexpr int registers = Exact ? FB_KERNEL_REGISTERS : 40;
    static constexpr int blocks_per_sm = 65536 / (registers * FB_BLOCK_THREADS) < FB_BLOCKS_PER_SM
                                             ? 65536 / (registers * FB_BLOCK_THREADS)
                                             : FB_BLOCKS_PER_SM;
    struct fb_chain chain;
    __device__ static float one(const struct fb_chain_op &op, float x, float y)
    {
        switch (op.op) {
#define FB_CHAIN_ONE_CASE(name, arity, n_params, param_names, ulp)                             \
    case FB_OPID_##name:                                                                       \
        if (!Exact || (ulp) == 0)                                                              \
            return fb_op_##name(x, y, op.params);                                              \
        break;
            FB_OP_TABLE(FB_CHAIN_ONE_CASE)
#undef FB_CHAIN_ONE_CASE
        default:
            break;
        }
        return __builtin_nanf(""); /* not an op (or not exact in the exact kernel) */
    }
    __device__ float rest(float v) const
    {
#pragma unroll 1
        for (int k = 1; k < chain.n_ops; k++)
            v = one(chain.ops[k], v, 0.0f);
        return v;
    }
    __device__ float operator()(float x) const { return rest(one(chain.ops[0], x, 0.0f)); }
    __device__ float operator()(float a, float b) const { return rest(one(chain.ops[0], a, b)); }
};


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

/* The chain on the four lanes of a float4: each op's switch taken once for all four lanes
 * (not once per lane), then the op applied lane by lane. */
template <bool Exact>
__device__ inline void fb_chain_op4(const struct fb_chain_op &op, float v[4], const float *w)
{
    switch (op.op) {
#define FB_CHAIN_OP4_CASE(name, arity, n_params, param_names, ulp)                             \
    case FB_OPID_##name:                                                                       \
        if (!Exact || (ulp) == 0) {                                                            \
            for (int l = 0; l < 4; l++)                                                        \
                v[l] = fb_op_##name(v[l], w ? w[l] : 0.0f, op.params);                         \
            return;                                                                            \
        }                                                                                      \
        break;
        FB_OP_TABLE(FB_CHAIN_OP4_CASE)
#undef FB_CHAIN_OP4_CASE
    default:
        break;
    }
    for (int l = 0; l < 4; l++)
        v[l] = __builtin_nanf("");
}
template <bool Exact>
__device__ inline float4 fb_chain_apply4(const fb_chain_functor<Exact> &f, float4 a,
                                         const float4 *b)
{
    float v[4] = {a.x, a.y, a.z, a.w};
    float w[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (b) {
        w[0] = b->x, w[1] = b->y, w[2] = b->z, w[3] = b->w;
    }
    fb_chain_op4<Exact>(f.chain.ops[0], v, b ? w : NULL);
#pragma unroll 1
    for (int k = 1; k < f.chain.n_ops; k++)
        fb_chain_op4<Exact>(f.chain.ops[k], v, NULL);
    return make_float4(v[0], v[1], v[2], v[3]);
}
template <bool Exact>
__device__ inline float4 fb_apply(const fb_chain_functor<Exact> &f, float4 x)
{
    return fb_chain_apply4(f, x, NULL);
}
template <bool Exact>
__device__ inline float4 fb_apply(const fb_chain_functor<Exact> &f, float4 a, float4 b)
{
    return fb_chain_apply4(f, a, &b);
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
__global__ void __maxnreg__(Op::registers)
    fb_unary_vector_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, Op op)
{
    const int64_t vectors = n / FB_VECTOR_FLOATS;
    fb_unary_pass<Op::loads_per_input>(reinterpret_cast<const float4 *>(x),
                                         reinterpret_cast<float4 *>(y), vectors, op);
    const int64_t tail = vectors * FB_VECTOR_FLOATS + fb_thread_index();
    if (tail < n)
        y[tail] = op(x[tail]);
}

template <typename Op>
__global__ void __maxnreg__(Op::registers)
    fb_unary_scalar_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n, Op op)
{
    fb_unary_pass<Op::loads_per_input>(x, y, n, op);
}

template <typename Op>
__global__ void __maxnreg__(Op::registers)
    fb_binary_vector_kernel(const float *__restrict__ a, const float *__restrict__ b,
                            float *__restrict__ c, int64_t n, Op op)
{
    const int64_t vectors = n / FB_VECTOR_FLOATS;
    fb_binary_pass<Op::loads_per_input>(reinterpret_cast<const float4 *>(a),
                                          reinterpret_cast<const float4 *>(b),
                                          reinterpret_cast<float4 *>(c), vectors, op);
    const int64_t tail = vectors * FB_VECTOR_FLOATS + fb_thread_index();
    if (tail < n)
        c[tail] = op(a[tail], b[tail]);
}

template <typename Op>
__global__ void __maxnreg__(Op::registers)
    fb_binary_scalar_kernel(const float *__restrict__ a, const float *__restrict__ b,
                            float *__restrict__ c, int64_t n, Op op)
{
    fb_binary_pass<Op::loads_per_input>(a, b, c, n, op);
}

#endif
