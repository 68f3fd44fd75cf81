/* The CUDA kernels' own source, run on the CPU over the exact launch grid
 * (emulated_launchers.cpp says what that proves and what it does not), checked against the
 * scalar reference under the contract of kernels/elementwise_contract.h (known answers
 * first) at every size and offset, with the grid of an H200
 * (132 SMs) and of a one- or two-SM GPU (so the grid-stride loop turns many times).
 * Every launch is also checked against an independent statement of the plan: the vector
 * kernel exactly when all pointers are 16-byte aligned, the grid size, no launch for n = 0.
 * Then unit tests of kernels/launch_plan.h and of the kernels' 64-bit index helpers. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "emulated_launchers.h"
#include "kernel_check.h"
#include "launch_plan.h"

#define H200_SM_COUNT 132

struct emu_ctx {
    int sm_count;
    long vector_launches, scalar_launches;
    int64_t max_loop_turns; /* the most grid-stride iterations any thread made */
};

static bool aligned16(const void *p)
{
    return p == NULL || (uintptr_t)p % 16 == 0;
}

static int64_t min64(int64_t x, int64_t y)
{
    return x < y ? x : y;
}

/* The launch the plan should have made, stated independently of launch_plan.h. */
static int check_launch(struct emu_ctx *ctx, const struct fb_emu_launch *got, int64_t n,
                        const float *a, const float *b, const float *c, struct fb_error *err)
{
    const bool vector = aligned16(a) && aligned16(b) && aligned16(c);
    if (n == 0) {
        if (got->launched || got->blocks != 0)
            return fb_fail(err, FB_ERR_VERIFY, "n = 0 launched %lld blocks",
                           (long long)got->blocks);
        return FB_OK;
    }
    /* A vector thread takes a float4 per turn, and the first n % 4 threads one tail
     * element each. */
    const int64_t items = vector ? (n / 4 > n % 4 ? n / 4 : n % 4) : n;
    const int64_t blocks = min64((items + 127) / 128, (int64_t)ctx->sm_count * 16);
    if (!got->launched || got->vector != vector || got->blocks != blocks || got->threads != 128)
        return fb_fail(err, FB_ERR_VERIFY,
                       "launch was %s<<<%lld, %d>>> (launched %d), expected %s<<<%lld, 128>>> "
                       "for pointers %p %p %p",
                       got->vector ? "vector" : "scalar", (long long)got->blocks, got->threads,
                       got->launched, vector ? "vector" : "scalar", (long long)blocks,
                       (const void *)a, (const void *)b, (const void *)c);
    const int64_t threads = blocks * 128, turns = (items + threads - 1) / threads;
    if (turns > ctx->max_loop_turns)
        ctx->max_loop_turns = turns;
    if (vector)
        ctx->vector_launches++;
    else
        ctx->scalar_launches++;
    return FB_OK;
}

static int emu_run(void *opaque, enum kc_op op, const float *a, const float *b, float *c,
                   int64_t n, float threshold, float value, struct fb_error *err)
{
    struct emu_ctx *ctx = opaque;
    const struct fb_cuda_launch_context launch_ctx = {.stream = NULL,
                                                      .sm_count = ctx->sm_count};
    struct fb_emu_launch launch = {0};
    int status = FB_ERR_USAGE;
    switch (op) {
    case KC_COPY: status = fb_emu_copy(&launch_ctx, a, c, n, &launch, err); break;
    case KC_RELU: status = fb_emu_relu(&launch_ctx, a, c, n, &launch, err); break;
    case KC_THRESHOLD:
        status = fb_emu_threshold(&launch_ctx, a, c, n, threshold, value, &launch, err);
        break;
    case KC_ADD: status = fb_emu_add(&launch_ctx, a, b, c, n, &launch, err); break;
    case KC_ADD_RELU: status = fb_emu_add_relu(&launch_ctx, a, b, c, n, &launch, err); break;
    }
    if (status != FB_OK)
        return status;
    return check_launch(ctx, &launch, n, a, b, c, err);
}

struct emu_case {
    enum kc_op op;
    int sm_count;
};

