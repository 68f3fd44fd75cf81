/* How every elementwise kernel is launched: one decision, shared by the CUDA launchers
 * (kernels/launchers.cu) and by the CPU emulation of the kernels (tests/kernels/), so the
 * tests run exactly the grid the GPU gets.
 *
 * Why these numbers:
 * - 128 threads per block, as PyTorch's vectorized elementwise path uses: small blocks let
 *   the scheduler fill every SM evenly and 16 of them fit on one SM (2048 threads per SM on
 *   Hopper), so occupancy is full. The kernels declare __maxnreg__(32) on Hopper, which
 *   holds ptxas to 65536 / 2048 = 32 registers per thread, so 16 blocks do fit; other
 *   architectures get other caps (elementwise_kernels.cuh, fb_arch_registers) and other
 *   GPUs hold other numbers of threads, so the blocks per SM of a launch come from the
 *   device and the kernel's real register count (fb_blocks_per_sm), never from Hopper's 16:
 *   a T4 holds 8 such blocks, an RTX 4090 or 5090 12 (10 at 48 registers).
 * - 16-byte vectors (a float4, or 8 fp16 / bf16 elements in a uint4): the widest global load
 *   and store a thread can issue (ld.global.v4.f32 / .v4.u32), a quarter (an eighth) of the
 *   instructions of one element each. Used only when every pointer is 16-byte aligned;
 *   otherwise the scalar kernel runs (PyTorch makes the same choice rather than peeling).
 * - 4 independent loads in flight per thread (FB_LOADS_PER_THREAD), issued before any
 *   store of the same turn: 4 float4 of the one input of copy/relu/threshold, 2 float4 of
 *   each input of add/add_relu. Little's law: a memory system of bandwidth B and latency L
 *   needs B x L bytes in flight; at 4.8 TB/s and ~1 us on 132 SMs that is
 *   4.8e12 B/s x 1e-6 s / 132 = ~36 KB per SM. One float4 per thread gives
 *   2048 x 16 B = 32 KB per SM, short of it even before latency grows under load; 4 give
 *   2048 x 4 x 16 B = 128 KB per SM (3.5x the need, room for a loaded latency up to ~3.5 us).
 *   Why not more: the 4 float4 in flight occupy 16 of the 32 registers; with 8 (4 per input
 *   of a binary op) ptxas, held to 32 registers, splits them into two batches of 4 anyway
 *   (read in the SASS with cuobjdump), and without the cap it takes 48 registers, which
 *   drops residency to 10 blocks per SM and makes the one-wave grid below 1.6 waves.
 * - At most one full wave of blocks: sm_count * blocks per SM (132 * 16 = 2112 on an H200,
 *   40 * 8 = 320 on a T4, 170 * 10 = 1700 on an RTX 5090). Beyond that
 *   each thread loops over the array with a grid-sized stride. No partial last wave, no
 *   thousands of blocks to schedule at 100M elements, and 64-bit indices throughout, so
 *   n past 2^31 is fine.
 * - n == 0 launches nothing (PyTorch does the same), so it moves no bytes and costs nothing.
 *
 * Work per thread (elementwise_kernels.cuh has the loops): with P = FB_LOADS_PER_INPUT and
 * T the grid's threads, a turn of the main loop moves items i, i + T, ..., i + (P-1) T of
 * every input (vectors on the vector path, floats on the scalar one); the fewer than P
 * items a thread has left go in one last, guarded turn; on the vector path the n % 4 floats
 * past the last whole vector go one each to the first n % 4 threads. So a launch needs
 * ceil(items / P) threads, plus, on the vector path, at least n % 4. Past one full wave
 * (132 SMs: 2112 x 128 threads x 4 float4 = 4.3M floats for one input, 2.2M for two) the
 * grid stays at one wave and the threads loop.
 *
 * Plain C (and C++): no CUDA types here. */
#ifndef FB_KERNELS_LAUNCH_PLAN_H
#define FB_KERNELS_LAUNCH_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#define FB_BLOCK_THREADS 128
#define FB_BLOCKS_PER_SM 16 /* Hopper: 2048 resident threads per SM / 128 */
/* The DRAM latency Little's law is taken at (launch numbers, gpu_compat.h): ~1 us. */
#define FB_MEMORY_LATENCY_S 1e-6
#define FB_VECTOR_FLOATS 4  /* one 16-byte float4 */
#define FB_VECTOR_BYTES 16  /* a vector item: 4 floats, or 8 fp16 / bf16 elements */
#define FB_LOADS_PER_THREAD 4 /* loads in flight per thread per turn, all inputs together */
/* Loads per input per turn for a kernel with `inputs` inputs (1 or 2): 4 or 2. */
#define FB_LOADS_PER_INPUT(inputs) (FB_LOADS_PER_THREAD / (inputs))

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

/* What one SM of the device holds: cudaDevAttrMaxThreadsPerMultiProcessor (2048 on
 * sm_80/90/100, 1536 on sm_86/89/120, 1024 on sm_75), MaxRegistersPerMultiprocessor (65536)
 * and MaxBlocksPerMultiprocessor (32, 24 on sm_86/89/120, 16 on sm_75). 0: unknown, Hopper's
 * figure assumed (the CPU emulation of the kernels, which has no device). */
struct fb_sm_limits {
    int threads_per_sm;
    int registers_per_sm;
    int max_blocks_per_sm;
};

