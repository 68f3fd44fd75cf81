/* The real CUDA launchers (kernels/kernels.h) on a GPU, against the scalar reference of
 * kernel_check.c under the contract of kernels/elementwise_contract.h (the same bits but for
 * NaN payloads: the GPU's relu returns the canonical NaN): same known answers, sizes,
 * offsets, inputs, poison and guards as the CPU and emulated checks, plus sizes around one
 * full wave of the grid, with device buffers (cudaMalloc, which aligns to 256 bytes; poison
 * by cudaMemset; the whole allocation, guards included, copied back and checked). Run with
 * the device's own SM count and with 2, so the grid-stride loop turns many times on real
 * hardware too. And eager add, relu as one CUDA graph launch through the CUDA backend's
 * run_group (eager_add_relu_graph), at every size and offset, 2 kernels counted per launch.
 * Where no device answers, the program says why and exits 77 (meson: SKIP). Suite 'gpu'. */
#include <stdio.h>

#include <cuda_runtime_api.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "backends/backend.h"
#include "common/cuda_check.h"
#include "kernel_check.h"
#include "kernels.h"
#include "plan/variants.h"

/* Every CUDA call goes through common/cuda_check.h (FB_CUDA_TRY returns its error, which
 * kernel_check turns into the test's failure message). */

/* Set once by the group setup: whether a device answers, and if not, why. */
static struct {
    int available;
    int sm_count;
    char reason[sizeof(struct fb_error)];
} gpu;

static int gpu_alloc(void *ctx, size_t bytes, void **p, struct fb_error *err)
{
    (void)ctx;
    *p = NULL;
    FB_CUDA_TRY(cudaMalloc(p, bytes));
    return FB_OK;
}

static void gpu_release(void *ctx, void *p)
{
    (void)ctx;
    struct fb_error err;
    if (FB_CUDA_CHECK(cudaFree(p), &err) != FB_OK)
        fail_msg("%s", err.msg);
}

static int gpu_poison(void *ctx, void *p, size_t bytes, struct fb_error *err)
{
    (void)ctx;
    FB_CUDA_TRY(cudaMemset(p, 0xff, bytes));
    return FB_OK;
}

static int gpu_upload(void *ctx, void *dst, const void *src, size_t bytes,
                      struct fb_error *err)
{
    (void)ctx;
    FB_CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    return FB_OK;
}

static int gpu_download(void *ctx, void *dst, const void *src, size_t bytes,
                        struct fb_error *err)
{
    (void)ctx;
    FB_CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return FB_OK;
}

static int gpu_run(void *opaque, const struct kc_job *job, const void *a, const void *b,
                   void *c, int64_t n, struct fb_error *err)
{
    const struct fb_cuda_launch_context *ctx = opaque;
    int status = FB_ERR_USAGE;
    switch (job->kind) {
    case KC_OP:
        status = fb_cuda_op(ctx, job->chain.ops[0].op, job->chain.ops[0].params, job->dtype, a, b,
                            c, n, err);
        break;
    case KC_ADD_RELU: status = fb_cuda_add_relu(ctx, job->dtype, a, b, c, n, err); break;
    case KC_CHAIN: status = fb_cuda_chain(ctx, &job->chain, job->dtype, a, b, c, n, err); break;
    }
    if (status != FB_OK)
        return status;
    /* Launches are asynchronous: execution errors (a bad address) surface here. */
    FB_CUDA_TRY(cudaDeviceSynchronize());
    return FB_OK;
}

/* eager_add_relu_graph through the CUDA backend's run_group (backend.h): the add and relu
 * kernels captured into a CUDA graph and launched as one. Each call runs the group twice (the
 * second launch finds the graph of the first: same steps, n and buffers) and must count 2
 * kernels per launch. tmp is a fresh, poisoned device array, so relu reading anything but
 * what add wrote shows. The backend works on its own non-blocking stream: the check's
 * uploads and poisoning (legacy stream) are waited for first. */
struct graph_impl {
    const struct fb_backend_ops *ops;
    void *backend;
};

