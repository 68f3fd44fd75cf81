/* The CUDA kernels' own source, run on the CPU over the exact launch grid
 * (emulated_launchers.cpp says what that proves and what it does not), checked against the
 * scalar reference under the contract of kernels/elementwise_contract.h at every size and
 * offset, plus sizes around one full wave, with the grid of an H200 (132 SMs) and of a
 * two-SM GPU (so the grid-stride loop turns many times). Every launch is also checked
 * against an independent statement of the plan (the vector kernel exactly when all pointers
 * are 16-byte aligned, the grid size, no launch for n = 0), and the test asserts that the
 * sizes drove each part of the kernels: the main loop, the last partial turn and the scalar
 * tail. Then the loops alone, over items that count their reads and writes, for every count
 * up to a few turns of small grids and around the turns of large ones; then unit tests of
 * kernels/launch_plan.h and of the kernels' 64-bit index helpers. */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "emulated_launchers.h"
#include "kernel_check.h"
#include "launch_plan.h"

#define H200_SM_COUNT 132

/* What the launches of one test drove, per path (0: scalar, 1: vector). */
struct emu_ctx {
    int sm_count;
    long launches[2];
    long main_loop[2];    /* launches where some thread took a full turn of the main loop */
    long partial_turn[2]; /* launches where some thread took a last turn of < P items */
    long tail;            /* vector launches with a scalar tail (n % 4 != 0) */
    int64_t max_turns;    /* the most turns (full and partial) any thread took */
};

static bool aligned16(const void *p)
{
    return p == NULL || (uintptr_t)p % 16 == 0;
}

static int64_t min64(int64_t x, int64_t y)
{
    return x < y ? x : y;
}

static int64_t ceil_div(int64_t x, int64_t y)
{
    return (x + y - 1) / y;
}

/* The launch the plan should have made, stated independently of launch_plan.h: 128 threads
 * a block, at most 16 blocks per SM; a thread's turn takes P = 4 / inputs items of each
 * input (a 16-byte vector of L = 4 floats or 8 halves on the vector path, one element on the
 * scalar one); the vector path also needs n % L threads for its tail. */
static int check_launch(struct emu_ctx *ctx, const struct fb_emu_launch *got,
                        struct kc_shape shape, int64_t n, const void *a, const void *b,
                        const void *c, struct fb_error *err)
{
    const bool vector = aligned16(a) && aligned16(b) && aligned16(c);
    if (n == 0) {
        if (got->launched || got->blocks != 0)
            return fb_fail(err, FB_ERR_VERIFY, "n = 0 launched %lld blocks",
                           (long long)got->blocks);
        return FB_OK;
    }
    const int64_t lanes = shape.lanes;
    const int64_t p = shape.per_input, count = vector ? n / lanes : n;
    const int64_t items = vector ? (ceil_div(count, p) > n % lanes ? ceil_div(count, p) : n % lanes)
                                 : ceil_div(count, p);
    const int64_t blocks = min64(ceil_div(items, 128), (int64_t)ctx->sm_count * shape.blocks_per_sm);
    if (!got->launched || got->vector != vector || got->blocks != blocks || got->threads != 128)
        return fb_fail(err, FB_ERR_VERIFY,
                       "launch was %s<<<%lld, %d>>> (launched %d), expected %s<<<%lld, 128>>> "
                       "for pointers %p %p %p",
                       got->vector ? "vector" : "scalar", (long long)got->blocks, got->threads,
                       got->launched, vector ? "vector" : "scalar", (long long)blocks,
                       (const void *)a, (const void *)b, (const void *)c);
    /* Thread 0 takes a full turn when its P items exist: (P - 1) T < count. Full turns
     * cover whole chunks of P T items; a remainder r = count mod P T leaves some thread
     * (at least the last) fewer than P items: a partial turn. */
    const int64_t threads = blocks * 128, chunk = p * threads;
    ctx->launches[vector]++;
    if ((p - 1) * threads < count)
        ctx->main_loop[vector]++;
    if (count % chunk != 0)
        ctx->partial_turn[vector]++;
    if (vector && n % lanes != 0)
        ctx->tail++;
    const int64_t turns = ceil_div(count, chunk);
    if (turns > ctx->max_turns)
        ctx->max_turns = turns;
    return FB_OK;
}

