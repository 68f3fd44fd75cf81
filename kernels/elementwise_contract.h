/* What counts as a correct result of an elementwise operation: the contract every check
 * applies, stated once, next to the one function that applies it. Its users: the kernel
 * checks of the CPU backend, of the CUDA kernels emulated on the CPU and of the CUDA kernels
 * on a GPU (tests/kernels/kernel_check.c), and the runner's verification of every measured
 * point before it is timed (fb_first_mismatch, src/measure/reference.c).
 *
 * An output element `got` matches the reference's `expected` when:
 * - expected is not a NaN: got has exactly the same bits. No tolerance: each op is one
 *   IEEE-754 binary32 operation rounded to nearest even (an add, or a compare and select;
 *   add_relu is an add then a compare and select), so there is one right answer and every
 *   implementation must give it. That includes the sign of zero (relu(-0) = +0 because
 *   -0 <= 0; (-0) + (-0) = -0; x + (-x) = +0), infinities, ties rounded to even, and
 *   subnormal inputs and results, which nothing may flush to zero (see below).
 * - expected is a NaN: got is a NaN, of any sign and payload. NaN in gives NaN out; which
 *   NaN is not promised, as in PyTorch. Why:
 *   - ptxas compiles relu's select (x <= 0 ? 0 : x) into FMNMX.NAN, a max that returns the
 *     canonical NaN 0x7fffffff rather than the input's own bits (SASS read with cuobjdump).
 *     threshold's FSETP.GTU + FSEL happens to keep the input's bits and copy moves bits,
 *     but no operation is held to that.
 *   - an add with a NaN operand returns the canonical NaN on the GPU and the quieted first
 *     NaN operand on x86 (0xffc00000 for Inf - Inf); a signalling NaN comes out quieted.
 *
 * That is the rule for the ops whose ULP_BOUND in the op table (kernels/op_table.h) is 0,
 * the exact ones of docs/ops.md (`fusebench --list-ops`: each one IEEE-754 operation or a
 * compare and select), the handwritten add_relu, and any chain of them (each op rounds to float, in
 * registers as in memory, so a fused chain gives the eager chain's bits).
 *
 * The transcendental ops (ULP_BOUND > 0 in the table) call expf, whose last bits are not
 * the same on glibc and on CUDA's libdevice (CUDA Math API, single precision: expf max 2 ulp
 * error, tanhf 2 ulp, full range; glibc's expf is under 1 ulp). For them an output matches
 * when it is within ULP_BOUND units in the last place of the float nearest to the
 * double-precision value of the op's formula at the same input (fb_result_within_ulps):
 * the same bound on the CPU backend, the CUDA kernels emulated on the CPU and the GPU.
 * NaN and infinities as above: NaN for NaN, and an infinity only where one is expected
 * (the distance from FLT_MAX to +Inf is 1 ulp, so the bound must allow it explicitly: it
 * does not). Each bound, what was measured on this host (test_kernels_cpu and
 * test_kernels_emulated measure the max error over 2^24 and 2^22 random inputs across
 * every exponent plus the special values, and print it) and why it leaves room for CUDA's
 * 2 ulp expf, is written next to the op's line in kernels/op_table.h.
 *
 * Where GPU and host arithmetic could legitimately differ, and why they do not here:
 * - FMA contraction (a * b + c computed with one rounding instead of two): a transcendental
 *   op's argument has multiplies feeding adds, and so does a fused chain (scale then bias). The host builds
 *   with -ffp-contract=off (gcc's default under -std=c11, which the build uses; g++'s under
 *   -std=c++17 for the emulated kernels) and nvcc with -fmad=false (kernels/meson.build),
 *   so every multiply and add rounds on its own on every backend. (libdevice's expf uses
 *   fma() explicitly, which -fmad=false keeps: that is inside its 2 ulp.)
 * - Subnormals: nvcc's default is -ftz=false (denormals kept) and the build never passes
 *   -ftz=true or -use_fast_math; the PTX audit (tests/kernels/ptx_audit.py) rejects any
 *   .ftz instruction. The host must not be built with -ffast-math, -Ofast or
 *   -funsafe-math-optimizations: besides licensing other rewrites, gcc then links
 *   crtfastmath.o, which sets FTZ/DAZ for the whole process, the reference included.
 *   kernels/elementwise_ops.h refuses to compile under __FAST_MATH__, and the known answers
 *   of kernel_check.c hold every implementation and the reference to constant bits for
 *   subnormal sums.
 * - Excess precision (x87's 80-bit registers): none; kernel_check.c requires
 *   FLT_EVAL_METHOD == 0, true on x86-64 and AArch64.
 * - Rounding mode: round to nearest even on both; nothing here changes it.
 *
 * fp16 and bf16 storage (kernels/dtype.h): every implementation widens the stored inputs to
 * fp32 (exact), computes the op (or the whole fused chain) in fp32 exactly as above, and
 * rounds the one result to the storage type when it stores it, to nearest even
 * (kernels/dtype_convert.h). The result is a function of the stored inputs with one right
 * answer per exact op, so the rule is the same, on the stored type's bits: the same 16 bits,
 * except that any NaN matches a NaN (fb_dtype_result_matches). An eager chain stores (and so
 * rounds) each temporary; the fused chain keeps them in fp32: the two may differ in the last
 * bit of the type, and each is checked against a reference that does what it does (the
 * runner's reference runs the variant's own steps). This is what PyTorch does for half
 * tensors on both devices (computation in float, one rounding per stored result).
 *
 * The transcendental ops at fp16 and bf16: within FB_DTYPE_ULP_BOUND = 1 unit in the last
 * place of the storage type, of the reference's fp32 result rounded to the type. Why 1 holds:
 * the fp32 results of two implementations differ by at most B units of fp32 (the table's
 * bound, at most 256), which is B x 2^-13 units of fp16 and B x 2^-16 of bf16 in the normal
 * range (fp16's subnormal units are larger still): under 1/16 of the smaller unit just below
 * a power of two, so the two fp32 values straddle at most one rounding boundary of the type
 * and round to the same value or to neighbours (1 apart in the ordering of the type's bit
 * patterns, even across a power of two). The reference's own double rounding
 * (double -> fp32 -> the type) sits inside the same argument. An infinity only where one is
 * expected, as for fp32: the ops that can reach fp16's overflow (gelu(x) = x for large x)
 * are exact there (sigmoid(2u) is 1 exactly), so no result straddles 65520.
 *
 * Plain C (C11 and C++), bits compared as uint32_t so that no float comparison (which would
 * call -0 equal to +0, and a NaN unequal to itself) is involved. */
