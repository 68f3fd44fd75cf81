/* The CPU backend's kernels (src/backends/cpu/cpu_kernels.h) against the scalar reference
 * of kernel_check.c under the contract of kernels/elementwise_contract.h: every op of the op
 * table (the list of tests is the table), the handwritten add_relu and the generic chain
 * pass on random chains, known answers first, at every size and offset, on one OpenMP
 * thread and on two (two threads split the range, so each thread's chunk has its own head
 * and tail; the chains on two threads at the sizes around the pass's tiles); and add_relu and
 * random chains run eagerly, one work-shared pass per op in ONE parallel region (the CPU's
 * run_group), on one thread and on two, which must give the fused result bit for bit; each
 * with normal and with streaming stores, and at fp32, fp16 and bf16 storage (the 16-bit ones:
 * tails and misaligned starts at every size and offset of the check; their streaming stores
 * through the 16-bit store layer). The known answers also catch a process that flushes
 * subnormals (FTZ/DAZ).
 * All of that with the instruction set the backend picks for this CPU (cpu_loops.h: the
 * widest it has); with FB_TEST_CPU_ISA=NAME the main checks with another set this build has
 * and this CPU runs (baseline SSE2, AVX2, AVX-512: other vector widths, other loop tails,
 * other FMA use in the exp), one meson test per set.
 * Then, for each set, the transcendental ops' exp alone against double precision over a
 * stride of every float it takes, and the measured ULP error of the ops over many inputs,
 * printed: the figures behind their bounds. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/cpu_loops.h"
#include "common/clock.h"
#include "dtype_convert.h"
#include "kernel_check.h"

/* ctx points to the store kind (normal or streaming); the dtype is the job's. */
static int cpu_run(void *ctx, const struct kc_job *job, const void *a, const void *b, void *c,
                   int64_t n, struct fb_error *err)
{
    const struct fb_format format = {job->dtype, *(const enum fb_store_kind *)ctx};
    switch (job->kind) {
    case KC_OP:
        fb_cpu_op(job->chain.ops[0].op, job->chain.ops[0].params, a, b, c, n, &format);
        return FB_OK;
    case KC_ADD_RELU: fb_cpu_add_relu(a, b, c, n, &format); return FB_OK;
    case KC_CHAIN: fb_cpu_chain(&job->chain, a, b, c, n, &format); return FB_OK;
    }
    return fb_fail(err, FB_ERR_USAGE, "unknown job kind %d", (int)job->kind);
}

static enum fb_store_kind normal_stores = FB_STORES_NORMAL, streaming_stores = FB_STORES_STREAMING;

/* The same jobs as eager chains in ONE parallel region (fb_cpu_passes_in_one_region, the CPU's
 * run_group): one work-shared pass per op, the temporaries in memory (ping-pong, as
 * eager_NAME's steps), a barrier between the passes. Its result must be the fused job's,
 * bit for bit (each op rounds to float either way): every pass ran over every element, in
 * order, and the second input was read by the first pass only. The temporaries come
 * poisoned and 64-byte aligned; a, b and c get the check's offsets. (A missing barrier would
 * go unseen here: the passes split [0, n) alike, so each thread reads back its own writes.)
 * At fp16 and bf16 the temporaries are stored, so rounded, between the passes, where the
 * fused job rounds once: the same result for add, relu (relu commutes with the rounding),
 * not for every chain, which are checked at fp32 only. */