static int graph_run(void *opaque, const struct kc_job *job, const void *a, const void *b,
                     void *c, int64_t n, struct fb_error *err)
{
    const struct graph_impl *g = opaque;
    if (job->kind != KC_ADD_RELU)
        return fb_fail(err, FB_ERR_USAGE, "graph_run: add_relu jobs only");
    const struct fb_variant *v = fb_variant_find("eager_add_relu_graph");
    if (!v || !v->one_launch || !g->ops->run_group)
        return fb_fail(err, FB_ERR_USAGE, "no one-launch eager_add_relu_graph to run");
    const size_t bytes = n > 0 ? (size_t)n * fb_dtype_size(job->dtype) : 256;
    void *tmp = NULL;
    FB_CUDA_TRY(cudaMalloc(&tmp, bytes));
    int rc = FB_CUDA_CHECK(cudaMemset(tmp, 0xff, bytes), err);
    if (rc == FB_OK)
        rc = FB_CUDA_CHECK(cudaDeviceSynchronize(), err);
    void *buffers[FB_BUF_COUNT] = {0};
    buffers[FB_BUF_A] = (void *)a;
    buffers[FB_BUF_B] = (void *)b;
    buffers[FB_BUF_TMP] = tmp;
    buffers[FB_BUF_C] = c;
    const struct fb_format format = {job->dtype, FB_STORES_NORMAL};
    const uint64_t before = g->ops->launch_count(g->backend);
    for (int call = 0; call < 2 && rc == FB_OK; call++)
        rc = g->ops->run_group(g->backend, v->steps, v->n_steps, &format, buffers, n, err);
    if (rc == FB_OK)
        rc = g->ops->synchronize(g->backend, err);
    const uint64_t counted = g->ops->launch_count(g->backend) - before;
    if (rc == FB_OK && counted != (n > 0 ? 4u : 0u))
        rc = fb_fail(err, FB_ERR_RUNTIME, "2 graph launches of n = %lld counted %llu kernels, "
                     "want %d", (long long)n, (unsigned long long)counted, n > 0 ? 4 : 0);
    int free_rc = FB_CUDA_CHECK(cudaFree(tmp), rc == FB_OK ? err : NULL);
    return rc == FB_OK ? free_rc : rc;
}

static void test_graph_matches_reference(void **state)
{
    (void)state;
    if (!gpu.available) {
        printf("skipped: %s\n", gpu.reason);
        skip();
    }
    struct graph_impl g = {&fb_cuda_backend, NULL};
    struct fb_error err = {{0}};
    const struct fb_backend_params params = {0, 0};
    if (g.ops->init(&g.backend, &params, &err) != FB_OK)
        fail_msg("cuda backend init: %s", err.msg);
    const struct kc_impl impl = {
        .name = "cuda graph (eager_add_relu_graph, run_group)",
        .ctx = &g,
        .alloc = gpu_alloc,
        .release = gpu_release,
        .poison = gpu_poison,
        .upload = gpu_upload,
        .download = gpu_download,
        .run = graph_run,
    };
    /* every dtype: the graph's eager temporary is rounded, which add, relu do not notice */
    kc_check_add_relu(&impl, FB_DTYPE_FP32);
    kc_check_add_relu(&impl, FB_DTYPE_FP16);
    kc_check_add_relu(&impl, FB_DTYPE_BF16);
    g.ops->fini(g.backend);
}

static int find_device(void **state)
{
    (void)state;
    int count = 0;
    struct fb_error err;
    if (fb_cuda_device_count(&count, &err) != FB_OK ||
        FB_CUDA_CHECK(cudaDeviceGetAttribute(&gpu.sm_count, cudaDevAttrMultiProcessorCount, 0),
                      &err) != FB_OK) {
        snprintf(gpu.reason, sizeof gpu.reason, "%s", err.msg);
    } else {
        gpu.available = 1;
        printf("test_kernels_gpu: %d device(s); device 0 has %d SMs\n", count, gpu.sm_count);
        return 0;
    }
    printf("test_kernels_gpu: no GPU, every test skips: %s\n", gpu.reason);
    return 0;
}

/* op >= 0: that op of the table; GPU_ADD_RELU: the handwritten add_relu; GPU_CHAINS:
 * random chains in the generic kernel; GPU_ULP: the measured ULP error of the
 * transcendental ops (printed; fails past the table's bounds). */
#define GPU_ADD_RELU (-1)
#define GPU_CHAINS (-2)
#define GPU_ULP (-3)
struct gpu_case {
    int op;
    int small_grid; /* 0: the device's SM count; 1: 2 SMs, so the grid-stride loop turns */
    enum fb_dtype dtype;
};

