/* How every elementwise kernel is launched: one decision, shared by the CUDA launchers
 * (kernels/launchers.cu) and by the CPU emulation of the kernels (tests/kernels/), so the
 * tests run exactly the grid the GPU gets.
 *
 * Why these numbers:
 * - 128 threads per block, as PyTorch's vectorized elementwise path uses: small blocks let
 *   the scheduler fill every SM evenly and 16 of them fit on one SM (2048 threads per SM on
 *   Hopper), so occupancy is full without tuning.
 * - 4 floats per thread per step: one 16-byte vector (float4), the widest global load and
 *   store a thread can issue (ld.global.v4.f32), which halves the instruction count per byte
 *   against 8-byte loads. Used only when every pointer is 16-byte aligned; otherwise the
 *   scalar kernel runs (PyTorch makes the same choice rather than peeling).
 * - At most one full wave of blocks: sm_count * 16 (132 * 16 = 2112 on an H200). Beyond that
 *   each thread loops over the array with a grid-sized stride. No partial last wave, no
 *   thousands of blocks to schedule at 100M elements, and 64-bit indices throughout, so
 *   n past 2^31 is fine.
 * - n == 0 launches nothing (PyTorch does the same), so it moves no bytes and costs nothing.
 *
 * Plain C (and C++): no CUDA types here. */
#ifndef FB_KERNELS_LAUNCH_PLAN_H
#define FB_KERNELS_LAUNCH_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#define FB_BLOCK_THREADS 128
#define FB_BLOCKS_PER_SM 16 /* 2048 resident threads per SM / 128 */
#define FB_VECTOR_FLOATS 4  /* one 16-byte float4 */
#define FB_VECTOR_BYTES 16

#ifdef __cplusplus
#define FB_PLAN_INLINE inline
#else
#define FB_PLAN_INLINE static inline
#endif

struct fb_launch_plan {
    bool vector;      /* true: the float4 kernel with a scalar tail; false: the scalar kernel */
    int64_t blocks;   /* 0 when there is nothing to do: no launch */
    int threads;      /* threads per block */
};

FB_PLAN_INLINE bool fb_is_vector_aligned(const void *p)
{
    return ((uintptr_t)p % FB_VECTOR_BYTES) == 0;
}

/* Blocks for `items` work items (one per thread per step), capped at one full wave. */
FB_PLAN_INLINE int64_t fb_grid_blocks(int64_t items, int sm_count)
{
    int64_t blocks = (items + FB_BLOCK_THREADS - 1) / FB_BLOCK_THREADS;
    int64_t wave = (int64_t)(sm_count > 0 ? sm_count : 1) * FB_BLOCKS_PER_SM;
    return blocks < wave ? blocks : wave;
}

/* The plan for n elements over up to three pointers (pass NULL for unused ones). A vector
 * thread handles one float4 per step; the n % 4 leftover elements go one each to the first
 * threads of the grid, so a vector launch needs max(n / 4, n % 4) work items. */
FB_PLAN_INLINE struct fb_launch_plan fb_plan_launch(int64_t n, const void *p0, const void *p1,
                                                    const void *p2, int sm_count)
{
    struct fb_launch_plan plan;
    plan.threads = FB_BLOCK_THREADS;
    plan.vector = fb_is_vector_aligned(p0) && (!p1 || fb_is_vector_aligned(p1)) &&
                  (!p2 || fb_is_vector_aligned(p2));
    if (n <= 0) {
        plan.blocks = 0;
        return plan;
    }
    int64_t items = n;
    if (plan.vector) {
        int64_t vectors = n / FB_VECTOR_FLOATS, tail = n % FB_VECTOR_FLOATS;
        items = vectors > tail ? vectors : tail;
    }
    plan.blocks = fb_grid_blocks(items, sm_count);
    return plan;
}

#endif