static int group_run(void *ctx, const struct kc_job *job, const void *a, const void *b,
                     void *c, int64_t n, struct fb_error *err)
{
    const struct fb_format format = {job->dtype, *(const enum fb_store_kind *)ctx};
    const struct fb_chain *ch = &job->chain; /* KC_ADD_RELU's chain is add, relu */
    if (job->kind == KC_OP || ch->n_ops < 1 || ch->n_ops > FB_CHAIN_MAX_OPS)
        return fb_fail(err, FB_ERR_USAGE, "group_run: a chain of 1 to %d ops", FB_CHAIN_MAX_OPS);
    const size_t bytes = ((size_t)n * fb_dtype_size(job->dtype) + 63) / 64 * 64 + 64;
    void *tmp[2] = {aligned_alloc(64, bytes), aligned_alloc(64, bytes)};
    if (!tmp[0] || !tmp[1]) {
        free(tmp[0]);
        free(tmp[1]);
        return fb_fail(err, FB_ERR_RUNTIME, "group_run: out of memory");
    }
    memset(tmp[0], 0xff, bytes);
    memset(tmp[1], 0xff, bytes);
    struct fb_cpu_pass passes[FB_CHAIN_MAX_OPS];
    const void *in = a;
    for (int k = 0; k < ch->n_ops; k++) {
        void *out = k == ch->n_ops - 1 ? c : tmp[k % 2];
        passes[k] = (struct fb_cpu_pass){ch->ops[k], in, k == 0 ? b : NULL, out};
        in = out;
    }
    /* Marked (backend.h, run_group_marked): the marks must not change the result, and each
     * of the n_ops + 1 is written, in order. Poisoned first. */
    uint64_t marks[FB_CHAIN_MAX_OPS + 1];
    for (int k = 0; k <= FB_CHAIN_MAX_OPS; k++)
        marks[k] = UINT64_MAX;
    const uint64_t before = fb_now_ns();
    fb_cpu_passes_in_one_region(passes, ch->n_ops, n, &format, marks);
    const uint64_t after = fb_now_ns();
    free(tmp[0]);
    free(tmp[1]);
    for (int k = 0; k <= ch->n_ops; k++)
        if (marks[k] < before || marks[k] > after || (k > 0 && marks[k] < marks[k - 1]))
            return fb_fail(err, FB_ERR_VERIFY, "group_run: mark %d of %d out of order", k,
                           ch->n_ops);
    if (ch->n_ops < FB_CHAIN_MAX_OPS && marks[ch->n_ops + 1] != UINT64_MAX)
        return fb_fail(err, FB_ERR_VERIFY, "group_run: a mark written past the last pass");
    return FB_OK;
}

/* [0]: the fused passes (cpu_run); [1]: the eager passes in one parallel region (group_run).
 * The streaming ones: every size and offset of the check meets the store layer's head
 * (output not 16-byte aligned), aligned body and tail, per tile and per thread; in one
 * region, each pass a work-shared loop over tiles, streamed out, each thread's stores fenced
 * before the barrier between the passes. */
static const struct kc_impl impls[2][FB_STORES_COUNT] = {
    {[FB_STORES_NORMAL] = KC_HOST_IMPL("cpu", &normal_stores, cpu_run),
     [FB_STORES_STREAMING] = KC_HOST_IMPL("cpu (streaming stores)", &streaming_stores, cpu_run)},
    {[FB_STORES_NORMAL] = KC_HOST_IMPL("cpu, eager passes in one parallel region",
                                       &normal_stores, group_run),
     [FB_STORES_STREAMING] = KC_HOST_IMPL("cpu, eager passes in one parallel region, "
                                          "streaming stores", &streaming_stores, group_run)},
};

/* What a test checks. */
enum cpu_check {
    EVERY_OP,                  /* every op of the table */
    ADD_RELU,                  /* the handwritten add_relu */
    CHAINS,                    /* the generic chain pass on random chains */
    ADD_RELU_IN_ONE_REGION,    /* add_relu as eager passes in one region (group_run) */
    CHAINS_IN_ONE_REGION,      /* random chains the same way */
    CHAIN_CROSSES_TILES,       /* chains around and past a tile */
    STREAMING_CROSSES_TILES,   /* streaming stores around and past a tile (stores: streaming) */
    ULP,                       /* the transcendental ops' measured error, printed */
    EXP,                       /* their exp against double precision */
};

/* Which runs hold a test: the full one (kernels_cpu, the set picked for this CPU), the one
 * with a named set (FB_TEST_CPU_ISA, kernels_cpu_NAME), or both. */
