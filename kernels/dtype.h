/* The element types a sweep stores its arrays in (the `dtype` of a point's format):
 * fp32 (IEEE-754 binary32), fp16 (binary16: 1 sign, 5 exponent, 10 fraction bits) and bf16
 * (bfloat16: fp32's top 16 bits, 1 sign, 8 exponent, 7 fraction bits).
 *
 * Storage only: every op computes in fp32 (kernels/elementwise_ops.h) on values widened
 * from the stored type, and its result is rounded once, to nearest even, when it is stored
 * (kernels/dtype_convert.h). Plain C, C++ and CUDA. */
#ifndef FB_KERNELS_DTYPE_H
#define FB_KERNELS_DTYPE_H

enum fb_dtype { FB_DTYPE_FP32, FB_DTYPE_FP16, FB_DTYPE_BF16 };
#define FB_DTYPE_COUNT 3

#endif
