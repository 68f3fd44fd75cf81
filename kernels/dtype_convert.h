/* Conversions between fp32 and the 16-bit storage types (enum fb_dtype, common/format.h), written once for
 * the C compiler (the CPU backend, the host reference, the tests) and the host C++ compiler
 * (the CUDA kernels emulated on the CPU). The CUDA kernels use the toolkit's own
 * __half / __nv_bfloat16 conversions (cuda_fp16.h, cuda_bf16.h: __float2half_rn,
 * __float2bfloat16_rn), which compute the same function: the tests hold both to it.
 *
 * The rule, for every implementation (kernels/elementwise_contract.h says why it makes the
 * half-precision results bit-exact):
 * - widening (load): exact. Every fp16 and bf16 value is an fp32 value; NaNs stay NaNs.
 * - narrowing (store): round to nearest, ties to even (IEEE-754 convertFormat), with
 *   gradual underflow (fp16 subnormals down to 2^-24; an fp32 value under half of that
 *   becomes a signed zero) and overflow to infinity: fp16 above 65504 rounds to +-Inf from
 *   65520 up (the midpoint between 65504 and 2^16, a tie that goes to the even 2^16 = Inf);
 *   bf16 from the midpoint between its largest finite value 0x7f7f (3.3895e38) and 2^128,
 *   i.e. 0x7f7f8000 and above, FLT_MAX included. A NaN stays a NaN and comes out quiet:
 *   here with its sign and top payload bits kept (as x86's F16C does); CUDA returns its
 *   canonical NaN. The contract accepts any NaN where a NaN is due.
 *
 * Why bit manipulation and not the C compiler's _Float16: gcc 12 on x86-64 has _Float16,
 * correctly rounded, but without F16C (the build targets baseline x86-64: no -march) every
 * conversion is a call into libgcc (__truncsfhf2, __extendhfsf2), so no loop that converts
 * is vectorised (checked with -fopt-info-vec). The functions below use 32-bit integer and
 * float operations and selects only, which gcc vectorises with SSE2 (the CPU kernels' loops
 * are checked by tests/kernels/check_cpu_vectorized.sh). Still several instructions an
 * element: where the CPU has F16C the CPU kernels convert fp16 tiles with it instead
 * (cpu_kernels.c). test_dtype_convert holds these functions bit for bit to _Float16 (where
 * the compiler has it) and to the formats' definition written out independently, over every
 * fp16 / bf16 value, every rounding boundary and a dense sample of fp32 values, and the F16C
 * path to them. */
#ifndef FB_KERNELS_DTYPE_CONVERT_H
#define FB_KERNELS_DTYPE_CONVERT_H

#include <stdint.h>

#include "common/format.h"

#if defined(__CUDACC__)
#define FB_CONVERT __host__ __device__ __forceinline__
#elif defined(__cplusplus)
#define FB_CONVERT inline
#else
#define FB_CONVERT static inline
#endif

/* A float's bits and back (a union: defined in C11, and what gcc and nvcc turn into a move). */
FB_CONVERT uint32_t fb_float_bits(float f)
{
    union {
        float f;
        uint32_t u;
    } v;
    v.f = f;
    return v.u;
}

FB_CONVERT float fb_bits_float(uint32_t u)
{
    union {
        float f;
        uint32_t u;
    } v;
    v.u = u;
    return v.f;
}

/* c ? t : f, as masks: no branch for the vectoriser to if-convert. */
FB_CONVERT uint32_t fb_select_bits(int c, uint32_t t, uint32_t f)
{
    const uint32_t m = 0u - (uint32_t)(c != 0);
    return (t & m) | (f & ~m);
}

/* ---- fp16 (binary16) ---- */

/* fp32 -> fp16 bits, round to nearest even. With a = |x|'s bits:
 * - normal results (a >= 2^-14 = 0x38800000): rebias the exponent (127 - 15 = 112, i.e.
 *   subtract 112 << 23 = 0x38000000) and drop 13 fraction bits, rounding: adding 0xfff plus
 *   the lowest kept bit carries into it exactly when the dropped bits exceed half, or equal
 *   half with the kept bit odd; a carry out of the fraction bumps the exponent, which is
 *   right (up to Inf at 65520);
 * - subnormal results (a < 2^-14): |x| + 0.5 in fp32 has its last place at 2^-24, fp16's
 *   subnormal step, so the hardware's own round-to-nearest-even leaves the fp16 fraction
 *   (possibly 0x400, the smallest normal, which is the right encoding) in the low bits;
 * - a >= 65520 (0x477ff000), Inf included: Inf; NaN: quiet NaN, top 9 payload bits kept. */
