/* The CPU backend's kernels: one OpenMP parallel pass each (the CPU's "launch"), computing
 * with the element operations of kernels/elementwise_ops.h, so exactly what the CUDA kernels
 * compute. Each pass splits [0, n) statically over the team's threads, in shares of whole
 * 16-element groups (64 bytes of fp32), the same split for every pass, and each thread runs
 * the loops of cpu_loops.h over its share: ops in pairs or strips in registers, tiles for
 * longer chains with a transcendental op, 16-bit storage and streaming stores, at the widest instruction set this build has
 * and the CPU supports (baseline SSE2, AVX2, AVX-512: chosen at run time, once;
 * fb_cpu_use_isa picks another). n may be 0 (the pass still forks and joins: that cost is
 * the CPU's launch overhead).
 *
 * Every pass takes the point's format (common/format.h). format->dtype: a, b and c point to
 * arrays of n elements of it (fp32, fp16 or bf16); elements are widened to fp32 when loaded,
 * computed in fp32, and rounded once, to nearest even, when stored (kernels/dtype_convert.h),
 * as the CUDA kernels and the host reference do. format->stores: normal writes c with
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

#include "backends/cpu/cpu_loops.h"
#include "common/format.h"
#include "op_table.h"

/* One pass of op `op` of the table: c = op(a) for a unary op (b ignored, may be NULL),
 * c = op(a, b) for a binary one. An unknown id writes nothing. */
void fb_cpu_op(enum fb_op_id op, struct fb_op_params params, const void *a, const void *b,
               void *c, int64_t n, const struct fb_format *format);

/* The handwritten fused pass: c = relu(a + b), its own loop (fp16, bf16: the tiled pass of
 * add, relu, which computes the same function). */
void fb_cpu_add_relu(const void *a, const void *b, void *c, int64_t n,
                     const struct fb_format *format);

/* The generic fused pass: c = the chain's ops applied to a (and b, when the first op is
 * binary) in one parallel pass, the intermediates in registers (two ops a loop, or a strip
 * of vectors for a longer exact chain) or, for a longer chain with a transcendental op, in an
 * L1-resident tile between the loops, never in memory (cpu_loops.c says how). With fp16 or bf16 storage the chain's intermediates stay fp32
 * (one rounding, at the store), where the eager chain rounds each temporary it stores. */
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
 * join: one CPU "launch" for them all, backend.h's run_group): each thread computes its
 * share of a pass (the split of every pass), fences its streamed stores, and waits at a
 * barrier for the team, so pass k + 1 may read what pass k wrote, whichever thread wrote it.
 * Each pass computes exactly what fb_cpu_op computes. A pass's output must not be an input
 * of the same pass; an unknown op writes nothing. 0 <= count <= FB_CHAIN_MAX_OPS (else
 * nothing runs). marks_ns: NULL, or count + 1 clock readings (fb_now_ns) taken by the master
 * thread inside the region: [0] after the fork, [k + 1] after pass k's barrier (backend.h,
 * run_group_marked). */
void fb_cpu_passes_in_one_region(const struct fb_cpu_pass *passes, int count, int64_t n,
                                 const struct fb_format *format, uint64_t *marks_ns);

/* The instruction set the passes run with: the widest this build has and the CPU supports,
 * unless fb_cpu_use_isa chose another. */
enum fb_cpu_isa fb_cpu_isa_in_use(void);

/* Makes every later pass run `isa`'s loops (tests; comparisons of the sets). Returns false,
 * changing nothing, when this build has no such loops or the CPU cannot run them. Not
 * thread-safe: call it between passes, from one thread. */
bool fb_cpu_use_isa(enum fb_cpu_isa isa);

#endif
