/* cpu_math.h's exponential: compiled once per instruction set of the CPU loops (with
 * cpu_loops.c, src/backends/meson.build: FB_CPU_ISA_LEVEL 0 baseline, 1 AVX2, 2 AVX-512), each
 * build defining the vector variant of its own width, from the SLEEF function that sleef.h
 * declares for that set (it declares the AVX ones only where the compiler targets AVX). The
 * baseline build also defines the scalar function and the description. */
#include "backends/cpu/cpu_math.h"

#if FB_CPU_VECTOR_EXPF
#include <immintrin.h>
#include <sleef.h>

/* The variants' names are the vector function ABI's (what gcc calls from a vectorised loop):
 * _ZGV, the ISA letter (b SSE2, d AVX2, e AVX-512), N (unmasked), the lanes, v (one vector
 * argument), the function's name. They, and the scalar function, are defined under other C
 * names with the symbol given as an assembler name: defined as fb_cpu_expf itself, under
 * its `declare simd`, gcc would make vector clones of the scalar code instead. */
/* A NaN in gives SLEEF's NaN with every bit set (0xffffffff), and nothing else does. That is
 * a NaN like any other to the result contract, but it is also the pattern that cudaMemset's
 * poison leaves in an unwritten output, which the kernel checks read as "not written"
 * (tests/kernels/kernel_check.c). So these return x86's default NaN (0xffc00000) instead,
 * with one compare and blend a vector on the result: nothing of the input is kept across the
 * call (keeping the input, to return it quieted as libm does, costs a stack frame and spills
 * per call: ~19 instructions against ~7, measured with callgrind). */
#define FB_CPU_DEFAULT_NAN 0xffc00000u
#if FB_CPU_ISA_LEVEL == 0
__m128 fb_cpu_expf_x4(__m128 x) __asm__("_ZGVbN4v_fb_cpu_expf");
__m128 fb_cpu_expf_x4(__m128 x)
{
    const __m128i r = _mm_castps_si128(Sleef_expf4_u10(x));
    const __m128i all_ones = _mm_cmpeq_epi32(r, _mm_set1_epi32(-1));
    const __m128i nan = _mm_set1_epi32((int)FB_CPU_DEFAULT_NAN);
    return _mm_castsi128_ps(_mm_or_si128(_mm_and_si128(all_ones, nan),
                                         _mm_andnot_si128(all_ones, r)));
}

float fb_cpu_expf_x1(float x) __asm__("fb_cpu_expf");
float fb_cpu_expf_x1(float x)
{
    return x != x ? x + x : Sleef_expf_u10(x);
}
#elif FB_CPU_ISA_LEVEL == 1
__m256 fb_cpu_expf_x8(__m256 x) __asm__("_ZGVdN8v_fb_cpu_expf");
__m256 fb_cpu_expf_x8(__m256 x)
{
    const __m256i r = _mm256_castps_si256(Sleef_expf8_u10avx2(x));
    const __m256i all_ones = _mm256_cmpeq_epi32(r, _mm256_set1_epi32(-1));
    return _mm256_castsi256_ps(
        _mm256_blendv_epi8(r, _mm256_set1_epi32((int)FB_CPU_DEFAULT_NAN), all_ones));
}
#elif FB_CPU_ISA_LEVEL == 2
__m512 fb_cpu_expf_x16(__m512 x) __asm__("_ZGVeN16v_fb_cpu_expf");
__m512 fb_cpu_expf_x16(__m512 x)
{
    const __m512i r = _mm512_castps_si512(Sleef_expf16_u10avx512f(x));
    const __mmask16 all_ones = _mm512_cmpeq_epi32_mask(r, _mm512_set1_epi32(-1));
    return _mm512_castsi512_ps(
        _mm512_mask_mov_epi32(r, all_ones, _mm512_set1_epi32((int)FB_CPU_DEFAULT_NAN)));
}
#endif
#endif

#if FB_CPU_ISA_LEVEL == 0
bool fb_cpu_vector_math_available(void)
{
    return FB_CPU_VECTOR_EXPF;
}

const char *fb_cpu_vector_math_description(void)
{
#if FB_CPU_VECTOR_EXPF
    return "SLEEF expf_u10 (1.0 ulp), vectorised at the width of the CPU loops in use";
#elif FB_HAVE_SLEEF && !defined(FB_CPU_NO_VECTOR_MATH)
    return "libm expf, one element at a time: SLEEF's vector functions are used on x86-64 "
           "only";
#else
    return "libm expf, one element at a time: this build has no SLEEF (libsleef-dev; meson "
           "-Dsleef), so the transcendental ops are not vectorised";
#endif
}
#endif