static int emu_run(void *opaque, const struct kc_job *job, const void *a, const void *b,
                   void *c, int64_t n, struct fb_error *err)
{
    struct emu_ctx *ctx = opaque;
    const struct fb_cuda_launch_context launch_ctx = {.stream = NULL,
                                                      .sm_count = ctx->sm_count};
    struct fb_emu_launch launch = {0};
    int status = FB_ERR_USAGE;
    switch (job->kind) {
    case KC_OP:
        status = fb_emu_op(&launch_ctx, job->chain.ops[0].op, job->chain.ops[0].params,
                           job->dtype, a, b, c, n, &launch, err);
        break;
    case KC_ADD_RELU:
        status = fb_emu_add_relu(&launch_ctx, job->dtype, a, b, c, n, &launch, err);
        break;
    case KC_CHAIN:
        status = fb_emu_chain(&launch_ctx, &job->chain, job->dtype, a, b, c, n, &launch, err);
        break;
    }
    if (status != FB_OK)
        return status;
    return check_launch(ctx, &launch, kc_job_shape(job), n, a, kc_job_is_binary(job) ? b : NULL,
                        c, err);
}

/* What a test runs: op `op` of the table, or (op < 0) the handwritten add_relu
 * (EMU_ADD_RELU) or random chains in the generic kernel (EMU_CHAINS). */
#define EMU_ADD_RELU (-1)
#define EMU_CHAINS (-2)
struct emu_case {
    int op;
    int sm_count;
    enum fb_dtype dtype;
};

/* Whether op is the first op of the table whose kernels have its launch shape (inputs,
 * loads per input, blocks per SM): the grid's edges depend on the shape alone, so on the
 * H200 grid, where they sit at millions of floats, they are checked once per shape (the
 * 2-SM grid's edges, a few thousand floats, are checked for every op). */
static bool first_op_of_its_shape(enum fb_op_id op)
{
    const struct kc_job job = kc_op_job(op, 0.0f, 0.0f);
    const struct kc_shape shape = kc_job_shape(&job);
    for (int k = 0; k < (int)op; k++) {
        const struct kc_job other = kc_op_job((enum fb_op_id)k, 0.0f, 0.0f);
        const struct kc_shape o = kc_job_shape(&other);
        if (o.inputs == shape.inputs && o.per_input == shape.per_input &&
            o.blocks_per_sm == shape.blocks_per_sm)
            return false;
    }
    return true;
}

static void test_op_matches_reference(void **state)
{
    const struct emu_case *c = *state;
    struct emu_ctx ctx = {.sm_count = c->sm_count};
    const struct kc_impl impl = KC_HOST_IMPL(
        c->sm_count == H200_SM_COUNT ? "emulated cuda (132 SMs)" : "emulated cuda (2 SMs)", &ctx,
        emu_run);
    bool edges = true;
    if (c->op == EMU_CHAINS) {
        kc_check_chains(&impl, c->sm_count, c->dtype);
    } else if (c->op == EMU_ADD_RELU) {
        const struct kc_job job = kc_job_in(kc_add_relu_job(), c->dtype);
        kc_check_add_relu(&impl, c->dtype);
        kc_check_job_at_grid_boundaries(&impl, &job, c->sm_count);
    } else {
        const struct kc_job job = kc_job_in(kc_op_job((enum fb_op_id)c->op, 0.5f, -2.0f), c->dtype);
        kc_check_op(&impl, (enum fb_op_id)c->op, c->dtype);
        edges = c->sm_count != H200_SM_COUNT || first_op_of_its_shape((enum fb_op_id)c->op);
        if (edges)
            kc_check_job_at_grid_boundaries(&impl, &job, c->sm_count);
    }
    /* Both paths ran (offset 0 vector, misaligned scalar), and each drove its main loop and
     * its partial last turn (on the H200 grid, only the edges reach a full turn), and the
     * vector path its scalar tail. */
    for (int vector = 0; vector < 2; vector++) {
        assert_true(ctx.launches[vector] > 0);
        if (edges) {
            assert_true(ctx.main_loop[vector] > 0);
            assert_true(ctx.partial_turn[vector] > 0);
        }
    }
    assert_true(ctx.tail > 0);
    /* On the small grid the largest sizes made every thread loop: (2^20 + 5) / 4 vectors
     * (fp32; / 8 for fp16 and bf16) over 32 * 128 threads taking 4 (one input) or 2 (two, or
     * the generic or a transcendental kernel) each: 17 or 33 turns (8 or 16). */
    if (c->sm_count == 2)
        assert_true(ctx.max_turns >= (c->dtype == FB_DTYPE_FP32 ? 17 : 8));
}