enum cpu_runs { FULL = 1, SET = 2, BOTH = FULL | SET };

/* A row of the test table: its name (cmocka's: it names the failed case), what it checks on
 * how many OpenMP threads, the storage type, the store kind, and the runs that hold it. */
struct cpu_test {
    const char *name;
    enum cpu_check check;
    int threads;
    enum fb_dtype dtype;
    enum fb_store_kind stores;
    enum cpu_runs runs;
};

/* A test as it runs: its row and the instruction set of the loops. */
struct cpu_case {
    const struct cpu_test *t;
    enum fb_cpu_isa isa;
};

/* The set the backend picks for this CPU, found before any test chooses another. */
static enum fb_cpu_isa picked_isa;

/* Sets up a test's threads and instruction set; skips, saying why, where the CPU or the build
 * lacks the set. */
static void use_case(const struct cpu_case *c)
{
    if (!fb_cpu_loops_built(c->isa) || !fb_cpu_isa_supported(c->isa)) {
        printf("skip: the %s loops are not %s\n", fb_cpu_isa_name(c->isa),
               fb_cpu_loops_built(c->isa) ? "supported by this CPU" : "in this build");
        skip();
    }
    assert_true(fb_cpu_use_isa(c->isa));
    assert_int_equal(fb_cpu_isa_in_use(), c->isa);
    omp_set_num_threads(c->t->threads);
}

/* The chain over sizes around and past a tile, at every offset. */
static void check_chain_at_tile_sizes(const struct kc_impl *impl, const struct fb_chain *ch,
                                      enum fb_dtype dtype)
{
    const struct kc_job job = kc_job_in(kc_chain_job(ch), dtype);
    const int64_t sizes[] = {FB_CPU_CHAIN_TILE - 1, FB_CPU_CHAIN_TILE, FB_CPU_CHAIN_TILE + 1,
                             3 * FB_CPU_CHAIN_TILE + 17};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t o = 0; o < kc_offset_count; o++)
            kc_check_case(impl, &job, sizes[s], kc_offsets[o]);
}

/* Chains around and past a tile: each thread walks several tiles, the last one partial
 * (with 2 threads, each thread's share starts at a tile boundary of its own). Random
 * chains of lengths 1, 2, 5 and FB_CHAIN_MAX_OPS, first op unary and binary (a random chain
 * has a transcendental op last only), and configs/chain-length.ini's add, sigmoid, gelu,
 * sigmoid, gelu: transcendental ops in a row, which the loops never pair (cpu_loops.c),
 * each one a pass over the tile of its own, the last into c. */
static void check_chain_crosses_tiles(const struct kc_impl *impl, enum fb_dtype dtype)
{
    uint64_t rng = kc_seed() ^ 77;
    const int lengths[] = {1, 2, 5, FB_CHAIN_MAX_OPS};
    for (int i = 0; i < 8; i++) {
        const struct fb_chain ch = kc_random_chain(&rng, lengths[i / 2], i % 2);
        check_chain_at_tile_sizes(impl, &ch, dtype);
    }
    const struct fb_chain trans4 = {
        .n_ops = 5,
        .ops = {{.op = FB_OPID_add}, {.op = FB_OPID_sigmoid}, {.op = FB_OPID_gelu},
                {.op = FB_OPID_sigmoid}, {.op = FB_OPID_gelu}}};
    check_chain_at_tile_sizes(impl, &trans4, dtype);
}

/* Streaming stores across tiles, with the output at every offset of a 16-byte line (the
 * store layer's head: 0..3 floats, or 0..3 of the 7 halves a 16-bit head can hold), on sizes
 * that end a tile exactly, one short and one past, so that each tile and each thread's share
 * has its own head, body and tail. */
