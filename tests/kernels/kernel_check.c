#include "kernel_check.h"

#include <float.h>
#include <math.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dtype_convert.h"
#include "elementwise_contract.h"

/* The reference below relies on a float add being rounded to float, not carried in a wider
 * format (x87); x86-64 and AArch64 both evaluate in the type itself. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the reference needs FLT_EVAL_METHOD == 0 (float arithmetic rounded to float)"
#endif

/* Untouchable elements on each side of every buffer: 16 floats = 64 bytes, so the base
 * behind them stays 64-byte aligned, and a kernel that ran one vector (or one block of a
 * few elements) too far would land in them. */
#define KC_GUARD 16
#define KC_MAX_OFFSET 3

/* Outputs are filled with 0xff bytes (what cudaMemset can write): the pattern 0xffffffff
 * is a negative quiet NaN with every payload bit set. No result can carry it: the inputs
 * never hold it nor the signalling NaN 0xffbfffff that quiets to it (kc_draw), copy, relu
 * and threshold return an input (perhaps quieted), 0, `value` or a default NaN, and an add
 * a sum, a quieted input NaN or a default NaN (x86 0xffc00000, GPU 0x7fffffff, which is
 * also what the GPU's relu returns for any NaN). So seeing it means "not written", even
 * where any NaN would be an acceptable result. */
#define KC_POISON_BITS 0xffffffffu
#define KC_POISON_QUIETS_TO 0xffbfffffu
/* fp16 and bf16: 0xffff is a negative NaN with every payload bit set in both. No result can
 * be it either: it would take an input NaN 0xffff, or one that quiets to it (fp16 0xfdff,
 * bf16 0xffbf), and kc_draw16 draws none of them. */
#define KC_POISON_BITS16 0xffffu

/* The poison at a storage type, and the bytes of one element. */
static uint32_t poison_bits(enum fb_dtype d)
{
    return d == FB_DTYPE_FP32 ? KC_POISON_BITS : KC_POISON_BITS16;
}

static size_t elem_bytes(enum fb_dtype d)
{
    return d == FB_DTYPE_FP32 ? 4 : 2;
}

/* Around every boundary of every implementation: the 4 floats of a vector, one thread's
 * turn of the CUDA main loop (4 loads per input for one input, 2 each for two: 16 and 8
 * floats on the vector path, 4 and 2 on the scalar one), the 128-thread block, a block's
 * turn (2048 and 1024 floats vector, 512 and 256 scalar), odd tails, and a size large enough
 * for the grid-stride loop to turn. kc_check_op_at_grid_boundaries adds one wave of a grid. */
/* fp16 and bf16 move 8 elements per vector, so their turns are twice as long: 32 and 16
 * elements per thread, 4096 and 2048 per block (4095..4097, 8195). */
const int64_t kc_sizes[] = {0,    1,    2,    3,    4,    5,    7,    8,    9,    15,
                            16,   17,   31,   32,   33,   127,  128,  129,  255,  256,
                            257,  511,  512,  513,  1023, 1024, 1025, 2047, 2048, 2049,
                            2051, 4095, 4096, 4097, 4099, 8195, (INT64_C(1) << 20) + 5};
const size_t kc_size_count = sizeof kc_sizes / sizeof kc_sizes[0];

/* Equal offsets 0..3: with a 64-byte aligned base only offset 0 is 16-byte aligned, so the
 * vector path runs at 0 and the scalar one at 1, 2, 3. The mixed rows give inputs and
 * output different alignments: only the scalar path is legal there, and a kernel that
 * assumed a common alignment would read or write the wrong elements. */
