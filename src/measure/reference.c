#include "measure/reference.h"

#include <math.h>
#include <string.h>

#include "dtype_convert.h"
#include "elementwise_contract.h"
#include "elementwise_ops.h"

/* One step over [0, n), element by element with the element functions every backend uses
 * (kernels/elementwise_ops.h), on arrays of dtype d: each input element widened to fp32, the
 * step's ops in fp32, the result rounded once into out (kernels/dtype_convert.h), as the
 * backends do. A chain step applies its ops in order to each element, in fp32. */
static void reference_step(const struct fb_step *st, enum fb_dtype d, const void *x,
                           const void *y, void *out, int64_t n)
{
    const struct fb_op_params none = {{0.0f, 0.0f}};
    for (int64_t i = 0; i < n; i++) {
        const float xi = fb_dtype_load(d, x, i), yi = y ? fb_dtype_load(d, y, i) : 0.0f;
        float v;
        switch (st->kind) {
        case FB_STEP_MEMCPY: v = fb_op_copy(xi, 0.0f, none); break;
        case FB_STEP_ADD_RELU: v = fb_op_add_relu(xi, yi); break;
        case FB_STEP_OP:
        case FB_STEP_CHAIN: {
            const struct fb_chain *ch = &st->chain;
            v = fb_op_apply(ch->ops[0].op, xi, yi, ch->ops[0].params);
            for (int k = 1; k < ch->n_ops; k++)
                v = fb_op_apply(ch->ops[k].op, v, 0.0f, ch->ops[k].params);
            break;
        }
        default: v = NAN; break;
        }
        fb_dtype_store(d, out, i, v);
    }
}

void fb_reference_run(const struct fb_variant *v, enum fb_dtype dtype, const void *a,
                      const void *b, void *tmp, void *out, int64_t n)
{
    /* Both temporaries of an eager chain map to tmp: every step is elementwise (element i
     * is read before it is written, and nothing else), so a step may read and write it. */
    void *buf[FB_BUF_COUNT] = {[FB_BUF_A] = (void *)a, [FB_BUF_B] = (void *)b,
                               [FB_BUF_TMP] = tmp, [FB_BUF_TMP2] = tmp, [FB_BUF_C] = out};
    for (int s = 0; s < v->n_steps; s++) {
        const struct fb_step *st = &v->steps[s];
        reference_step(st, dtype, buf[st->in0], st->in1 == FB_BUF_NONE ? NULL : buf[st->in1],
                       buf[st->out], n);
    }
}

int64_t fb_first_mismatch(enum fb_dtype dtype, const void *got, const void *want, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (!fb_dtype_result_matches(dtype, fb_dtype_bits(dtype, want, i),
                                     fb_dtype_bits(dtype, got, i)))
            return i;
    return -1;
}

int64_t fb_first_mismatch_ulps(enum fb_dtype dtype, const void *got, const void *want,
                               int64_t n, int ulps)
{
    if (ulps <= 0)
        return fb_first_mismatch(dtype, got, want, n);
    /* fp16, bf16: FB_DTYPE_ULP_BOUND units of the type (elementwise_contract.h says why) */
    const int64_t bound = dtype == FB_DTYPE_FP32 ? ulps : FB_DTYPE_ULP_BOUND;
    /* bound units of the last place of 1.0 (2^-23 for fp32, 2^-10 fp16, 2^-7 bf16): the
     * absolute part of the check. */
    const double unit = dtype == FB_DTYPE_FP16 ? 0x1p-10 : dtype == FB_DTYPE_BF16 ? 0x1p-7 : 0x1p-23;
    const double absolute = (double)bound * unit;
    for (int64_t i = 0; i < n; i++) {
        const uint32_t g = fb_dtype_bits(dtype, got, i), w = fb_dtype_bits(dtype, want, i);
        if (fb_dtype_result_within_ulps(dtype, w, g, bound))
            continue;
        const double gv = fb_dtype_load(dtype, got, i), wv = fb_dtype_load(dtype, want, i);
        const double scale = fabs(wv) > 1.0 ? fabs(wv) : 1.0;
        if (!fb_dtype_bits_are_nan(dtype, w) && !fb_dtype_bits_are_nan(dtype, g) &&
            isfinite(wv) && isfinite(gv) && fabs(gv - wv) <= absolute * scale)
            continue;
        return i;
    }
    return -1;
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void fb_fill_random(enum fb_dtype dtype, void *x, int64_t n, uint64_t seed)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        /* 24 random bits: exactly representable in a float's significand; then rounded to
         * the storage type, so what is stored is exactly what the reference reads. */
        uint64_t r = splitmix64(seed + (uint64_t)i) >> 40;
        fb_dtype_store(dtype, x, i, (float)r * (2.0f / 16777216.0f) - 1.0f);
    }
}
