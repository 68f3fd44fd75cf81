#include "backends/cpu/cpu_kernels.h"

#include <stdbool.h>
#include <stddef.h>

#include "backends/cpu/cpu_store.h"
#include "common/clock.h"
#include "dtype_convert.h"
#include "elementwise_ops.h"

/* One pass per op of the table on fp32 arrays with normal stores, generated:
 * fb_cpu_<name>_fp32(a, b, c, n, p). The unary ones never read b (the compiler drops it with
 * the unused argument of the element function). fp16 and bf16 arrays, and streaming stores,
 * go through the tiled pass below (chain_tiles): a one-op chain, computed into an L1 tile
 * (the 16-bit inputs widened to fp32 first, the result rounded once), written out by the
 * store layer. */
#define FB_CPU_PASS(name, arity, n_params, param_names, ulp)                                   \
    static void fb_cpu_##name##_fp32(const float *restrict a, const float *restrict b,         \
                                     float *restrict c, int64_t n, struct fb_op_params p)      \
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

/* The handwritten fused pass on fp32 arrays. */
static void fb_cpu_add_relu_fp32(const float *restrict a, const float *restrict b,
                                 float *restrict c, int64_t n)
{
#pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++)
        c[i] = fb_op_add_relu(a[i], b[i]);
}

/* The handwritten pass on fp32 arrays with streaming stores: add_relu into an L1 tile,
 * streamed out. (16-bit storage streams through the tiled pass of add, relu: the same
 * function, one rounding at the store.) */