#ifndef FB_KERNELS_ELEMENTWISE_CONTRACT_H
#define FB_KERNELS_ELEMENTWISE_CONTRACT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/format.h"

#ifdef __cplusplus
#define FB_CONTRACT_INLINE inline
#else
#define FB_CONTRACT_INLINE static inline
#endif

/* True when the float with bits u is a NaN (exponent all ones, fraction non-zero). */
FB_CONTRACT_INLINE bool fb_bits_are_nan(uint32_t u)
{
    return (u & 0x7fffffffu) > 0x7f800000u;
}

/* True when an implementation's result `got` meets the contract above for the reference
 * result `expected` (both as float bit patterns). */
FB_CONTRACT_INLINE bool fb_result_matches(uint32_t expected, uint32_t got)
{
    if (fb_bits_are_nan(expected))
        return fb_bits_are_nan(got);
    return got == expected;
}


/* ---- at a storage type: the bits of one element of the type (16-bit ones zero-extended) ---- */

/* The bound, in units of the storage type, for the transcendental ops at fp16 and bf16. */
#define FB_DTYPE_ULP_BOUND 1

/* True when the element with bits u of type d is a NaN. */
FB_CONTRACT_INLINE bool fb_dtype_bits_are_nan(enum fb_dtype d, uint32_t u)
{
    if (d == FB_DTYPE_FP16)
        return (u & 0x7fffu) > 0x7c00u;
    if (d == FB_DTYPE_BF16)
        return (u & 0x7fffu) > 0x7f80u;
    return (u & 0x7fffffffu) > 0x7f800000u;
}

/* fb_result_matches at type d. */
FB_CONTRACT_INLINE bool fb_dtype_result_matches(enum fb_dtype d, uint32_t expected, uint32_t got)
{
    if (fb_dtype_bits_are_nan(d, expected))
        return fb_dtype_bits_are_nan(d, got);
    return got == expected;
}

/* The float's position on a line where consecutive floats are 1 apart and -0 == +0: the
 * distance between two non-NaN floats in units in the last place. */
FB_CONTRACT_INLINE int64_t fb_bits_ordinal(uint32_t u)
{
    return (u & 0x80000000u) ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u;
}

/* True when `got` meets the contract for a transcendental op whose reference result (the
 * double-precision value rounded to float) is `expected`, within `ulps` units in the last
 * place; a NaN expected needs a NaN, an infinity expected needs that infinity, and no
 * infinity is accepted for a finite expected value. ulps == 0 is fb_result_matches but for
 * the sign of zero. */
FB_CONTRACT_INLINE bool fb_result_within_ulps(uint32_t expected, uint32_t got, int64_t ulps)
{
    if (fb_bits_are_nan(expected) || fb_bits_are_nan(got))
        return fb_bits_are_nan(expected) && fb_bits_are_nan(got);
    const bool inf_e = (expected & 0x7fffffffu) == 0x7f800000u;
    const bool inf_g = (got & 0x7fffffffu) == 0x7f800000u;
    if (inf_e || inf_g)
        return expected == got;
    int64_t d = fb_bits_ordinal(expected) - fb_bits_ordinal(got);
    return (d < 0 ? -d : d) <= ulps;
}

/* fb_result_within_ulps at type d: for fp16 and bf16, the same rules on the 16-bit patterns
 * (within `ulps` units of the type; NaN for NaN; an infinity only where expected). */
FB_CONTRACT_INLINE bool fb_dtype_result_within_ulps(enum fb_dtype d, uint32_t expected,
                                                    uint32_t got, int64_t ulps)
{
    if (d == FB_DTYPE_FP32)
        return fb_result_within_ulps(expected, got, ulps);
    if (fb_dtype_bits_are_nan(d, expected) || fb_dtype_bits_are_nan(d, got))
        return fb_dtype_bits_are_nan(d, expected) && fb_dtype_bits_are_nan(d, got);
    const uint32_t inf = d == FB_DTYPE_FP16 ? 0x7c00u : 0x7f80u;
    if ((expected & 0x7fffu) == inf || (got & 0x7fffu) == inf)
        return expected == got;
    const int64_t oe = (expected & 0x8000u) ? -(int64_t)(expected & 0x7fffu) : (int64_t)expected;
    const int64_t og = (got & 0x8000u) ? -(int64_t)(got & 0x7fffu) : (int64_t)got;
    const int64_t diff = oe - og;
    return (diff < 0 ? -diff : diff) <= ulps;
}

#endif
