/* The CUDA kernels, compiled by the host C++ compiler and run on the CPU over the exact
 * grid the GPU would get. The plan (fb_plan_launch), the vector/scalar choice and the
 * kernel templates are the very ones kernels/launchers.cu uses; only the <<<>>> line is
 * replaced by a loop over blocks and threads.
 *
 * What passing the kernel checks through these launchers proves:
 * - indexing: every element of [0, n) is written, with the right operation, and nothing
 *   outside it (kernel_check's guards), for each size and sm_count tested;
 * - the vector path (16-byte items, a float4 or 8 fp16 / bf16 lanes packed in a uint4: the
 *   main loop of 4 loads per input per turn for one input, 2 for two, the last partial
 *   turn, and the scalar tail of n % 4 (fp32) or n % 8 (fp16, bf16) elements taken by the
 *   first threads), and the scalar path (the same loops over single elements), at every
 *   storage type: the lanes' packing and order, and one rounding per stored element;
 * - grid-stride coverage: with sm_count 2 the grid is 32 blocks, so at 2^20 elements each
 *   thread takes 17 or 33 turns; with 132 (an H200) sizes around one full wave make the
 *   main loop run once, and once plus a partial turn;
 * - that the loops read every input item and write every output item exactly once, for
 *   every count up to a few turns of small grids and around the turns of large ones
 *   (fb_emu_pass_coverage: the loops' own template run over items that count accesses);
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
#include <vector>

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

/* An item that counts the copies made from it (reads) and the assignments to it (writes),
 * for fb_emu_pass_coverage: the kernels' loops copy an input item into a local once per
 * load and assign the result to the output item once per store. */
struct fb_emu_counted {
    mutable int64_t reads = 0;
    int64_t writes = 0;
    fb_emu_counted() = default;
    fb_emu_counted(const fb_emu_counted &from) { from.reads++; }
    fb_emu_counted &operator=(const fb_emu_counted &from)
    {
        from.reads++;
        writes++;
        return *this;
    }
};
/* Ops on counted items: item by item, as the table's ops, or a turn at once, as the generic
 * kernel's chains (whose last partial turn takes another path, fb_turn_at_once). */
struct fb_emu_no_op {};
struct fb_emu_turn_op {};
template <>
struct fb_turn_at_once<fb_emu_turn_op> {
    static constexpr bool value = true;
};

/* The kernels' fb_apply for counted items (found by argument-dependent lookup when the
 * loops are instantiated with them): a fresh item, so only the store counts as a write. */