FB_PLAN_INLINE struct fb_sm_limits fb_sm_limits_or_default(const struct fb_sm_limits *sm)
{
    struct fb_sm_limits out;
    out.threads_per_sm = sm->threads_per_sm > 0 ? sm->threads_per_sm : 2048;
    out.registers_per_sm = sm->registers_per_sm > 0 ? sm->registers_per_sm : 65536;
    out.max_blocks_per_sm = sm->max_blocks_per_sm > 0 ? sm->max_blocks_per_sm : 32;
    return out;
}

/* Resident blocks of FB_BLOCK_THREADS threads per SM for a kernel of `registers` registers
 * per thread, as the occupancy calculator counts them: the least of threads per SM / block
 * threads, the blocks per SM limit, and registers per SM / the block's registers, which are
 * allocated per warp in units of 256 (a thread's count rounded up to a multiple of 8).
 * 32 registers on Hopper: min(2048 / 128, 32, 65536 / (4 warps x 1024)) = 16; on a T4
 * (1024 threads): 8; 48 registers on a B200: 65536 / (4 x 1536) = 10. At least 1. */
FB_PLAN_INLINE int fb_blocks_per_sm(const struct fb_sm_limits *limits, int registers)
{
    const struct fb_sm_limits sm = fb_sm_limits_or_default(limits);
    const int warps = FB_BLOCK_THREADS / 32;
    const int per_warp = ((registers > 0 ? registers : 1) * 32 + 255) / 256 * 256;
    int blocks = sm.threads_per_sm / FB_BLOCK_THREADS;
    if (blocks > sm.max_blocks_per_sm)
        blocks = sm.max_blocks_per_sm;
    if (blocks > sm.registers_per_sm / (per_warp * warps))
        blocks = sm.registers_per_sm / (per_warp * warps);
    return blocks > 0 ? blocks : 1;
}

FB_PLAN_INLINE bool fb_is_vector_aligned(const void *p)
{
    return ((uintptr_t)p % FB_VECTOR_BYTES) == 0;
}

/* Blocks for `items` work items (one per thread per turn), capped at one full wave of
 * blocks_per_sm blocks on each SM. */
FB_PLAN_INLINE int64_t fb_grid_blocks_per_sm(int64_t items, int blocks_per_sm, int sm_count)
{
    int64_t blocks = (items + FB_BLOCK_THREADS - 1) / FB_BLOCK_THREADS;
    int64_t wave = (int64_t)(sm_count > 0 ? sm_count : 1) * blocks_per_sm;
    return blocks < wave ? blocks : wave;
}

/* The same with FB_BLOCKS_PER_SM (a kernel held to FB_KERNEL_REGISTERS = 32 registers). */
FB_PLAN_INLINE int64_t fb_grid_blocks(int64_t items, int sm_count)
{
    return fb_grid_blocks_per_sm(items, FB_BLOCKS_PER_SM, sm_count);
}

/* The plan for n elements of `elem_bytes` bytes each (4: fp32, 2: fp16 and bf16; a 16-byte
 * vector holds L = 16 / elem_bytes of them) of a kernel with `per_input` loads per input per
 * turn and at most blocks_per_sm resident blocks per SM, over up to three pointers (pass
 * NULL for unused ones). A work item is one thread's turn of the main loop: per_input
 * vectors (or elements, on the scalar path) of each input. The vector path also needs n % L
 * threads for its scalar tail, so it takes max(ceil((n / L) / per_input), n % L) work
 * items, the scalar one ceil(n / per_input). Kernels of other than the default shape: the
 * transcendental ops (2 loads per input) and the generic fused kernel (2 per input; 12
 * blocks per SM on Hopper when it holds transcendental ops), kernels/elementwise_kernels.cuh;
 * blocks_per_sm comes from fb_blocks_per_sm with the kernel's registers on the device. */
FB_PLAN_INLINE struct fb_launch_plan fb_plan_launch_typed(int64_t n, int elem_bytes,
                                                          int per_input, int blocks_per_sm,
                                                          const void *p0, const void *p1,
                                                          const void *p2, int sm_count)
{
    const int64_t lanes = FB_VECTOR_BYTES / elem_bytes;
    struct fb_launch_plan plan;
    plan.threads = FB_BLOCK_THREADS;
    plan.vector = fb_is_vector_aligned(p0) && (!p1 || fb_is_vector_aligned(p1)) &&
                  (!p2 || fb_is_vector_aligned(p2));
    if (n <= 0) {
        plan.blocks = 0;
        return plan;
    }
    int64_t items;
    if (plan.vector) {
        int64_t vectors = n / lanes, tail = n % lanes;
        items = (vectors + per_input - 1) / per_input;
        if (items < tail)
            items = tail;
    } else {
        items = (n + per_input - 1) / per_input;
    }
    plan.blocks = fb_grid_blocks_per_sm(items, blocks_per_sm, sm_count);
    return plan;
}

/* The same for fp32 elements. */
FB_PLAN_INLINE struct fb_launch_plan fb_plan_launch_shaped(int64_t n, int per_input,
                                                           int blocks_per_sm, const void *p0,
                                                           const void *p1, const void *p2,
                                                           int sm_count)
{
    return fb_plan_launch_typed(n, 4, per_input, blocks_per_sm, p0, p1, p2, sm_count);
}

/* The default shape for a kernel with `inputs` inputs (1 or 2): FB_LOADS_PER_INPUT(inputs)
 * loads per input, FB_BLOCKS_PER_SM blocks per SM. */
FB_PLAN_INLINE struct fb_launch_plan fb_plan_launch(int64_t n, int inputs, const void *p0,
                                                    const void *p1, const void *p2,
                                                    int sm_count)
{
    return fb_plan_launch_shaped(n, FB_LOADS_PER_INPUT(inputs), FB_BLOCKS_PER_SM, p0, p1, p2,
                                 sm_count);
}

#endif