const struct kc_offsets kc_offsets[] = {
    {0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, /* same offset everywhere */
    {0, 0, 1},                                  /* output alone misaligned */
    {2, 0, 0},                                  /* first input alone misaligned */
    {0, 3, 0},                                  /* second input alone (binary only) */
    {3, 1, 2},                                  /* all different */
};
const size_t kc_offset_count = sizeof kc_offsets / sizeof kc_offsets[0];

const struct kc_param_pair kc_param_pairs[] = {
    {0.0f, 0.0f},    /* relu, as eager_add_threshold uses it; scale by 0; bias by 0 */
    {0.5f, -2.0f},   /* a positive threshold replaced by a negative value */
    {-3.0f, 42.0f},  /* a negative threshold replaced by a value above it */
};
const size_t kc_param_pair_count = sizeof kc_param_pairs / sizeof kc_param_pairs[0];

struct kc_job kc_op_job(enum fb_op_id op, float p0, float p1)
{
    struct kc_job job = {.kind = KC_OP, .chain = {.n_ops = 1}, .dtype = FB_DTYPE_FP32};
    job.chain.ops[0].op = op;
    job.chain.ops[0].params.v[0] = p0;
    job.chain.ops[0].params.v[1] = p1;
    return job;
}

struct kc_job kc_add_relu_job(void)
{
    struct kc_job job = {.kind = KC_ADD_RELU, .chain = {.n_ops = 2}, .dtype = FB_DTYPE_FP32};
    job.chain.ops[0].op = FB_OPID_add;
    job.chain.ops[1].op = FB_OPID_relu;
    return job;
}

struct kc_job kc_chain_job(const struct fb_chain *chain)
{
    struct kc_job job = {.kind = KC_CHAIN, .chain = *chain, .dtype = FB_DTYPE_FP32};
    return job;
}

struct kc_job kc_job_in(struct kc_job job, enum fb_dtype dtype)
{
    job.dtype = dtype;
    return job;
}

const char *kc_dtype_name(enum fb_dtype dtype)
{
    return dtype == FB_DTYPE_FP16 ? "fp16" : dtype == FB_DTYPE_BF16 ? "bf16" : "fp32";
}

int kc_job_is_binary(const struct kc_job *job)
{
    return fb_op_infos[job->chain.ops[0].op].arity == 2;
}

/* "gelu", "threshold(0.5, -2)", "add_relu", "chain[mul, bias(0.5), relu]", with " fp16" or
 * " bf16" after it for those types */
static const char *job_name_fp32(const struct kc_job *job, char *buf, size_t size);
const char *kc_job_name(const struct kc_job *job, char *buf, size_t size)
{
    job_name_fp32(job, buf, size);
    if (job->dtype != FB_DTYPE_FP32) {
        size_t len = strlen(buf);
        if (len < size)
            snprintf(buf + len, size - len, " %s", kc_dtype_name(job->dtype));
    }
    return buf;
}

static const char *job_name_fp32(const struct kc_job *job, char *buf, size_t size)
{
    if (job->kind == KC_ADD_RELU) {
        snprintf(buf, size, "add_relu");
        return buf;
    }
    size_t len = (size_t)snprintf(buf, size, "%s", job->kind == KC_CHAIN ? "chain[" : "");
    for (int k = 0; k < job->chain.n_ops && len < size; k++) {
        const struct fb_op_info *info = &fb_op_infos[job->chain.ops[k].op];
        len += (size_t)snprintf(buf + len, size - len, "%s%s", k ? ", " : "", info->name);
        for (int q = 0; q < info->n_params && len < size; q++)
            len += (size_t)snprintf(buf + len, size - len, "%s%g%s", q ? ", " : "(",
                                    (double)job->chain.ops[k].params.v[q],
                                    q + 1 == info->n_params ? ")" : "");
    }
    if (job->kind == KC_CHAIN && len < size)
        snprintf(buf + len, size - len, "]");
    return buf;
}

/* The ULP bound the job's output is checked with: the last op's (a transcendental op comes
 * only last in a checked chain), 0 for add_relu and exact ops; on fp16 and bf16 storage 1
 * unit of the type for a transcendental op (FB_DTYPE_ULP_BOUND, elementwise_contract.h). */
static int64_t job_ulp_bound(const struct kc_job *job)
{
    if (job->kind == KC_ADD_RELU)
        return 0;
    const int64_t bound = fb_op_infos[job->chain.ops[job->chain.n_ops - 1].op].ulp_bound;
    return job->dtype != FB_DTYPE_FP32 && bound > 0 ? FB_DTYPE_ULP_BOUND : bound;
}

struct kc_shape kc_job_shape(const struct kc_job *job)
{
    struct kc_shape shape = {kc_job_is_binary(job) ? 2 : 1, 0, 16,
                             job->dtype == FB_DTYPE_FP32 ? 4 : 8};
    shape.per_input = 4 / shape.inputs;
    int transcendental = 0;
    for (int k = 0; k < job->chain.n_ops; k++)
        transcendental |= fb_op_infos[job->chain.ops[k].op].ulp_bound > 0;
    if (job->kind == KC_CHAIN) {
        /* exact ops: 8 items per turn, all inputs together; with a transcendental op 16
         * lanes (4 float4, 2 vectors of 8 halves). 56 registers: 65536 / (56 x 128) = 9
         * blocks; 88 (exact, unary, 16-bit): 65536 / (88 x 128) = 5. */
        const bool half = job->dtype != FB_DTYPE_FP32;
        shape.per_input = !transcendental ? 8 / shape.inputs : half ? 2 : 4;
        shape.blocks_per_sm = !transcendental && half && shape.inputs == 1 ? 5 : 9;
    } else if (transcendental) {
        shape.per_input = 2;
    }
    return shape;
}

/* ---- host memory ---- */

int kc_host_alloc(void *ctx, size_t bytes, void **p, struct fb_error *err)
{
    (void)ctx;
    size_t rounded = (bytes + 63) / 64 * 64; /* aligned_alloc wants a multiple */
    *p = aligned_alloc(64, rounded ? rounded : 64);
    if (!*p)
        return fb_fail(err, FB_ERR_RUNTIME, "aligned_alloc(64, %zu) failed", rounded);
    return FB_OK;
}

void kc_host_release(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

int kc_host_poison(void *ctx, void *p, size_t bytes, struct fb_error *err)
{
    (void)ctx;
    (void)err;
    memset(p, 0xff, bytes);
    return FB_OK;
}

int kc_host_copy(void *ctx, void *dst, const void *src, size_t bytes, struct fb_error *err)
{
    (void)ctx;
    (void)err;
    memcpy(dst, src, bytes);
    return FB_OK;
}

/* ---- random inputs ---- */

uint64_t kc_seed(void)
{
    static bool have_seed;
    static uint64_t seed;
    if (!have_seed) {
        const char *env = getenv("FB_TEST_SEED");
        if (env && *env)
            seed = strtoull(env, NULL, 0);
        else
            seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
        have_seed = true;
        printf("kernel_check: seed %" PRIu64 " (FB_TEST_SEED=%" PRIu64 " replays this run)\n",
               seed, seed);
        fflush(stdout);
    }
    return seed;
}

/* FB_TEST_FILTER=PATTERN (cmocka's: * and ?): only the tests whose name matches, for a
 * caller that needs a few of a long run (tests/docs/test_adding_an_op.sh). */
void kc_filter_tests(void)
{
    const char *pattern = getenv("FB_TEST_FILTER");
    if (pattern && *pattern) {
        printf("kernel_check: only the tests matching FB_TEST_FILTER=%s\n", pattern);
        fflush(stdout);
        cmocka_set_test_filter(pattern);
    }
}

/* splitmix64: tiny, fast, and every state gives a good stream; enough for test data. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The next float after x towards +inf (dir > 0) or -inf, on the bit patterns, so that it
 * steps through -0/+0 and subnormals exactly; x is finite. */
static uint32_t bits_step(uint32_t x, int dir)
{
    bool negative = x & 0x80000000u;
    uint32_t magnitude = x & 0x7fffffffu;
    if (magnitude == 0)
        return dir > 0 ? 0x00000001u : 0x80000001u;
    if (negative == (dir < 0))
        return x + 1; /* away from zero */
    return x - 1;     /* towards zero */
}

/* The values that break elementwise kernels: NaNs of both signs, quiet and signalling,
 * with payloads; infinities; signed zeros; the edges of the normal and subnormal ranges. */
static const uint32_t special_bits[] = {
    0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffd00001u, /* quiet NaNs */
    0x7f800001u, 0xff812345u, 0x7fbfffffu,              /* signalling NaNs */
    0x7f800000u, 0xff800000u,                           /* +-Inf */
    0x00000000u, 0x80000000u,                           /* +-0 */
    0x7f7fffffu, 0xff7fffffu,                           /* +-FLT_MAX */
    0x00800000u, 0x80800000u,                           /* +-FLT_MIN */
    0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, /* subnormal extremes */
    0x3f800000u, 0xbf800000u,                           /* +-1 */
};

/* One input element: a mix of special values (1/16), random subnormals (1/16), values at
 * and next to the threshold th and to zero (2/16), raw random bit patterns (2/16: any
 * exponent, NaNs included) and ordinary values uniform in [-4, 4) (10/16). */
static uint32_t kc_draw(uint64_t *rng, float th)
{
    uint64_t r = rng_next(rng);
    uint32_t hi = (uint32_t)(r >> 32), bits;
    switch (r & 15) {
    case 0:
        bits = special_bits[hi % (sizeof special_bits / sizeof special_bits[0])];
        break;
    case 1: /* subnormal: exponent 0, random sign and non-zero fraction */
        bits = (hi & 0x80000000u) | ((hi & 0x007fffffu) ? (hi & 0x007fffffu) : 1u);
        break;
    case 2:
    case 3: {
        uint32_t centre = (r & 16) ? float_bits(th) : ((r & 32) ? 0x80000000u : 0u);
        switch ((r >> 6) % 4) {
        case 0: bits = centre; break;
        case 1: bits = bits_step(centre, +1); break;
        case 2: bits = bits_step(centre, -1); break;
        default: bits = centre ^ 0x80000000u; break; /* -th, and -0 next to +0 */
        }
        break;
    }
    case 4:
    case 5:
        bits = hi;
        break;
    default:
        bits = float_bits((float)(int32_t)hi * 0x1p-29f);
        break;
    }
    if (bits == KC_POISON_BITS || bits == KC_POISON_QUIETS_TO)
        bits = 0x3f800000u;
    return bits;
}

/* ---- fp16 and bf16, written out again (the reference's own conversions) ---- */

/* 16 bits of fp16 or bf16 widened to fp32 bits: exact. fp16 through _Float16 where the
 * compiler has it (libgcc's conversion, independent of kernels/dtype_convert.h), else by
 * the definition (normal: rebias; subnormal: m x 2^-24; Inf/NaN: exponent 255). */
static uint32_t ref_widen(enum fb_dtype d, uint32_t h)
{
    if (d == FB_DTYPE_BF16)
        return h << 16;
#ifdef __FLT16_MANT_DIG__
    _Float16 x;
    uint16_t h16 = (uint16_t)h;
    memcpy(&x, &h16, sizeof x);
    return float_bits((float)x);
#else
    const uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 0x3ffu;
    if (e == 31)
        return sign | 0x7f800000u | (m << 13);
    if (e == 0)
        return sign | float_bits((float)m * 0x1p-24f);
    return sign | ((e + 112) << 23) | (m << 13);
#endif
}

/* fp32 bits rounded to the 16-bit type, to nearest even; a NaN gives some NaN. fp16 through
 * _Float16 where the compiler has it; bf16 by comparing the dropped half with the midpoint
 * (no carry trick, unlike dtype_convert.h). */
static uint32_t ref_narrow(enum fb_dtype d, uint32_t u)
{
    if (d == FB_DTYPE_BF16) {
        if (fb_bits_are_nan(u))
            return 0x7fc0u;
        uint32_t kept = u >> 16, dropped = u & 0xffffu;
        if (dropped > 0x8000u || (dropped == 0x8000u && (kept & 1u)))
            kept++; /* up to the next magnitude: into the exponent, to Inf at the top */
        return kept;
    }
#ifdef __FLT16_MANT_DIG__
    _Float16 x = (_Float16)bits_float(u);
    uint16_t h;
    memcpy(&h, &x, sizeof h);
    return h;
#else
    return fb_fp16_from_float(bits_float(u)); /* no second implementation at hand */
#endif
}

static bool dtype_bits_are_nan(enum fb_dtype d, uint32_t u)
{
    return fb_dtype_bits_are_nan(d, u);
}

/* The 16-bit values that break elementwise kernels, per type (fp16, bf16). */
static const uint32_t special16[2][18] = {
    {0x7e00u, 0xfe00u, 0x7e12u, 0xfd01u, 0x7c01u, 0xfd23u, /* NaNs: quiet, signalling */
     0x7c00u, 0xfc00u, 0x0000u, 0x8000u,                   /* +-Inf, +-0 */
     0x7bffu, 0xfbffu, 0x0400u, 0x8400u,                   /* +-65504, +-2^-14 */
     0x0001u, 0x8001u, 0x03ffu, 0x3c00u},                  /* subnormals, 1 */
    {0x7fc0u, 0xffc0u, 0x7fc5u, 0xff81u, 0x7f81u, 0xff85u,
     0x7f80u, 0xff80u, 0x0000u, 0x8000u,
     0x7f7fu, 0xff7fu, 0x0080u, 0x8080u,
     0x0001u, 0x8001u, 0x007fu, 0x3f80u},
};

/* The next 16-bit value after x towards +inf (dir > 0) or -inf; x is finite. */
static uint32_t bits_step16(uint32_t x, int dir)
{
    bool negative = x & 0x8000u;
    uint32_t magnitude = x & 0x7fffu;
    if (magnitude == 0)
        return dir > 0 ? 0x0001u : 0x8001u;
    if (negative == (dir < 0))
        return x + 1;
    return x - 1;
}

/* One 16-bit input element, the mix of kc_draw: special values (1/16), random subnormals
 * (1/16), values at and next to the threshold rounded to the type and to zero (2/16), raw
 * random patterns (2/16) and ordinary values uniform in [-4, 4) rounded to the type. */
static uint32_t kc_draw16(uint64_t *rng, float th, enum fb_dtype d)
{
    const int t = d == FB_DTYPE_BF16;
    const uint32_t frac_mask = t ? 0x7fu : 0x3ffu;
    uint64_t r = rng_next(rng);
    uint32_t hi = (uint32_t)(r >> 32), bits;
    switch (r & 15) {
    case 0:
        bits = special16[t][hi % 18];
        break;
    case 1:
        bits = ((hi >> 16) & 0x8000u) | ((hi & frac_mask) ? (hi & frac_mask) : 1u);
        break;
    case 2:
    case 3: {
        uint32_t centre = (r & 16) ? ref_narrow(d, float_bits(th)) : ((r & 32) ? 0x8000u : 0u);
        if (dtype_bits_are_nan(d, centre) || (centre & 0x7fffu) == (t ? 0x7f80u : 0x7c00u))
            centre = 0;
        switch ((r >> 6) % 4) {
        case 0: bits = centre; break;
        case 1: bits = bits_step16(centre, +1); break;
        case 2: bits = bits_step16(centre, -1); break;
        default: bits = centre ^ 0x8000u; break;
        }
        break;
    }
    case 4:
    case 5:
        bits = hi & 0xffffu;
        break;
    default:
        bits = ref_narrow(d, float_bits((float)(int32_t)hi * 0x1p-29f));
        break;
    }
    /* the poison, and the signalling NaN that quiets to it */
    if (bits == KC_POISON_BITS16 || bits == (t ? 0xffbfu : 0xfdffu))
        bits = t ? 0x3f80u : 0x3c00u;
    return bits;
}

static uint64_t case_seed(uint64_t seed, const struct kc_job *job, int64_t n,
                          struct kc_offsets o)
{
    uint64_t s = seed, parts[3 + 2 * FB_CHAIN_MAX_OPS] = {
        (uint64_t)job->kind | (uint64_t)job->dtype << 8, (uint64_t)n,
        (uint64_t)(o.a | o.b << 8 | o.c << 16)};
    for (int k = 0; k < job->chain.n_ops; k++)
        parts[3 + 2 * k] = (uint64_t)job->chain.ops[k].op,
                      parts[4 + 2 * k] = (uint64_t)float_bits(job->chain.ops[k].params.v[0])
                                             << 32 |
                                         float_bits(job->chain.ops[k].params.v[1]);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        s ^= parts[i];
        s = rng_next(&s);
    }
    return s;
}

/* ---- the reference, written out with no shared code ---- */

/* PyTorch's relu: x <= 0 ? 0 : x, so -0 gives +0 and NaN (which compares false) passes
 * through (the contract accepts any NaN for it). */
static uint32_t ref_relu(uint32_t x)
{
    if (fb_bits_are_nan(x))
        return x;
    return bits_float(x) <= 0.0f ? float_bits(0.0f) : x;
}

/* PyTorch's threshold: x <= th ? value : x; NaN passes through. */
static uint32_t ref_threshold(uint32_t x, float th, float value)
{
    if (fb_bits_are_nan(x))
        return x;
    return bits_float(x) <= th ? float_bits(value) : x;
}

static uint32_t ref_add(uint32_t a, uint32_t b)
{
    return float_bits(bits_float(a) + bits_float(b));
}

static uint32_t ref_mul(uint32_t a, uint32_t b)
{
    return float_bits(bits_float(a) * bits_float(b));
}

/* The transcendental ops in double precision, their formulas as kernels/elementwise_ops.h
 * states them (not as it computes them), rounded to float once at the end. */
static double ref_sigmoid_d(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* 0.5 x (1 + tanh(u)) written as x / (1 + e^-2u), the same function: in double as in
 * float, 1 + tanh(u) cancels for u << 0 (at x = -7, 1 + tanh(u) ~ 1e-16 is below double's
 * resolution near 1), so the tanh spelling would make the reference itself wrong there. */
static double ref_gelu_d(double x)
{
    const double k = sqrt(2.0 / 3.14159265358979323846);
    const double u = k * (x + 0.044715 * x * x * x);
    return x / (1.0 + exp(-2.0 * u));
}

/* One op of the table on bits. Every op of the table needs a line here: a new op without
 * one fails its tests with a message saying so. */
static uint32_t ref_op(enum fb_op_id op, uint32_t x, uint32_t y, struct fb_op_params p)
{
    switch (op) {
    case FB_OPID_copy: return x;
    case FB_OPID_add: return ref_add(x, y);
    case FB_OPID_mul: return ref_mul(x, y);
    case FB_OPID_relu: return ref_relu(x);
    case FB_OPID_threshold: return ref_threshold(x, p.v[0], p.v[1]);
    case FB_OPID_scale: return ref_mul(x, float_bits(p.v[0]));
    case FB_OPID_bias: return ref_add(x, float_bits(p.v[0]));
    case FB_OPID_sigmoid: return float_bits((float)ref_sigmoid_d(bits_float(x)));
    case FB_OPID_gelu:
        /* tanh's limit: the formula is 0.5 x (1 + tanh(u)) = x * 0 = NaN at x = -Inf, and a
         * product 0 * x gives NaN for x = +-Inf in double as in float: keep it. */
        return float_bits((float)ref_gelu_d(bits_float(x)));
    default: break;
    }
    fail_msg("kernel_check.c has no reference for op %d (%s): write one in ref_op", (int)op,
             (unsigned)op < FB_OPID_COUNT ? fb_op_infos[op].name : "?");
    return 0;
}

static uint32_t ref_job_fp32(const struct kc_job *job, uint32_t a, uint32_t b)
{
    if (job->kind == KC_ADD_RELU)
        return ref_relu(ref_add(a, b));
    uint32_t v = ref_op(job->chain.ops[0].op, a, b, job->chain.ops[0].params);
    for (int k = 1; k < job->chain.n_ops; k++)
        v = ref_op(job->chain.ops[k].op, v, 0, job->chain.ops[k].params);
    return v;
}

/* The job's result for inputs a, b (bits of job->dtype): on fp16 and bf16 the inputs
 * widened, the job computed in fp32 as for fp32 storage, its one result rounded. */
static uint32_t ref_job(const struct kc_job *job, uint32_t a, uint32_t b)
{
    if (job->dtype == FB_DTYPE_FP32)
        return ref_job_fp32(job, a, b);
    return ref_narrow(job->dtype,
                      ref_job_fp32(job, ref_widen(job->dtype, a), ref_widen(job->dtype, b)));
}

/* The contract's comparison for the job (kernels/elementwise_contract.h). */
static bool job_result_matches(const struct kc_job *job, uint32_t expected, uint32_t got)
{
    const int64_t bound = job_ulp_bound(job);
    return bound > 0 ? fb_dtype_result_within_ulps(job->dtype, expected, got, bound)
                     : fb_dtype_result_matches(job->dtype, expected, got);
}

/* Element bits to and from the packed arrays an implementation sees. */
static void pack_bits(enum fb_dtype d, const uint32_t *bits, size_t count, void *out)
{
    if (d == FB_DTYPE_FP32) {
        memcpy(out, bits, count * sizeof(uint32_t));
        return;
    }
    for (size_t j = 0; j < count; j++)
        ((uint16_t *)out)[j] = (uint16_t)bits[j];
}

static void unpack_bits(enum fb_dtype d, const void *in, size_t count, uint32_t *bits)
{
    if (d == FB_DTYPE_FP32) {
        memcpy(bits, in, count * sizeof(uint32_t));
        return;
    }
    for (size_t j = 0; j < count; j++)
        bits[j] = ((const uint16_t *)in)[j];
}

/* An element's value for messages. */
static double bits_value(enum fb_dtype d, uint32_t u)
{
    return (double)bits_float(d == FB_DTYPE_FP32 ? u : ref_widen(d, u));
}

/* ---- one case ---- */

struct kc_case {
    const struct kc_impl *impl;
    const struct kc_job *job;
    int64_t n;
    struct kc_offsets off;
    uint64_t seed;
    size_t total; /* elements per buffer: guards + room for offsets + n */
};

static void case_describe(const struct kc_case *k, char *buf, size_t len)
{
    char name[512];
    kc_job_name(k->job, name, sizeof name);
    if (kc_job_is_binary(k->job))
        snprintf(buf, len,
                 "%s %s n=%" PRId64 " offsets a+%d b+%d c+%d (elements), FB_TEST_SEED=%" PRIu64,
                 k->impl->name, name, k->n, k->off.a, k->off.b, k->off.c, kc_seed());
    else
        snprintf(buf, len,
                 "%s %s n=%" PRId64 " offsets x+%d y+%d (elements), FB_TEST_SEED=%" PRIu64,
                 k->impl->name, name, k->n, k->off.a, k->off.c, kc_seed());
}

/* Runs an implementation call that reports through `err` (the macro declares it), and on
 * failure fails the test with the case and the implementation's message. */
#define KC_CALL(k, call)                                                                       \
    do {                                                                                       \
        struct fb_error call_err_ = {{0}};                                                     \
        struct fb_error *err = &call_err_;                                                     \
        if ((call) != FB_OK) {                                                                 \
            char what_[768];                                                                   \
            case_describe((k), what_, sizeof what_);                                           \
            fail_msg("%s: %s failed: %s", what_, #call, call_err_.msg);                        \
        }                                                                                      \
    } while (0)

/* Fails the test on the first input buffer that changed. */
static void check_input_unchanged(const struct kc_case *k, const char *which,
                                  const uint32_t *sent, const uint32_t *back)
{
    for (size_t j = 0; j < k->total; j++) {
        if (sent[j] != back[j]) {
            char what[768];
            case_describe(k, what, sizeof what);
            fail_msg("%s: input %s changed at element %td (from its aligned base): 0x%08" PRIx32
                     " became 0x%08" PRIx32,
                     what, which, (ptrdiff_t)j - KC_GUARD, sent[j], back[j]);
        }
    }
}

/* Compares the whole output allocation: guards must still hold the poison, the n
 * elements must be written and equal the reference. Reports the first difference and
 * how many there are. */
static void check_output(const struct kc_case *k, const uint32_t *ha, const uint32_t *hb,
                         const uint32_t *expect, const uint32_t *got)
{
    const size_t start = KC_GUARD + (size_t)k->off.c, end = start + (size_t)k->n;
    const enum fb_dtype d = k->job->dtype;
    const uint32_t poison = poison_bits(d);
    size_t wrong = 0, first = 0;
    for (size_t j = 0; j < k->total; j++) {
        bool ok;
        if (j < start || j >= end) {
            ok = got[j] == poison;
        } else {
            uint32_t e = expect[j - start], g = got[j];
            ok = g != poison && job_result_matches(k->job, e, g);
        }
        if (!ok && wrong++ == 0)
            first = j;
    }
    if (wrong == 0)
        return;

    char what[768];
    case_describe(k, what, sizeof what);
    if (first < start || first >= end)
        fail_msg("%s: %zu wrong elements; first: guard element %td (relative to the output "
                 "start) was written: 0x%08" PRIx32,
                 what, wrong, (ptrdiff_t)first - (ptrdiff_t)start, got[first]);
    size_t i = first - start;
    uint32_t a = ha[KC_GUARD + k->off.a + i];
    uint32_t b = hb ? hb[KC_GUARD + k->off.b + i] : 0;
    if (got[first] == poison)
        fail_msg("%s: %zu wrong elements; first: element %zu was not written (still the "
                 "0x%" PRIx32 " poison)",
                 what, wrong, i, poison);
    char inputs[96];
    if (hb)
        snprintf(inputs, sizeof inputs, "a=0x%08" PRIx32 " (%g), b=0x%08" PRIx32 " (%g)", a,
                 bits_value(d, a), b, bits_value(d, b));
    else
        snprintf(inputs, sizeof inputs, "x=0x%08" PRIx32 " (%g)", a, bits_value(d, a));
    fail_msg("%s: %zu wrong elements; first: element %zu, %s: expected 0x%08" PRIx32
             " (%g)%s, got 0x%08" PRIx32 " (%g)",
             what, wrong, i, inputs, expect[i], bits_value(d, expect[i]),
             job_ulp_bound(k->job) > 0 ? " within the ULP bound" : "", got[first],
             bits_value(d, got[first]));
}

/* A case's buffers on the implementation's side, k->total elements each, 64-byte aligned. */
struct kc_buffers {
    void *a, *b, *c; /* b: NULL for a unary job */
};

/* Allocates them, uploads a from ha and b from hb (NULL: a unary job, no b), poisons c;
 * packed: room for one buffer's bytes. */
static struct kc_buffers upload_case(const struct kc_case *k, const uint32_t *ha,
                                     const uint32_t *hb, void *packed)
{
    const struct kc_impl *impl = k->impl;
    const enum fb_dtype d = k->job->dtype;
    const size_t bytes = k->total * elem_bytes(d);
    struct kc_buffers dev = {NULL, NULL, NULL};
    KC_CALL(k, impl->alloc(impl->ctx, bytes, &dev.a, err));
    if (hb)
        KC_CALL(k, impl->alloc(impl->ctx, bytes, &dev.b, err));
    KC_CALL(k, impl->alloc(impl->ctx, bytes, &dev.c, err));
    assert_true((uintptr_t)dev.a % 64 == 0 && (uintptr_t)dev.c % 64 == 0 &&
                (uintptr_t)dev.b % 64 == 0);
    pack_bits(d, ha, k->total, packed);
    KC_CALL(k, impl->upload(impl->ctx, dev.a, packed, bytes, err));
    if (hb) {
        pack_bits(d, hb, k->total, packed);
        KC_CALL(k, impl->upload(impl->ctx, dev.b, packed, bytes, err));
    }
    KC_CALL(k, impl->poison(impl->ctx, dev.c, bytes, err));
    return dev;
}

/* Runs the job over k->n elements, each buffer past its guard at the case's offset. */
static void run_case(const struct kc_case *k, const struct kc_buffers *dev)
{
    const size_t es = elem_bytes(k->job->dtype);
    const void *pa = (const char *)dev->a + (KC_GUARD + k->off.a) * es;
    const void *pb = dev->b ? (const char *)dev->b + (KC_GUARD + k->off.b) * es : NULL;
    void *pc = (char *)dev->c + (KC_GUARD + k->off.c) * es;
    KC_CALL(k, k->impl->run(k->impl->ctx, k->job, pa, pb, pc, k->n, err));
}

static void release_case(const struct kc_case *k, const struct kc_buffers *dev)
{
    k->impl->release(k->impl->ctx, dev->a);
    if (dev->b)
        k->impl->release(k->impl->ctx, dev->b);
    k->impl->release(k->impl->ctx, dev->c);
}

void kc_check_case(const struct kc_impl *impl, const struct kc_job *job, int64_t n,
                   struct kc_offsets offsets)
{
    const bool binary = kc_job_is_binary(job);
    /* Values at and next to the first op's first parameter (threshold's th) and to zero. */
    const float threshold = fb_op_infos[job->chain.ops[0].op].n_params > 0
                                ? job->chain.ops[0].params.v[0]
                                : 0.0f;
    struct kc_case k = {
        .impl = impl, .job = job, .n = n, .off = offsets,
        .seed = case_seed(kc_seed(), job, n, offsets),
        .total = (size_t)n + 2 * KC_GUARD + KC_MAX_OFFSET,
    };
    if (!binary)
        k.off.b = 0;
    assert_true(n >= 0 && offsets.a >= 0 && offsets.a <= KC_MAX_OFFSET && offsets.b >= 0 &&
                offsets.b <= KC_MAX_OFFSET && offsets.c >= 0 && offsets.c <= KC_MAX_OFFSET);
    const enum fb_dtype d = job->dtype;
    const bool wide = d == FB_DTYPE_FP32;
    const size_t es = elem_bytes(d);
    const size_t bytes = k.total * es, bits_bytes = k.total * sizeof(uint32_t);

    /* the elements' bits, one uint32_t each (16-bit types in the low half) */
    uint32_t *ha = malloc(bits_bytes), *hb = binary ? malloc(bits_bytes) : NULL;
    uint32_t *got = malloc(bits_bytes), *expect = malloc((size_t)n * sizeof(uint32_t) + 4);
    void *packed = malloc(bytes); /* what is uploaded and downloaded */
    assert_non_null(ha);
    assert_non_null(got);
    assert_non_null(expect);
    assert_non_null(packed);
    if (binary)
        assert_non_null(hb);

    /* Inputs fill their whole allocation, guards included: a stray read finds data. */
    uint64_t rng = k.seed;
    for (size_t j = 0; j < k.total; j++)
        ha[j] = wide ? kc_draw(&rng, threshold) : kc_draw16(&rng, threshold, d);
    if (binary) {
        for (size_t j = 0; j < k.total; j++)
            hb[j] = wide ? kc_draw(&rng, threshold) : kc_draw16(&rng, threshold, d);
        /* Sums at and next to zero, where add_relu's relu decides: b = -a gives +0, b one
         * step off -a gives the smallest differences (subnormals among them). */
        const uint32_t sign = wide ? 0x80000000u : 0x8000u;
        const uint32_t inf = wide ? 0x7f800000u : d == FB_DTYPE_FP16 ? 0x7c00u : 0x7f80u;
        for (int64_t i = 0; i < n; i++) {
            uint64_t r = rng_next(&rng);
            uint32_t a = ha[KC_GUARD + offsets.a + i], *b = &hb[KC_GUARD + offsets.b + i];
            if (dtype_bits_are_nan(d, a) || (a & (sign - 1)) == inf || (r & 7) > 1)
                continue;
            const int dir = (r & 16) ? 1 : -1;
            *b = (r & 8) ? a ^ sign
                         : (wide ? bits_step(a ^ sign, dir) : bits_step16(a ^ sign, dir));
        }
    }
    for (int64_t i = 0; i < n; i++)
        expect[i] = ref_job(job, ha[KC_GUARD + offsets.a + i],
                            binary ? hb[KC_GUARD + offsets.b + i] : 0);

    const struct kc_buffers dev = upload_case(&k, ha, hb, packed);
    run_case(&k, &dev);

    KC_CALL(&k, impl->download(impl->ctx, packed, dev.c, bytes, err));
    unpack_bits(d, packed, k.total, got);
    check_output(&k, ha, hb, expect, got);
    KC_CALL(&k, impl->download(impl->ctx, packed, dev.a, bytes, err));
    unpack_bits(d, packed, k.total, got);
    check_input_unchanged(&k, binary ? "a" : "x", ha, got);
    if (binary) {
        KC_CALL(&k, impl->download(impl->ctx, packed, dev.b, bytes, err));
        unpack_bits(d, packed, k.total, got);
        check_input_unchanged(&k, "b", hb, got);
    }

    release_case(&k, &dev);
    free(ha);
    free(hb);
    free(got);
    free(expect);
    free(packed);
}

/* ---- known answers: the contract of elementwise_contract.h on constant inputs ---- */

/* Expected "a NaN, any one" (elementwise_contract.h): any NaN pattern stands for all
 * (0x7fff: a NaN in fp16 and in bf16). */
#define KC_SOME_NAN 0x7fc00000u
#define KC_SOME_NAN16 0x7fffu

struct kc_known_answer {
    enum kc_kind kind;      /* KC_OP or KC_ADD_RELU */
    enum fb_op_id op;       /* KC_OP: the op */
    uint32_t a, b;          /* b for binary ops only; bits of the storage type */
    float p0, p1;           /* the op's parameters, if it takes any */
    uint32_t expected;
    const char *why;
    enum fb_dtype dtype;    /* fp32 where not written */
};

/* Each answer is written out as bits, not computed, so that a host that flushes subnormals
 * or rounds differently fails here even where implementation and reference would agree. */
static const struct kc_known_answer kc_known_answers[] = {
    {KC_OP, FB_OPID_copy, 0x80000000u, 0, 0, 0, 0x80000000u, "copy keeps -0"},
    {KC_OP, FB_OPID_copy, 0x00000001u, 0, 0, 0, 0x00000001u, "copy keeps the smallest subnormal"},
    {KC_OP, FB_OPID_copy, 0x7fc12345u, 0, 0, 0, KC_SOME_NAN, "copy of a NaN is a NaN"},
    {KC_OP, FB_OPID_copy, 0xff812345u, 0, 0, 0, KC_SOME_NAN, "copy of a signalling NaN is a NaN"},
    {KC_OP, FB_OPID_relu, 0x80000000u, 0, 0, 0, 0x00000000u, "relu(-0) = +0"},
    {KC_OP, FB_OPID_relu, 0x00000000u, 0, 0, 0, 0x00000000u, "relu(+0) = +0"},
    {KC_OP, FB_OPID_relu, 0x80000001u, 0, 0, 0, 0x00000000u, "relu(-smallest subnormal) = +0"},
    {KC_OP, FB_OPID_relu, 0x00000001u, 0, 0, 0, 0x00000001u, "relu keeps the smallest subnormal"},
    {KC_OP, FB_OPID_relu, 0x007fffffu, 0, 0, 0, 0x007fffffu, "relu keeps the largest subnormal"},
    {KC_OP, FB_OPID_relu, 0xff800000u, 0, 0, 0, 0x00000000u, "relu(-Inf) = +0"},
    {KC_OP, FB_OPID_relu, 0x7f800000u, 0, 0, 0, 0x7f800000u, "relu(+Inf) = +Inf"},
    {KC_OP, FB_OPID_relu, 0xbf800000u, 0, 0, 0, 0x00000000u, "relu(-1) = +0"},
    {KC_OP, FB_OPID_relu, 0x7fc12345u, 0, 0, 0, KC_SOME_NAN, "relu(NaN) is a NaN"},
    {KC_OP, FB_OPID_relu, 0xffd00001u, 0, 0, 0, KC_SOME_NAN, "relu(-NaN) is a NaN, not 0"},
    {KC_OP, FB_OPID_relu, 0x7f800001u, 0, 0, 0, KC_SOME_NAN, "relu(signalling NaN) is a NaN"},
    {KC_OP, FB_OPID_threshold, 0x80000000u, 0, 0.0f, 0.0f, 0x00000000u, "threshold(-0, 0, 0) = +0"},
    {KC_OP, FB_OPID_threshold, 0x3f000000u, 0, 0.5f, -2.0f, 0xc0000000u, "x == th gives value"},
    {KC_OP, FB_OPID_threshold, 0x3f000001u, 0, 0.5f, -2.0f, 0x3f000001u, "the float above th stays"},
    {KC_OP, FB_OPID_threshold, 0xffc00000u, 0, 0.5f, -2.0f, KC_SOME_NAN, "threshold(NaN) is a NaN"},
    {KC_OP, FB_OPID_threshold, 0xff800000u, 0, -3.0f, 42.0f, 0x42280000u, "-Inf <= th gives value"},
    {KC_OP, FB_OPID_threshold, 0x00000001u, 0, 0.0f, 7.0f, 0x00000001u, "a subnormal above th = 0"},
    {KC_OP, FB_OPID_add, 0x00000001u, 0x00000001u, 0, 0, 0x00000002u, "subnormal sum, exact (no FTZ/DAZ)"},
    {KC_OP, FB_OPID_add, 0x00800000u, 0x80000001u, 0, 0, 0x007fffffu, "FLT_MIN - tiny = largest subnormal"},
    {KC_OP, FB_OPID_add, 0x80000000u, 0x80000000u, 0, 0, 0x80000000u, "-0 + -0 = -0"},
    {KC_OP, FB_OPID_add, 0x00000000u, 0x80000000u, 0, 0, 0x00000000u, "+0 + -0 = +0"},
    {KC_OP, FB_OPID_add, 0x3f800000u, 0xbf800000u, 0, 0, 0x00000000u, "1 + -1 = +0"},
    {KC_OP, FB_OPID_add, 0x3f800000u, 0x33800000u, 0, 0, 0x3f800000u, "1 + 2^-24: a tie, to even (1)"},
    {KC_OP, FB_OPID_add, 0x3f800001u, 0x33800000u, 0, 0, 0x3f800002u, "(1 + 2^-23) + 2^-24: tie, to even"},
    {KC_OP, FB_OPID_add, 0x7f7fffffu, 0x7f7fffffu, 0, 0, 0x7f800000u, "FLT_MAX + FLT_MAX = +Inf"},
    {KC_OP, FB_OPID_add, 0x7f800000u, 0xff800000u, 0, 0, KC_SOME_NAN, "Inf + -Inf is a NaN"},
    {KC_OP, FB_OPID_add, 0x7fc12345u, 0x3f800000u, 0, 0, KC_SOME_NAN, "NaN + 1 is a NaN"},
    {KC_OP, FB_OPID_add, 0x3f800000u, 0xffd00001u, 0, 0, KC_SOME_NAN, "1 + -NaN is a NaN"},
    {KC_ADD_RELU, FB_OPID_add, 0x80000000u, 0x80000000u, 0, 0, 0x00000000u, "relu(-0 + -0) = +0"},
    {KC_ADD_RELU, FB_OPID_add, 0x3f800000u, 0xbf800000u, 0, 0, 0x00000000u, "relu(1 + -1) = +0"},
    {KC_ADD_RELU, FB_OPID_add, 0x00000001u, 0x00000001u, 0, 0, 0x00000002u, "relu(subnormal sum), exact"},
    {KC_ADD_RELU, FB_OPID_add, 0x80000001u, 0x80000001u, 0, 0, 0x00000000u, "relu(-subnormal sum) = +0"},
    {KC_ADD_RELU, FB_OPID_add, 0x00800000u, 0x80000001u, 0, 0, 0x007fffffu, "relu(FLT_MIN - tiny), exact"},
    {KC_ADD_RELU, FB_OPID_add, 0x7f800000u, 0xff800000u, 0, 0, KC_SOME_NAN, "relu(Inf + -Inf) is a NaN"},
    {KC_ADD_RELU, FB_OPID_add, 0xffc00000u, 0xbf800000u, 0, 0, KC_SOME_NAN, "relu(-NaN + -1) is a NaN"},
    {KC_OP, FB_OPID_mul, 0x00800000u, 0x3f000000u, 0, 0, 0x00400000u, "FLT_MIN * 0.5: subnormal, exact"},
    {KC_OP, FB_OPID_mul, 0x80000000u, 0x3f800000u, 0, 0, 0x80000000u, "-0 * 1 = -0"},
    {KC_OP, FB_OPID_mul, 0x3f800001u, 0x3f800001u, 0, 0, 0x3f800002u, "(1 + 2^-23)^2 rounds to even"},
    {KC_OP, FB_OPID_mul, 0x7f800000u, 0x00000000u, 0, 0, KC_SOME_NAN, "Inf * 0 is a NaN"},
    {KC_OP, FB_OPID_mul, 0x7f7fffffu, 0x40000000u, 0, 0, 0x7f800000u, "FLT_MAX * 2 = +Inf"},
    {KC_OP, FB_OPID_scale, 0x00000001u, 0, 0.5f, 0, 0x00000000u, "tiny * 0.5: a tie, to even (+0)"},
    {KC_OP, FB_OPID_scale, 0x00000003u, 0, 0.5f, 0, 0x00000002u, "3 tiny * 0.5: tie to even (2)"},
    {KC_OP, FB_OPID_scale, 0x3f800000u, 0, -0.0f, 0, 0x80000000u, "1 * -0 = -0"},
    {KC_OP, FB_OPID_bias, 0x80000000u, 0, 0.0f, 0, 0x00000000u, "-0 + 0 = +0"},
    {KC_OP, FB_OPID_bias, 0x00000001u, 0, -1.0f, 0, 0xbf800000u, "tiny - 1 = -1 (rounded)"},
    {KC_OP, FB_OPID_bias, 0x7fc12345u, 0, 1.0f, 0, KC_SOME_NAN, "NaN + 1 is a NaN"},
    {KC_OP, FB_OPID_sigmoid, 0x00000000u, 0, 0, 0, 0x3f000000u, "sigmoid(0) = 0.5"},
    {KC_OP, FB_OPID_sigmoid, 0x7f800000u, 0, 0, 0, 0x3f800000u, "sigmoid(+Inf) = 1"},
    {KC_OP, FB_OPID_sigmoid, 0xff800000u, 0, 0, 0, 0x00000000u, "sigmoid(-Inf) = +0"},
    {KC_OP, FB_OPID_sigmoid, 0x42c80000u, 0, 0, 0, 0x3f800000u, "sigmoid(100) = 1 (rounded)"},
    {KC_OP, FB_OPID_sigmoid, 0xffc00000u, 0, 0, 0, KC_SOME_NAN, "sigmoid(NaN) is a NaN"},
    {KC_OP, FB_OPID_gelu, 0x00000000u, 0, 0, 0, 0x00000000u, "gelu(0) = 0"},
    {KC_OP, FB_OPID_gelu, 0x7f800000u, 0, 0, 0, 0x7f800000u, "gelu(+Inf) = +Inf"},
    {KC_OP, FB_OPID_gelu, 0xff800000u, 0, 0, 0, KC_SOME_NAN, "gelu(-Inf) = -Inf * 0: a NaN"},
    {KC_OP, FB_OPID_gelu, 0x42c80000u, 0, 0, 0, 0x42c80000u, "gelu(100) = 100"},
    {KC_OP, FB_OPID_gelu, 0xc2c80000u, 0, 0, 0, 0x80000000u, "gelu(-100) = -0 (underflow)"},
    {KC_OP, FB_OPID_gelu, 0x7fc12345u, 0, 0, 0, KC_SOME_NAN, "gelu(NaN) is a NaN"},
    /* fp16 storage: computed in fp32, rounded once at the store */
    {KC_OP, FB_OPID_copy, 0x0001u, 0, 0, 0, 0x0001u, "fp16 copy keeps 2^-24", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_copy, 0x8000u, 0, 0, 0, 0x8000u, "fp16 copy keeps -0", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_copy, 0xfd23u, 0, 0, 0, KC_SOME_NAN16, "fp16 copy of a signalling NaN is a NaN", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_relu, 0x8001u, 0, 0, 0, 0x0000u, "fp16 relu(-2^-24) = +0", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_relu, 0xfe00u, 0, 0, 0, KC_SOME_NAN16, "fp16 relu(-NaN) is a NaN", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_add, 0x7bffu, 0x4c00u, 0, 0, 0x7c00u, "fp16 65504 + 16 = 65520: a tie, to even = +Inf", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_add, 0x7bffu, 0x4bffu, 0, 0, 0x7bffu, "fp16 65504 + 15.99 rounds to 65504", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_add, 0x3c00u, 0x1000u, 0, 0, 0x3c00u, "fp16 1 + 2^-11: a tie, to even (1)", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_add, 0x3c01u, 0x1000u, 0, 0, 0x3c02u, "fp16 (1 + 2^-10) + 2^-11: tie, to even", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_add, 0x0001u, 0x0001u, 0, 0, 0x0002u, "fp16 subnormal sum, exact", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_add, 0x0400u, 0x8001u, 0, 0, 0x03ffu, "fp16 2^-14 - 2^-24 = largest subnormal", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_scale, 0x0001u, 0, 0.5f, 0, 0x0000u, "fp16 2^-24 * 0.5: a tie, to even (+0)", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_scale, 0x0003u, 0, 0.5f, 0, 0x0002u, "fp16 3 x 2^-24 * 0.5: tie to even (2)", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_scale, 0x0001u, 0, 0.75f, 0, 0x0001u, "fp16 2^-24 * 0.75 rounds up to 2^-24", FB_DTYPE_FP16},
    {KC_ADD_RELU, FB_OPID_add, 0x3c00u, 0xbc00u, 0, 0, 0x0000u, "fp16 relu(1 + -1) = +0", FB_DTYPE_FP16},
    {KC_ADD_RELU, FB_OPID_add, 0x7c00u, 0xfc00u, 0, 0, KC_SOME_NAN16, "fp16 relu(Inf + -Inf) is a NaN", FB_DTYPE_FP16},
    {KC_ADD_RELU, FB_OPID_add, 0x7bffu, 0x4c00u, 0, 0, 0x7c00u, "fp16 relu(65504 + 16) = +Inf", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_sigmoid, 0x0000u, 0, 0, 0, 0x3800u, "fp16 sigmoid(0) = 0.5", FB_DTYPE_FP16},
    {KC_OP, FB_OPID_gelu, 0x7c00u, 0, 0, 0, 0x7c00u, "fp16 gelu(+Inf) = +Inf", FB_DTYPE_FP16},
    /* bf16 storage */
    {KC_OP, FB_OPID_copy, 0x0001u, 0, 0, 0, 0x0001u, "bf16 copy keeps its smallest subnormal", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_copy, 0xff81u, 0, 0, 0, KC_SOME_NAN16, "bf16 copy of a signalling NaN is a NaN", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_relu, 0x8001u, 0, 0, 0, 0x0000u, "bf16 relu(-tiny) = +0", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_add, 0x7f7fu, 0x7f7fu, 0, 0, 0x7f80u, "bf16 max + max = +Inf", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_add, 0x7f7fu, 0x7b00u, 0, 0, 0x7f80u, "bf16 max + 2^119 (half its ulp): a tie, to even = +Inf", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_add, 0x7f7eu, 0x7b00u, 0, 0, 0x7f7eu, "bf16 (max - ulp) + half an ulp: tie, to even", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_add, 0x3f80u, 0x3b80u, 0, 0, 0x3f80u, "bf16 1 + 2^-8: a tie, to even (1)", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_add, 0x3f81u, 0x3b80u, 0, 0, 0x3f82u, "bf16 (1 + 2^-7) + 2^-8: tie, to even", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_add, 0x0001u, 0x0001u, 0, 0, 0x0002u, "bf16 subnormal sum, exact", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_mul, 0x0080u, 0x3f00u, 0, 0, 0x0040u, "bf16 min normal * 0.5: subnormal, exact", FB_DTYPE_BF16},
    {KC_ADD_RELU, FB_OPID_add, 0x8001u, 0x8001u, 0, 0, 0x0000u, "bf16 relu(-subnormal sum) = +0", FB_DTYPE_BF16},
    {KC_ADD_RELU, FB_OPID_add, 0xffc0u, 0xbf80u, 0, 0, KC_SOME_NAN16, "bf16 relu(-NaN + -1) is a NaN", FB_DTYPE_BF16},
    {KC_OP, FB_OPID_sigmoid, 0xff80u, 0, 0, 0, 0x0000u, "bf16 sigmoid(-Inf) = +0", FB_DTYPE_BF16},
};

/* Every answer's input repeated over KC_KNOWN_N elements: at offset 0 that runs the CUDA
 * vector path's main loop (and the scalar tail, n % 4 = 3), at offset 1 the scalar path. */
#define KC_KNOWN_N 2051

static void check_known_answer(const struct kc_impl *impl, const struct kc_known_answer *ka,
                               int offset)
{
    const struct kc_job job = kc_job_in(
        ka->kind == KC_ADD_RELU ? kc_add_relu_job() : kc_op_job(ka->op, ka->p0, ka->p1),
        ka->dtype);
    const enum fb_dtype d = ka->dtype;
    const bool binary = kc_job_is_binary(&job);
    const size_t total = KC_KNOWN_N + 2 * KC_GUARD + KC_MAX_OFFSET;
    const size_t es = elem_bytes(d);
    const size_t bytes = total * es, bits_bytes = total * sizeof(uint32_t);
    char what[512], name[128];
    snprintf(what, sizeof what, "%s known answer \"%s\" (%s a=0x%08" PRIx32 " b=0x%08" PRIx32
             ", n=%d at offset %d)",
             impl->name, ka->why, kc_job_name(&job, name, sizeof name), ka->a, ka->b,
             KC_KNOWN_N, offset);

    /* The reference itself must give the answer (it runs on this host, with its flags). */
    uint32_t ref = ref_job(&job, ka->a, ka->b);
    if (!fb_dtype_result_matches(d, ka->expected, ref))
        fail_msg("%s: the reference gives 0x%08" PRIx32 ", expected 0x%08" PRIx32, what, ref,
                 ka->expected);

    uint32_t *ha = malloc(bits_bytes), *hb = malloc(bits_bytes), *got = malloc(bits_bytes);
    void *packed = malloc(bytes);
    assert_non_null(ha);
    assert_non_null(hb);
    assert_non_null(got);
    assert_non_null(packed);
    for (size_t j = 0; j < total; j++) {
        ha[j] = ka->a;
        hb[j] = ka->b;
    }
    struct kc_case k = {.impl = impl, .job = &job, .n = KC_KNOWN_N,
                        .off = {offset, offset, offset}, .total = total};
    const struct kc_buffers dev = upload_case(&k, ha, binary ? hb : NULL, packed);
    run_case(&k, &dev);
    KC_CALL(&k, impl->download(impl->ctx, packed, dev.c, bytes, err));
    unpack_bits(d, packed, total, got);
    /* Known answers are exact for every op, the transcendental ones included (their
     * answers are limits and exact points: 0.5, 1, 0, +-Inf, NaN). */
    for (size_t i = 0; i < KC_KNOWN_N; i++) {
        uint32_t g = got[KC_GUARD + (size_t)offset + i];
        if (g == poison_bits(d) || !fb_dtype_result_matches(d, ka->expected, g))
            fail_msg("%s: element %zu is 0x%08" PRIx32 ", expected 0x%08" PRIx32 "%s", what, i,
                     g, ka->expected,
                     fb_dtype_bits_are_nan(d, ka->expected) ? " (any NaN)" : "");
    }
    release_case(&k, &dev);
    free(ha);
    free(hb);
    free(got);
    free(packed);
}

void kc_check_known_answers(const struct kc_impl *impl, const struct kc_job *job)
{
    for (size_t i = 0; i < sizeof kc_known_answers / sizeof kc_known_answers[0]; i++) {
        const struct kc_known_answer *ka = &kc_known_answers[i];
        if (ka->kind != job->kind || ka->dtype != job->dtype ||
            (job->kind == KC_OP && ka->op != job->chain.ops[0].op))
            continue;
        check_known_answer(impl, ka, 0);
        check_known_answer(impl, ka, 1);
    }
}

/* Every size at every offset (a unary job sees only a and c: rows that differ from an
 * earlier one only in b are skipped). */
static void check_job_everywhere(const struct kc_impl *impl, const struct kc_job *job,
                                 size_t max_sizes)
{
    for (size_t o = 0; o < kc_offset_count; o++) {
        bool repeat = false;
        for (size_t q = 0; q < o && !kc_job_is_binary(job); q++)
            repeat |= kc_offsets[q].a == kc_offsets[o].a && kc_offsets[q].c == kc_offsets[o].c;
        if (repeat)
            continue;
        for (size_t s = 0; s < kc_size_count && s < max_sizes; s++) {
            /* fp16 and bf16 at the largest size (the grid-stride loop's): the aligned row
             * (vector path) and the all-different one (scalar path) only, to keep the
             * suites' time in bounds; every offset row at every other size. */
            if (job->dtype != FB_DTYPE_FP32 && kc_sizes[s] > 65536 && o != 0 &&
                o != kc_offset_count - 1)
                continue;
            kc_check_case(impl, job, kc_sizes[s], kc_offsets[o]);
        }
    }
}

/* The copy of 16-bit arrays moves bits, on every backend: each of the 65536 patterns
 * (signalling NaNs and NaN payloads among them, which a widening and rounding would change)
 * comes out as it went in, at offset 0 (the vector path) and 1 (the scalar one). */
static void check_copy16_bits(const struct kc_impl *impl, enum fb_dtype d, int offset)
{
    const struct kc_job job = kc_job_in(kc_op_job(FB_OPID_copy, 0.0f, 0.0f), d);
    const int64_t n = 65536;
    struct kc_case k = {.impl = impl, .job = &job, .n = n, .off = {offset, 0, offset},
                        .total = (size_t)n + 2 * KC_GUARD + KC_MAX_OFFSET};
    uint32_t *ha = malloc(k.total * sizeof(uint32_t)), *got = malloc(k.total * sizeof(uint32_t));
    void *packed = malloc(k.total * elem_bytes(d));
    assert_non_null(ha);
    assert_non_null(got);
    assert_non_null(packed);
    for (size_t j = 0; j < k.total; j++)
        ha[j] = (uint32_t)(j - KC_GUARD - (size_t)offset) & 0xffffu;
    const struct kc_buffers dev = upload_case(&k, ha, NULL, packed);
    run_case(&k, &dev);
    KC_CALL(&k, impl->download(impl->ctx, packed, dev.c, k.total * elem_bytes(d), err));
    unpack_bits(d, packed, k.total, got);
    for (size_t i = KC_GUARD + (size_t)offset; i < KC_GUARD + (size_t)offset + (size_t)n; i++)
        if (got[i] != ha[i])
            fail_msg("%s %s copy at offset %d: 0x%04" PRIx32 " came out as 0x%04" PRIx32,
                     impl->name, kc_dtype_name(d), offset, ha[i], got[i]);
    release_case(&k, &dev);
    free(ha);
    free(got);
    free(packed);
}

void kc_check_op(const struct kc_impl *impl, enum fb_op_id op, enum fb_dtype dtype)
{
    struct kc_job job = kc_job_in(kc_op_job(op, 0.0f, 0.0f), dtype);
    kc_check_known_answers(impl, &job);
    if (op == FB_OPID_copy && dtype != FB_DTYPE_FP32)
        for (int offset = 0; offset < 2; offset++)
            check_copy16_bits(impl, dtype, offset);
    const size_t pairs = fb_op_infos[op].n_params > 0 ? kc_param_pair_count : 1;
    for (size_t p = 0; p < pairs; p++) {
        job = kc_job_in(kc_op_job(op, kc_param_pairs[p].p0, kc_param_pairs[p].p1), dtype);
        check_job_everywhere(impl, &job, kc_size_count);
    }
}

void kc_check_add_relu(const struct kc_impl *impl, enum fb_dtype dtype)
{
    const struct kc_job job = kc_job_in(kc_add_relu_job(), dtype);
    kc_check_known_answers(impl, &job);
    check_job_everywhere(impl, &job, kc_size_count);
}

/* ---- the boundaries of the CUDA launch plan ---- */

void kc_check_job_at_grid_boundaries(const struct kc_impl *impl, const struct kc_job *job,
                                     int sm_count)
{
    /* kernels/launch_plan.h restated: blocks_per_sm blocks of 128 threads per SM at most; a
     * thread's turn takes per_input loads of each input, of a 16-byte vector (4 floats or 8
     * halves: the vector path) or 1 element (scalar). */
    const struct kc_shape shape = kc_job_shape(job);
    const int64_t threads = (int64_t)(sm_count > 0 ? sm_count : 1) * shape.blocks_per_sm * 128;
    const int64_t loads = shape.per_input;
    const struct {
        int64_t wave; /* elements one full wave moves in one turn */
        struct kc_offsets offsets;
    } paths[] = {
        {threads * loads * shape.lanes, {0, 0, 0}}, /* vector path: all 16-byte aligned */
        {threads * loads, {3, 1, 2}},     /* scalar path: nothing aligned */
    };
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        const int64_t w = paths[p].wave;
        /* A wave less one vector and an odd tail, less one float, exactly, plus one float
         * (tail only), plus one vector and an odd tail (a remainder turn for thread 0), and
         * where it is small enough, two and a half waves and an odd tail (the grid-stride
         * loop turns twice, then half the threads take a partial last turn). */
        const int64_t sizes[] = {w - 5, w - 1, w, w + 1, w + 7, 2 * w + w / 2 + 3};
        const size_t count = 2 * w + w / 2 + 3 <= (INT64_C(4) << 20) ? 6 : 5;
        for (size_t s = 0; s < count; s++)
            kc_check_case(impl, job, sizes[s], paths[p].offsets);
    }
}

/* ---- chains ---- */

struct fb_chain kc_random_chain(uint64_t *rng, int length, int binary)
{
    enum fb_op_id unary_exact[FB_OPID_COUNT], binary_ops[FB_OPID_COUNT],
        transcendental[FB_OPID_COUNT];
    int nu = 0, nb = 0, nt = 0;
    for (int i = 0; i < FB_OPID_COUNT; i++) {
        if (fb_op_infos[i].arity == 2)
            binary_ops[nb++] = (enum fb_op_id)i;
        else if (fb_op_infos[i].ulp_bound > 0)
            transcendental[nt++] = (enum fb_op_id)i;
        else
            unary_exact[nu++] = (enum fb_op_id)i;
    }
    static const float params[] = {0.0f, 0.5f, -2.0f, -3.0f, 42.0f, 1.5f, -0.25f, 1e-3f};
    const int np = (int)(sizeof params / sizeof params[0]);
    struct fb_chain ch = {.n_ops = length};
    for (int k = 0; k < length; k++) {
        uint64_t r = rng_next(rng);
        enum fb_op_id op;
        if (k == 0 && binary)
            op = binary_ops[r % (uint64_t)nb];
        else if (k == length - 1 && nt > 0 && (r >> 8) % 3 == 0)
            op = transcendental[(r >> 16) % (uint64_t)nt]; /* only last, a third of the time */
        else
            op = unary_exact[(r >> 24) % (uint64_t)nu];
        ch.ops[k].op = op;
        ch.ops[k].params.v[0] = params[(r >> 32) % (uint64_t)np];
        ch.ops[k].params.v[1] = params[(r >> 40) % (uint64_t)np];
    }
    return ch;
}

void kc_check_chains(const struct kc_impl *impl, int sm_count, enum fb_dtype dtype)
{
    uint64_t rng = kc_seed() ^ UINT64_C(0xc4a1); /* the chains drawn depend on the seed too */
    for (int length = 1; length <= FB_CHAIN_MAX_OPS; length++) {
        for (int binary = 0; binary < 2; binary++) {
            const struct fb_chain ch = kc_random_chain(&rng, length, binary);
            const struct kc_job job = kc_job_in(kc_chain_job(&ch), dtype);
            /* every size for the short chains, the sizes up to 2 vectors' turns of a block
             * (2051) for the others */
            check_job_everywhere(impl, &job, length <= 3 ? kc_size_count : kc_size_count - 1);
            /* the grid's edges: the shortest unary and the longest binary chain */
            if (sm_count > 0 && ((length == 1 && !binary) ||
                                 (length == FB_CHAIN_MAX_OPS && binary)))
                kc_check_job_at_grid_boundaries(impl, &job, sm_count);
        }
    }
    /* add, relu (the generic twin of add_relu) and a chain that ends in each transcendental
     * op, whatever the draw gave */
    struct fb_chain fixed = {.n_ops = 2};
    fixed.ops[0].op = FB_OPID_add;
    fixed.ops[1].op = FB_OPID_relu;
    struct kc_job job = kc_job_in(kc_chain_job(&fixed), dtype);
    check_job_everywhere(impl, &job, kc_size_count);
    if (sm_count > 0)
        kc_check_job_at_grid_boundaries(impl, &job, sm_count);
    bool edges = false; /* the 40-register form's grid (12 blocks per SM) once */
    for (int i = 0; i < FB_OPID_COUNT; i++) {
        if (fb_op_infos[i].ulp_bound == 0)
            continue;
        fixed.ops[1].op = (enum fb_op_id)i;
        job = kc_job_in(kc_chain_job(&fixed), dtype);
        check_job_everywhere(impl, &job, kc_size_count);
        if (sm_count > 0 && !edges)
            kc_check_job_at_grid_boundaries(impl, &job, sm_count);
        edges = true;
    }
}

/* ---- measured ULP error of the transcendental ops ---- */

int64_t kc_measure_max_ulp(const struct kc_impl *impl, enum fb_op_id op, int64_t count,
                           float *worst_input)
{
    const struct kc_job job = kc_op_job(op, 0.0f, 0.0f);
    const size_t bytes = (size_t)count * sizeof(uint32_t);
    uint32_t *hx = malloc(bytes), *got = malloc(bytes);
    assert_non_null(hx);
    assert_non_null(got);
    uint64_t rng = kc_seed() ^ (uint64_t)op;
    const size_t nspecial = sizeof special_bits / sizeof special_bits[0];
    for (int64_t i = 0; i < count; i++) {
        uint64_t r = rng_next(&rng);
        if ((size_t)i < nspecial)
            hx[i] = special_bits[i];
        else if (r & 1) /* uniform in [-64, 64): where both ops change */
            hx[i] = float_bits((float)(int32_t)(r >> 32) * 0x1p-25f);
        else { /* any finite float: every exponent, subnormals included */
            uint32_t u = (uint32_t)(r >> 32);
            hx[i] = (u & 0x7f800000u) == 0x7f800000u ? u & 0xbfffffffu : u;
        }
        if (hx[i] == KC_POISON_BITS || hx[i] == KC_POISON_QUIETS_TO)
            hx[i] = 0x3f800000u;
    }
    struct kc_offsets zero = {0, 0, 0};
    struct kc_case k = {.impl = impl, .job = &job, .n = count, .off = zero, .total = (size_t)count};
    void *dx = NULL, *dy = NULL;
    KC_CALL(&k, impl->alloc(impl->ctx, bytes, &dx, err));
    KC_CALL(&k, impl->alloc(impl->ctx, bytes, &dy, err));
    KC_CALL(&k, impl->upload(impl->ctx, dx, hx, bytes, err));
    KC_CALL(&k, impl->poison(impl->ctx, dy, bytes, err));
    KC_CALL(&k, impl->run(impl->ctx, &job, dx, NULL, dy, count, err));
    KC_CALL(&k, impl->download(impl->ctx, got, dy, bytes, err));
    int64_t worst = 0;
    *worst_input = 0.0f;
    for (int64_t i = 0; i < count; i++) {
        const uint32_t want = ref_op(op, hx[i], 0, job.chain.ops[0].params);
        if (!fb_result_within_ulps(want, got[i], INT64_MAX / 4))
            fail_msg("%s %s: x=0x%08" PRIx32 " (%g) gave 0x%08" PRIx32 " (%g), expected %g: "
                     "NaN, infinity or sign where none is due",
                     impl->name, fb_op_infos[op].name, hx[i], (double)bits_float(hx[i]), got[i],
                     (double)bits_float(got[i]), (double)bits_float(want));
        if (fb_bits_are_nan(want))
            continue;
        int64_t d = fb_bits_ordinal(want) - fb_bits_ordinal(got[i]);
        d = d < 0 ? -d : d;
        if (d > worst) {
            worst = d;
            *worst_input = bits_float(hx[i]);
        }
    }
    impl->release(impl->ctx, dx);
    impl->release(impl->ctx, dy);
    free(hx);
    free(got);
    if (worst > fb_op_infos[op].ulp_bound)
        fail_msg("%s %s: %" PRId64 " ulp at x = %.9g, over the bound of %d (kernels/op_table.h)",
                 impl->name, fb_op_infos[op].name, worst, (double)*worst_input,
                 fb_op_infos[op].ulp_bound);
    return worst;
}

void kc_report_max_ulps(const struct kc_impl *impl, const char *label, int log2_count)
{
    for (int op = 0; op < FB_OPID_COUNT; op++) {
        if (fb_op_infos[op].ulp_bound == 0)
            continue;
        float worst_x;
        const int64_t worst = kc_measure_max_ulp(impl, (enum fb_op_id)op,
                                                 INT64_C(1) << log2_count, &worst_x);
        printf("%s %s: max error %" PRId64 " ulp over 2^%d inputs (at x = %.9g); bound %d\n",
               label, fb_op_infos[op].name, worst, log2_count, (double)worst_x,
               fb_op_infos[op].ulp_bound);
    }
}
