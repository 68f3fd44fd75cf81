/* The CPU kernels' exponential: SLEEF's vectorised expf where the build has SLEEF, so that
 * the transcendental ops (sigmoid, gelu: kernels/elementwise_ops.h) run in vector registers
 * like the exact ones, without -ffast-math (which the result contract forbids:
 * kernels/elementwise_contract.h).
 *
 * Why SLEEF, and how it is reached. gcc vectorises a loop that calls a function only when the
 * function has vector variants declared (OpenMP `declare simd`, the x86-64 vector function
 * ABI: _ZGV<isa>N<lanes>v_<name>). glibc declares them for expf (libmvec) only under
 * -ffast-math. SLEEF (libsleef, Debian's libsleef-dev 3.5) is the vectorised libm with stated
 * bounds: Sleef_expf*_u10 is within 1.0 ulp over the whole float range, subnormal results
 * included (SLEEF's documentation; test_kernels_cpu measures it through the ops). Here
 * fb_cpu_expf is declared `declare simd` (below), and its variants are thin calls into SLEEF,
 * one per instruction set the CPU loops are built for (cpu_loops.h), each defined in the
 * build of cpu_math.c for that set:
 *   4 lanes, x86-64 baseline (SSE2)   Sleef_expf4_u10: SLEEF's own run-time choice of SSE2,
 *                                     SSE4.1 or AVX2 (128-bit)
 *   8 lanes, AVX2 + FMA               Sleef_expf8_u10avx2
 *   16 lanes, AVX-512F                Sleef_expf16_u10avx512f
 * and the scalar fb_cpu_expf (the loops' remainders) is Sleef_expf_u10. Which set runs is
 * chosen at run time, once, for the CPU present (cpu_kernels.c). The variants may differ from
 * each other and from glibc's expf in the last bit (SLEEF's AVX2 and AVX-512 code uses FMA):
 * all are within 1.0 ulp, inside the 2 ulp that the contract's bounds already allow CUDA's
 * expf, so the bounds of kernels/op_table.h hold unchanged (and cannot be tightened: the GPU's
 * expf sets them).
 *
 * Without SLEEF (meson -Dsleef=disabled, or not installed), or on a CPU other than x86-64
 * (whose vector ABI names differ), FB_EXPF stays libm's expf, and the transcendental ops run
 * one element at a time, as before: fb_cpu_vector_math_description says so, for the notes
 * (and meson's configure step warns). */
#ifndef FB_BACKENDS_CPU_CPU_MATH_H
#define FB_BACKENDS_CPU_CPU_MATH_H

#include <stdbool.h>

#include "fb_build_config.h"

/* FB_CPU_NO_VECTOR_MATH builds the fallback of a build without SLEEF here (a test does). */
#if FB_HAVE_SLEEF && defined(__x86_64__) && !defined(FB_CPU_NO_VECTOR_MATH)
#define FB_CPU_VECTOR_EXPF 1
/* e^x within 1.0 ulp (SLEEF's expf_u10), with vector variants for gcc's vectoriser
 * (notinbranch: called unconditionally in the loops, which is how elementwise_ops.h calls it).
 * const: no side effect, no errno. */
#pragma omp declare simd notinbranch
__attribute__((const)) float fb_cpu_expf(float x);
/* The element functions' exponential, in the files that include this header before
 * elementwise_ops.h (the CPU loops). */
#define FB_EXPF fb_cpu_expf
#else
#define FB_CPU_VECTOR_EXPF 0
#endif

/* Whether the transcendental ops run vectorised (SLEEF) in this build. */
bool fb_cpu_vector_math_available(void);

/* What computes the transcendental ops' exp here, for the results metadata and notes: SLEEF
 * with its bound, or that they fall back to libm's scalar expf and why. A static string. */
const char *fb_cpu_vector_math_description(void);

#endif
