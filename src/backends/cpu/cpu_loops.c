/* The loops of the CPU passes (cpu_loops.h), compiled once per instruction set: meson defines
 * FB_CPU_LOOPS_ISA (baseline, avx2, avx512: the name of the table this build defines) and
 * FB_CPU_ISA_LEVEL (0, 1, 2) with the set's -m flags (src/backends/meson.build).
 *
 * How a pass is computed, on one thread's share [lo, hi) of the elements:
 * - Ops run in pairs: one loop applies two consecutive ops of a chain to each element in
 *   registers, out[t] = second(first(x[t], y[t])), written with the element functions of
 *   kernels/elementwise_ops.h. Every pair of the op table (a first op of either arity, a
 *   unary second one) is its own loop, generated from the table (pair_pass); an odd op out
 *   is paired with copy, whose element function returns its input's bits. So a chain of one
 *   or two ops is one loop from a (and b) to c, the same loop a handwritten kernel would be:
 *   the generic fused add, relu is the handwritten add_relu's loop, and an eager pass
 *   (one op) is the loop it always was.
 * - Longer chains of exact ops (no transcendental op) go strip by strip: 8 vectors held in
 *   registers, every op of the chain applied to the strip in turn (exact_strip), so the chain
 *   loads its inputs and stores its result once, as one handwritten loop would.
 * - Longer chains with a transcendental op go tile by tile (FB_CPU_CHAIN_TILE elements): the
 *   first pair reads a and b into an L1-resident tile, each next pair rewrites it in place,
 *   the last writes c: two transcendental ops are never one pair (chain_pairs says why), so
 *   up to k passes over each tile, whose round trips through L1 are small beside the exp's
 *   arithmetic (cpu_math.h).
 * - fp16 and bf16 arrays: each tile of the inputs is widened into fp32 tiles, the chain runs
 *   over those, and the result is rounded once into c (kernels/dtype_convert.h); fp16 with
 *   F16C (vcvtph2ps / vcvtps2ph, 8 or 16 elements an instruction), bf16 with the portable
 *   code (a shift to widen, integer rounding to narrow), which gcc vectorises at the set's
 *   width. A 16-bit copy moves the bits, with no conversion (range_copy16).
 * - Streaming stores: the pass writes the tile (16-bit: the rounded tile), and the store
 *   layer streams it to c (cpu_store.h). The caller fences.
 * The exact ops give the same bits whatever the set and whatever the path; the transcendental
 * ops are within the table's bounds (cpu_math.h: their exp). */
#include "backends/cpu/cpu_loops.h"

#include <stddef.h>

#include "backends/cpu/cpu_math.h" /* before elementwise_ops.h: it names the exp */
#include "backends/cpu/cpu_store.h"
#include "dtype_convert.h"
#include "elementwise_ops.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#define FB_CPU_CAT2(a, b) a##b
#define FB_CPU_CAT(a, b) FB_CPU_CAT2(a, b)

#define FB_CPU_INLINE static inline __attribute__((always_inline))

/* ---- pairs of ops ------------------------------------------------------------------------ */

/* out[t] = second(first(x[t], y[t])) for t in [0, len): one loop, both ops in registers.
 * first and second are constants wherever this is inlined (pair_pass), so fb_op_apply's
 * switch folds to the two element functions and each pair is its own vectorised loop (gcc
 * inlines it for a constant op; check_cpu_vectorized.sh would see a pair left scalar). y is
 * read only when first is binary (else it may be NULL). x may be out: element t is read
 * before it is written and no other element is touched, which `omp simd` (no dependence
 * between iterations) allows; that is why x and out carry no restrict. */
FB_CPU_INLINE void pair_loop(enum fb_op_id first, int first_arity, struct fb_op_params p1,
                             enum fb_op_id second, struct fb_op_params p2, const float *x,
                             const float *restrict y, float *out, int64_t len)
{
    if (first_arity == 2) {
#pragma omp simd
        for (int64_t t = 0; t < len; t++)
            out[t] = fb_op_apply(second, fb_op_apply(first, x[t], y[t], p1), 0.0f, p2);
    } else {
#pragma omp simd
        for (int64_t t = 0; t < len; t++)
            out[t] = fb_op_apply(second, fb_op_apply(first, x[t], 0.0f, p1), 0.0f, p2);
    }
}

/* pair_loop with the first op a constant and the second looked up: one loop per unary
 * second op of the table (a binary op is never second: fb_chain_check). */
