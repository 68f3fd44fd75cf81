/* The element operations, written once for both compilers.
 *
 * nvcc compiles these into the CUDA kernels (kernels/elementwise_kernels.cuh) and the C
 * compiler into the CPU backend and the runner's reference, so every backend computes the
 * same function: each is a single IEEE-754 fp32 operation (an add, or a compare and select),
 * bit for bit the same everywhere except for which NaN comes out of a NaN.
 * kernels/elementwise_contract.h states that contract and why (NaN payloads, FMA
 * contraction, subnormals), and holds the one comparison every check uses.
 *
 * Semantics follow PyTorch:
 *   relu(x)               = x <= 0 ? 0 : x   (clamp_min(x, 0); relu(-0) = +0; NaN gives NaN)
 *   threshold(x, th, val) = x <= th ? val : x (NaN compares false, so NaN gives NaN)
 *   add_relu(a, b)        = relu(a + b)
 * relu is threshold(x, 0, 0): this is why eager_add_threshold is a faithful second way
 * to spell the same chain. */
#ifndef FB_KERNELS_ELEMENTWISE_OPS_H
#define FB_KERNELS_ELEMENTWISE_OPS_H

/* -ffast-math (and -Ofast) lets the compiler drop the NaN and signed-zero rules these
 * functions rely on, and links crtfastmath.o, which flushes subnormals process-wide. */
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "elementwise_ops.h must not be compiled with -ffast-math: see elementwise_contract.h"
#endif

#ifdef __CUDACC__
#define FB_ELEMENTWISE __host__ __device__ __forceinline__
#elif defined(__cplusplus)
#define FB_ELEMENTWISE inline
#else
#define FB_ELEMENTWISE static inline
#endif

FB_ELEMENTWISE float fb_op_copy(float x)
{
    return x;
}

FB_ELEMENTWISE float fb_op_add(float a, float b)
{
    return a + b;
}

FB_ELEMENTWISE float fb_op_threshold(float x, float threshold, float value)
{
    return x <= threshold ? value : x;
}

FB_ELEMENTWISE float fb_op_relu(float x)
{
    return fb_op_threshold(x, 0.0f, 0.0f);
}

FB_ELEMENTWISE float fb_op_add_relu(float a, float b)
{
    return fb_op_relu(fb_op_add(a, b));
}

#endif