FB_CONVERT uint16_t fb_fp16_from_float(float x)
{
    const uint32_t u = fb_float_bits(x), a = u & 0x7fffffffu, sign = (u >> 16) & 0x8000u;
    const uint32_t normal = (a + 0xc8000fffu + ((a >> 13) & 1u)) >> 13;
    const uint32_t subnormal = fb_float_bits(fb_bits_float(a) + 0.5f) - 0x3f000000u;
    uint32_t r = fb_select_bits(a < 0x38800000u, subnormal, normal);
    r = fb_select_bits(a >= 0x477ff000u, 0x7c00u, r);
    r = fb_select_bits(a > 0x7f800000u, 0x7e00u | ((a >> 13) & 0x3ffu), r);
    return (uint16_t)(r | sign);
}

/* fp16 bits -> fp32, exact: normal values rebias the exponent (+ 112 << 23); Inf and NaN
 * (exponent 31) map to exponent 255 with the fraction kept (+ 224 << 23), a NaN quieted (as
 * F16C's vcvtph2ps does, so that the CPU kernels' two paths give the same bits); subnormals
 * and zero are m x 2^-24, exact in fp32 (m < 2^10). */
FB_CONVERT float fb_float_from_fp16(uint16_t h)
{
    const uint32_t a = h & 0x7fffu, sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t normal = (a << 13) + 0x38000000u;
    const uint32_t special = ((a << 13) + 0x70000000u) | fb_select_bits(a > 0x7c00u, 0x00400000u, 0u);
    const uint32_t subnormal = fb_float_bits((float)(int32_t)a * 0x1p-24f);
    const uint32_t r = fb_select_bits(a >= 0x7c00u, special,
                                      fb_select_bits(a < 0x0400u, subnormal, normal));
    return fb_bits_float(r | sign);
}

/* ---- bf16 (bfloat16: the top half of an fp32) ---- */

/* fp32 -> bf16, round to nearest even, as the fp32 word whose top half is the bf16 bits (the
 * low half is left over; the sm_75 kernels pack two results with one byte permute of their
 * top halves): add 0x7fff plus the lowest kept bit (a carry rounds up, into the exponent and
 * up to Inf where due). NaN: the word with the quiet bit set (a NaN whose payload sits in the
 * low bits only would otherwise become Inf). */
FB_CONVERT uint32_t fb_bf16_rounded_word(float x)
{
    const uint32_t u = fb_float_bits(x);
    return fb_select_bits((u & 0x7fffffffu) > 0x7f800000u, u | 0x00400000u,
                          u + 0x7fffu + ((u >> 16) & 1u));
}

/* fp32 -> bf16 bits: the top half of that word. */
FB_CONVERT uint16_t fb_bf16_from_float(float x)
{
    return (uint16_t)(fb_bf16_rounded_word(x) >> 16);
}

/* bf16 bits -> fp32, exact. */
FB_CONVERT float fb_float_from_bf16(uint16_t h)
{
    return fb_bits_float((uint32_t)h << 16);
}

/* ---- per type, for code generated over the types ---- */

/* fp32 storage: the value itself. */
FB_CONVERT float fb_float_from_fp32(float x)
{
    return x;
}
FB_CONVERT float fb_fp32_from_float(float x)
{
    return x;
}

/* The host storage type of each dtype, for code generated over them:
 * X(NAME, HOST_TYPE); NAME gives fb_float_from_NAME and fb_NAME_from_float. */
#define FB_DTYPE_TABLE(X)                                                                     \
    X(fp32, float)                                                                             \
    X(fp16, uint16_t)                                                                          \
    X(bf16, uint16_t)

/* Rounds x to the dtype and widens it back: the value that storing x in it keeps. */
FB_CONVERT float fb_round_to_dtype(enum fb_dtype d, float x)
{
    return d == FB_DTYPE_FP16   ? fb_float_from_fp16(fb_fp16_from_float(x))
           : d == FB_DTYPE_BF16 ? fb_float_from_bf16(fb_bf16_from_float(x))
                                : x;
}

/* Element i of an array of dtype d, widened to fp32; and x stored into it, rounded. */
FB_CONVERT float fb_dtype_load(enum fb_dtype d, const void *p, int64_t i)
{
    return d == FB_DTYPE_FP16   ? fb_float_from_fp16(((const uint16_t *)p)[i])
           : d == FB_DTYPE_BF16 ? fb_float_from_bf16(((const uint16_t *)p)[i])
                                : ((const float *)p)[i];
}

FB_CONVERT void fb_dtype_store(enum fb_dtype d, void *p, int64_t i, float x)
{
    if (d == FB_DTYPE_FP16)
        ((uint16_t *)p)[i] = fb_fp16_from_float(x);
    else if (d == FB_DTYPE_BF16)
        ((uint16_t *)p)[i] = fb_bf16_from_float(x);
    else
        ((float *)p)[i] = x;
}

/* The bits of element i (fp32: 32 bits; fp16, bf16: 16 bits, zero-extended). */
FB_CONVERT uint32_t fb_dtype_bits(enum fb_dtype d, const void *p, int64_t i)
{
    return d == FB_DTYPE_FP32 ? fb_float_bits(((const float *)p)[i])
                              : (uint32_t)((const uint16_t *)p)[i];
}

#endif