FB_CPU_INLINE void pair_after(enum fb_op_id first, int first_arity, struct fb_op_params p1,
                              const struct fb_chain_op *second, const float *x,
                              const float *restrict y, float *out, int64_t len)
{
    switch (second->op) {
#define FB_CPU_PAIR_SECOND(name, arity, n_params, param_names, ulp)                            \
    case FB_OPID_##name:                                                                       \
        if ((arity) == 1)                                                                      \
            pair_loop(first, first_arity, p1, FB_OPID_##name, second->params, x, y, out, len); \
        break;
        FB_OP_TABLE(FB_CPU_PAIR_SECOND)
#undef FB_CPU_PAIR_SECOND
    default:
        break;
    }
}

/* out[0..len) = second(first(x, y)): the loop of the pair (first->op, second->op). Not
 * inlined (nor are the other loops below), so that each loop is compiled once and gcc's
 * vectorisation report counts it once (tests/kernels/check_cpu_vectorized.sh). */
__attribute__((noinline)) static void pair_pass(const struct fb_chain_op *first,
                                                const struct fb_chain_op *second,
                                                const float *x, const float *restrict y,
                                                float *out, int64_t len)
{
    switch (first->op) {
#define FB_CPU_PAIR_FIRST(name, arity, n_params, param_names, ulp)                             \
    case FB_OPID_##name:                                                                       \
        pair_after(FB_OPID_##name, (arity), first->params, second, x, y, out, len);            \
        break;
        FB_OP_TABLE(FB_CPU_PAIR_FIRST)
#undef FB_CPU_PAIR_FIRST
    default:
        break;
    }
}

/* The op an odd op out is paired with: copy returns its input, bits and all. */
static const struct fb_chain_op copy_op = {.op = FB_OPID_copy};

/* The chain's ops over len elements, in pairs: the first pair reads x (and y: the chain's
 * first op is binary), the next ones rewrite tile in place, the last writes dst (which may be
 * tile). Two transcendental ops are not paired: each goes with copy, in its own loop. A loop
 * with two vector exps in a row is bound by their latency (the out-of-order window holds too
 * few of its iterations to overlap them), where two loops of one each overlap iterations:
 * measured on an AVX-512 Xeon, in L1, gelu then sigmoid in one loop 4.2 cycles an element,
 * in two 2.9, for one more round trip of the tile through L1 (~0.1). Still so with the exp
 * inlined (cpu_math.h): on an AVX2 EPYC, in L1, add then sigmoid, gelu, sigmoid, gelu took
 * 8.1 ticks an element as five loops, 11.7 as three (trans ops paired), 15.4 as one. */
static void chain_pairs(const struct fb_chain *chain, const float *x, const float *restrict y,
                        float *tile, float *dst, int64_t len)
{
    for (int k = 0, step; k < chain->n_ops; k += step) {
        const struct fb_chain_op *first = &chain->ops[k];
        /* paired unless both are transcendental (ulp_bound > 0 in the op table) */
        step = k + 1 < chain->n_ops && (fb_op_infos[first->op].ulp_bound == 0 ||
                                        fb_op_infos[chain->ops[k + 1].op].ulp_bound == 0)
                   ? 2
                   : 1;
        const struct fb_chain_op *second = step == 2 ? &chain->ops[k + 1] : &copy_op;
        float *out = k + step >= chain->n_ops ? dst : tile;
        pair_pass(first, second, k == 0 ? x : tile, k == 0 ? y : NULL, out, len);
    }
}

/* ---- exact chains in registers ----------------------------------------------------------- */

/* An exact chain (no transcendental op) of more than two ops goes strip by strip: a strip is
 * FB_CPU_STRIP_VECTORS vectors of the set's width held in registers (plain C variables of a
 * gcc vector type: an array would live in memory), and every op of the chain is applied to
 * the whole strip in turn, dispatched once per op and strip. So the chain loads a (and b)
 * once and stores c once, as a handwritten loop does, where pairs over a tile store and
 * reload the tile between pairs. Each op is applied through its element function, lane by
 * lane (lanes), so the bits are those of every other path. A transcendental op calls the
 * vector exp, and a call clobbers every vector register: such chains stay with pairs over a
 * tile (chain_pass), whose round trips through L1 are small beside the exp. */
#if FB_CPU_ISA_LEVEL == 2
#define FB_CPU_VECTOR_FLOATS 16
#elif FB_CPU_ISA_LEVEL == 1
#define FB_CPU_VECTOR_FLOATS 8
#else
#define FB_CPU_VECTOR_FLOATS 4 /* SSE2 */
#endif
/* 8 vectors (check_cpu_vectorized.sh reads this line): enough work to spread the dispatch
 * over, and 8 of the 16 (SSE2, AVX2) or 32 (AVX-512) vector registers, the rest left for an
 * op's temporaries. */
#define FB_CPU_STRIP_VECTORS 8
#define FB_CPU_STRIP (FB_CPU_STRIP_VECTORS * FB_CPU_VECTOR_FLOATS)
#define FB_CPU_EACH_VECTOR(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)

typedef float strip_vec __attribute__((vector_size(FB_CPU_VECTOR_FLOATS * sizeof(float))));

/* op(x, y) lane by lane with the op's element function: a loop of one vector, which gcc
 * vectorises into the op's vector instructions (op is a constant wherever this is inlined).
 * Subscripts of the vector type, not a copy through arrays: a copy gives the values an
 * integer mode, and gcc then moves every register once per op. */
FB_CPU_INLINE strip_vec lanes(enum fb_op_id op, strip_vec x, strip_vec y, struct fb_op_params p)
{
    strip_vec r;
#pragma omp simd
    for (int i = 0; i < FB_CPU_VECTOR_FLOATS; i++)
        r[i] = fb_op_apply(op, x[i], y[i], p);
    return r;
}

/* One vector from x, unaligned. */
FB_CPU_INLINE strip_vec load_vec(const float *x)
{
    strip_vec v;
    __builtin_memcpy(&v, x, sizeof v);
    return v;
}

/* The exact chain, of more than two ops, over one strip: x[0..FB_CPU_STRIP) (and y, read by a
 * binary first op only) into out. The first op reads its operands from memory, each later
 * one (unary: fb_chain_check) rewrites the registers v0..v7, the last are stored. */
FB_CPU_INLINE void exact_strip(const struct fb_chain *chain, const float *x, const float *y,
                               float *out)
{
    static const strip_vec zero = {0};
    strip_vec v0, v1, v2, v3, v4, v5, v6, v7;
#define FB_CPU_FIRST(r)                                                                        \
    v##r = lanes(id, load_vec(x + (r) * FB_CPU_VECTOR_FLOATS),                                 \
                 load_vec(y + (r) * FB_CPU_VECTOR_FLOATS), o->params);
#define FB_CPU_NEXT(r) v##r = lanes(id, v##r, zero, o->params);
#define FB_CPU_STORE(r) __builtin_memcpy(out + (r) * FB_CPU_VECTOR_FLOATS, &v##r, sizeof v##r);
    const struct fb_chain_op *o = &chain->ops[0];
    switch (o->op) {
#define FB_CPU_STRIP_FIRST(name, arity, n_params, param_names, ulp)                            \
    case FB_OPID_##name: {                                                                     \
        const enum fb_op_id id = FB_OPID_##name;                                               \
        if ((ulp) > 0)                                                                         \
            __builtin_unreachable(); /* an exact chain (chain_pass) */                         \
        FB_CPU_EACH_VECTOR(FB_CPU_FIRST)                                                       \
        break;                                                                                 \
    }
        FB_OP_TABLE(FB_CPU_STRIP_FIRST)
#undef FB_CPU_STRIP_FIRST
    default:
        __builtin_unreachable(); /* a known op (fb_chain_check) */
    }
    /* n_ops > 2 (chain_pass), so the loop runs at least once: a do-while, whose only exit
     * carries the strip to the stores in the same registers */
    int k = 1;
    do {
        o = &chain->ops[k];
        switch (o->op) {
#define FB_CPU_STRIP_NEXT(name, arity, n_params, param_names, ulp)                             \
    case FB_OPID_##name: {                                                                     \
        const enum fb_op_id id = FB_OPID_##name;                                               \
        if ((arity) == 2 || (ulp) > 0)                                                         \
            __builtin_unreachable(); /* only the first op is binary; an exact chain */         \
        FB_CPU_EACH_VECTOR(FB_CPU_NEXT)                                                        \
        break;                                                                                 \
    }
            FB_OP_TABLE(FB_CPU_STRIP_NEXT)
#undef FB_CPU_STRIP_NEXT
        default:
            __builtin_unreachable();
        }
    } while (++k < chain->n_ops);
    FB_CPU_EACH_VECTOR(FB_CPU_STORE)