static void check_streaming_stores_cross_tiles(const struct kc_impl *impl, enum fb_dtype dtype)
{
    const struct kc_job jobs[] = {kc_job_in(kc_op_job(FB_OPID_copy, 0.0f, 0.0f), dtype),
                                  kc_job_in(kc_add_relu_job(), dtype)};
    const int64_t sizes[] = {FB_CPU_CHAIN_TILE - 1, FB_CPU_CHAIN_TILE, FB_CPU_CHAIN_TILE + 1,
                             2 * FB_CPU_CHAIN_TILE, 3 * FB_CPU_CHAIN_TILE + 17};
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int off = 0; off < 4; off++)
                kc_check_case(impl, &jobs[j], sizes[s],
                              (struct kc_offsets){(off + 1) % 4, (off + 2) % 4, off});
}

/* The transcendental ops' measured error, printed with the set in use. */
static void measure_transcendental_ops_ulp(const struct kc_impl *impl)
{
    char label[64];
    snprintf(label, sizeof label, "cpu (%s)", fb_cpu_isa_name(fb_cpu_isa_in_use()));
    kc_report_max_ulps(impl, label, 24);
}

/* The exp's bound (src/backends/cpu/cpu_math.h: over every float in [-110, 0], max 1.011 ulp
 * with FMA and 0.989 without), and the stride of the float patterns checked here: 1 in 61 of
 * the 1.1e9 from -0 down to -110 (~18M, every exponent and mantissa residue mod 61). */
#define EXP_MAX_ULP 1.02
#define EXP_STRIDE 61u

/* |got - e^x| in units of the last place of e^x as a float (2^-149 for the subnormals). */
static double exp_error_ulp(float x, float got)
{
    const double want = exp((double)x);
    const float nearest = (float)want;
    const double ulp = nearest == 0.0f ? 0x1p-149 : fmax(0x1p-149, ldexp(1.0, ilogbf(nearest) - 23));
    return fabs((double)got - want) / ulp;
}

/* The exp of this set's loops against double-precision exp: a stride of every float in
 * [-110, 0], within EXP_MAX_ULP (subnormal results included: e^x < 2^-126 from x < -87.3);
 * and the edges exactly: e^-0 = e^0 = 1, e^x = +0 from -104 down to -inf, a NaN stays NaN.
 * In the loop of the set (vector lanes and scalar tail): misaligned by one float. */
