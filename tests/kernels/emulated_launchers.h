/* The CUDA launchers of kernels/launchers.cu, emulated on the CPU (emulated_launchers.cpp):
 * the same plan (fb_plan_launch), the same kernel templates from
 * kernels/elementwise_kernels.cuh, run over the exact launch grid one block and one thread
 * at a time. For tests only: it is how the kernels' own source is checked on a machine
 * without a GPU.
 *
 * Each launcher behaves like its fb_cuda_* twin in kernels/kernels.h (ctx->stream is
 * ignored; ctx->sm_count shapes the grid) and returns when the output is complete. It also
 * reports the launch it made in *launch (which may be NULL). Returns FB_OK, or
 * FB_ERR_RUNTIME when the grid would exceed CUDA's limit of 2^31 - 1 blocks (where the real
 * launch would fail with cudaErrorInvalidConfiguration). */
#ifndef FB_TESTS_KERNELS_EMULATED_LAUNCHERS_H
#define FB_TESTS_KERNELS_EMULATED_LAUNCHERS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fb_emu_launch {
    bool launched;  /* false for n == 0: nothing is launched, as on the GPU */
    bool vector;    /* the 16-byte vector kernel ran; false: the scalar kernel */
    int64_t blocks; /* gridDim.x */
    int threads;    /* blockDim.x */
};

int fb_emu_op(const struct fb_cuda_launch_context *ctx, enum fb_op_id op,
              struct fb_op_params params, enum fb_dtype dtype, const void *a, const void *b,
              void *c, int64_t n, struct fb_emu_launch *launch, struct fb_error *err);
int fb_emu_chain(const struct fb_cuda_launch_context *ctx, const struct fb_chain *chain,
                 enum fb_dtype dtype, const void *a, const void *b, void *c, int64_t n,
                 struct fb_emu_launch *launch, struct fb_error *err);
int fb_emu_add_relu(const struct fb_cuda_launch_context *ctx, enum fb_dtype dtype,
                    const void *a, const void *b, void *c, int64_t n,
                    struct fb_emu_launch *launch, struct fb_error *err);

/* The kernels' own index helpers (fb_thread_index, fb_grid_stride) evaluated at the given
 * coordinates, so a test can check their 64-bit arithmetic at indices past 2^32 without
 * allocating that much. */
int64_t fb_emu_thread_index(unsigned block, unsigned block_dim, unsigned thread);
int64_t fb_emu_grid_stride(unsigned grid_dim, unsigned block_dim);

/* A shape of the kernels' loops (elementwise_kernels.cuh): 1 or 2 inputs, 2, 4 or 8 items
 * of each per turn, the op applied item by item (the table's ops) or to a turn at once (the
 * generic kernel's chains, whose last partial turn differs). */
struct fb_emu_shape {
    int inputs;
    int per_input;
    bool whole_turns;
};

/* How often the kernels' loop (fb_unary_pass, fb_binary_pass) of `shape` read and wrote
 * each item when run over `count` items by a grid of blocks x FB_BLOCK_THREADS threads, on
 * items that count their reads and writes (64 guard items each side of every array).
 * Correct: every input item read once, every output item written once and never read, the
 * guards untouched. wrong = -1: no such shape. */
struct fb_emu_coverage {
    int64_t wrong;   /* items (guards included) off those counts; 0: correct */
    int64_t first;   /* the first of them: index from item 0, negative or >= count: a guard */
    int64_t reads_a; /* its counts */
    int64_t reads_b; /* (inputs == 1: as expected) */
    int64_t writes;
};
struct fb_emu_coverage fb_emu_pass_coverage(struct fb_emu_shape shape, int64_t count,
                                            int64_t blocks);

#ifdef __cplusplus
}
#endif

#endif