#undef FB_CPU_FIRST
#undef FB_CPU_NEXT
#undef FB_CPU_STORE
}

/* The exact chain over len elements, x (and y) into out, one strip at a time. The last
 * len % FB_CPU_STRIP elements: when there is a whole strip before them and out is not an
 * input, as the last strip of the range (overlapping the one before, whose elements it
 * computes again to the same bits); else through a padded strip (the padding's results are
 * dropped). out may be x (each strip is read before it is written). */
__attribute__((noinline)) static void exact_strips(const struct fb_chain *chain, const float *x,
                                                   const float *y, float *out, int64_t len)
{
    const float *y_or_x = y ? y : x; /* a unary first op reads no y: any readable strip */
    float px[FB_CPU_STRIP] __attribute__((aligned(64)));
    float py[FB_CPU_STRIP] __attribute__((aligned(64)));
    float pout[FB_CPU_STRIP] __attribute__((aligned(64)));
    int64_t padded = 0; /* elements computed in the padded strip */
    for (int64_t s = 0; s < len; s += FB_CPU_STRIP) {
        int64_t at = s; /* where this strip starts */
        const float *xs = px, *ys = py;
        float *os = pout;
        if (len - s < FB_CPU_STRIP && s > 0 && out != x && out != y) {
            at = len - FB_CPU_STRIP; /* the last strip of the range, overlapping */
        } else if (len - s < FB_CPU_STRIP) {
            padded = len - s;
            __builtin_memset(px, 0, sizeof px);
            __builtin_memset(py, 0, sizeof py);
            __builtin_memcpy(px, x + s, (size_t)padded * sizeof(float));
            __builtin_memcpy(py, y_or_x + s, (size_t)padded * sizeof(float));
        }
        if (!padded) {
            xs = x + at;
            ys = y_or_x + at;
            os = out + at;
        }
        exact_strip(chain, xs, ys, os); /* the one place it is inlined */
        if (padded)
            __builtin_memcpy(out + s, pout, (size_t)padded * sizeof(float));
    }
}