static void test_op_matches_reference(void **state)
{
    const struct gpu_case *c = *state;
    if (!gpu.available) {
        printf("skipped: %s\n", gpu.reason);
        skip();
    }
    struct fb_cuda_launch_context ctx = {.stream = NULL,
                                         .sm_count = c->small_grid ? 2 : gpu.sm_count};
    const struct kc_impl impl = {
        .name = c->small_grid ? "cuda (grid of 2 SMs)" : "cuda (grid of all SMs)",
        .ctx = &ctx,
        .alloc = gpu_alloc,
        .release = gpu_release,
        .poison = gpu_poison,
        .upload = gpu_upload,
        .download = gpu_download,
        .run = gpu_run,
    };
    if (c->op == GPU_CHAINS) {
        kc_check_chains(&impl, ctx.sm_count, c->dtype);
    } else if (c->op == GPU_ULP) {
        kc_report_max_ulps(&impl, "cuda", 24);
    } else if (c->op == GPU_ADD_RELU) {
        const struct kc_job job = kc_job_in(kc_add_relu_job(), c->dtype);
        kc_check_add_relu(&impl, c->dtype);
        kc_check_job_at_grid_boundaries(&impl, &job, ctx.sm_count);
    } else {
        const struct kc_job job = kc_job_in(kc_op_job((enum fb_op_id)c->op, 0.5f, -2.0f), c->dtype);
        kc_check_op(&impl, (enum fb_op_id)c->op, c->dtype);
        kc_check_job_at_grid_boundaries(&impl, &job, ctx.sm_count);
    }
}

#define GPU_TEST(name, op, small)                                                              \
    {name, test_op_matches_reference, NULL, NULL, &(struct gpu_case){op, small, FB_DTYPE_FP32}}
#define GPU_TEST_AT(name, op, small, dtype)                                                    \
    {name, test_op_matches_reference, NULL, NULL, &(struct gpu_case){op, small, dtype}}

int main(void)
{
    /* No device: say why and exit 77, which meson reports as SKIP (a cmocka skip() would
     * read as a pass). */
    find_device(NULL);
    if (!gpu.available)
        return 77;
    kc_seed();
    kc_filter_tests();
    const struct CMUnitTest tests[] = {
        /* every op of the table, on both grids */
#define GPU_OP_TESTS(name, arity, n_params, param_names, ulp)                                  \
    GPU_TEST(#name "_meets_contract_on_full_grid", FB_OPID_##name, 0),                         \
        GPU_TEST(#name "_meets_contract_on_2_sm_grid_stride_loop", FB_OPID_##name, 1),
        FB_OP_TABLE(GPU_OP_TESTS)
#undef GPU_OP_TESTS
        GPU_TEST("add_relu_meets_contract_on_full_grid", GPU_ADD_RELU, 0),
        GPU_TEST("add_relu_meets_contract_on_2_sm_grid_stride_loop", GPU_ADD_RELU, 1),
        GPU_TEST("generic_kernel_chains_meet_contract_on_full_grid", GPU_CHAINS, 0),
        GPU_TEST("generic_kernel_chains_meet_contract_on_2_sm_grid_stride_loop", GPU_CHAINS, 1),
        GPU_TEST("transcendental_ops_within_ulp_bound", GPU_ULP, 0),
        /* fp16 and bf16 storage (__half, __nv_bfloat16; 8 elements per 16-byte vector) */
#define GPU_HALF_OP_TESTS(name, arity, n_params, param_names, ulp)                             \
    GPU_TEST_AT(#name "_fp16_meets_contract_on_full_grid", FB_OPID_##name, 0, FB_DTYPE_FP16),  \
        GPU_TEST_AT(#name "_fp16_meets_contract_on_2_sm_grid", FB_OPID_##name, 1, FB_DTYPE_FP16), \
        GPU_TEST_AT(#name "_bf16_meets_contract_on_full_grid", FB_OPID_##name, 0, FB_DTYPE_BF16), \
        GPU_TEST_AT(#name "_bf16_meets_contract_on_2_sm_grid", FB_OPID_##name, 1, FB_DTYPE_BF16),
        FB_OP_TABLE(GPU_HALF_OP_TESTS)
#undef GPU_HALF_OP_TESTS
        GPU_TEST_AT("add_relu_fp16_meets_contract_on_full_grid", GPU_ADD_RELU, 0, FB_DTYPE_FP16),
        GPU_TEST_AT("add_relu_bf16_meets_contract_on_full_grid", GPU_ADD_RELU, 0, FB_DTYPE_BF16),
        GPU_TEST_AT("generic_kernel_chains_fp16_meet_contract_on_full_grid", GPU_CHAINS, 0,
                    FB_DTYPE_FP16),
        GPU_TEST_AT("generic_kernel_chains_bf16_meet_contract_on_full_grid", GPU_CHAINS, 0,
                    FB_DTYPE_BF16),
        {"eager_add_relu_graph_one_launch_meets_contract", test_graph_matches_reference, NULL,
         NULL, NULL},
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
