/* The extern "C" launchers of kernels/kernels.h. Everything but the <<<>>> line is shared
 * with the CPU emulation (tests/kernels/emulated_launchers.cpp): plan, kernel choice, args.
 * NVRTC (__CUDACC_RTC__: CI's CUDA 12 device compile, .ci/check_cuda12.py) takes device
 * code only, so it sees the kernels and the explicit instantiations at the end, no host code. */
#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <stdio.h>

#include "common/cuda_check.h"
#endif
#include "elementwise_kernels.cuh"
#ifndef __CUDACC_RTC__
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

/* Blocks per SM of `kernel` on this device (launch_plan.h, fb_blocks_per_sm) into *blocks:
 * from its registers, which cudaFuncGetAttributes reports once and *registers keeps (a
 * static of the calling launcher: one per kernel; a process runs on one device). */
template <typename Kernel>
static int kernel_blocks_per_sm(const fb_cuda_launch_context *ctx, Kernel kernel,
                                int *registers, int *blocks, struct fb_error *err)
{
    if (*registers == 0) {
        cudaFuncAttributes attributes;
        int rc = FB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel), err);
        if (rc != FB_OK)
            return rc;
        *registers = attributes.numRegs;
    }
    *blocks = fb_blocks_per_sm(&ctx->sm, *registers);
    return FB_OK;
}

template <typename Op, typename T>
static int launch_unary(const fb_cuda_launch_context *ctx, const char *name, const T *x, T *y,
                        int64_t n, Op op, struct fb_error *err)
{
    static int registers[2]; /* vector, scalar kernel */
    const bool vector = fb_is_vector_aligned(x) && fb_is_vector_aligned(y);
    int blocks_per_sm, rc;
    if (vector)
        rc = kernel_blocks_per_sm(ctx, fb_unary_vector_kernel<Op, T>, &registers[0],
                                  &blocks_per_sm, err);
    else
        rc = kernel_blocks_per_sm(ctx, fb_unary_scalar_kernel<Op, T>, &registers[1],
                                  &blocks_per_sm, err);
    if (rc != FB_OK)
        return rc;
    fb_launch_plan plan = fb_plan_launch_typed(n, (int)sizeof(T), Op::loads_per_input,
                                                blocks_per_sm, x, y, NULL, ctx->sm_count);
    if (plan.blocks == 0)
        return FB_OK;
    cudaStream_t stream = static_cast<cudaStream_t>(ctx->stream);
    if (plan.vector)
        fb_unary_vector_kernel<<<(unsigned)plan.blocks, plan.threads, 0, stream>>>(x, y, n, op);
    else
        fb_unary_scalar_kernel<<<(unsigned)plan.blocks, plan.threads, 0, stream>>>(x, y, n, op);
    return check_launch(name, __FILE__, __LINE__, err);
}

