#include "measure/reference.h"

#include <math.h>
#include <string.h>

#include "elementwise_contract.h"
#include "elementwise_ops.h"

/* One step over [0, n), element by element with the element functions every backend uses
 * (kernels/elementwise_ops.h). A chain step applies its ops in order to each element. */
static void reference_step(const struct fb_step *st, const float *x, const float *y, float *out,
                           int64_t n)
{
    const struct fb_op_params none = {{0.0f, 0.0f}};
    for (int64_t i = 0; i < n; i++) {
        switch (st->kind) {
        case FB_STEP_MEMCPY: out[i] = fb_op_copy(x[i], 0.0f, none); break;
        case FB_STEP_ADD_RELU: out[i] = fb_op_add_relu(x[i], y[i]); break;
        case FB_STEP_OP:
        case FB_STEP_CHAIN: {
            const struct fb_chain *ch = &st->chain;
            float v = fb_op_apply(ch->ops[0].op, x[i], y ? y[i] : 0.0f, ch->ops[0].params);
            for (int k = 1; k < ch->n_ops; k++)
                v = fb_op_apply(ch->ops[k].op, v, 0.0f, ch->ops[k].params);
            out[i] = v;
            break;
        }
        default: out[i] = NAN; break;
        }
    }
}

void fb_reference_run(const struct fb_variant *v, const float *a, const float *b, float *tmp,
                      float *out, int64_t n)
{
    /* Both temporaries of an eager chain map to tmp: every step is elementwise (element i
     * is read before it is written, and nothing else), so a step may read and write it. */
    float *buf[FB_BUF_COUNT] = {[FB_BUF_A] = (float *)a, [FB_BUF_B] = (float *)b,
                                [FB_BUF_TMP] = tmp, [FB_BUF_TMP2] = tmp, [FB_BUF_C] = out};
    for (int s = 0; s < v->n_steps; s++) {
        const struct fb_step *st = &v->steps[s];
        reference_step(st, buf[st->in0], st->in1 == FB_BUF_NONE ? NULL : buf[st->in1],
                       buf[st->out], n);
    }
}

int64_t fb_first_mismatch(const float *got, const float *want, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        uint32_t g, w;
        memcpy(&g, &got[i], sizeof g);
        memcpy(&w, &want[i], sizeof w);
        if (!fb_result_matches(w, g))
            return i;
    }
    return -1;
}

int64_t fb_first_mismatch_ulps(const float *got, const float *want, int64_t n, int ulps)
{
    if (ulps <= 0)
        return fb_first_mismatch(got, want, n);
    /* ulps units of the last place of 1.0 (2^-23 each): the absolute part of the check. */
    const double absolute = ulps * 0x1p-23;
    for (int64_t i = 0; i < n; i++) {
        uint32_t g, w;
        memcpy(&g, &got[i], sizeof g);
        memcpy(&w, &want[i], sizeof w);
        if (fb_result_within_ulps(w, g, ulps))
            continue;
        const double scale = fabs((double)want[i]) > 1.0 ? fabs((double)want[i]) : 1.0;
        if (!fb_bits_are_nan(w) && !fb_bits_are_nan(g) && isfinite(want[i]) &&
            isfinite(got[i]) && fabs((double)got[i] - (double)want[i]) <= absolute * scale)
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

void fb_fill_random(float *x, int64_t n, uint64_t seed)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        /* 24 random bits: exactly representable in a float's significand. */
        uint64_t r = splitmix64(seed + (uint64_t)i) >> 40;
        x[i] = (float)r * (2.0f / 16777216.0f) - 1.0f;
    }
}