static void check_exp(enum fb_cpu_isa isa)
{
    const struct fb_cpu_loops *loops = fb_cpu_loops_built(isa);
    const uint32_t lo = 0x80000000u, hi = 0xc2dc0000u; /* -0, -110 */
    const size_t count = (hi - lo) / EXP_STRIDE + 1;
    float *x = malloc((count + 1) * sizeof *x), *got = malloc((count + 1) * sizeof *got);
    assert_non_null(x);
    assert_non_null(got);
    for (size_t i = 0; i < count; i++)
        x[i + 1] = fb_bits_float(lo + (uint32_t)i * EXP_STRIDE);
    for (size_t i = 0; i <= count; i++)
        got[i] = fb_bits_float(0xffffffffu); /* a NaN: an element left unwritten fails */
    loops->exp_nonpositive(x + 1, got + 1, (int64_t)count);
    double worst = 0.0;
    float worst_x = 0.0f;
    for (size_t i = 1; i <= count; i++) {
        const double d = exp_error_ulp(x[i], got[i]);
        if (!(d <= worst)) { /* NaN too: a poisoned or unwritten element */
            worst = d;
            worst_x = x[i];
        }
    }
    printf("cpu (%s) exp: max error %.3f ulp over %zu floats in [-110, 0] (at x = %.9g); "
           "bound %.2f\n", fb_cpu_isa_name(isa), worst, count, (double)worst_x, EXP_MAX_ULP);
    if (!(worst <= EXP_MAX_ULP))
        fail_msg("cpu (%s) exp: %.3f ulp at x = %.9g (0x%08x), over %.2f",
                 fb_cpu_isa_name(isa), worst, (double)worst_x, fb_float_bits(worst_x),
                 EXP_MAX_ULP);
    static const struct {
        uint32_t x, want;
    } edges[] = {
        {0x80000000u, 0x3f800000u}, /* -0: 1 */
        {0x00000000u, 0x3f800000u}, /* +0: 1 */
        {0x80000001u, 0x3f800000u}, /* -2^-149: 1 */
        {0xc2d00000u, 0x00000000u}, /* -104: +0 */
        {0xc3000000u, 0x00000000u}, /* -128: +0 */
        {0xff7fffffu, 0x00000000u}, /* -FLT_MAX: +0 */
        {0xff800000u, 0x00000000u}, /* -inf: +0 */
    };
    enum { EDGES = sizeof edges / sizeof edges[0] };
    float ex[EDGES + 3], eg[EDGES + 3];
    for (size_t i = 0; i < EDGES; i++)
        ex[i] = fb_bits_float(edges[i].x);
    ex[EDGES] = fb_bits_float(0x7fc00000u);     /* NaN */
    ex[EDGES + 1] = fb_bits_float(0xffc00001u); /* -NaN with a payload */
    ex[EDGES + 2] = fb_bits_float(0x7f800001u); /* signalling NaN */
    loops->exp_nonpositive(ex, eg, EDGES + 3);
    for (size_t i = 0; i < EDGES; i++)
        if (fb_float_bits(eg[i]) != edges[i].want)
            fail_msg("cpu (%s) exp(0x%08x) = 0x%08x, expected 0x%08x", fb_cpu_isa_name(isa),
                     edges[i].x, fb_float_bits(eg[i]), edges[i].want);
    for (size_t i = EDGES; i < EDGES + 3; i++)
        if (!isnan(eg[i]))
            fail_msg("cpu (%s) exp(NaN 0x%08x) = 0x%08x, not a NaN", fb_cpu_isa_name(isa),
                     fb_float_bits(ex[i]), fb_float_bits(eg[i]));
    free(x);
    free(got);
}

/* Every test of cpu_tests: the row's check on the implementation of its pass and store kind. */
static void test_case(void **state)
{
    const struct cpu_case *k = *state;
    use_case(k);
    const struct cpu_test *c = k->t;
    const bool one_region = c->check == ADD_RELU_IN_ONE_REGION || c->check == CHAINS_IN_ONE_REGION;
    const struct kc_impl *impl = &impls[one_region][c->stores];
    switch (c->check) {
    case EVERY_OP:
        for (int op = 0; op < FB_OPID_COUNT; op++)
            kc_check_op(impl, (enum fb_op_id)op, c->dtype);
        return;
    case ADD_RELU:
    case ADD_RELU_IN_ONE_REGION: kc_check_add_relu(impl, c->dtype); return;
    case CHAINS:
    case CHAINS_IN_ONE_REGION: kc_check_chains(impl, 0, c->dtype); return;
    case CHAIN_CROSSES_TILES: check_chain_crosses_tiles(impl, c->dtype); return;
    case STREAMING_CROSSES_TILES:
        assert_int_equal(c->stores, FB_STORES_STREAMING);
        check_streaming_stores_cross_tiles(impl, c->dtype);
        return;
    case ULP: measure_transcendental_ops_ulp(impl); return;
    case EXP: check_exp(k->isa); return;
    }
    fail_msg("unknown check %d", (int)c->check);
}