static void test_op_matches_reference(void **state)
{
    const struct emu_case *c = *state;
    struct emu_ctx ctx = {.sm_count = c->sm_count};
    const struct kc_impl impl = {
        .name = c->sm_count == H200_SM_COUNT ? "emulated cuda (132 SMs)"
                                             : "emulated cuda (2 SMs)",
        .ctx = &ctx,
        .alloc = kc_host_alloc,
        .release = kc_host_release,
        .poison = kc_host_poison,
        .upload = kc_host_copy,
        .download = kc_host_copy,
        .run = emu_run,
    };
    kc_check_op(&impl, c->op);
    /* Both paths ran (offset 0 vector, 1..3 scalar), and on the small GPU the largest size
     * made every thread loop: (2^20 + 5) / 4 vectors over 32 * 128 threads = 65 turns. */
    assert_true(ctx.vector_launches > 0);
    assert_true(ctx.scalar_launches > 0);
    if (c->sm_count == 2)
        assert_true(ctx.max_loop_turns >= 65);
}

/* ---- kernels/launch_plan.h ---- */

/* Three 16-byte aligned addresses and one 4 bytes off; never dereferenced. */
static _Alignas(16) float plan_buf[16];
#define AL0 ((const void *)&plan_buf[0])
#define AL1 ((const void *)&plan_buf[4])
#define AL2 ((const void *)&plan_buf[8])
#define MIS ((const void *)&plan_buf[1])

static void test_plan_launches_nothing_for_empty_input(void **state)
{
    (void)state;
    assert_int_equal(fb_plan_launch(0, AL0, AL1, AL2, H200_SM_COUNT).blocks, 0);
    assert_int_equal(fb_plan_launch(0, MIS, AL1, NULL, H200_SM_COUNT).blocks, 0);
    assert_int_equal(fb_plan_launch(-5, AL0, NULL, NULL, H200_SM_COUNT).blocks, 0);
}

static void test_plan_picks_vector_only_when_every_pointer_is_16_byte_aligned(void **state)
{
    (void)state;
    assert_true(fb_plan_launch(64, AL0, AL1, AL2, 1).vector);
    assert_true(fb_plan_launch(64, AL0, AL1, NULL, 1).vector); /* NULL: unused pointer */
    assert_false(fb_plan_launch(64, MIS, AL1, AL2, 1).vector);
    assert_false(fb_plan_launch(64, AL0, MIS, AL2, 1).vector);
    assert_false(fb_plan_launch(64, AL0, AL1, MIS, 1).vector);
    assert_false(fb_plan_launch(64, AL0, (const void *)&plan_buf[2], NULL, 1).vector);
}

static void test_plan_gives_vector_path_max_of_quarter_and_tail_items(void **state)
{
    (void)state;
    /* items = max(n / 4, n % 4), 128 per block */
    assert_int_equal(fb_plan_launch(3, AL0, AL1, NULL, H200_SM_COUNT).blocks, 1);   /* 0, 3 */
    assert_int_equal(fb_plan_launch(512, AL0, AL1, NULL, H200_SM_COUNT).blocks, 1); /* 128 */
    assert_int_equal(fb_plan_launch(515, AL0, AL1, NULL, H200_SM_COUNT).blocks, 1); /* 128, 3 */
    assert_int_equal(fb_plan_launch(516, AL0, AL1, NULL, H200_SM_COUNT).blocks, 2); /* 129 */
    /* the scalar path: one item per element */
    assert_int_equal(fb_plan_launch(128, MIS, AL1, NULL, H200_SM_COUNT).blocks, 1);
    assert_int_equal(fb_plan_launch(129, MIS, AL1, NULL, H200_SM_COUNT).blocks, 2);
    assert_int_equal(fb_plan_launch(516, MIS, AL1, NULL, H200_SM_COUNT).blocks, 5);
    assert_int_equal(fb_plan_launch(1, MIS, NULL, NULL, H200_SM_COUNT).threads, 128);
}