/* The measured ULP error of the transcendental ops through the emulated kernels (which call
 * the host's expf: the same figures as the CPU's, checked against the same bounds). */
static void test_transcendental_ops_stay_within_their_ulp_bound(void **state)
{
    (void)state;
    struct emu_ctx ctx = {.sm_count = H200_SM_COUNT};
    const struct kc_impl impl = KC_HOST_IMPL("emulated cuda (132 SMs)", &ctx, emu_run);
    kc_report_max_ulps(&impl, "emulated cuda", 22);
}

/* ---- the kernels' loops: every item read and written exactly once ---- */

/* Every shape of the kernels' loops: the table's ops (one input, 4 loads; two inputs, 2 of
 * each; a transcendental op, 2), and the generic kernel's chains, a turn at once (exact:
 * 8 loads per thread, 8 of one input or 4 of each of two; with a transcendental op 16
 * lanes, 4 float4 or 2 vectors of halves). */
static const struct fb_emu_shape loop_shapes[] = {
    {1, 4, false}, {2, 2, false}, {1, 2, false}, {1, 8, true}, {2, 4, true},
    {1, 4, true},  {1, 2, true},  {2, 2, true},
};
#define LOOP_SHAPE_COUNT (sizeof loop_shapes / sizeof loop_shapes[0])

static void check_coverage(struct fb_emu_shape shape, int64_t count, int64_t blocks)
{
    struct fb_emu_coverage cov = fb_emu_pass_coverage(shape, count, blocks);
    if (cov.wrong < 0)
        fail_msg("no loop of %d loads per input", shape.per_input);
    if (cov.wrong)
        fail_msg("%s loop, P = %d%s, over %" PRId64 " items with %" PRId64 " blocks of 128: %"
                 PRId64 " items wrong; first: item %" PRId64 "%s read %" PRId64 " + %" PRId64
                 " times, written %" PRId64 " times",
                 shape.inputs == 2 ? "binary" : "unary", shape.per_input,
                 shape.whole_turns ? " (a turn at once)" : "", count, blocks, cov.wrong,
                 cov.first, cov.first < 0 || cov.first >= count ? " (a guard)" : "",
                 cov.reads_a, cov.reads_b, cov.writes);
}

static void test_loop_touches_each_item_once_on_small_grids(void **state)
{
    (void)state;
    /* Every count from 0 to three full turns of the grid and a bit. */
    const int64_t grids[] = {1, 2, 3};
    for (size_t s = 0; s < LOOP_SHAPE_COUNT; s++) {
        const int64_t p = loop_shapes[s].per_input;
        for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
            const int64_t threads = grids[g] * 128;
            for (int64_t count = 0; count <= 3 * p * threads + p + 1; count++)
                check_coverage(loop_shapes[s], count, grids[g]);
        }
    }
}

