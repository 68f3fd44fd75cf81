#include "measure/reference.h"

#include <math.h>
#include <string.h>

#include "elementwise_contract.h"
#include "elementwise_ops.h"

static void reference_step(const struct fb_step *st, const float *const in[FB_BUF_COUNT],
                           float *out, int64_t n)
{
    const float *x = in[st->in0];
    const float *y = st->in1 == FB_BUF_NONE ? NULL : in[st->in1];
    for (int64_t i = 0; i < n; i++) {
        switch (st->op) {
        case FB_OP_COPY:
        case FB_OP_MEMCPY: out[i] = fb_op_copy(x[i]); break;
        case FB_OP_ADD: out[i] = fb_op_add(x[i], y[i]); break;
        case FB_OP_RELU: out[i] = fb_op_relu(x[i]); break;
        case FB_OP_THRESHOLD: out[i] = fb_op_threshold(x[i], st->threshold, st->value); break;
        case FB_OP_ADD_RELU: out[i] = fb_op_add_relu(x[i], y[i]); break;
        default: out[i] = NAN; break;
        }
    }
}

void fb_reference_run(const struct fb_variant *v, const float *a, const float *b, float *tmp,
                      float *out, int64_t n)
{
    const float *in[FB_BUF_COUNT] = {[FB_BUF_A] = a, [FB_BUF_B] = b, [FB_BUF_TMP] = tmp,
                                     [FB_BUF_C] = out};
    for (int s = 0; s < v->n_steps; s++) {
        const struct fb_step *st = &v->steps[s];
        reference_step(st, in, st->out == FB_BUF_TMP ? tmp : out, n);
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
