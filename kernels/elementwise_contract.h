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
 * Where GPU and host arithmetic could legitimately differ, and why they do not here:
 * - FMA contraction (a * b + c computed with one rounding instead of two): impossible, no
 *   operation has a multiply feeding an add. An op that has one would need nvcc's
 *   -fmad=false and the host's -ffp-contract=off (gcc's default under -std=c11, which the
 *   build uses), or a tolerance in this contract.
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
 * Plain C (C11 and C++), bits compared as uint32_t so that no float comparison (which would
 * call -0 equal to +0, and a NaN unequal to itself) is involved. */
#ifndef FB_KERNELS_ELEMENTWISE_CONTRACT_H
#define FB_KERNELS_ELEMENTWISE_CONTRACT_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