/* The chain over len elements of x (and y: its first op is binary) into dst, in one pass
 * over them: one or two ops are one pair loop (a single op paired with copy), the loop a
 * handwritten kernel would be; an exact chain (exact: fb_cpu_work's) of more goes strip by
 * strip in registers; a longer chain with a transcendental op goes in pairs over tile (which
 * may be dst). */
static void chain_pass(const struct fb_chain *chain, bool exact, const float *x,
                       const float *restrict y, float *tile, float *dst, int64_t len)
{
    if (chain->n_ops <= 2)
        pair_pass(&chain->ops[0], chain->n_ops == 2 ? &chain->ops[1] : &copy_op, x, y, dst, len);
    else if (exact)
        exact_strips(chain, x, y, dst, len);
    else
        chain_pairs(chain, x, y, tile, dst, len);
}

/* ---- the handwritten fused kernel -------------------------------------------------------- */

/* c = relu(a + b), one loop: the reference the generic kernel is held against. */
__attribute__((noinline)) static void add_relu_loop(const float *restrict a,
                                                    const float *restrict b,
                                                    float *restrict c, int64_t len)
{
#pragma omp simd
    for (int64_t t = 0; t < len; t++)
        c[t] = fb_op_add_relu(a[t], b[t]);
}

/* ---- 16-bit tiles ------------------------------------------------------------------------ */

/* The portable conversions (kernels/dtype_convert.h: integer and float operations and
 * selects only), vectorised by gcc at the set's width. */
#define FB_CPU_PORTABLE_CONVERT(dt)                                                            \
    __attribute__((noinline)) static void widen_##dt(const uint16_t *restrict x,              \
                                                     float *restrict out, int64_t len)         \
    {                                                                                          \
        _Pragma("omp simd")                                                                    \
        for (int64_t t = 0; t < len; t++)                                                      \
            out[t] = fb_float_from_##dt(x[t]);                                                 \
    }                                                                                          \
    __attribute__((noinline)) static void narrow_##dt(const float *restrict x,                \
                                                      uint16_t *restrict out, int64_t len)     \
    {                                                                                          \
        _Pragma("omp simd")                                                                    \
        for (int64_t t = 0; t < len; t++)                                                      \
            out[t] = fb_##dt##_from_float(x[t]);                                               \
    }
