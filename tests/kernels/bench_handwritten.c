/* The handwritten loops that bench_cpu_chain.c holds the CPU backend's generic fused pass
 * against, compiled once per instruction set with the flags of the CPU loops
 * (src/backends/meson.build: FB_CPU_LOOPS_ISA names the build), so that each is compared at
 * the same vector width. Written out by hand, not through the op table: what a programmer
 * would write for this one chain. -ffp-contract=off (in the flags): each multiply and add
 * rounds on its own, as the chain's ops do, so the results are the generic pass's bits. */
#include <stdint.h>

#define BENCH_CAT2(a, b) a##b
#define BENCH_CAT(a, b) BENCH_CAT2(a, b)

/* The benchmark's 4-op chain, add, relu, scale(f), bias(o) (configs/chain-length.ini's
 * add_k3): c = max(a + b, 0) * f + o over [0, n), relu as PyTorch's (x <= 0 ? 0 : x). */
void BENCH_CAT(bench_add_relu_scale_bias_, FB_CPU_LOOPS_ISA)(const float *restrict a,
                                                           const float *restrict b,
                                                           float *restrict c, int64_t n,
                                                           float f, float o);
void BENCH_CAT(bench_add_relu_scale_bias_, FB_CPU_LOOPS_ISA)(const float *restrict a,
                                                           const float *restrict b,
                                                           float *restrict c, int64_t n,
                                                           float f, float o)
{
#pragma omp simd
    for (int64_t i = 0; i < n; i++) {
        const float s = a[i] + b[i];
        c[i] = (s <= 0.0f ? 0.0f : s) * f + o;
    }
}