/* The tests, one row each (N, S: normal and streaming stores). */
#define N FB_STORES_NORMAL
#define S FB_STORES_STREAMING
#define FP32 FB_DTYPE_FP32
#define FP16 FB_DTYPE_FP16
#define BF16 FB_DTYPE_BF16
static const struct cpu_test cpu_tests[] = {
    {"ops_meet_contract_on_1_thread", EVERY_OP, 1, FP32, N, FULL},
    {"add_relu_meets_contract_on_1_thread", ADD_RELU, 1, FP32, N, FULL},
    {"chains_meet_contract_on_1_thread", CHAINS, 1, FP32, N, FULL},
    {"ops_meet_contract_on_2_threads", EVERY_OP, 2, FP32, N, BOTH},
    {"add_relu_meets_contract_on_2_threads", ADD_RELU, 2, FP32, N, BOTH},
    {"add_relu_in_one_region_meets_contract_on_1_thread", ADD_RELU_IN_ONE_REGION, 1, FP32, N, FULL},
    {"add_relu_in_one_region_meets_contract_on_2_threads",
     ADD_RELU_IN_ONE_REGION, 2, FP32, N, FULL},
    {"chains_in_one_region_meet_contract_on_2_threads", CHAINS_IN_ONE_REGION, 2, FP32, N, FULL},
    {"streaming_add_relu_in_one_region_meets_contract_on_2_threads",
     ADD_RELU_IN_ONE_REGION, 2, FP32, S, FULL},
    {"streaming_chains_in_one_region_meet_contract_on_2_threads",
     CHAINS_IN_ONE_REGION, 2, FP32, S, FULL},
    {"chain_crosses_tiles_on_1_thread", CHAIN_CROSSES_TILES, 1, FP32, N, FULL},
    {"chain_crosses_tiles_on_2_threads", CHAIN_CROSSES_TILES, 2, FP32, N, BOTH},
    {"streaming_ops_meet_contract_on_1_thread", EVERY_OP, 1, FP32, S, FULL},
    {"streaming_add_relu_meets_contract_on_1_thread", ADD_RELU, 1, FP32, S, FULL},
    {"streaming_chains_meet_contract_on_1_thread", CHAINS, 1, FP32, S, FULL},
    {"streaming_ops_meet_contract_on_2_threads", EVERY_OP, 2, FP32, S, FULL},
    {"streaming_add_relu_meets_contract_on_2_threads", ADD_RELU, 2, FP32, S, FULL},
    {"streaming_crosses_tiles_on_1_thread", STREAMING_CROSSES_TILES, 1, FP32, S, FULL},
    {"streaming_crosses_tiles_on_2_threads", STREAMING_CROSSES_TILES, 2, FP32, S, FULL},
    {"exp_within_its_bound", EXP, 1, FP32, N, BOTH},
    {"transcendental_ops_within_ulp_bound", ULP, 2, FP32, N, BOTH},
    /* fp16 and bf16 storage: tails (n % 8 on the CUDA side, the tiles' and threads' ends
     * here) and misaligned starts at every size and offset of kernel_check */
    {"ops_fp16_meet_contract_on_2_threads", EVERY_OP, 2, FP16, N, FULL},
    {"add_relu_fp16_meets_contract_on_2_threads", ADD_RELU, 2, FP16, N, BOTH},
    {"chains_fp16_meet_contract_on_1_thread", CHAINS, 1, FP16, N, FULL},
    {"chain_fp16_crosses_tiles_on_2_threads", CHAIN_CROSSES_TILES, 2, FP16, N, FULL},
    {"ops_bf16_meet_contract_on_2_threads", EVERY_OP, 2, BF16, N, FULL},
    {"add_relu_bf16_meets_contract_on_2_threads", ADD_RELU, 2, BF16, N, FULL},
    {"chains_bf16_meet_contract_on_1_thread", CHAINS, 1, BF16, N, FULL},
    {"chain_bf16_crosses_tiles_on_2_threads", CHAIN_CROSSES_TILES, 2, BF16, N, FULL},
    {"add_relu_fp16_in_one_region_meets_contract_on_2_threads",
     ADD_RELU_IN_ONE_REGION, 2, FP16, N, FULL},
    {"add_relu_bf16_in_one_region_meets_contract_on_2_threads",
     ADD_RELU_IN_ONE_REGION, 2, BF16, N, FULL},
    /* fp16 and bf16 with streaming stores (the 16-bit store layer, movntdq) */
    {"streaming_ops_fp16_meet_contract_on_2_threads", EVERY_OP, 2, FP16, S, FULL},
    {"streaming_add_relu_bf16_meets_contract_on_2_threads", ADD_RELU, 2, BF16, S, FULL},
    {"streaming_chains_bf16_meet_contract_on_2_threads", CHAINS, 2, BF16, S, BOTH},
    {"streaming_fp16_crosses_tiles_on_2_threads", STREAMING_CROSSES_TILES, 2, FP16, S, FULL},
    {"streaming_bf16_crosses_tiles_on_2_threads", STREAMING_CROSSES_TILES, 2, BF16, S, FULL},
    {"streaming_add_relu_fp16_in_one_region_meets_contract_on_2_threads",
     ADD_RELU_IN_ONE_REGION, 2, FP16, S, FULL},
    /* the named sets' own: chains on 2 threads, at fp32, with streaming stores, at fp16 */
    {"chains_meet_contract_on_2_threads", CHAINS, 2, FP32, N, SET},
    {"streaming_chains_meet_contract_on_2_threads", CHAINS, 2, FP32, S, SET},
    {"chains_fp16_meet_contract_on_2_threads", CHAINS, 2, FP16, N, SET},
};
#undef N
#undef S
#undef FP32
#undef FP16
#undef BF16

