/* The CPU kernels' exponential: e^x for x <= 0, which is all the transcendental ops ask of
 * one (fb_sigmoid_of in kernels/elementwise_ops.h takes e^-|z|: sigmoid, and gelu through
 * it), written as plain float and integer arithmetic so that gcc vectorises it inside the
 * CPU loops at the width of each instruction set (cpu_loops.c), in registers, with no call
 * and without -ffast-math (which the result contract forbids: kernels/elementwise_contract.h).
 *
 * Why not a library. gcc vectorises a loop that calls a function only through vector
 * variants of it (the x86-64 vector function ABI), which glibc declares for expf only under
 * -ffast-math. SLEEF 3.5 (Debian's libsleef-dev) has them, and was used here first: a call
 * per vector, all vector registers caller-saved around it, and an exp within 1.0 ulp over
 * the whole float range that does more than this half-line needs. Measured on the 2-vCPU AMD
 * EPYC VM (AVX2, one core, in L1, TSC ticks an element, with the loops' flags): exp 1.09
 * against SLEEF's 2.45, sigmoid 1.62 against 2.92, gelu 2.26 against 3.81. Being C, it also
 * vectorises on any architecture and compiler that if-converts the loops, where SLEEF's
 * names were x86-64 only and a build without it ran one libm call an element.
 *
 * The method (Cody and Waite's reduction, as in every libm): x = k ln2 + r with k the
 * nearest integer to x / ln2 and |r| <= ln2 / 2, e^x = 2^k e^r.
 *   k     rounded by adding 1.5 * 2^23 (the float's last bit is then the units digit, so its
 *         bits hold k: no conversion instruction, no rounding-mode call);
 *   r     x - k ln2_hi - k ln2_lo: ln2_hi has 16 significant bits, so k ln2_hi is exact for
 *         |k| <= 150 and the first subtraction is exact; the second rounds once;
 *   e^r   1 + r + r^2 P(r), P of degree 4, fitted at Chebyshev nodes on |r| <= ln2 / 2
 *         (relative error of the polynomial itself 3.6e-9, 0.06 ulp);
 *   2^k   applied as 2^(k + 64) then 2^-64: both factors are normal floats for k in
 *         [-150, 0], the first product is exact and the second rounds once, which makes the
 *         subnormal results (x < -87.3) correctly scaled instead of flushed.
 * x < -104 is taken as -104 (e^-104 rounds to +0, as e^x does for all x below it, -inf
 * included); a NaN is not (the comparison is false), so it runs through the arithmetic and
 * comes out a NaN. With FMA (the AVX2 and AVX-512 builds) the multiply-adds are fused
 * explicitly (fmaf): the contract's -ffp-contract=off only forbids the compiler from doing it
 * on its own; the exp's bits are its own business, within the bound below.
 *
 * Accuracy: measured over every float in [-110, 0] against double-precision exp, max 1.011
 * ulp with FMA and 0.989 without (test_kernels_cpu checks a stride of them in each build of
 * the loops, exp_within_its_bound): inside the 2 ulp that the contract's bounds already allow
 * CUDA's expf, so the bounds of kernels/op_table.h hold unchanged (and cannot be tightened:
 * the GPU's expf sets them). */
#ifndef FB_BACKENDS_CPU_CPU_MATH_H
#define FB_BACKENDS_CPU_CPU_MATH_H

#include <math.h>
#include <stdint.h>

#include "dtype_convert.h" /* fb_float_bits, fb_bits_float */

#ifdef __FMA__
#define FB_CPU_MAD(a, b, c) fmaf((a), (b), (c))
#else
#define FB_CPU_MAD(a, b, c) ((a) * (b) + (c))
#endif

/* e^x for x <= 0 or NaN (x > 0 is outside its contract: it gives 2^k e^r with a wrong
 * scale past x = 0). Selects, not branches: every line is one operation a lane. */
static inline __attribute__((always_inline)) float fb_cpu_exp_nonpositive(float x)
{
    const float xc = x < -104.0f ? -104.0f : x;
    const float shifted = FB_CPU_MAD(xc, 0x1.715476p+0f, 0x1.8p23f); /* 1/ln2, 1.5 * 2^23 */
    const float kf = shifted - 0x1.8p23f;
    const int32_t k = (int32_t)(fb_float_bits(shifted) - 0x4b400000u);
    float r = FB_CPU_MAD(kf, -0x1.62e400p-1f, xc); /* ln2_hi */
    r = FB_CPU_MAD(kf, -0x1.7f7d1cp-20f, r);       /* ln2_lo = ln2 - ln2_hi */
    float p = 0x1.687c22p-10f;
    p = FB_CPU_MAD(p, r, 0x1.123b8ep-7f);
    p = FB_CPU_MAD(p, r, 0x1.555b58p-5f);
    p = FB_CPU_MAD(p, r, 0x1.55548ep-3f);
    p = FB_CPU_MAD(p, r, 0x1.fffff8p-2f);
    const float e_r = 1.0f + FB_CPU_MAD(r * r, p, r);
    return (e_r * fb_bits_float((uint32_t)(k + 64 + 127) << 23)) * 0x1p-64f;
}

/* The exponential of the element functions in the files that include this header before
 * elementwise_ops.h (the CPU loops). */
#define FB_EXP_NONPOSITIVE fb_cpu_exp_nonpositive

#endif
