/* The CPU backend's kernels (src/backends/cpu/cpu_kernels.h) against the scalar reference
 * of kernel_check.c under the contract of kernels/elementwise_contract.h (the same bits but
 * for NaN payloads), known answers first, at every size and offset, on one OpenMP thread
 * and on two (two threads split the range, so each thread's chunk has its own head and
 * tail). The known answers also catch a process that flushes subnormals (FTZ/DAZ). */
#include <omp.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "backends/cpu/cpu_kernels.h"
#include "kernel_check.h"

static int cpu_run(void *ctx, enum kc_op op, const float *a, const float *b, float *c,
                   int64_t n, float threshold, float value, struct fb_error *err)
{
    (void)ctx;
    switch (op) {
    case KC_COPY: fb_cpu_copy(a, c, n); return FB_OK;
    case KC_RELU: fb_cpu_relu(a, c, n); return FB_OK;
    case KC_THRESHOLD: fb_cpu_threshold(a, c, n, threshold, value); return FB_OK;
    case KC_ADD: fb_cpu_add(a, b, c, n); return FB_OK;
    case KC_ADD_RELU: fb_cpu_add_relu(a, b, c, n); return FB_OK;
    }
    return fb_fail(err, FB_ERR_USAGE, "unknown op %d", (int)op);
}

static const struct kc_impl cpu_impl = {
    .name = "cpu",
    .alloc = kc_host_alloc,
    .release = kc_host_release,
    .poison = kc_host_poison,
    .upload = kc_host_copy,
    .download = kc_host_copy,
    .run = cpu_run,
};

struct cpu_case {
    enum kc_op op;
    int threads;
};

static void test_op_matches_reference(void **state)
{
    const struct cpu_case *c = *state;
    omp_set_num_threads(c->threads);
    kc_check_op(&cpu_impl, c->op);
}

#define CPU_TEST(name, op, threads)                                                            \
    {name, test_op_matches_reference, NULL, NULL, &(struct cpu_case){op, threads}}

int main(void)
{
    kc_seed();
    const struct CMUnitTest tests[] = {
        CPU_TEST("copy_meets_contract_on_1_thread", KC_COPY, 1),
        CPU_TEST("relu_meets_contract_on_1_thread", KC_RELU, 1),
        CPU_TEST("threshold_meets_contract_on_1_thread", KC_THRESHOLD, 1),
        CPU_TEST("add_meets_contract_on_1_thread", KC_ADD, 1),
        CPU_TEST("add_relu_meets_contract_on_1_thread", KC_ADD_RELU, 1),
        CPU_TEST("copy_meets_contract_on_2_threads", KC_COPY, 2),
        CPU_TEST("relu_meets_contract_on_2_threads", KC_RELU, 2),
        CPU_TEST("threshold_meets_contract_on_2_threads", KC_THRESHOLD, 2),
        CPU_TEST("add_meets_contract_on_2_threads", KC_ADD, 2),
        CPU_TEST("add_relu_meets_contract_on_2_threads", KC_ADD_RELU, 2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
