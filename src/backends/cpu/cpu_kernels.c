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

/* ---- passes as work-shared loops, for several passes in one parallel region ------------ */

/* gcc turns the orphaned copy loop below into a memcpy call per thread (loop distribution
 * of a copy pattern, which it does not do to the `parallel for` passes above): keep it the
 * vectorised loop that the other passes are, so both ways of launching run the same code
 * (tests/kernels/check_cpu_vectorized.sh counts it). */
#if defined(__GNUC__) && !defined(__clang__)
#define FB_CPU_KEEP_LOOP __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define FB_CPU_KEEP_LOOP
#endif

/* One work-shared pass per op of the table: fb_cpu_shared_<name>(a, b, c, n, p). The
 * `omp for` is orphaned: called inside a parallel region it splits [0, n) over that region's
 * team (the same static split as the fb_cpu_<name> passes) and ends with the loop's implicit
 * barrier; called outside one it runs the whole loop on the calling thread. */
#define FB_CPU_SHARED_PASS(name, arity, n_params, param_names, ulp)                            \
    FB_CPU_KEEP_LOOP static void fb_cpu_shared_##name(const float *restrict a, const float *restrict b,         \
                                     float *restrict c, int64_t n, struct fb_op_params p)      \
    {                                                                                          \
        if ((arity) == 1) {                                                                    \
            _Pragma("omp for simd schedule(static)")                                           \
            for (int64_t i = 0; i < n; i++)                                                    \
                c[i] = fb_op_##name(a[i], 0.0f, p);                                            \
        } else {                                                                               \
            _Pragma("omp for simd schedule(static)")                                           \
            for (int64_t i = 0; i < n; i++)                                                    \
                c[i] = fb_op_##name(a[i], b[i], p);                                            \
        }                                                                                      \
    }
FB_OP_TABLE(FB_CPU_SHARED_PASS)
#undef FB_CPU_SHARED_PASS

/* Pass `pass` with streaming stores as a work-shared loop of the enclosing region's team:
 * the team splits the tiles (as fb_cpu_chain does), each thread computes a tile into its L1
 * buffer with the chain's tile loop and streams it out; each thread fences its own stores
 * before the barrier that ends the pass, so pass k + 1 reads what pass k wrote. */
static void shared_pass_streaming(const struct fb_cpu_pass *pass, int64_t n)
{
    if ((unsigned)pass->op.op >= FB_OPID_COUNT)
        return; /* an unknown op writes nothing (on every thread alike: no barrier to miss) */
    const float *b = fb_op_infos[pass->op.op].arity == 2 ? pass->b : NULL;
    float tile[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
#pragma omp for schedule(static) nowait
    for (int64_t start = 0; start < n; start += FB_CPU_CHAIN_TILE) {
        const int len = n - start < FB_CPU_CHAIN_TILE ? (int)(n - start) : FB_CPU_CHAIN_TILE;
        chain_tile_op(&pass->op, pass->a + start, b ? b + start : NULL, tile, len);
        fb_cpu_store_tile(pass->c + start, tile, len, true);
    }
    fb_cpu_store_fence(true);
#pragma omp barrier
}

/* Pass `pass` as a work-shared loop of the enclosing region's team (every thread of the team
 * must call it, in the same order). */
static void shared_pass(const struct fb_cpu_pass *pass, int64_t n, bool streaming)
{
    if (streaming) {
        shared_pass_streaming(pass, n);
        return;
    }
    switch (pass->op.op) {
#define FB_CPU_SHARED_CASE(name, arity, n_params, param_names, ulp)                            \
    case FB_OPID_##name:                                                                       \
        fb_cpu_shared_##name(pass->a, pass->b, pass->c, n, pass->op.params);                   \
        break;
        FB_OP_TABLE(FB_CPU_SHARED_CASE)
#undef FB_CPU_SHARED_CASE
    default:
        break;
    }
}

void fb_cpu_passes_in_one_region(const struct fb_cpu_pass *passes, int count, int64_t n,
                                 const struct fb_format *format)
{
    const bool streaming = is_streaming(format);
    /* One fork and one join for all the passes. Between two passes the barrier at the end of
     * each `omp for` (which also flushes memory) makes every element of pass k visible to
     * all threads before pass k + 1 reads it. With today's passes (equal n, schedule(static):
     * OpenMP gives both loops the same split) each thread would in fact read back only its
     * own writes; the barrier stays because it is what the eager chain pays between its
     * kernels in one launch (the GPU graph's second kernel waits for the first to finish), so
     * the region saves the fork and join and nothing more, and because it keeps any pass
     * that does not split alike correct. */
#pragma omp parallel
    for (int k = 0; k < count; k++)
        shared_pass(&passes[k], n, streaming);
}
