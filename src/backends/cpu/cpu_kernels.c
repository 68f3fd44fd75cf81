#include "backends/cpu/cpu_kernels.h"

#include <stdbool.h>
#include <stddef.h>

#include "dtype_convert.h"
#include "elementwise_ops.h"

/* One pass per op of the table and per storage type, generated:
 * fb_cpu_<name>_<dtype>(a, b, c, n, p). Each element is widened to fp32 on load
 * (fb_float_from_<dtype>), computed in fp32, and rounded once on store
 * (fb_<dtype>_from_float); for fp32 both are the identity. The unary ones never read b
 * (the compiler drops it with the unused argument of the element function). */
#define FB_CPU_PASS_T(name, arity, dt, T)                                                      \
    static void fb_cpu_##name##_##dt(const T *restrict a, const T *restrict b,                 \
                                     T *restrict c, int64_t n, struct fb_op_params p)          \
    {                                                                                          \
        if ((arity) == 1) {                                                                    \
            _Pragma("omp parallel for simd schedule(static)")                                  \
            for (int64_t i = 0; i < n; i++)                                                    \
                c[i] = fb_##dt##_from_float(fb_op_##name(fb_float_from_##dt(a[i]), 0.0f, p));  \
        } else {                                                                               \
            _Pragma("omp parallel for simd schedule(static)")                                  \
            for (int64_t i = 0; i < n; i++)                                                    \
                c[i] = fb_##dt##_from_float(                                                   \
                    fb_op_##name(fb_float_from_##dt(a[i]), fb_float_from_##dt(b[i]), p));     \
        }                                                                                      \
    }
#define FB_CPU_PASS(name, arity, n_params, param_names, ulp)                                   \
    FB_CPU_PASS_T(name, arity, fp32, float)                                                    \
    FB_CPU_PASS_T(name, arity, fp16, uint16_t)                                                 \
    FB_CPU_PASS_T(name, arity, bf16, uint16_t)
FB_OP_TABLE(FB_CPU_PASS)
#undef FB_CPU_PASS
#undef FB_CPU_PASS_T

void fb_cpu_op(enum fb_op_id op, struct fb_op_params params, enum fb_dtype dtype,
               const void *a, const void *b, void *c, int64_t n)
{
    switch (op) {
#define FB_CPU_OP_CASE(name, arity, n_params, param_names, ulp)                                \
    case FB_OPID_##name:                                                                       \
        if (dtype == FB_DTYPE_FP16)                                                            \
            fb_cpu_##name##_fp16(a, b, c, n, params);                                          \
        else if (dtype == FB_DTYPE_BF16)                                                       \
            fb_cpu_##name##_bf16(a, b, c, n, params);                                          \
        else                                                                                   \
            fb_cpu_##name##_fp32(a, b, c, n, params);                                          \
        break;
        FB_OP_TABLE(FB_CPU_OP_CASE)
#undef FB_CPU_OP_CASE
    default:
        break;
    }
}

