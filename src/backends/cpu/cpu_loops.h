/* The CPU kernels' loops: everything a pass computes on one thread's share of the elements,
 * compiled once per instruction set (cpu_loops.c, built by src/backends/meson.build) and
 * chosen at run time for the CPU present (cpu_kernels.c does the threading around them).
 *
 * Why several builds of one source. The build targets baseline x86-64 (no -march): SSE2,
 * 16-byte vectors. A CPU with AVX2 or AVX-512 runs the same loops with 32- or 64-byte vectors
 * in 2 or 4 times fewer instructions, which matters wherever a pass is not bound by memory
 * (in the caches, and for the transcendental ops at any size, whose exp, cpu_math.h, is
 * vectorised with them). gcc compiles the one source for each set
 * (-mavx2 -mfma -mf16c; -mavx512f -mavx512bw -mavx512dq -mavx512vl -mfma -mf16c), with
 * -ffp-contract=off spelled out: FMA instructions are available there, and a contracted
 * multiply-add would round once where the contract's other implementations round twice
 * (kernels/elementwise_contract.h). Every set computes the same bits for the exact ops
 * (each op is one IEEE operation whatever the vector width) and results within the table's
 * bounds for the transcendental ones.
 *
 * The sets (enum fb_cpu_isa), and what the CPU needs for each (checked at run time):
 *   baseline  x86-64's SSE2 (or whatever the compiler targets on another architecture);
 *             fp16 conversions with F16C when the CPU has it (checked per pass)
 *   avx2      AVX2, FMA, F16C (x86-64 only)
 *   avx512    AVX-512 F, BW, DQ, VL, plus FMA and F16C (x86-64 only) */
#ifndef FB_BACKENDS_CPU_CPU_LOOPS_H
#define FB_BACKENDS_CPU_CPU_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/format.h"
#include "op_table.h"

enum fb_cpu_isa { FB_CPU_ISA_BASELINE, FB_CPU_ISA_AVX2, FB_CPU_ISA_AVX512, FB_CPU_ISA_COUNT };

/* What one pass computes: the chain's ops applied to a (and b, when the first op is binary),
 * into c, arrays of `dtype`, c written with streaming stores when `streaming`. add_relu:
 * the handwritten fused kernel (chain ignored). A single op is a chain of one. exact: the
 * chain has exact ops only (fb_chain_is_exact), found once where the work is made, not per
 * range or tile. */
struct fb_cpu_work {
    const struct fb_chain *chain;
    bool exact;
    bool add_relu;
    enum fb_dtype dtype;
    bool streaming;
    const void *a, *b;
    void *c;
};

/* Elements of a tile: the unit of a chain's pass that does not fit in one loop (cpu_loops.c):
 * 4 KB of fp32, so the tiles of a, b and the result plus a 16-bit tile fit in a 32 KB L1. */
#define FB_CPU_CHAIN_TILE 1024

/* One build of the loops. */
struct fb_cpu_loops {
    enum fb_cpu_isa isa;
    /* Computes elements [lo, hi) of `work` on the calling thread; with streaming stores it
     * ends without a fence (the caller fences: cpu_store.h). lo a multiple of 16 (64 bytes of
     * fp32, so that tiles start 64-byte aligned where the arrays do), 0 <= lo <= hi. */
    void (*range)(const struct fb_cpu_work *work, int64_t lo, int64_t hi);
    /* fp16 <-> fp32 over len elements: the conversions of every fp16 pass, exposed for tests
     * (the same bits as kernels/dtype_convert.h for every input). f16c: with F16C where the
     * set and the CPU have it (what the passes use), else with the portable code of
     * kernels/dtype_convert.h, vectorised at the set's width. */
    void (*fp16_widen)(const uint16_t *x, float *out, int64_t len, bool f16c);
    void (*fp16_narrow)(const float *x, uint16_t *out, int64_t len, bool f16c);
    /* out = e^x over len elements, x <= 0: the transcendental ops' exp (cpu_math.h) in this
     * set's vector loop, exposed for its test. */
    void (*exp_nonpositive)(const float *x, float *out, int64_t len);
};

/* The builds, one per set (the x86-64 ones exist on x86-64 only): reach them through
 * fb_cpu_loops_built. */
extern const struct fb_cpu_loops fb_cpu_loops_baseline, fb_cpu_loops_avx2, fb_cpu_loops_avx512;

/* The build of the loops for `isa`, or NULL when this build has none for it (the x86-64 sets
 * elsewhere). */
const struct fb_cpu_loops *fb_cpu_loops_built(enum fb_cpu_isa isa);

/* Whether this CPU can run `isa`'s loops (cpuid, through gcc's __builtin_cpu_supports). */
bool fb_cpu_isa_supported(enum fb_cpu_isa isa);

/* "baseline", "avx2", "avx512"; NULL for a value out of range. */
const char *fb_cpu_isa_name(enum fb_cpu_isa isa);

/* Whether the baseline fp16 conversions use F16C (x86 vcvtph2ps / vcvtps2ph, checked at run
 * time); the avx2 and avx512 sets always do. */
bool fb_cpu_has_f16c(void);

#endif