static void test_loop_touches_each_item_once_around_turns_of_large_grids(void **state)
{
    (void)state;
    /* 32 blocks (2 SMs) and 2112 (an H200's wave): around 0, 1 and 2 full turns (for 2112
     * blocks, 1 only, to keep memory small), at a thread, a warp and a whole grid's width. */
    const int64_t grids[] = {32, 2112};
    for (size_t s = 0; s < LOOP_SHAPE_COUNT; s++) {
        const int64_t p = loop_shapes[s].per_input;
        for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
            const int64_t threads = grids[g] * 128;
            const int64_t max_turns = grids[g] > 32 ? 1 : 2;
            for (int64_t turns = 0; turns <= max_turns; turns++) {
                const int64_t base = turns * p * threads;
                const int64_t deltas[] = {-threads - 1, -threads, -threads + 1, -33, -1, 0, 1,
                                          31,           threads - 1, threads, threads + 1,
                                          (p - 1) * threads - 1, (p - 1) * threads,
                                          (p - 1) * threads + 1};
                for (size_t d = 0; d < sizeof deltas / sizeof deltas[0]; d++)
                    if (base + deltas[d] >= 0)
                        check_coverage(loop_shapes[s], base + deltas[d], grids[g]);
            }
        }
    }
}

/* ---- kernels/launch_plan.h ---- */

/* Three 16-byte aligned addresses and one 4 bytes off; never dereferenced. */
static _Alignas(16) float plan_buf[16];
#define AL0 ((const void *)&plan_buf[0])
#define AL1 ((const void *)&plan_buf[4])
#define AL2 ((const void *)&plan_buf[8])
#define MIS ((const void *)&plan_buf[1])

/* fb_plan_launch's grid (fp32): n elements, inputs, the three pointers, the SM count, and
 * the blocks of 128 threads it must give. A turn: on the vector path 4 float4 of one input
 * or 2 of each of two, items = max(ceil((n / 4) / 4), n % 4); on the scalar path 4 floats of
 * one input or 2 of each of two. At most 16 blocks per SM. */
struct plan_case {
    const char *what;
    int64_t n;
    int inputs;
    const void *p0, *p1, *p2;
    int sm_count, blocks;
};

#define H200 H200_SM_COUNT
static const struct plan_case plan_cases[] = {
    {"empty input, two inputs", 0, 2, AL0, AL1, AL2, H200, 0},
    {"empty input, scalar path", 0, 1, MIS, AL1, NULL, H200, 0},
    {"a negative size", -5, 1, AL0, NULL, NULL, H200, 0},
    {"vector, one input: items 0, tail 3", 3, 1, AL0, AL1, NULL, H200, 1},
    {"vector, one input: 128 items", 2048, 1, AL0, AL1, NULL, H200, 1},
    {"vector, one input: 128 items, tail 3", 2051, 1, AL0, AL1, NULL, H200, 1},
    {"vector, one input: 129 items", 2052, 1, AL0, AL1, NULL, H200, 2},
    {"vector, two inputs: 128 items", 1024, 2, AL0, AL1, AL2, H200, 1},
    {"vector, two inputs: 129 items", 1028, 2, AL0, AL1, AL2, H200, 2},
    {"scalar, one input: 128 items", 512, 1, MIS, AL1, NULL, H200, 1},
    {"scalar, one input: 129 items", 513, 1, MIS, AL1, NULL, H200, 2},
    {"scalar, one input: 516 items", 2064, 1, MIS, AL1, NULL, H200, 5},
    {"scalar, two inputs: 128 items", 256, 2, MIS, AL1, AL2, H200, 1},
    {"scalar, two inputs: 129 items", 257, 2, MIS, AL1, AL2, H200, 2},
    {"2^24, scalar: capped", INT64_C(1) << 24, 1, MIS, NULL, NULL, H200, 132 * 16},
    {"2^24, vector: capped", INT64_C(1) << 24, 1, AL0, NULL, NULL, H200, 132 * 16},
    {"2^24, two inputs: capped", INT64_C(1) << 24, 2, AL0, AL1, AL2, H200, 132 * 16},
    {"2^24 on 2 SMs", INT64_C(1) << 24, 1, AL0, NULL, NULL, 2, 32},
    {"2^24 on 1 SM", INT64_C(1) << 24, 1, AL0, NULL, NULL, 1, 16},
    /* an unknown SM count (0 or negative) counts as one SM, never as no grid */
    {"2^24 on 0 SMs", INT64_C(1) << 24, 1, AL0, NULL, NULL, 0, 16},
    {"2^24 on -3 SMs", INT64_C(1) << 24, 1, AL0, NULL, NULL, -3, 16},
    /* just under the cap is not capped: 2112 blocks of 128 threads x 4 floats = 1081344
     * elements on the scalar path with one input; x 4 float4 = 4325376 on the vector path */
    {"scalar, one input: the cap exactly", 1081344, 1, MIS, NULL, NULL, H200, 2112},
    {"scalar, one input: 1 under the cap", 1081343, 1, MIS, NULL, NULL, H200, 2112},
    {"scalar, one input: a block under the cap", 1080832, 1, MIS, NULL, NULL, H200, 2111},
    {"vector, one input: the cap exactly", 4325376, 1, AL0, AL1, NULL, H200, 2112},
    {"vector, one input: a block under the cap", 4323328, 1, AL0, AL1, NULL, H200, 2111},
    {"vector, two inputs: the cap exactly", 2162688, 2, AL0, AL1, AL2, H200, 2112},
    {"vector, two inputs: a block under the cap", 2161664, 2, AL0, AL1, AL2, H200, 2111},
};
#undef H200