static void test_plan_caps_grid_at_16_blocks_per_sm(void **state)
{
    (void)state;
    const int64_t n = INT64_C(1) << 24;
    assert_int_equal(fb_plan_launch(n, MIS, NULL, NULL, H200_SM_COUNT).blocks, 132 * 16);
    assert_int_equal(fb_plan_launch(n, AL0, NULL, NULL, H200_SM_COUNT).blocks, 132 * 16);
    assert_int_equal(fb_plan_launch(n, AL0, NULL, NULL, 2).blocks, 32);
    assert_int_equal(fb_plan_launch(n, AL0, NULL, NULL, 1).blocks, 16);
    /* an unknown SM count (0 or negative) counts as one SM, never as no grid */
    assert_int_equal(fb_plan_launch(n, AL0, NULL, NULL, 0).blocks, 16);
    assert_int_equal(fb_plan_launch(n, AL0, NULL, NULL, -3).blocks, 16);
    /* just under the cap is not capped: 2112 blocks of 128 = 270336 elements */
    assert_int_equal(fb_plan_launch(270336, MIS, NULL, NULL, H200_SM_COUNT).blocks, 2112);
    assert_int_equal(fb_plan_launch(270335, MIS, NULL, NULL, H200_SM_COUNT).blocks, 2112);
    assert_int_equal(fb_plan_launch(270208, MIS, NULL, NULL, H200_SM_COUNT).blocks, 2111);
}

static void test_plan_handles_sizes_past_2_to_the_31_without_overflow(void **state)
{
    (void)state;
    const int64_t sizes[] = {(INT64_C(1) << 31) + 7, (INT64_C(1) << 32) + 1,
                             INT64_C(100) << 30, INT64_C(1) << 50, INT64_MAX / 2};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int v = 0; v < 2; v++) {
            const void *p = v ? AL0 : MIS;
            struct fb_launch_plan plan = fb_plan_launch(sizes[i], p, p, p, H200_SM_COUNT);
            assert_int_equal(plan.vector, v);
            assert_int_equal(plan.blocks, 132 * 16);
            assert_int_equal(plan.threads, 128);
            assert_int_equal(fb_plan_launch(sizes[i], p, p, p, 1).blocks, 16);
        }
    }
    /* a hypothetical GPU with 2^20 SMs still gets a grid within CUDA's 2^31 - 1 blocks */
    struct fb_launch_plan plan = fb_plan_launch(INT64_C(1) << 50, MIS, NULL, NULL, 1 << 20);
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
    {name, test_op_matches_reference, NULL, NULL, &(struct emu_case){op, sm}}

int main(void)
{
    kc_seed();
    const struct CMUnitTest tests[] = {
        EMU_TEST("copy_meets_contract_on_h200_grid", KC_COPY, H200_SM_COUNT),
        EMU_TEST("relu_meets_contract_on_h200_grid", KC_RELU, H200_SM_COUNT),
        EMU_TEST("threshold_meets_contract_on_h200_grid", KC_THRESHOLD, H200_SM_COUNT),
        EMU_TEST("add_meets_contract_on_h200_grid", KC_ADD, H200_SM_COUNT),
        EMU_TEST("add_relu_meets_contract_on_h200_grid", KC_ADD_RELU, H200_SM_COUNT),
        EMU_TEST("copy_meets_contract_on_2_sm_grid_stride_loop", KC_COPY, 2),
        EMU_TEST("relu_meets_contract_on_2_sm_grid_stride_loop", KC_RELU, 2),
        EMU_TEST("threshold_meets_contract_on_2_sm_grid_stride_loop", KC_THRESHOLD, 2),
        EMU_TEST("add_meets_contract_on_2_sm_grid_stride_loop", KC_ADD, 2),
        EMU_TEST("add_relu_meets_contract_on_2_sm_grid_stride_loop", KC_ADD_RELU, 2),
        cmocka_unit_test(test_plan_launches_nothing_for_empty_input),
        cmocka_unit_test(test_plan_picks_vector_only_when_every_pointer_is_16_byte_aligned),
        cmocka_unit_test(test_plan_gives_vector_path_max_of_quarter_and_tail_items),
        cmocka_unit_test(test_plan_caps_grid_at_16_blocks_per_sm),
        cmocka_unit_test(test_plan_handles_sizes_past_2_to_the_31_without_overflow),
        cmocka_unit_test(test_thread_index_is_computed_in_64_bits),
        cmocka_unit_test(test_grid_stride_is_computed_in_64_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
