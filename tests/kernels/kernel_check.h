/* The shared correctness check of the five elementwise operations (copy, relu, threshold,
 * add, add_relu), run against any implementation: the CPU backend, the CUDA kernels
 * emulated on the CPU, the CUDA kernels on a GPU.
 *
 * Like dav1d's checkasm, it runs the implementation and a plain scalar reference (written
 * out in kernel_check.c, deliberately not the shared kernels/elementwise_ops.h) on the
 * same freshly drawn inputs and compares the results, over every size in kc_sizes and
 * every pointer offset in kc_offsets. What it checks, per case:
 * - every output element matches the reference under the contract of
 *   kernels/elementwise_contract.h (fb_result_matches, the one comparison every check
 *   uses): the same bits, sign of zero and subnormals included, except that where the
 *   reference gives a NaN any NaN will do (the GPU's relu and add return the canonical NaN
 *   0x7fffffff, not the input's; x86's add the quieted first NaN operand).
 * - every output element was written: outputs are poisoned with 0xff bytes first
 *   (0xffffffff, a NaN that no input and no result can be; see KC_POISON_BITS);
 * - nothing before or after the output was written (KC_GUARD elements each side, plus
 *   the room left by smaller offsets), and no input buffer changed at all.
 * Inputs are random per run (seed from the clock, printed; FB_TEST_SEED=<n> replays a run)
 * and are rich in NaN, +-Inf, +-0, subnormals and values at and next to the threshold.
 * Besides, known answers (constant inputs with results written out as bits: relu(-0) = +0,
 * exact subnormal sums, ties rounded to even, NaN in gives NaN out) hold the implementation
 * and the reference itself to the contract, so a host that flushes subnormals for the
 * whole process (FTZ/DAZ) fails even though implementation and reference would agree.
 *
 * The check calls cmocka's fail_msg on the first wrong case, with everything needed to
 * replay it, so it must run inside a cmocka test. */
#ifndef FB_TESTS_KERNELS_KERNEL_CHECK_H
#define FB_TESTS_KERNELS_KERNEL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

enum kc_op { KC_COPY, KC_RELU, KC_THRESHOLD, KC_ADD, KC_ADD_RELU };

/* An implementation under test. Memory may live elsewhere (a GPU): the check only touches
 * it through these calls. Each returns FB_OK or a negative fb_status with err filled. */
struct kc_impl {
    const char *name;
    void *ctx; /* passed back to every call */
    /* At least 64-byte aligned (cudaMalloc gives 256), bytes > 0. */
    int (*alloc)(void *ctx, size_t bytes, void **p, struct fb_error *err);
    void (*release)(void *ctx, void *p);
    /* Fills bytes at p with the byte 0xff. */
    int (*poison)(void *ctx, void *p, size_t bytes, struct fb_error *err);
    int (*upload)(void *ctx, void *dst, const void *src, size_t bytes, struct fb_error *err);
    int (*download)(void *ctx, void *dst, const void *src, size_t bytes,
                    struct fb_error *err);
    /* Runs op over n elements and returns when c is complete. b is NULL for the unary
     * operations (the input is a); threshold and value matter only for KC_THRESHOLD. */
    int (*run)(void *ctx, enum kc_op op, const float *a, const float *b, float *c, int64_t n,
               float threshold, float value, struct fb_error *err);
};

/* Host memory for implementations that run on the CPU (aligned_alloc, memset, memcpy). */
int kc_host_alloc(void *ctx, size_t bytes, void **p, struct fb_error *err);
void kc_host_release(void *ctx, void *p);
int kc_host_poison(void *ctx, void *p, size_t bytes, struct fb_error *err);
int kc_host_copy(void *ctx, void *dst, const void *src, size_t bytes, struct fb_error *err);

/* Element offsets of a, b and c from a 64-byte aligned base. */
struct kc_offsets {
    int a, b, c;
};

extern const int64_t kc_sizes[];
extern const size_t kc_size_count;
extern const struct kc_offsets kc_offsets[];
extern const size_t kc_offset_count;

/* The threshold (th, value) pairs every threshold check runs, (0, 0) among them. */
struct kc_threshold_pair {
    float threshold, value;
};
extern const struct kc_threshold_pair kc_threshold_pairs[];
extern const size_t kc_threshold_pair_count;

/* The run's seed: FB_TEST_SEED when set, else from the clock; printed on first use. */
uint64_t kc_seed(void);

/* One case: op over n elements at the given offsets (b ignored for unary ops). Fails the
 * running cmocka test on any difference. */
void kc_check_case(const struct kc_impl *impl, enum kc_op op, int64_t n,
                   struct kc_offsets offsets, float threshold, float value);

/* The known answers of op (kernel_check.c lists them), each over 2051 equal elements at
 * offset 0 and at offset 1. */
void kc_check_known_answers(const struct kc_impl *impl, enum kc_op op);

/* The known answers, then every size times every offset (for threshold: times every pair
 * of kc_threshold_pairs). */
void kc_check_op(const struct kc_impl *impl, enum kc_op op);

/* Sizes around one full wave of the CUDA launch plan (kernels/launch_plan.h, restated) on
 * sm_count SMs, for the vector path (all pointers aligned) and the scalar path (none
 * aligned): a wave -5, -1, 0, +1, +7 floats, and 2.5 waves + 3 where that is at most 4M
 * floats, so the main loop, the last partial turn, the scalar tail and the grid-stride
 * loop all meet their edges. For threshold, with the pair (0.5, -2). */
void kc_check_op_at_grid_boundaries(const struct kc_impl *impl, enum kc_op op, int sm_count);

const char *kc_op_name(enum kc_op op);

#endif
