/* The CUDA kernels, compiled by the host C++ compiler and run on the CPU over the exact
 * grid the GPU would get. The plan (fb_plan_launch), the vector/scalar choice and the
 * kernel templates are the very ones kernels/launchers.cu uses; only the <<<>>> line is
 * replaced by a loop over blocks and threads.
 *
 * What passing the kernel checks through these launchers proves:
 * - indexing: every element of [0, n) is written, with the right operation, and nothing
 *   outside it (kernel_check's guards), for each size and sm_count tested;
 * - the vector path (float4 loads and stores) and its scalar tail (n % 4 elements taken by
 *   the first threads), and the scalar path;
 * - grid-stride coverage: with sm_count 1 or 2 the grid is 16 or 32 blocks, so at 2^20
 *   elements each thread loops dozens of times; with 132 (an H200) most loops run once;
 * - alignment dispatch: the vector kernel runs exactly when every pointer is 16-byte
 *   aligned (the test asserts it per launch), and misaligned mixes give correct results;
 * - 64-bit index arithmetic, as far as the code goes: the same expressions are compiled
 *   with the same types (int64_t times unsigned int), and fb_emu_thread_index lets a test
 *   evaluate them past 2^32.
 * What it does not prove:
 * - anything about concurrency: threads run one after another, so a race between threads
 *   (two writing one element, one reading what another writes) would go unnoticed, except
 *   that a double write of the same correct value is invisible on the GPU too;
 * - the real memory system: no caches, no non-coherent (ld.global.nc) reads of data being
 *   written, no device memory allocation or transfer;
 * - warp behaviour, coalescing or speed;
 * - nvcc's code generation: this is g++'s compilation of the same source. The PTX audit
 *   (ptx_audit.py) checks what nvcc emits; only a GPU run (test_kernels_gpu) checks that
 *   it computes the right thing. */
#include <climits>

#include "cuda_emulation.h"

#include "elementwise_kernels.cuh"
#include "launch_plan.h"

#include "emulated_launchers.h"

/* Runs kernel(args...) once per thread of a plan.blocks x plan.threads grid, in block and
 * thread order, with the built-in coordinates set as the GPU would set them. */
template <typename Kernel, typename... Args>
static void run_grid(const fb_launch_plan &plan, Kernel kernel, Args... args)
{
    gridDim = dim3(static_cast<unsigned>(plan.blocks));
    blockDim = dim3(static_cast<unsigned>(plan.threads));
    for (unsigned b = 0; b < gridDim.x; b++) {
        blockIdx = uint3{b, 0, 0};
        for (unsigned t = 0; t < blockDim.x; t++) {
            threadIdx = uint3{t, 0, 0};
            kernel(args...);
        }
    }
}

static int record(const fb_launch_plan &plan, const char *name, fb_emu_launch *launch,
                  fb_error *err)
{
    if (launch) {
        launch->launched = plan.blocks > 0;
        launch->vector = plan.vector;
        launch->blocks = plan.blocks;
        launch->threads = plan.threads;
    }
    if (plan.blocks > INT_MAX)
        return fb_fail(err, FB_ERR_RUNTIME,
                       "%s<<<%lld, %d>>>: grid over CUDA's 2^31 - 1 blocks", name,
                       static_cast<long long>(plan.blocks), plan.threads);
    return FB_OK;
}

template <typename Op>
static int launch_unary(const fb_cuda_launch_context *ctx, const char *name, const float *x,
                        float *y, int64_t n, Op op, fb_emu_launch *launch, fb_error *err)
{
    fb_launch_plan plan = fb_plan_launch(n, x, y, NULL, ctx->sm_count);
    int status = record(plan, name, launch, err);
    if (status != FB_OK || plan.blocks == 0)
        return status;
    if (plan.vector)
        run_grid(plan, fb_unary_vector_kernel<Op>, x, y, n, op);
    else
        run_grid(plan, fb_unary_scalar_kernel<Op>, x, y, n, op);
    return FB_OK;
}

template <typename Op>
static int launch_binary(const fb_cuda_launch_context *ctx, const char *name, const float *a,
                         const float *b, float *c, int64_t n, Op op, fb_emu_launch *launch,
                         fb_error *err)
{
    fb_launch_plan plan = fb_plan_launch(n, a, b, c, ctx->sm_count);
    int status = record(plan, name, launch, err);
    if (status != FB_OK || plan.blocks == 0)
        return status;
    if (plan.vector)
        run_grid(plan, fb_binary_vector_kernel<Op>, a, b, c, n, op);
    else
        run_grid(plan, fb_binary_scalar_kernel<Op>, a, b, c, n, op);
    return FB_OK;
}

extern "C" int fb_emu_copy(const fb_cuda_launch_context *ctx, const float *x, float *y,
                           int64_t n, fb_emu_launch *launch, fb_error *err)
{
    return launch_unary(ctx, "copy", x, y, n, fb_copy_op{}, launch, err);
}

extern "C" int fb_emu_relu(const fb_cuda_launch_context *ctx, const float *x, float *y,
                           int64_t n, fb_emu_launch *launch, fb_error *err)
{
    return launch_unary(ctx, "relu", x, y, n, fb_relu_op{}, launch, err);
}

extern "C" int fb_emu_threshold(const fb_cuda_launch_context *ctx, const float *x, float *y,
                                int64_t n, float threshold, float value, fb_emu_launch *launch,
                                fb_error *err)
{
    return launch_unary(ctx, "threshold", x, y, n, fb_threshold_op{threshold, value}, launch,
                        err);
}

extern "C" int fb_emu_add(const fb_cuda_launch_context *ctx, const float *a, const float *b,
                          float *c, int64_t n, fb_emu_launch *launch, fb_error *err)
{
    return launch_binary(ctx, "add", a, b, c, n, fb_add_op{}, launch, err);
}

extern "C" int fb_emu_add_relu(const fb_cuda_launch_context *ctx, const float *a,
                               const float *b, float *c, int64_t n, fb_emu_launch *launch,
                               fb_error *err)
{
    return launch_binary(ctx, "add_relu", a, b, c, n, fb_add_relu_op{}, launch, err);
}

extern "C" int64_t fb_emu_thread_index(unsigned block, unsigned block_dim, unsigned thread)
{
    blockIdx = uint3{block, 0, 0};
    blockDim = dim3(block_dim);
    threadIdx = uint3{thread, 0, 0};
    return fb_thread_index();
}

extern "C" int64_t fb_emu_grid_stride(unsigned grid_dim, unsigned block_dim)
{
    gridDim = dim3(grid_dim);
    blockDim = dim3(block_dim);
    return fb_grid_stride();
}