static void test_each_plan_gives_its_case_blocks(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof plan_cases / sizeof plan_cases[0]; i++) {
        const struct plan_case *c = &plan_cases[i];
        const struct fb_launch_plan plan =
            fb_plan_launch(c->n, c->inputs, c->p0, c->p1, c->p2, c->sm_count);
        if (plan.blocks != c->blocks)
            fail_msg("%s (n=%lld, %d inputs, %d SMs): %lld blocks, want %d", c->what,
                     (long long)c->n, c->inputs, c->sm_count, (long long)plan.blocks, c->blocks);
    }
    assert_int_equal(fb_plan_launch(1, 1, MIS, NULL, NULL, H200_SM_COUNT).threads, 128);
    assert_int_equal(FB_LOADS_PER_INPUT(1), 4);
    assert_int_equal(FB_LOADS_PER_INPUT(2), 2);
}

static void test_plan_picks_vector_only_when_every_pointer_is_16_byte_aligned(void **state)
{
    (void)state;
    assert_true(fb_plan_launch(64, 2, AL0, AL1, AL2, 1).vector);
    assert_true(fb_plan_launch(64, 1, AL0, AL1, NULL, 1).vector); /* NULL: unused pointer */
    assert_false(fb_plan_launch(64, 2, MIS, AL1, AL2, 1).vector);
    assert_false(fb_plan_launch(64, 2, AL0, MIS, AL2, 1).vector);
    assert_false(fb_plan_launch(64, 2, AL0, AL1, MIS, 1).vector);
    assert_false(fb_plan_launch(64, 1, AL0, (const void *)&plan_buf[2], NULL, 1).vector);
}

