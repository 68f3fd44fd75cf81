#include "backends/cpu/cpu_kernels.h"

#include <stdbool.h>
#include <stddef.h>

#include "backends/cpu/cpu_store.h"
#include "elementwise_ops.h"

/* One pass per op of the table with normal stores, generated: fb_cpu_<name>(a, b, c, n, p).
 * The unary ones never read b (the compiler drops it with the unused argument of the
 * element function). With streaming stores an op runs as a one-op chain (fb_cpu_chain):
 * computed into an L1 tile, written out by the store layer. */
#define FB_CPU_PASS(name, arity, n_params, param_names, ulp)                                   \
    static void fb_cpu_##name(const float *restrict a, const float *restrict b,                \
                              float *restrict c, int64_t n, struct fb_op_params p)             \
    {                                                                                          \
        if ((arity) == 1) {                                                                    \
            _Pragma("omp parallel for simd schedule(static)")                                  \
            for (int64_t i = 0; i < n; i++)                                                    \
                c[i] = fb_op_##name(a[i], 0.0f, p);                                            \
        } else {                                                                               \
            _Pragma("omp parallel for simd schedule(static)")                                  \
            for (int64_t i = 0; i < n; i++)                                                    \
                c[i] = fb_op_##name(a[i], b[i], p);                                            \
        }                                                                                      \
    }
FB_OP_TABLE(FB_CPU_PASS)
#undef FB_CPU_PASS

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

/* The generic pass, with the store kind as a flag (fb_cpu_op's streaming passes come here). */
static void chain_pass(const struct fb_chain *chain, const float *restrict a,
                       const float *restrict b, float *restrict c, int64_t n, bool streaming)
{
    const int last = chain->n_ops - 1;
    if (last < 0)
        return;
#pragma omp parallel
    {
        float tile[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
        /* The same static split as `omp for schedule(static)` with one chunk per thread,
         * rounded to whole tiles so that tiles start 64-byte aligned when c does.
         * nowait: each thread fences its own stores, then the region's end joins them. */
#pragma omp for schedule(static) nowait
        for (int64_t start = 0; start < n; start += FB_CPU_CHAIN_TILE) {
            const int len = n - start < FB_CPU_CHAIN_TILE ? (int)(n - start) : FB_CPU_CHAIN_TILE;
            /* With normal stores the last op writes c itself; with streaming ones it writes
             * the tile, which the store layer then streams out. */
            float *last_out = streaming ? tile : c + start;
            chain_tile_op(&chain->ops[0], a + start, b ? b + start : NULL,
                          last == 0 ? last_out : tile, len);
            for (int k = 1; k <= last; k++)
                chain_tile_op(&chain->ops[k], tile, NULL, k == last ? last_out : tile, len);
            if (streaming)
                fb_cpu_store_tile(c + start, tile, len, true);
        }
        fb_cpu_store_fence(streaming); /* this thread's stores, before the join */
    }
}

static bool is_streaming(const struct fb_format *format)
{
    return format->stores == FB_STORES_STREAMING;
}

void fb_cpu_chain(const struct fb_chain *chain, const float *restrict a,
                  const float *restrict b, float *restrict c, int64_t n,
                  const struct fb_format *format)
{
    chain_pass(chain, a, b, c, n, is_streaming(format));
}

void fb_cpu_op(enum fb_op_id op, struct fb_op_params params, const float *restrict a,
               const float *restrict b, float *restrict c, int64_t n,
               const struct fb_format *format)
{
    if (is_streaming(format) && op >= 0 && op < FB_OPID_COUNT) {
        const struct fb_chain one = {.n_ops = 1, .ops = {{.op = op, .params = params}}};
        chain_pass(&one, a, fb_op_infos[op].arity == 2 ? b : NULL, c, n, true);
        return;
    }
    switch (op) {
#define FB_CPU_OP_CASE(name, arity, n_params, param_names, ulp)                                \
    case FB_OPID_##name:                                                                       \
        fb_cpu_##name(a, b, c, n, params);                                                     \
        break;
        FB_OP_TABLE(FB_CPU_OP_CASE)
#undef FB_CPU_OP_CASE
    default:
        break;
    }
}

/* The handwritten pass with streaming stores: add_relu into an L1 tile, streamed out. */
static void add_relu_streaming(const float *restrict a, const float *restrict b,
                               float *restrict c, int64_t n)
{
#pragma omp parallel
    {
        float tile[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
#pragma omp for schedule(static) nowait /* the same split and fence as fb_cpu_chain */
        for (int64_t start = 0; start < n; start += FB_CPU_CHAIN_TILE) {
            const int len = n - start < FB_CPU_CHAIN_TILE ? (int)(n - start) : FB_CPU_CHAIN_TILE;
            const float *restrict x = a + start, *restrict y = b + start;
#pragma omp simd
            for (int t = 0; t < len; t++)
                tile[t] = fb_op_add_relu(x[t], y[t]);
            fb_cpu_store_tile(c + start, tile, len, true);
        }
        fb_cpu_store_fence(true);
    }
}

void fb_cpu_add_relu(const float *restrict a, const float *restrict b, float *restrict c,
                     int64_t n, const struct fb_format *format)
{
    if (is_streaming(format)) {
        add_relu_streaming(a, b, c, n);
        return;
    }
#pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++)
        c[i] = fb_op_add_relu(a[i], b[i]);
}
