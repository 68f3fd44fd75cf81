/* The shared correctness check of the elementwise kernels: every op of the op table
 * (kernels/op_table.h: the list of ops to test is the table), the handwritten add_relu, and
 * the generic fused kernel on chains of ops; run against any implementation: the CPU
 * backend, the CUDA kernels emulated on the CPU, the CUDA kernels on a GPU.
 *
 * Like dav1d's checkasm, it runs the implementation and a plain scalar reference (written
 * out in kernel_check.c, deliberately not the shared kernels/elementwise_ops.h) on the
 * same freshly drawn inputs and compares the results, over every size in kc_sizes and
 * every pointer offset in kc_offsets. What it checks, per case:
 * - every output element matches the reference under the contract of
 *   kernels/elementwise_contract.h: for exact ops (ULP_BOUND 0 in the table) and chains of
 *   them fb_result_matches, the same bits, sign of zero and subnormals included, except
 *   that where the reference gives a NaN any NaN will do (the GPU's relu and add return the
 *   canonical NaN 0x7fffffff, not the input's; x86's add the quieted first NaN operand);
 *   for a transcendental op, fb_result_within_ulps with the table's ULP_BOUND against the
 *   double-precision value of its formula, rounded to float. In a chain a transcendental op
 *   may only come last, so its bound applies unchanged (kc_random_chain makes such chains).
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
 * Every job runs at a storage type (kc_job.dtype: fp32, fp16, bf16). For fp16 and bf16 the
 * inputs are drawn as 16-bit patterns (NaNs of both signs with payloads, +-Inf, +-0, the
 * largest and smallest normals, subnormals, values at and next to the threshold rounded to
 * the type, raw patterns, ordinary values rounded to the type), the outputs poisoned with
 * 0xffff (a NaN in both), and the reference widens the inputs, computes in fp32 as for fp32
 * storage, and rounds its one result to the type (kernels/dtype_convert.h's rule, written
 * out again here: _Float16 where the compiler has it for fp16, a compare-based rounding for
 * bf16). The comparison is the contract's at that type (fb_dtype_result_matches; 1 ulp of the
 * type for the transcendental ops, kernels/elementwise_contract.h says why).
 *
 * The check calls cmocka's fail_msg on the first wrong case, with everything needed to
 * replay it, so it must run inside a cmocka test. */
#ifndef FB_TESTS_KERNELS_KERNEL_CHECK_H
#define FB_TESTS_KERNELS_KERNEL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/format.h"
#include "op_table.h"

/* What runs: one op of the table, the handwritten fused add_relu kernel, or a chain in the
 * generic fused kernel. */
enum kc_kind { KC_OP, KC_ADD_RELU, KC_CHAIN };
struct kc_job {
    enum kc_kind kind;
    struct fb_chain chain; /* KC_OP: the op (n_ops = 1); KC_ADD_RELU: add, relu; KC_CHAIN */
    enum fb_dtype dtype;   /* what a, b and c hold */
};

/* The job of op `op` with parameters p0, p1 (those it does not take are ignored), of the
 * handwritten add_relu, and of the generic kernel on a chain; on fp32 arrays. */
struct kc_job kc_op_job(enum fb_op_id op, float p0, float p1);
struct kc_job kc_add_relu_job(void);
struct kc_job kc_chain_job(const struct fb_chain *chain);
/* The same job on arrays of another type. */
struct kc_job kc_job_in(struct kc_job job, enum fb_dtype dtype);
/* "fp32", "fp16", "bf16" */
const char *kc_dtype_name(enum fb_dtype dtype);

/* Whether the job reads b (its first op is binary). */
int kc_job_is_binary(const struct kc_job *job);

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
    /* Runs the job over n elements of job->dtype and returns when c is complete. b is NULL
     * when the job's first op is unary (the input is a). */
    int (*run)(void *ctx, const struct kc_job *job, const void *a, const void *b, void *c,
               int64_t n, struct fb_error *err);
};

/* Host memory for implementations that run on the CPU (aligned_alloc, memset, memcpy). */
int kc_host_alloc(void *ctx, size_t bytes, void **p, struct fb_error *err);
void kc_host_release(void *ctx, void *p);
int kc_host_poison(void *ctx, void *p, size_t bytes, struct fb_error *err);
int kc_host_copy(void *ctx, void *dst, const void *src, size_t bytes, struct fb_error *err);

/* The initializer of an implementation on host memory (the four functions above), named
 * `label`, running `runner` with ctx. */
#define KC_HOST_IMPL(label, context, runner)                                                   \
    {.name = label, .ctx = context, .alloc = kc_host_alloc, .release = kc_host_release,        \
     .poison = kc_host_poison, .upload = kc_host_copy, .download = kc_host_copy, .run = runner}

