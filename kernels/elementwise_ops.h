/* The element operations, written once for both compilers.
 *
 * nvcc compiles these into the CUDA kernels (kernels/elementwise_kernels.cuh) and the C
 * compiler into the CPU backend and the test reference, so every backend computes the same
 * function bit for bit. That holds because each one is a single IEEE-754 fp32 operation
 * (an add, or a compare and select): no FMA contraction is possible, neither side flushes
 * subnormals (nvcc's default is -ftz=false; we never build with fast-math), and both round
 * to nearest even. The one allowed difference is the payload of a NaN produced by an add
 * (x86 returns the first operand's NaN, the GPU a canonical one): tests treat any NaN as
 * equal to any NaN.
 *
 * Semantics follow PyTorch:
 *   relu(x)               = x <= 0 ? 0 : x   (clamp_min(x, 0); NaN passes through, relu(-0) = +0)
 *   threshold(x, th, val) = x <= th ? val : x (NaN compares false, so it passes through)
 *   add_relu(a, b)        = relu(a + b)
 * relu is threshold(x, 0, 0): this is why eager_add_threshold is a faithful second way
 * to spell the same chain. */
#ifndef FB_KERNELS_ELEMENTWISE_OPS_H
#define FB_KERNELS_ELEMENTWISE_OPS_H

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
