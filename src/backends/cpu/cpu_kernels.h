/* The CPU backend's kernels: one OpenMP parallel pass each (the CPU's "launch"), with the
 * loop body an element operation of kernels/elementwise_ops.h, so it computes exactly what
 * the CUDA kernels compute. `omp parallel for simd` splits the range statically over the
 * threads and lets the compiler vectorise each thread's chunk (check with -fopt-info-vec:
 * tests/kernels/check_cpu_vectorized.sh counts the loops). n may be 0 (the pass still forks
 * and joins: that cost is the CPU's launch overhead).
 *
 * Every pass takes its arrays in one storage type (kernels/dtype.h): fp32, fp16 or bf16.
 * Elements are widened to fp32 when loaded, computed in fp32, and rounded once, to nearest
 * even, when stored (kernels/dtype_convert.h), as the CUDA kernels and the host reference
 * do; so a, b and c point to arrays of n elements of that type. */
#ifndef FB_BACKENDS_CPU_CPU_KERNELS_H
#define FB_BACKENDS_CPU_CPU_KERNELS_H

#include <stdint.h>

#include "common/format.h"
#include "op_table.h"

/* One pass of op `op` of the table: c = op(a) for a unary op (b ignored, may be NULL),
 * c = op(a, b) for a binary one. An unknown id writes nothing. */
void fb_cpu_op(enum fb_op_id op, struct fb_op_params params, enum fb_dtype dtype,
               const void *a, const void *b, void *c, int64_t n);

/* The handwritten fused pass: c = relu(a + b). */
void fb_cpu_add_relu(enum fb_dtype dtype, const void *a, const void *b, void *c, int64_t n);

/* The generic fused pass: c = the chain's ops applied to a (and b, when the first op is
 * binary) in one parallel pass. Each thread walks its share of [0, n) in tiles of
 * FB_CPU_CHAIN_TILE floats held in a local buffer (L1-sized): the first op reads the inputs
 * into it, each next op rewrites it in place, the last writes c; so intermediates never go
 * to memory, and each op's inner loop over a tile is a plain vectorisable loop. With fp16 or
 * bf16 storage the inputs' tiles are first widened into fp32 tiles and the last op's tile
 * rounded into c: the chain's intermediates stay fp32 (one rounding, at the store), where the
 * eager chain rounds each temporary it stores. */
#define FB_CPU_CHAIN_TILE 1024 /* 4 KB: the buffer plus the tiles of a, b and c fit in a 32 KB L1 */
void fb_cpu_chain(const struct fb_chain *chain, enum fb_dtype dtype, const void *a,
                  const void *b, void *c, int64_t n);

#endif