static void add_relu_streaming(const float *restrict a, const float *restrict b,
                               float *restrict c, int64_t n)
{
#pragma omp parallel
    {
        float tile[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
#pragma omp for schedule(static) nowait /* the same split and fence as chain_tiles */
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

/* fp16 with F16C (x86's vcvtph2ps / vcvtps2ph: 8 elements an instruction), where the CPU has
 * it, chosen at run time: the build targets baseline x86-64 (no -march), whose SSE2 has no
 * half-precision instruction, and the portable conversions above cost several instructions
 * an element (measured here: ~1.8 ns an element on one core against ~0.1 with F16C), which
 * would make every fp16 pass compute-bound. vcvtps2ph with round-to-nearest-even gives the
 * same bits as fb_fp16_from_float for every input, NaNs included (quieted, the top payload
 * bits kept): test_dtype_convert holds the two to each other. */
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FB_CPU_HAVE_F16C_CODE 1
__attribute__((target("avx,f16c"))) static void tile_widen_fp16_f16c(const uint16_t *restrict x,
                                                                     float *restrict out,
                                                                     int64_t len)
{
    int64_t t = 0;
    for (; t + 8 <= len; t += 8)
        _mm256_storeu_ps(out + t,
                         _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(x + t))));
    tile_widen_fp16(x + t, out + t, (int)(len - t));
}
__attribute__((target("avx,f16c"))) static void tile_narrow_fp16_f16c(const float *restrict x,
                                                                      uint16_t *restrict out,
                                                                      int64_t len)
{
    int64_t t = 0;
    for (; t + 8 <= len; t += 8)
        _mm_storeu_si128((__m128i *)(void *)(out + t),
                         _mm256_cvtps_ph(_mm256_loadu_ps(x + t),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    tile_narrow_fp16(x + t, out + t, (int)(len - t));
}
#else
#define FB_CPU_HAVE_F16C_CODE 0
#endif

bool fb_cpu_has_f16c(void)
{
#if FB_CPU_HAVE_F16C_CODE
    return __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
#else
    return false;
#endif
}

void fb_cpu_fp16_widen(const uint16_t *x, float *out, int64_t len, bool f16c)
{
#if FB_CPU_HAVE_F16C_CODE
    if (f16c && fb_cpu_has_f16c()) {
        tile_widen_fp16_f16c(x, out, len);
        return;
    }
#endif
    (void)f16c;
    for (int64_t t = 0; t < len; t += FB_CPU_CHAIN_TILE)
        tile_widen_fp16(x + t, out + t, (int)(len - t < FB_CPU_CHAIN_TILE ? len - t : FB_CPU_CHAIN_TILE));
}

void fb_cpu_fp16_narrow(const float *x, uint16_t *out, int64_t len, bool f16c)
{
#if FB_CPU_HAVE_F16C_CODE
    if (f16c && fb_cpu_has_f16c()) {
        tile_narrow_fp16_f16c(x, out, len);
        return;
    }
#endif
    (void)f16c;
    for (int64_t t = 0; t < len; t += FB_CPU_CHAIN_TILE)
        tile_narrow_fp16(x + t, out + t, (int)(len - t < FB_CPU_CHAIN_TILE ? len - t : FB_CPU_CHAIN_TILE));
}

static void tile_widen(enum fb_dtype dtype, bool f16c, const void *x, int64_t start, float *out,
                       int len)
{
    if (dtype == FB_DTYPE_FP16)
        fb_cpu_fp16_widen((const uint16_t *)x + start, out, len, f16c);
    else
        tile_widen_bf16((const uint16_t *)x + start, out, len);
}

static void tile_narrow(enum fb_dtype dtype, bool f16c, const float *x, uint16_t *out, int len)
{
    if (dtype == FB_DTYPE_FP16)
        fb_cpu_fp16_narrow(x, out, len, f16c);
    else
        tile_narrow_bf16(x, out, len);
}

/* The tiles of a chain pass, as a work-shared loop of the enclosing parallel region's team
 * (an orphaned `omp for`: every thread of the team calls it; outside a region the calling
 * thread does it all), ending in a barrier. fp32: the first op reads a (and b), each next op
 * rewrites the tile, the last writes c (normal stores) or the tile, which the store layer
 * streams out (streaming). fp16, bf16: the inputs' tiles are widened into fp32 tiles, every
 * op runs in fp32 in the tile, and the result is rounded once into c (normal) or into a
 * 16-bit tile that the store layer streams out. With streaming stores each thread fences its
 * own before the barrier, so whatever reads c next (the next pass of a region, or anyone
 * after the join) sees them. The tiles are each thread's own (on its stack). */
static void chain_tiles(const struct fb_chain *chain, enum fb_dtype dtype, bool f16c,
                        bool streaming, const void *a, const void *b, void *c, int64_t n)
{
    const int last = chain->n_ops - 1;
    const bool wide = dtype == FB_DTYPE_FP32;
    float tile[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    float tile_a[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    float tile_b[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    uint16_t tile16[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    /* The same static split as `omp for schedule(static)` with one chunk per thread, rounded
     * to whole tiles so that tiles start 64-byte aligned when c does. nowait: each thread
     * fences its own stores, then the barrier below. */
#pragma omp for schedule(static) nowait
    for (int64_t start = 0; start < n; start += FB_CPU_CHAIN_TILE) {
        const int len = n - start < FB_CPU_CHAIN_TILE ? (int)(n - start) : FB_CPU_CHAIN_TILE;
        if (last < 0)
            continue;
        if (wide) {
            const float *fa = a, *fb = b;
            float *fc = c;
            float *last_out = streaming ? tile : fc + start;
            chain_tile_op(&chain->ops[0], fa + start, fb ? fb + start : NULL,
                          last == 0 ? last_out : tile, len);
            for (int k = 1; k <= last; k++)
                chain_tile_op(&chain->ops[k], tile, NULL, k == last ? last_out : tile, len);
            if (streaming)
                fb_cpu_store_tile(fc + start, tile, len, true);
        } else {
            tile_widen(dtype, f16c, a, start, tile_a, len);
            if (b)
                tile_widen(dtype, f16c, b, start, tile_b, len);
            chain_tile_op(&chain->ops[0], tile_a, b ? tile_b : NULL, tile, len);
            for (int k = 1; k <= last; k++)
                chain_tile_op(&chain->ops[k], tile, NULL, tile, len);
            uint16_t *c16 = (uint16_t *)c + start;
            if (streaming) {
                tile_narrow(dtype, f16c, tile, tile16, len);
                fb_cpu_store_tile16(c16, tile16, len, true);
            } else {
                tile_narrow(dtype, f16c, tile, c16, len);
            }
        }
    }
    fb_cpu_store_fence(streaming); /* this thread's stores, before the barrier */
#pragma omp barrier
}

static bool is_streaming(const struct fb_format *format)
{
    return format->stores == FB_STORES_STREAMING;
}

void fb_cpu_chain(const struct fb_chain *chain, const void *a, const void *b, void *c,
                  int64_t n, const struct fb_format *format)
{
    const bool f16c = fb_cpu_has_f16c(), streaming = is_streaming(format);
#pragma omp parallel
    chain_tiles(chain, format->dtype, f16c, streaming, a, b, c, n);
}

void fb_cpu_op(enum fb_op_id op, struct fb_op_params params, const void *a, const void *b,
               void *c, int64_t n, const struct fb_format *format)
{
    if ((unsigned)op >= FB_OPID_COUNT)
        return;
    if (format->dtype != FB_DTYPE_FP32 || is_streaming(format)) {
        /* a one-op chain: widened, computed, rounded once; streamed out when asked */
        const struct fb_chain one = {.n_ops = 1, .ops = {{.op = op, .params = params}}};
        fb_cpu_chain(&one, a, fb_op_infos[op].arity == 2 ? b : NULL, c, n, format);
        return;
    }
    switch (op) {
#define FB_CPU_OP_CASE(name, arity, n_params, param_names, ulp)                                \
    case FB_OPID_##name:                                                                       \
        fb_cpu_##name##_fp32(a, b, c, n, params);                                              \
        break;
        FB_OP_TABLE(FB_CPU_OP_CASE)
#undef FB_CPU_OP_CASE
    default:
        break;
    }
}

void fb_cpu_add_relu(const void *a, const void *b, void *c, int64_t n,
                     const struct fb_format *format)
{
    if (format->dtype == FB_DTYPE_FP32) {
        if (is_streaming(format))
            add_relu_streaming(a, b, c, n);
        else
            fb_cpu_add_relu_fp32(a, b, c, n);
        return;
    }
    /* relu(a + b) in fp32, rounded once: add then relu in one tiled pass is that function */
    struct fb_chain add_relu = {.n_ops = 2};
    add_relu.ops[0].op = FB_OPID_add;
    add_relu.ops[1].op = FB_OPID_relu;
    fb_cpu_chain(&add_relu, a, b, c, n, format);
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

/* One work-shared pass per op of the table on fp32 arrays: fb_cpu_shared_<name>(a, b, c, n,
 * p). The `omp for` is orphaned: called inside a parallel region it splits [0, n) over that
 * region's team (the same static split as the fb_cpu_<name>_fp32 passes) and ends with the
 * loop's implicit barrier; called outside one it runs the whole loop on the calling thread.
 * fp16 and bf16 passes, and passes with streaming stores, are the work-shared tiles of a
 * one-op chain (chain_tiles), each thread fencing its streamed stores before the barrier. */
#define FB_CPU_SHARED_PASS(name, arity, n_params, param_names, ulp)                            \
    FB_CPU_KEEP_LOOP static void fb_cpu_shared_##name(const float *restrict a,                 \
                                                      const float *restrict b,                 \
                                                      float *restrict c, int64_t n,            \
                                                      struct fb_op_params p)                   \
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

/* Pass `pass` as a work-shared loop of the enclosing region's team (every thread of the team
 * must call it, in the same order). */
static void shared_pass(const struct fb_cpu_pass *pass, enum fb_dtype dtype, bool f16c,
                        bool streaming, int64_t n)
{
    if ((unsigned)pass->op.op >= FB_OPID_COUNT)
        return; /* an unknown op writes nothing (on every thread alike: no barrier to miss) */
    if (dtype != FB_DTYPE_FP32 || streaming) {
        const struct fb_chain one = {.n_ops = 1, .ops = {pass->op}};
        chain_tiles(&one, dtype, f16c, streaming, pass->a,
                    fb_op_infos[pass->op.op].arity == 2 ? pass->b : NULL, pass->c, n);
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
                                 const struct fb_format *format, uint64_t *marks_ns)
{
    /* One fork and one join for all the passes. Between two passes the barrier at the end of
     * each `omp for` (which also flushes memory) makes every element of pass k visible to
     * all threads before pass k + 1 reads it. With today's passes (equal n, schedule(static):
     * OpenMP gives both loops the same split) each thread would in fact read back only its
     * own writes; the barrier stays because it is what the eager chain pays between its
     * kernels in one launch (the GPU graph's second kernel waits for the first to finish), so
     * the region saves the fork and join and nothing more, and because it keeps any pass
     * that does not split alike correct. */
    const bool f16c = fb_cpu_has_f16c(), streaming = is_streaming(format);
    /* The marks are read after a barrier, when every thread has finished the pass before;
     * `master` has no barrier of its own, so marking adds no wait to the other threads. */
#pragma omp parallel
    {
        if (marks_ns) {
#pragma omp master
            marks_ns[0] = fb_now_ns();
        }
        for (int k = 0; k < count; k++) {
            shared_pass(&passes[k], format->dtype, f16c, streaming, n);
            if (marks_ns) {
#pragma omp master
                marks_ns[k + 1] = fb_now_ns();
            }
        }
    }
}