template <typename Op, typename T>
static int launch_binary(const fb_cuda_launch_context *ctx, const char *name, const T *a,
                         const T *b, T *c, int64_t n, Op op, struct fb_error *err)
{
    static int registers[2]; /* vector, scalar kernel */
    const bool vector =
        fb_is_vector_aligned(a) && fb_is_vector_aligned(b) && fb_is_vector_aligned(c);
    int blocks_per_sm, rc;
    if (vector)
        rc = kernel_blocks_per_sm(ctx, fb_binary_vector_kernel<Op, T>, &registers[0],
                                  &blocks_per_sm, err);
    else
        rc = kernel_blocks_per_sm(ctx, fb_binary_scalar_kernel<Op, T>, &registers[1],
                                  &blocks_per_sm, err);
    if (rc != FB_OK)
        return rc;
    fb_launch_plan plan = fb_plan_launch_typed(n, (int)sizeof(T), Op::loads_per_input,
                                                blocks_per_sm, a, b, c, ctx->sm_count);
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

/* The launcher of a kernel by arity (known at compile time, so that only the kernels that
 * exist are instantiated): a unary op runs the unary kernels on a (b is ignored), a binary
 * one the binary kernels on a and b. */
template <int Arity>
struct fb_launch_by_arity;
template <>
struct fb_launch_by_arity<1> {
    template <typename Op, typename T>
    static int run(const fb_cuda_launch_context *ctx, const char *name, const T *a, const T *,
                   T *c, int64_t n, Op op, struct fb_error *err)
    {
        return launch_unary(ctx, name, a, c, n, op, err);
    }
};
template <>
struct fb_launch_by_arity<2> {
    template <typename Op, typename T>
    static int run(const fb_cuda_launch_context *ctx, const char *name, const T *a, const T *b,
                   T *c, int64_t n, Op op, struct fb_error *err)
    {
        return launch_binary(ctx, name, a, b, c, n, op, err);
    }
};

/* One kernel on arrays of the storage type `dtype`: the launcher's void pointers typed. */
template <int Arity, typename Op>
static int launch_typed(const fb_cuda_launch_context *ctx, const char *name, enum fb_dtype dtype,
                        const void *a, const void *b, void *c, int64_t n, Op op,
                        struct fb_error *err)
{
    typedef fb_launch_by_arity<Arity> L;
    switch (dtype) {
    case FB_DTYPE_FP32:
        return L::run(ctx, name, (const float *)a, (const float *)b, (float *)c, n, op, err);
    case FB_DTYPE_FP16:
        return L::run(ctx, name, (const __half *)a, (const __half *)b, (__half *)c, n, op, err);
    case FB_DTYPE_BF16:
        return L::run(ctx, name, (const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b,
                      (__nv_bfloat16 *)c, n, op, err);
    }
    return fb_fail(err, FB_ERR_RUNTIME, "%s: unknown dtype %d", name, (int)dtype);
}

extern "C" int fb_cuda_op(const fb_cuda_launch_context *ctx, enum fb_op_id op,
                          struct fb_op_params params, enum fb_dtype dtype, const void *a,
                          const void *b, void *c, int64_t n, struct fb_error *err)
{
    switch (op) {
#define FB_CUDA_OP_CASE(name, arity, n_params, param_names, ulp)                               \
    case FB_OPID_##name:                                                                       \
        return launch_typed<arity>(ctx, #name, dtype, a, b, c, n, fb_##name##_op{params}, err);
        FB_OP_TABLE(FB_CUDA_OP_CASE)
#undef FB_CUDA_OP_CASE
    default:
        break;
    }
    return fb_fail(err, FB_ERR_RUNTIME, "fb_cuda_op: unknown op %d", (int)op);
}

/* The generic fused kernel for chains of exactness Exact on arrays of T: the binary kernels
 * when the first op is binary, else the unary ones. */
template <bool Exact, typename T>
static int launch_chain(const fb_cuda_launch_context *ctx, const struct fb_chain *chain,
                        bool binary, const void *a, const void *b, void *c, int64_t n,
                        struct fb_error *err)
{
    if (binary) {
        const typename fb_chain_for<Exact, T, 2>::functor f{*chain};
        return launch_binary(ctx, "chain", (const T *)a, (const T *)b, (T *)c, n, f, err);
    }
    const typename fb_chain_for<Exact, T, 1>::functor f{*chain};
    return launch_unary(ctx, "chain", (const T *)a, (T *)c, n, f, err);
}

template <bool Exact>
static int launch_chain_typed(const fb_cuda_launch_context *ctx, const struct fb_chain *chain,
                              enum fb_dtype dtype, const void *a, const void *b, void *c,
                              int64_t n, struct fb_error *err)
{
    const bool binary = fb_op_infos[chain->ops[0].op].arity == 2;
    switch (dtype) {
    case FB_DTYPE_FP32:
        return launch_chain<Exact, float>(ctx, chain, binary, a, b, c, n, err);
    case FB_DTYPE_FP16:
        return launch_chain<Exact, __half>(ctx, chain, binary, a, b, c, n, err);
    case FB_DTYPE_BF16:
        return launch_chain<Exact, __nv_bfloat16>(ctx, chain, binary, a, b, c, n, err);
    }
    return fb_fail(err, FB_ERR_RUNTIME, "chain: unknown dtype %d", (int)dtype);
}

extern "C" int fb_cuda_chain(const fb_cuda_launch_context *ctx, const struct fb_chain *chain,
                             enum fb_dtype dtype, const void *a, const void *b, void *c,
                             int64_t n, struct fb_error *err)
{
    /* the kernels trust the chain (an op that cannot be where it is has no code there) */
    char why[96];
    if (fb_chain_check(chain, why, sizeof why) != 0)
        return fb_fail(err, FB_ERR_RUNTIME, "fb_cuda_chain: %s", why);
    return fb_chain_is_exact(chain)
               ? launch_chain_typed<true>(ctx, chain, dtype, a, b, c, n, err)
               : launch_chain_typed<false>(ctx, chain, dtype, a, b, c, n, err);
}

extern "C" int fb_cuda_add_relu(const fb_cuda_launch_context *ctx, enum fb_dtype dtype,
                                const void *a, const void *b, void *c, int64_t n,
                                struct fb_error *err)
{
    return launch_typed<2>(ctx, "add_relu", dtype, a, b, c, n, fb_add_relu_op{}, err);
}

extern "C" int fb_cuda_copy_kernel_registers(int *registers, struct fb_error *err)
{
    cudaFuncAttributes attributes;
    *registers = 0;
    int rc = FB_CUDA_CHECK(
        cudaFuncGetAttributes(&attributes, fb_unary_vector_kernel<fb_copy_op, float>), err);
    if (rc == FB_OK)
        *registers = attributes.numRegs;
    return rc;
}

/* A chain of `first` then `then` (FB_OPID_COUNT: none), parameters zero. */
static fb_chain two_op_chain(enum fb_op_id first, enum fb_op_id then)
{
    fb_chain chain = {};
    chain.n_ops = then == FB_OPID_COUNT ? 1 : 2;
    chain.ops[0].op = first;
    chain.ops[1].op = then == FB_OPID_COUNT ? first : then;
    return chain;
}

extern "C" int fb_cuda_prepare_kernels(const struct fb_cuda_launch_context *ctx,
                                       struct fb_error *err)
{
    /* n = 0 launches nothing, but each launcher asks for its kernel's attributes first. NULL
     * takes the vector kernel, a pointer 4 bytes off alignment the scalar one; neither is
     * dereferenced. */
    const char *misaligned = (const char *)NULL + 4;
    const void *pointers[2] = {NULL, misaligned};
    /* the generic fused kernel's four shapes: exact or not, first op unary or binary */
    const fb_chain chains[4] = {
        two_op_chain(FB_OPID_relu, FB_OPID_COUNT), two_op_chain(FB_OPID_add, FB_OPID_COUNT),
        two_op_chain(FB_OPID_gelu, FB_OPID_COUNT), two_op_chain(FB_OPID_add, FB_OPID_gelu)};
    int rc = FB_OK;
    for (int d = 0; d < FB_DTYPE_COUNT && rc == FB_OK; d++) {
        const enum fb_dtype dtype = (enum fb_dtype)d;
        for (int k = 0; k < 2 && rc == FB_OK; k++) {
            const void *p = pointers[k];
            void *out = (void *)p;
            for (int op = 0; op < FB_OPID_COUNT && rc == FB_OK; op++)
                rc = fb_cuda_op(ctx, (enum fb_op_id)op, fb_op_params{}, dtype, p, p, out, 0,
                                err);
            if (rc == FB_OK)
                rc = fb_cuda_add_relu(ctx, dtype, p, p, out, 0, err);
            for (int c = 0; c < 4 && rc == FB_OK; c++)
                rc = fb_cuda_chain(ctx, &chains[c], dtype, p, p, out, 0, err);
        }
    }
    return rc;
}

#else /* __CUDACC_RTC__ */
/* Nothing instantiates the kernels for NVRTC (the launchers above are host code), so these
 * explicit instantiations name the ones the launchers do: every op of the table at its arity,
 * add_relu and the generic fused kernel's four shapes (exact or not, first op unary or
 * binary), each as the vector and the scalar kernel, for every storage type. The CI check
 * compares NVRTC's entry points with nvcc's, so one missing here fails it. */
#define FB_RTC_KERNELS_1(T, ...)                                                               \
    template __global__ void fb_unary_vector_kernel(const T *, T *, int64_t, __VA_ARGS__);     \
    template __global__ void fb_unary_scalar_kernel(const T *, T *, int64_t, __VA_ARGS__);
#define FB_RTC_KERNELS_2(T, ...)                                                               \
    template __global__ void fb_binary_vector_kernel(const T *, const T *, T *, int64_t,       \
                                                     __VA_ARGS__);                             \
    template __global__ void fb_binary_scalar_kernel(const T *, const T *, T *, int64_t,       \
                                                     __VA_ARGS__);
#define FB_RTC_EACH_DTYPE(K, ...)                                                              \
    K(float, __VA_ARGS__) K(__half, __VA_ARGS__) K(__nv_bfloat16, __VA_ARGS__)
#define FB_RTC_OP(name, arity, n_params, param_names, ulp)                                     \
    FB_RTC_EACH_DTYPE(FB_RTC_KERNELS_##arity, fb_##name##_op)
FB_OP_TABLE(FB_RTC_OP)
FB_RTC_EACH_DTYPE(FB_RTC_KERNELS_2, fb_add_relu_op)
#define FB_RTC_CHAINS(T, unused)                                                               \
    FB_RTC_KERNELS_1(T, fb_chain_for<true, T, 1>::functor)                                     \
    FB_RTC_KERNELS_1(T, fb_chain_for<false, T, 1>::functor)                                    \
    FB_RTC_KERNELS_2(T, fb_chain_for<true, T, 2>::functor)                                     \
    FB_RTC_KERNELS_2(T, fb_chain_for<false, T, 2>::functor)
FB_RTC_EACH_DTYPE(FB_RTC_CHAINS, -)
#endif