/* The handwritten fused pass, per storage type. */
#define FB_CPU_ADD_RELU_T(dt, T)                                                               \
    static void fb_cpu_add_relu_##dt(const T *restrict a, const T *restrict b, T *restrict c,  \
                                     int64_t n)                                                \
    {                                                                                          \
        _Pragma("omp parallel for simd schedule(static)")                                      \
        for (int64_t i = 0; i < n; i++)                                                        \
            c[i] = fb_##dt##_from_float(                                                       \
                fb_op_add_relu(fb_float_from_##dt(a[i]), fb_float_from_##dt(b[i])));           \
    }
FB_DTYPE_TABLE(FB_CPU_ADD_RELU_T)
#undef FB_CPU_ADD_RELU_T

void fb_cpu_add_relu(enum fb_dtype dtype, const void *a, const void *b, void *c, int64_t n)
{
    if (dtype == FB_DTYPE_FP16)
        fb_cpu_add_relu_fp16(a, b, c, n);
    else if (dtype == FB_DTYPE_BF16)
        fb_cpu_add_relu_bf16(a, b, c, n);
    else
        fb_cpu_add_relu_fp32(a, b, c, n);
}

/* One op over a tile: out[t] = op(x[t], y[t]) for t in [0, len). x may be out (the ops
 * after the first rewrite the tile in place: element t is read before it is written, and
 * no other element is touched, so the loop stays vectorisable; that is why x and out carry
 * no restrict). y is NULL for unary ops. */
static void chain_tile_op(const struct fb_chain_op *op, const float *x,
                          const float *restrict y, float *out, int len)
{
    const struct fb_op_params p = op->params;
    switch (op->op) {
#define FB_CPU_TILE_CASE(name, arity, n_params, param_names, ulp)                              \
    case FB_OPID_##name:                                                                       \
        if ((arity) == 1) {                                                                    \
            _Pragma("omp simd")                                                                \
            for (int t = 0; t < len; t++)                                                      \
                out[t] = fb_op_##name(x[t], 0.0f, p);                                          \
        } else {                                                                               \
            _Pragma("omp simd")                                                                \
            for (int t = 0; t < len; t++)                                                      \
                out[t] = fb_op_##name(x[t], y[t], p);                                          \
        }                                                                                      \
        break;
        FB_OP_TABLE(FB_CPU_TILE_CASE)
#undef FB_CPU_TILE_CASE
    default:
        break;
    }
}

/* A 16-bit tile widened to fp32 and an fp32 tile rounded to 16 bits: the chain pass's
 * edges for fp16 and bf16 storage (fp32 reads and writes the arrays directly). */
#define FB_CPU_TILE_CONVERT(dt, T)                                                             \
    __attribute__((noinline)) static void tile_widen_##dt(const T *restrict x, float *restrict out, int len)             \
    {                                                                                          \
        _Pragma("omp simd")                                                                    \
        for (int t = 0; t < len; t++)                                                          \
            out[t] = fb_float_from_##dt(x[t]);                                                 \
    }                                                                                          \
    __attribute__((noinline)) static void tile_narrow_##dt(const float *restrict x, T *restrict out, int len)            \
    {                                                                                          \
        _Pragma("omp simd")                                                                    \
        for (int t = 0; t < len; t++)                                                          \
            out[t] = fb_##dt##_from_float(x[t]);                                               \
    }
FB_CPU_TILE_CONVERT(fp16, uint16_t)
FB_CPU_TILE_CONVERT(bf16, uint16_t)
#undef FB_CPU_TILE_CONVERT

static void tile_widen(enum fb_dtype dtype, const void *x, int64_t start, float *out, int len)
{
    if (dtype == FB_DTYPE_FP16)
        tile_widen_fp16((const uint16_t *)x + start, out, len);
    else
        tile_widen_bf16((const uint16_t *)x + start, out, len);
}

static void tile_narrow(enum fb_dtype dtype, const float *x, void *out, int64_t start, int len)
{
    if (dtype == FB_DTYPE_FP16)
        tile_narrow_fp16(x, (uint16_t *)out + start, len);
    else
        tile_narrow_bf16(x, (uint16_t *)out + start, len);
}

void fb_cpu_chain(const struct fb_chain *chain, enum fb_dtype dtype, const void *a,
                  const void *b, void *c, int64_t n)
{
    const int last = chain->n_ops - 1;
    const bool wide = dtype == FB_DTYPE_FP32;
#pragma omp parallel
    {
        float tile[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
        /* 16-bit storage: the inputs' tiles widened to fp32 (b only for a binary first op) */
        float tile_a[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
        float tile_b[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
        /* The same static split as `omp for schedule(static)` with one chunk per thread,
         * rounded to whole tiles so that tiles start 64-byte aligned when c does. */
#pragma omp for schedule(static)
        for (int64_t start = 0; start < n; start += FB_CPU_CHAIN_TILE) {
            const int len = n - start < FB_CPU_CHAIN_TILE ? (int)(n - start) : FB_CPU_CHAIN_TILE;
            if (last < 0)
                continue;
            if (wide) {
                const float *fa = a, *fb = b;
                float *fc = c;
                float *first_out = last == 0 ? fc + start : tile;
                chain_tile_op(&chain->ops[0], fa + start, fb ? fb + start : NULL, first_out,
                              len);
                for (int k = 1; k <= last; k++)
                    chain_tile_op(&chain->ops[k], tile, NULL, k == last ? fc + start : tile,
                                  len);
            } else {
                /* widen, compute every op in fp32 in the tile, round once into c */
                tile_widen(dtype, a, start, tile_a, len);
                if (b)
                    tile_widen(dtype, b, start, tile_b, len);
                chain_tile_op(&chain->ops[0], tile_a, b ? tile_b : NULL, tile, len);
                for (int k = 1; k <= last; k++)
                    chain_tile_op(&chain->ops[k], tile, NULL, tile, len);
                tile_narrow(dtype, tile, c, start, len);
            }
        }
    }
}