/* The tests of `run` with the instruction set isa. (cmocka_run_group_tests counts a fixed
 * array; these are picked at run time, so its function is called with the count.) */
static int run_cpu_tests(const char *group, enum cpu_runs run, enum fb_cpu_isa isa)
{
    enum { COUNT = sizeof cpu_tests / sizeof cpu_tests[0] };
    struct cpu_case cases[COUNT];
    struct CMUnitTest tests[COUNT];
    size_t n = 0;
    for (size_t i = 0; i < COUNT; i++) {
        if (!(cpu_tests[i].runs & run))
            continue;
        cases[i] = (struct cpu_case){&cpu_tests[i], isa};
        tests[n++] = (struct CMUnitTest){cpu_tests[i].name, test_case, NULL, NULL, &cases[i]};
    }
    return _cmocka_run_group_tests(group, tests, n, NULL, NULL);
}

/* FB_TEST_CPU_ISA=NAME (tests/kernels/meson.build: one test per set this build has): the
 * main checks with that set instead of the full run: every op, add_relu and random chains
 * (fp32; add_relu also fp16, its F16C loop; chains also streaming, fp16 and bf16 streaming),
 * chains across tiles, the exp and the transcendental ops' measured error (the threading
 * around the loops is the same for every set: the full run checks it). Exit 77 (skip) where the CPU lacks the set or it is
 * the picked one (the full run covers it). */
static int run_with_named_set(const char *name)
{
    enum fb_cpu_isa isa = FB_CPU_ISA_COUNT;
    for (int i = 0; i < FB_CPU_ISA_COUNT; i++)
        if (strcmp(fb_cpu_isa_name((enum fb_cpu_isa)i), name) == 0)
            isa = (enum fb_cpu_isa)i;
    if (isa == FB_CPU_ISA_COUNT) {
        fprintf(stderr, "FB_TEST_CPU_ISA=%s: not an instruction set of cpu_loops.h\n", name);
        return 1;
    }
    if (!fb_cpu_loops_built(isa) || !fb_cpu_isa_supported(isa)) {
        printf("skip: the %s loops are not %s\n", name,
               fb_cpu_loops_built(isa) ? "supported by this CPU" : "in this build");
        return 77;
    }
    if (isa == picked_isa) {
        printf("skip: %s is the set picked for this CPU: test kernels_cpu checks it in full\n",
               name);
        return 77;
    }
    return run_cpu_tests(name, SET, isa);
}

int main(void)
{
    kc_seed();
    kc_filter_tests();
    picked_isa = fb_cpu_isa_in_use();
    printf("instruction set picked for this CPU: %s\n", fb_cpu_isa_name(picked_isa));
    const char *named = getenv("FB_TEST_CPU_ISA");
    if (named && named[0])
        return run_with_named_set(named);
    return run_cpu_tests("tests", FULL, picked_isa);
}