/* 16-bit elements: a vector holds 8, so the tail is n % 8 and a turn twice the elements. */
static void test_plan_for_16_bit_elements_counts_vectors_of_8(void **state)
{
    (void)state;
    /* vector path, one input, P = 4: items = max(ceil((n / 8) / 4), n % 8) */
    assert_int_equal(fb_plan_launch_typed(7, 2, 4, 16, AL0, AL1, NULL, H200_SM_COUNT).blocks, 1);
    assert_true(fb_plan_launch_typed(7, 2, 4, 16, AL0, AL1, NULL, H200_SM_COUNT).vector);
    assert_int_equal(fb_plan_launch_typed(4096, 2, 4, 16, AL0, AL1, NULL, H200_SM_COUNT).blocks,
                     1); /* 128 */
    assert_int_equal(fb_plan_launch_typed(4103, 2, 4, 16, AL0, AL1, NULL, H200_SM_COUNT).blocks,
                     1); /* 128, tail 7 */
    assert_int_equal(fb_plan_launch_typed(4104, 2, 4, 16, AL0, AL1, NULL, H200_SM_COUNT).blocks,
                     2); /* 129 */
    /* two inputs, P = 2: 2048 halves per block */
    assert_int_equal(fb_plan_launch_typed(2048, 2, 2, 16, AL0, AL1, AL2, H200_SM_COUNT).blocks, 1);
    assert_int_equal(fb_plan_launch_typed(2056, 2, 2, 16, AL0, AL1, AL2, H200_SM_COUNT).blocks, 2);
    /* an element 2 bytes off a 16-byte boundary: the scalar path, P elements per turn */
    const void *half_off = (const char *)AL0 + 2;
    assert_false(fb_plan_launch_typed(4096, 2, 4, 16, half_off, AL1, NULL, 1).vector);
    assert_int_equal(fb_plan_launch_typed(512, 2, 4, 16, half_off, AL1, NULL, H200_SM_COUNT).blocks,
                     1);
    assert_int_equal(fb_plan_launch_typed(513, 2, 4, 16, half_off, AL1, NULL, H200_SM_COUNT).blocks,
                     2);
    /* fp32 is fb_plan_launch_shaped */
    assert_int_equal(fb_plan_launch_typed(2052, 4, 4, 16, AL0, AL1, NULL, H200_SM_COUNT).blocks,
                     fb_plan_launch_shaped(2052, 4, 16, AL0, AL1, NULL, H200_SM_COUNT).blocks);
}

static void test_plan_handles_sizes_past_2_to_the_31_without_overflow(void **state)
{
    (void)state;
    const int64_t sizes[] = {(INT64_C(1) << 31) + 7, (INT64_C(1) << 32) + 1,
                             INT64_C(100) << 30, INT64_C(1) << 50, INT64_MAX / 2};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int v = 0; v < 2; v++) {
            for (int inputs = 1; inputs <= 2; inputs++) {
                const void *p = v ? AL0 : MIS;
                struct fb_launch_plan plan =
                    fb_plan_launch(sizes[i], inputs, p, p, p, H200_SM_COUNT);
                assert_int_equal(plan.vector, v);
                assert_int_equal(plan.blocks, 132 * 16);
                assert_int_equal(plan.threads, 128);
                assert_int_equal(fb_plan_launch(sizes[i], inputs, p, p, p, 1).blocks, 16);
            }
        }
    }
    /* a hypothetical GPU with 2^20 SMs still gets a grid within CUDA's 2^31 - 1 blocks */
    struct fb_launch_plan plan = fb_plan_launch(INT64_C(1) << 50, 1, MIS, NULL, NULL, 1 << 20);
    assert_true(plan.blocks > 0 && plan.blocks <= INT_MAX);
}

/* ---- the kernels' 64-bit index helpers ---- */

static void test_thread_index_is_computed_in_64_bits(void **state)
{
    (void)state;
    /* 2^24 blocks of 256 threads: the product is 2^32, which wraps to 0 in 32 bits */
    assert_int_equal(fb_emu_thread_index(1u << 24, 256, 5), (INT64_C(1) << 32) + 5);
    /* the largest CUDA grid: (2^31 - 1) * 1024 + 1023 = 2^41 - 1 */
    assert_int_equal(fb_emu_thread_index(0x7fffffffu, 1024, 1023), (INT64_C(1) << 41) - 1);
    assert_int_equal(fb_emu_thread_index(3, 128, 7), 3 * 128 + 7);
}

static void test_grid_stride_is_computed_in_64_bits(void **state)
{
    (void)state;
    assert_int_equal(fb_emu_grid_stride(1u << 24, 256), INT64_C(1) << 32);
    assert_int_equal(fb_emu_grid_stride(0x7fffffffu, 1024), INT64_C(0x7fffffff) * 1024);
    assert_int_equal(fb_emu_grid_stride(2112, 128), 2112 * 128);
}