FB_CPU_PORTABLE_CONVERT(fp16)
FB_CPU_PORTABLE_CONVERT(bf16)
#undef FB_CPU_PORTABLE_CONVERT

/* fp16 with F16C. vcvtps2ph with round-to-nearest-even gives the same bits as
 * fb_fp16_from_float for every input, NaNs included (quieted, the top payload bits kept), and
 * vcvtph2ps those of fb_float_from_fp16: test_dtype_convert holds them to each other. Without
 * it the portable conversions cost several instructions an element (measured on one core:
 * ~1.8 ns an element against ~0.1 with F16C), which would make every fp16 pass compute-bound.
 *   baseline: 8 elements an instruction, in functions compiled for AVX + F16C and called only
 *             where the CPU has both (checked per call: the build assumes baseline x86-64);
 *   avx2:     the same, compiled in;
 *   avx512:   16 elements an instruction (AVX-512F's forms).
 * The last len % 8 (or % 16) elements take the portable code. */
#if FB_CPU_ISA_LEVEL == 2
#define FB_CPU_F16C 1
#define FB_CPU_F16C_TARGET
static bool f16c_usable(void)
{
    return true;
}
#elif FB_CPU_ISA_LEVEL == 1
#define FB_CPU_F16C 1
#define FB_CPU_F16C_TARGET
static bool f16c_usable(void)
{
    return true;
}
#elif defined(__x86_64__) || defined(__i386__)
#define FB_CPU_F16C 1
#define FB_CPU_F16C_TARGET __attribute__((target("avx,f16c")))
static bool f16c_usable(void)
{
    return fb_cpu_has_f16c();
}
#else
#define FB_CPU_F16C 0
#endif

#if FB_CPU_F16C
/* 8 or 16 fp16 elements from x, unaligned. */
#if FB_CPU_ISA_LEVEL == 2
static inline __m256i load16x16(const uint16_t *x)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)x);
}
#else
FB_CPU_F16C_TARGET static inline __m128i load16x8(const uint16_t *x)
{
    return _mm_loadu_si128((const __m128i *)(const void *)x);
}
#endif

FB_CPU_F16C_TARGET static void widen_fp16_f16c(const uint16_t *restrict x, float *restrict out,
                                               int64_t len)
{
    int64_t t = 0;
#if FB_CPU_ISA_LEVEL == 2
    for (; t + 16 <= len; t += 16)
        _mm512_storeu_ps(out + t, _mm512_cvtph_ps(load16x16(x + t)));
#else
    for (; t + 8 <= len; t += 8)
        _mm256_storeu_ps(out + t, _mm256_cvtph_ps(load16x8(x + t)));
#endif
    widen_fp16(x + t, out + t, len - t);
}

