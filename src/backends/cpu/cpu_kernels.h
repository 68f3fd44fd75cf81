/* The CPU backend's kernels: one OpenMP parallel pass each (the CPU's "launch"), with the
 * loop body an element operation of kernels/elementwise_ops.h, so it computes exactly what
 * the CUDA kernels compute. `omp parallel for simd` splits the range statically over the
 * threads and lets the compiler vectorise each thread's chunk (check with -fopt-info-vec:
 * tests/kernels/check_cpu_vectorized.sh counts the loops). n may be 0 (the pass still forks
 * and joins: that cost is the CPU's launch overhead).
 *
 * Every pass takes the point's format (common/format.h). format->dtype: a, b and c point to
 * arrays of n elements of it (fp32, fp16 or bf16); elements are widened to fp32 when loaded,
 * computed in fp32, and rounded once, to nearest even, when stored (kernels/dtype_convert.h),
 * as the CUDA kernels and the host reference do. fp32 passes with normal stores are plain
 * loops; fp16 and bf16 ones (every op, add_relu, chains) run tiled, as fb_cpu_chain: a tile
 * of the inputs widened into fp32, the op(s) over it, the result rounded into c; fp16 with
 * F16C where the CPU has it (fb_cpu_has_f16c), bf16 with the portable code (a shift to
 * widen; vectorised SSE2 integer code to round). format->stores: normal writes c with
 * ordinary stores; streaming writes it with non-temporal stores through the store layer
 * (cpu_store.h: no read for ownership, so a pass moves the model's bytes), computing each
 * tile of FB_CPU_CHAIN_TILE elements into an L1-resident buffer first and streaming the
 * buffer out (fp16, bf16: the rounded 16-bit tile), with a store fence on every thread
 * before the join. Where the build has no non-temporal store, streaming writes normally
 * (cpu_store.h). Results are the same bits either way. */
#ifndef FB_BACKENDS_CPU_CPU_KERNELS_H
#define FB_BACKENDS_CPU_CPU_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/format.h"
#include "op_table.h"

/* One pass of op `op` of the table: c = op(a) for a unary op (b ignored, may be NULL),
 * c = op(a, b) for a binary one. An unknown id writes nothing. */
void fb_cpu_op(enum fb_op_id op, struct fb_op_params params, const void *a, const void *b,
               void *c, int64_t n, const struct fb_format *format);

/* The handwritten fused pass: c = relu(a + b) (fp16, bf16: the tiled pass of add, relu,
 * which computes the same function). */
void fb_cpu_add_relu(const void *a, const void *b, void *c, int64_t n,
                     const struct fb_format *format);

/* The generic fused pass: c = the chain's ops applied to a (and b, when the first op is
 * binary) in one parallel pass. Each thread walks its share of [0, n) in tiles of
 * FB_CPU_CHAIN_TILE elements held in a local buffer (L1-sized): the first op reads the
 * inputs into it, each next op rewrites it in place, the last writes c; so intermediates
 * never go to memory, and each op's inner loop over a tile is a plain vectorisable loop.
 * With fp16 or bf16 storage the inputs' tiles are first widened into fp32 tiles and the last
 * op's tile rounded into c: the chain's intermediates stay fp32 (one rounding, at the store),
 * where the eager chain rounds each temporary it stores. With streaming stores the last op
 * writes the buffer too, and the store layer streams it to c. */
#define FB_CPU_CHAIN_TILE 1024 /* 4 KB of fp32: the buffers plus the tiles of a, b and c fit in a 32 KB L1 */
void fb_cpu_chain(const struct fb_chain *chain, const void *a, const void *b, void *c,
                  int64_t n, const struct fb_format *format);

/* One pass of a group: c = op(a) for a unary op (b ignored, may be NULL), c = op(a, b) for
 * a binary one; arrays of the group's dtype. */
struct fb_cpu_pass {
    struct fb_chain_op op;
    const void *a, *b;
    void *c;
};

/* passes[0..count-1] in turn, over n elements each, in ONE parallel region (one fork and
 * join: one CPU "launch" for them all, backend.h's run_group): each pass is a work-shared
 * loop (`omp for simd`, the same static split as the passes above) ending in a barrier, so
 * pass k + 1 may read what pass k wrote, whichever thread wrote it. Each pass computes
 * exactly what fb_cpu_op computes. A pass's output must not be an input of the same pass; an
 * unknown op writes nothing. fp16 and bf16 passes, and passes with streaming stores
 * (format->stores), are work-shared loops over tiles (as fb_cpu_chain: widened, computed,
 * rounded, streamed out), each thread fencing its stores before the barrier.
 * marks_ns: NULL, or count + 1 clock readings (fb_now_ns) taken by the master thread inside
 * the region: [0] after the fork, [k + 1] after pass k's barrier (backend.h,
 * run_group_marked). */
void fb_cpu_passes_in_one_region(const struct fb_cpu_pass *passes, int count, int64_t n,
                                 const struct fb_format *format, uint64_t *marks_ns);

/* Whether the fp16 tile conversions use F16C (x86 vcvtph2ps / vcvtps2ph, checked at run
 * time; the build assumes baseline x86-64). */
bool fb_cpu_has_f16c(void);

/* The fp16 tile conversions of the passes, exposed for tests: out[0..len) = x[0..len)
 * widened to fp32 / rounded to fp16, with F16C when f16c and the CPU has it, else with the
 * portable code of kernels/dtype_convert.h. The same bits either way. */
void fb_cpu_fp16_widen(const uint16_t *x, float *out, int64_t len, bool f16c);
void fb_cpu_fp16_narrow(const float *x, uint16_t *out, int64_t len, bool f16c);

#endif