#define EMU_TEST(name, op, sm)                                                                 \
    {name, test_op_matches_reference, NULL, NULL, &(struct emu_case){op, sm, FB_DTYPE_FP32}}
#define EMU_TEST_AT(name, op, sm, dtype)                                                       \
    {name, test_op_matches_reference, NULL, NULL, &(struct emu_case){op, sm, dtype}}

int main(void)
{
    kc_seed();
    kc_filter_tests();
    const struct CMUnitTest tests[] = {
        /* every op of the table, on both grids */
#define EMU_OP_TESTS(name, arity, n_params, param_names, ulp)                                  \
    EMU_TEST(#name "_meets_contract_on_h200_grid", FB_OPID_##name, H200_SM_COUNT),             \
        EMU_TEST(#name "_meets_contract_on_2_sm_grid_stride_loop", FB_OPID_##name, 2),
        FB_OP_TABLE(EMU_OP_TESTS)
#undef EMU_OP_TESTS
        EMU_TEST("add_relu_meets_contract_on_h200_grid", EMU_ADD_RELU, H200_SM_COUNT),
        EMU_TEST("add_relu_meets_contract_on_2_sm_grid_stride_loop", EMU_ADD_RELU, 2),
        EMU_TEST("generic_kernel_chains_meet_contract_on_h200_grid", EMU_CHAINS, H200_SM_COUNT),
        EMU_TEST("generic_kernel_chains_meet_contract_on_2_sm_grid_stride_loop", EMU_CHAINS, 2),
        /* fp16 and bf16 storage: every op, add_relu and the chains, on the 2-SM grid (whose
         * edges are checked for every op: the grid-stride loop, the partial turns and the
         * n % 8 tails), and fp16's add_relu on the H200's grid too */
#define EMU_HALF_OP_TESTS(name, arity, n_params, param_names, ulp)                             \
    EMU_TEST_AT(#name "_fp16_meets_contract_on_2_sm_grid", FB_OPID_##name, 2, FB_DTYPE_FP16),  \
        EMU_TEST_AT(#name "_bf16_meets_contract_on_2_sm_grid", FB_OPID_##name, 2, FB_DTYPE_BF16),
        FB_OP_TABLE(EMU_HALF_OP_TESTS)
#undef EMU_HALF_OP_TESTS
        EMU_TEST_AT("add_relu_fp16_meets_contract_on_h200_grid", EMU_ADD_RELU, H200_SM_COUNT,
                    FB_DTYPE_FP16),
        EMU_TEST_AT("add_relu_fp16_meets_contract_on_2_sm_grid", EMU_ADD_RELU, 2, FB_DTYPE_FP16),
        EMU_TEST_AT("add_relu_bf16_meets_contract_on_2_sm_grid", EMU_ADD_RELU, 2, FB_DTYPE_BF16),
        EMU_TEST_AT("generic_kernel_chains_fp16_meet_contract_on_2_sm_grid", EMU_CHAINS, 2,
                    FB_DTYPE_FP16),
        EMU_TEST_AT("generic_kernel_chains_bf16_meet_contract_on_2_sm_grid", EMU_CHAINS, 2,
                    FB_DTYPE_BF16),
        cmocka_unit_test(test_transcendental_ops_stay_within_their_ulp_bound),
        cmocka_unit_test(test_loop_touches_each_item_once_on_small_grids),
        cmocka_unit_test(test_loop_touches_each_item_once_around_turns_of_large_grids),
        cmocka_unit_test(test_each_plan_gives_its_case_blocks),
        cmocka_unit_test(test_plan_picks_vector_only_when_every_pointer_is_16_byte_aligned),
        cmocka_unit_test(test_plan_for_16_bit_elements_counts_vectors_of_8),
        cmocka_unit_test(test_plan_handles_sizes_past_2_to_the_31_without_overflow),
        cmocka_unit_test(test_thread_index_is_computed_in_64_bits),
        cmocka_unit_test(test_grid_stride_is_computed_in_64_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
