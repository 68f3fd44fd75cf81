/* The CPU backend's kernels: one OpenMP parallel pass each (the CPU's "launch"), with the
 * loop body an element operation of kernels/elementwise_ops.h, so it computes exactly what
 * the CUDA kernels compute. `omp parallel for simd` splits the range statically over the
 * threads and lets the compiler vectorise each thread's chunk (check with -fopt-info-vec:
 * tests/kernels/check_cpu_vectorized.sh counts the loops). n may be 0 (the pass still forks
 * and joins: that cost is the CPU's launch overhead).
 *
 * Every pass takes the point's format (common/format.h). format->dtype must be fp32 (a, b
 * and c are float arrays). format->stores: normal writes c with ordinary stores (the plain
 * loops); streaming writes it with non-temporal stores through the store layer (cpu_store.h:
 * no read for ownership, so a pass moves the model's bytes), computing each tile of
 * FB_CPU_CHAIN_TILE floats into an L1-resident buffer first and streaming the buffer out,
 * with a store fence on every thread before the join. Where the build has no non-temporal
 * store, streaming writes normally (cpu_store.h). Results are the same bits either way. */
#ifndef FB_BACKENDS_CPU_CPU_KERNELS_H
#define FB_BACKENDS_CPU_CPU_KERNELS_H

#include <stdint.h>

#include "common/format.h"
#include "op_table.h"

/* One pass of op `op` of the table: c = op(a) for a unary op (b ignored, may be NULL),
 * c = op(a, b) for a binary one. An unknown id writes nothing. */
void fb_cpu_op(enum fb_op_id op, struct fb_op_params params, const float *restrict a,
               const float *restrict b, float *restrict c, int64_t n,
               const struct fb_format *format);

/* The handwritten fused pass: c = relu(a + b). */
void fb_cpu_add_relu(const float *restrict a, const float *restrict b, float *restrict c,
                     int64_t n, const struct fb_format *format);

/* The generic fused pass: c = the chain's ops applied to a (and b, when the first op is
 * binary) in one parallel pass. Each thread walks its share of [0, n) in tiles of
 * FB_CPU_CHAIN_TILE floats held in a local buffer (L1-sized): the first op reads the inputs
 * into it, each next op rewrites it in place, the last writes c; so intermediates never go
 * to memory, and each op's inner loop over a tile is a plain vectorisable loop. With
 * streaming stores the last op writes the buffer too, and the store layer streams it to c. */
#define FB_CPU_CHAIN_TILE 1024 /* 4 KB: the buffer plus the tiles of a, b and c fit in a 32 KB L1 */
void fb_cpu_chain(const struct fb_chain *chain, const float *restrict a,
                  const float *restrict b, float *restrict c, int64_t n,
                  const struct fb_format *format);

/* One pass of a group: c = op(a) for a unary op (b ignored, may be NULL), c = op(a, b) for
 * a binary one. */
struct fb_cpu_pass {
    struct fb_chain_op op;
    const float *a, *b;
    float *c;
};

/* passes[0..count-1] in turn, over n elements each, in ONE parallel region (one fork and
 * join: one CPU "launch" for them all, backend.h's run_group): each pass is a work-shared
 * loop (`omp for simd`, the same static split as the passes above) ending in a barrier, so
 * pass k + 1 may read what pass k wrote, whichever thread wrote it. Each pass computes
 * exactly what fb_cpu_op computes. A pass's output must not be an input of the same pass; an
 * unknown op writes nothing. With streaming stores (format->stores) each pass is a
 * work-shared loop over tiles, streamed out as above, each thread fencing its stores before
 * the barrier. */
void fb_cpu_passes_in_one_region(const struct fb_cpu_pass *passes, int count, int64_t n,
                                 const struct fb_format *format);

#endif