/* Element offsets of a, b and c from a 64-byte aligned base. */
struct kc_offsets {
    int a, b, c;
};

extern const int64_t kc_sizes[];
extern const size_t kc_size_count;
extern const struct kc_offsets kc_offsets[];
extern const size_t kc_offset_count;

/* The parameter pairs every check of an op with parameters runs: for threshold (th,
 * value), (0, 0) among them; for scale and bias the first of each pair. */
struct kc_param_pair {
    float p0, p1;
};
extern const struct kc_param_pair kc_param_pairs[];
extern const size_t kc_param_pair_count;

/* The run's seed: FB_TEST_SEED when set, else from the clock; printed on first use. */
uint64_t kc_seed(void);

/* FB_TEST_FILTER=PATTERN: runs only the cmocka tests whose name matches (* and ?), saying
 * so; a main calls it before running its tests. */
void kc_filter_tests(void);

/* One case: the job over n elements at the given offsets (b ignored for unary jobs). Fails
 * the running cmocka test on any difference. */
void kc_check_case(const struct kc_impl *impl, const struct kc_job *job, int64_t n,
                   struct kc_offsets offsets);

/* The known answers of the job's op (kernel_check.c lists them; add_relu's for
 * KC_ADD_RELU), each over 2051 equal elements at offset 0 and at offset 1. */
void kc_check_known_answers(const struct kc_impl *impl, const struct kc_job *job);

/* The known answers (those written for the type), then every size times every offset (for
 * an op with parameters: times every pair of kc_param_pairs), on arrays of `dtype` (fp16 and
 * bf16: at the largest size, 2^20 + 5, only the aligned and the all-different offsets). */
void kc_check_op(const struct kc_impl *impl, enum fb_op_id op, enum fb_dtype dtype);
void kc_check_add_relu(const struct kc_impl *impl, enum fb_dtype dtype);

/* Sizes around one full wave of the CUDA launch plan (kernels/launch_plan.h, restated:
 * loads per input and blocks per SM of the job's kernel, kc_job_shape) on sm_count SMs,
 * for the vector path (all pointers aligned) and the scalar path (none aligned): a wave -5,
 * -1, 0, +1, +7 floats, and 2.5 waves + 3 where that is at most 4M floats, so the main
 * loop, the last partial turn, the scalar tail and the grid-stride loop all meet their
 * edges. */
void kc_check_job_at_grid_boundaries(const struct kc_impl *impl, const struct kc_job *job,
                                     int sm_count);

/* The shape of the CUDA kernel that runs a job, stated here independently of
 * kernels/elementwise_kernels.cuh: loads per input per turn (4 / inputs; 2 for a
 * transcendental op and for the generic kernel), resident blocks per SM (16; for the
 * generic kernel on a chain with a transcendental op 12 on fp32, which takes 40 registers,
 * and 10 on fp16 / bf16, 48 registers) and elements per 16-byte vector (4 fp32, 8 halves). */
struct kc_shape {
    int inputs, per_input, blocks_per_sm, lanes;
};
struct kc_shape kc_job_shape(const struct kc_job *job);

/* A random chain of `length` ops (1..FB_CHAIN_MAX_OPS) with random parameters, drawn from
 * rng: the first op binary when `binary`, else unary; the rest unary; at most one
 * transcendental op, and only last (see above). */
struct fb_chain kc_random_chain(uint64_t *rng, int length, int binary);

/* Random chains of every length 1..FB_CHAIN_MAX_OPS, first op unary and binary, in the
 * generic kernel, at every size and offset (all but the largest size for chains longer
 * than 3), the shortest unary and the longest binary one also around the grid boundaries on
 * sm_count SMs (sm_count 0: skipped); then add, relu and add followed by each transcendental
 * op, everywhere (the first of these also at the boundaries of its 12-blocks-per-SM grid);
 * all on arrays of `dtype`. */
void kc_check_chains(const struct kc_impl *impl, int sm_count, enum fb_dtype dtype);

/* The largest ULP error of the implementation's op `op` (a transcendental op of the table)
 * against the double-precision reference, over `count` random inputs drawn across every
 * exponent and the special values; fails the test past the table's bound. Printed by the
 * caller: the measured figures behind the bounds of kernels/elementwise_contract.h. */
int64_t kc_measure_max_ulp(const struct kc_impl *impl, enum fb_op_id op, int64_t count,
                           float *worst_input);

/* kc_measure_max_ulp for every transcendental op of the table (a ULP bound above 0) over
 * 2^log2_count inputs, each figure printed on a line of its own after `label`. */
void kc_report_max_ulps(const struct kc_impl *impl, const char *label, int log2_count);

const char *kc_job_name(const struct kc_job *job, char *buf, size_t size);

#endif