template <typename Op>
static fb_emu_counted fb_apply(const Op &, const fb_emu_counted &)
{
    return fb_emu_counted();
}
template <typename Op>
static fb_emu_counted fb_apply(const Op &, const fb_emu_counted &, const fb_emu_counted &)
{
    return fb_emu_counted();
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

template <typename Op, typename T>
static int launch_unary(const fb_cuda_launch_context *ctx, const char *name, const T *x, T *y,
                        int64_t n, Op op, fb_emu_launch *launch, fb_error *err)
{
    fb_launch_plan plan = fb_plan_launch_typed(n, (int)sizeof(T), Op::loads_per_input,
                                                fb_blocks_per_sm(&ctx->sm, Op::registers), x, y, NULL, ctx->sm_count);
    int status = record(plan, name, launch, err);
    if (status != FB_OK || plan.blocks == 0)
        return status;
    if (plan.vector)
        run_grid(plan, fb_unary_vector_kernel<Op, T>, x, y, n, op);
    else
        run_grid(plan, fb_unary_scalar_kernel<Op, T>, x, y, n, op);
    return FB_OK;
}

template <typename Op, typename T>
static int launch_binary(const fb_cuda_launch_context *ctx, const char *name, const T *a,
                         const T *b, T *c, int64_t n, Op op, fb_emu_launch *launch, fb_error *err)
{
    fb_launch_plan plan = fb_plan_launch_typed(n, (int)sizeof(T), Op::loads_per_input,
                                                fb_blocks_per_sm(&ctx->sm, Op::registers), a, b, c, ctx->sm_count);
    int status = record(plan, name, launch, err);
    if (status != FB_OK || plan.blocks == 0)
        return status;
    if (plan.vector)
        run_grid(plan, fb_binary_vector_kernel<Op, T>, a, b, c, n, op);
    else
        run_grid(plan, fb_binary_scalar_kernel<Op, T>, a, b, c, n, op);
    return FB_OK;
}

/* The emulated twin of launchers.cu's dispatch, generated from the same table. */
template <int Arity>
struct fb_emu_by_arity;
template <>
struct fb_emu_by_arity<1> {
    template <typename Op, typename T>
    static int run(const fb_cuda_launch_context *ctx, const char *name, const T *a, const T *,
                   T *c, int64_t n, Op op, fb_emu_launch *launch, fb_error *err)
    {
        return launch_unary(ctx, name, a, c, n, op, launch, err);
    }
};
template <>
struct fb_emu_by_arity<2> {
    template <typename Op, typename T>
    static int run(const fb_cuda_launch_context *ctx, const char *name, const T *a, const T *b,
                   T *c, int64_t n, Op op, fb_emu_launch *launch, fb_error *err)
    {
        return launch_binary(ctx, name, a, b, c, n, op, launch, err);
    }
};

/* One kernel on arrays of the storage type `dtype`, as launchers.cu's launch_typed. */
template <int Arity, typename Op>
static int launch_typed(const fb_cuda_launch_context *ctx, const char *name, enum fb_dtype dtype,
                        const void *a, const void *b, void *c, int64_t n, Op op,
                        fb_emu_launch *launch, fb_error *err)
{
    typedef fb_emu_by_arity<Arity> L;
    switch (dtype) {
    case FB_DTYPE_FP32:
        return L::run(ctx, name, (const float *)a, (const float *)b, (float *)c, n, op, launch,
                      err);
    case FB_DTYPE_FP16:
        return L::run(ctx, name, (const __half *)a, (const __half *)b, (__half *)c, n, op,
                      launch, err);
    case FB_DTYPE_BF16:
        return L::run(ctx, name, (const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b,
                      (__nv_bfloat16 *)c, n, op, launch, err);
    }
    return fb_fail(err, FB_ERR_RUNTIME, "%s: unknown dtype %d", name, (int)dtype);
}

extern "C" int fb_emu_op(const fb_cuda_launch_context *ctx, enum fb_op_id op,
                         struct fb_op_params params, enum fb_dtype dtype, const void *a,
                         const void *b, void *c, int64_t n, fb_emu_launch *launch, fb_error *err)
{
    switch (op) {
#define FB_EMU_OP_CASE(name, arity, n_params, param_names, ulp)                                \
    case FB_OPID_##name:                                                                       \
        return launch_typed<arity>(ctx, #name, dtype, a, b, c, n, fb_##name##_op{params},      \
                                   launch, err);
        FB_OP_TABLE(FB_EMU_OP_CASE)
#undef FB_EMU_OP_CASE
    default:
        break;
    }
    return fb_fail(err, FB_ERR_RUNTIME, "fb_emu_op: unknown op %d", (int)op);
}

/* The generic fused kernel, as launchers.cu's launch_chain. */
template <bool Exact, typename T>
static int launch_chain(const fb_cuda_launch_context *ctx, const struct fb_chain *chain,
                        bool binary, const void *a, const void *b, void *c, int64_t n,
                        fb_emu_launch *launch, fb_error *err)
{
    if (binary) {
        const typename fb_chain_for<Exact, T, 2>::functor f{*chain};
        return launch_binary(ctx, "chain", (const T *)a, (const T *)b, (T *)c, n, f, launch,
                             err);
    }
    const typename fb_chain_for<Exact, T, 1>::functor f{*chain};
    return launch_unary(ctx, "chain", (const T *)a, (T *)c, n, f, launch, err);
}

template <bool Exact>
static int launch_chain_typed(const fb_cuda_launch_context *ctx, const struct fb_chain *chain,
                              enum fb_dtype dtype, const void *a, const void *b, void *c,
                              int64_t n, fb_emu_launch *launch, fb_error *err)
{
    const bool binary = fb_op_infos[chain->ops[0].op].arity == 2;
    switch (dtype) {
    case FB_DTYPE_FP32:
        return launch_chain<Exact, float>(ctx, chain, binary, a, b, c, n, launch, err);
    case FB_DTYPE_FP16:
        return launch_chain<Exact, __half>(ctx, chain, binary, a, b, c, n, launch, err);
    case FB_DTYPE_BF16:
        return launch_chain<Exact, __nv_bfloat16>(ctx, chain, binary, a, b, c, n, launch, err);
    }
    return fb_fail(err, FB_ERR_RUNTIME, "chain: unknown dtype %d", (int)dtype);
}

extern "C" int fb_emu_chain(const fb_cuda_launch_context *ctx, const struct fb_chain *chain,
                            enum fb_dtype dtype, const void *a, const void *b, void *c,
                            int64_t n, fb_emu_launch *launch, fb_error *err)
{
    char why[96];
    if (fb_chain_check(chain, why, sizeof why) != 0)
        return fb_fail(err, FB_ERR_RUNTIME, "fb_emu_chain: %s", why);
    return fb_chain_is_exact(chain)
               ? launch_chain_typed<true>(ctx, chain, dtype, a, b, c, n, launch, err)
               : launch_chain_typed<false>(ctx, chain, dtype, a, b, c, n, launch, err);
}

extern "C" int fb_emu_add_relu(const fb_cuda_launch_context *ctx, enum fb_dtype dtype,
                               const void *a, const void *b, void *c, int64_t n,
                               fb_emu_launch *launch, fb_error *err)
{
    return launch_typed<2>(ctx, "add_relu", dtype, a, b, c, n, fb_add_relu_op{}, launch, err);
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

/* The loops' own template, instantiated for counted items, as kernels are launched: every
 * shape the kernels have (inputs, loads per input, item by item or a turn at once). */
template <int P, typename Op>
static void pass_kernel(int inputs, const fb_emu_counted *a, const fb_emu_counted *b,
                        fb_emu_counted *c, int64_t count)
{
    if (inputs == 1)
        fb_unary_pass<P>(a, c, count, Op{});
    else
        fb_binary_pass<P>(a, b, c, count, Op{});
}

template <typename Op>
static bool run_pass(const fb_launch_plan &plan, struct fb_emu_shape shape,
                     const fb_emu_counted *a, const fb_emu_counted *b, fb_emu_counted *c,
                     int64_t count)
{
    switch (shape.per_input) {
    case 2:
        run_grid(plan, pass_kernel<2, Op>, shape.inputs, a, b, c, count);
        return true;
    case 4:
        run_grid(plan, pass_kernel<4, Op>, shape.inputs, a, b, c, count);
        return true;
    case 8:
        run_grid(plan, pass_kernel<8, Op>, shape.inputs, a, b, c, count);
        return true;
    }
    return false;
}

extern "C" struct fb_emu_coverage fb_emu_pass_coverage(struct fb_emu_shape shape,
                                                       int64_t count, int64_t blocks)
{
    const int64_t guard = 64;
    std::vector<fb_emu_counted> a(count + 2 * guard), b(count + 2 * guard),
        c(count + 2 * guard);
    fb_launch_plan plan;
    plan.vector = false;
    plan.blocks = blocks;
    plan.threads = FB_BLOCK_THREADS;
    fb_emu_coverage result = {0, 0, 0, 0, 0};
    const bool ran = shape.whole_turns
                         ? run_pass<fb_emu_turn_op>(plan, shape, a.data() + guard,
                                                    b.data() + guard, c.data() + guard, count)
                         : run_pass<fb_emu_no_op>(plan, shape, a.data() + guard,
                                                  b.data() + guard, c.data() + guard, count);
    if (!ran) {
        result.wrong = -1;
        return result;
    }
    for (int64_t j = -guard; j < count + guard; j++) {
        const int64_t want = j >= 0 && j < count ? 1 : 0;
        const int64_t reads_b = shape.inputs == 2 ? b[j + guard].reads : want;
        const int64_t writes = c[j + guard].writes;
        if (a[j + guard].reads == want && reads_b == want && writes == want &&
            c[j + guard].reads == 0)
            continue;
        if (result.wrong++ == 0) {
            result.first = j;
            result.reads_a = a[j + guard].reads;
            result.reads_b = reads_b;
            result.writes = writes;
        }
    }
    return result;
}