FB_CPU_F16C_TARGET static void narrow_fp16_f16c(const float *restrict x, uint16_t *restrict out,
                                                int64_t len)
{
    int64_t t = 0;
#if FB_CPU_ISA_LEVEL == 2
    for (; t + 16 <= len; t += 16)
        _mm256_storeu_si256((__m256i *)(void *)(out + t),
                            _mm512_cvtps_ph(_mm512_loadu_ps(x + t),
                                            _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#else
    for (; t + 8 <= len; t += 8)
        _mm_storeu_si128((__m128i *)(void *)(out + t),
                         _mm256_cvtps_ph(_mm256_loadu_ps(x + t),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#endif
    narrow_fp16(x + t, out + t, len - t);
}

/* The handwritten fused kernel on fp16 arrays, in one loop: c = relu(a + b), a and b widened
 * in registers, rounded once. The same operations as fb_op_add_relu on the widened values
 * (an IEEE add; relu as a compare and mask: s <= 0 gives +0, -0 included; a NaN compares
 * false and stays), and the same conversions as the tiles, so the same bits as the tiled
 * pass of add, relu; but one pass over the data where the tiles make four (widen a, widen b,
 * the pair, narrow: ~3.8 instructions an element at AVX2 against ~1.4 here), which keeps
 * fp16's fused pass memory-bound. The last len % 8 (or % 16) elements take the portable
 * conversions. */
FB_CPU_F16C_TARGET static void add_relu_fp16_f16c(const uint16_t *restrict a,
                                                  const uint16_t *restrict b,
                                                  uint16_t *restrict c, int64_t len)
{
    int64_t t = 0;
#if FB_CPU_ISA_LEVEL == 2
    for (; t + 16 <= len; t += 16) {
        const __m512 s =
            _mm512_add_ps(_mm512_cvtph_ps(load16x16(a + t)), _mm512_cvtph_ps(load16x16(b + t)));
        const __mmask16 le = _mm512_cmp_ps_mask(s, _mm512_setzero_ps(), _CMP_LE_OQ);
        _mm256_storeu_si256((__m256i *)(void *)(c + t),
                            _mm512_cvtps_ph(_mm512_maskz_mov_ps((__mmask16)~le, s),
                                            _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
#else
    for (; t + 8 <= len; t += 8) {
        const __m256 s =
            _mm256_add_ps(_mm256_cvtph_ps(load16x8(a + t)), _mm256_cvtph_ps(load16x8(b + t)));
        const __m256 le = _mm256_cmp_ps(s, _mm256_setzero_ps(), _CMP_LE_OQ);
        _mm_storeu_si128((__m128i *)(void *)(c + t),
                         _mm256_cvtps_ph(_mm256_andnot_ps(le, s),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
#endif
    if (t < len) { /* the tail, through the portable loops */
        float ta[16], tb[16], tc[16];
        widen_fp16(a + t, ta, len - t);
        widen_fp16(b + t, tb, len - t);
        add_relu_loop(ta, tb, tc, len - t);
        narrow_fp16(tc, c + t, len - t);
    }
}
#endif

static void fp16_widen(const uint16_t *x, float *out, int64_t len, bool f16c)
{
#if FB_CPU_F16C
    if (f16c && f16c_usable()) {
        widen_fp16_f16c(x, out, len);
        return;
    }
#endif
    (void)f16c;
    widen_fp16(x, out, len);
}

static void fp16_narrow(const float *x, uint16_t *out, int64_t len, bool f16c)
{
#if FB_CPU_F16C
    if (f16c && f16c_usable()) {
        narrow_fp16_f16c(x, out, len);
        return;
    }
#endif
    (void)f16c;
    narrow_fp16(x, out, len);
}

static void widen16(enum fb_dtype dtype, bool f16c, const uint16_t *x, float *out, int64_t len)
{
    if (dtype == FB_DTYPE_FP16)
        fp16_widen(x, out, len, f16c);
    else
        widen_bf16(x, out, len);
}

static void narrow16(enum fb_dtype dtype, bool f16c, const float *x, uint16_t *out, int64_t len)
{
    if (dtype == FB_DTYPE_FP16)
        fp16_narrow(x, out, len, f16c);
    else
        narrow_bf16(x, out, len);
}

/* ---- a pass over one thread's share ------------------------------------------------------ */

/* relu(a + b) as a chain, for 16-bit storage: the same function as add_relu (one rounding at
 * the store), through the tiles. */
static const struct fb_chain add_relu_chain = {
    .n_ops = 2, .ops = {{.op = FB_OPID_add}, {.op = FB_OPID_relu}}};

static int64_t tile_len(int64_t start, int64_t hi)
{
    return hi - start < FB_CPU_CHAIN_TILE ? hi - start : FB_CPU_CHAIN_TILE;
}

/* fp32 arrays. */
static void range_fp32(const struct fb_cpu_work *w, int64_t lo, int64_t hi)
{
    const float *a = w->a, *b = w->b;
    float *c = w->c;
    const bool needs_tile = !w->add_relu && w->chain->n_ops > 2 && !w->exact;
    if (!w->streaming && !needs_tile) { /* one loop from a (and b) to c */
        if (w->add_relu)
            add_relu_loop(a + lo, b + lo, c + lo, hi - lo);
        else
            chain_pass(w->chain, w->exact, a + lo, b ? b + lo : NULL, NULL, c + lo, hi - lo);
        return;
    }
    float tile[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    for (int64_t s = lo; s < hi; s += FB_CPU_CHAIN_TILE) {
        const int64_t len = tile_len(s, hi);
        float *dst = w->streaming ? tile : c + s;
        if (w->add_relu)
            add_relu_loop(a + s, b + s, dst, len);
        else
            chain_pass(w->chain, w->exact, a + s, b ? b + s : NULL, tile, dst, len);
        if (w->streaming)
            fb_cpu_store_tile(c + s, tile, len, true);
    }
}

/* The copy of 16-bit arrays moves their bits, as fp32's copy (the pair loop copy, copy) moves
 * its bits: the copy is the dtype's bandwidth ceiling, and a widen and a narrow would make it
 * a measure of the conversions instead. The bits are the converted path's for every input but
 * a signalling NaN, which stays unquieted: any NaN matches a NaN
 * (kernels/elementwise_contract.h). x may be out, as in pair_loop. */
__attribute__((noinline)) static void copy16_loop(const uint16_t *x, uint16_t *out, int64_t len)
{
#pragma omp simd
    for (int64_t t = 0; t < len; t++)
        out[t] = x[t];
}

/* A 16-bit copy pass, laid out as fp32's (range_fp32): one loop, or tile by tile for
 * streaming stores. */
static void range_copy16(const struct fb_cpu_work *w, int64_t lo, int64_t hi)
{
    const uint16_t *a = w->a;
    uint16_t *c = w->c;
    if (!w->streaming) {
        copy16_loop(a + lo, c + lo, hi - lo);
        return;
    }
    uint16_t tile16[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    for (int64_t s = lo; s < hi; s += FB_CPU_CHAIN_TILE) {
        const int64_t len = tile_len(s, hi);
        copy16_loop(a + s, tile16, len);
        fb_cpu_store_tile16(c + s, tile16, len, true);
    }
}

/* fp16 and bf16 arrays: widened, computed in fp32, rounded once. */
static void range_16(const struct fb_cpu_work *w, int64_t lo, int64_t hi)
{
    const struct fb_chain *chain = w->add_relu ? &add_relu_chain : w->chain;
    if (chain->n_ops == 1 && chain->ops[0].op == FB_OPID_copy) {
        range_copy16(w, lo, hi);
        return;
    }
    const uint16_t *a = w->a, *b = w->b;
    uint16_t *c = w->c;
    const bool f16c = true;
    uint16_t tile16[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
#if FB_CPU_F16C
    if (w->add_relu && w->dtype == FB_DTYPE_FP16 && f16c_usable()) { /* one loop */
        if (!w->streaming) {
            add_relu_fp16_f16c(a + lo, b + lo, c + lo, hi - lo);
            return;
        }
        for (int64_t s = lo; s < hi; s += FB_CPU_CHAIN_TILE) {
            const int64_t len = tile_len(s, hi);
            add_relu_fp16_f16c(a + s, b + s, tile16, len);
            fb_cpu_store_tile16(c + s, tile16, len, true);
        }
        return;
    }
#endif
    float tile[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    float tile_a[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    float tile_b[FB_CPU_CHAIN_TILE] __attribute__((aligned(64)));
    for (int64_t s = lo; s < hi; s += FB_CPU_CHAIN_TILE) {
        const int64_t len = tile_len(s, hi);
        widen16(w->dtype, f16c, a + s, tile_a, len);
        if (b)
            widen16(w->dtype, f16c, b + s, tile_b, len);
        chain_pass(chain, w->exact, tile_a, b ? tile_b : NULL, tile, tile, len);
        if (w->streaming) {
            narrow16(w->dtype, f16c, tile, tile16, len);
            fb_cpu_store_tile16(c + s, tile16, len, true);
        } else {
            narrow16(w->dtype, f16c, tile, c + s, len);
        }
    }
}

/* The transcendental ops' exp alone over len elements, at this set's width: what its test
 * measures (cpu_loops.h). */
__attribute__((noinline)) static void exp_nonpositive(const float *restrict x,
                                                      float *restrict out, int64_t len)
{
#pragma omp simd
    for (int64_t t = 0; t < len; t++)
        out[t] = fb_cpu_exp_nonpositive(x[t]);
}

static void range(const struct fb_cpu_work *w, int64_t lo, int64_t hi)
{
    if (lo >= hi || (!w->add_relu && w->chain->n_ops < 1))
        return;
    if (w->dtype == FB_DTYPE_FP32)
        range_fp32(w, lo, hi);
    else
        range_16(w, lo, hi);
}

const struct fb_cpu_loops FB_CPU_CAT(fb_cpu_loops_, FB_CPU_LOOPS_ISA) = {
    .isa = FB_CPU_ISA_LEVEL == 2   ? FB_CPU_ISA_AVX512
           : FB_CPU_ISA_LEVEL == 1 ? FB_CPU_ISA_AVX2
                                   : FB_CPU_ISA_BASELINE,
    .range = range,
    .fp16_widen = fp16_widen,
    .fp16_narrow = fp16_narrow,
    .exp_nonpositive = exp_nonpositive,
};
