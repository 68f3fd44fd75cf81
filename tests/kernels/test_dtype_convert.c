/* The conversions of kernels/dtype_convert.h between fp32 and fp16 / bf16, which the CPU
 * kernels, the host reference and the emulated CUDA kernels use: against gcc's _Float16
 * (libgcc's correctly rounded soft conversion, where the compiler has the type) and against
 * a rounding written out here from the definition (the nearest of the two neighbouring
 * values by exact distance in double, ties to the even one), over every fp16 and bf16 value,
 * every rounding boundary between them (the midpoints and the fp32 values next to them) and
 * a dense stride through all fp32 bit patterns; then the named cases: NaNs of both signs with
 * payloads, infinities, the type's subnormals, fp32 values that become subnormal or zero,
 * overflow to infinity, ties to even. (All 2^32 fp32 values were also checked once, by hand,
 * against _Float16 and the bf16 definition: 0 differences; too slow for every run.) */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "backends/cpu/cpu_kernels.h"
#include "dtype_convert.h"
#include "elementwise_contract.h"

/* ---- the definition, written out independently ---- */

/* The value of 16 bits of fp16 or bf16, from the definition of the format. */
static double value16(enum fb_dtype d, uint32_t h)
{
    const int frac_bits = d == FB_DTYPE_FP16 ? 10 : 7;
    const int exp_bits = d == FB_DTYPE_FP16 ? 5 : 8;
    const int bias = (1 << (exp_bits - 1)) - 1;
    const uint32_t e = (h >> frac_bits) & ((1u << exp_bits) - 1), m = h & ((1u << frac_bits) - 1);
    const double sign = (h & 0x8000u) ? -1.0 : 1.0;
    if (e == (1u << exp_bits) - 1)
        return m ? NAN : sign * INFINITY;
    if (e == 0)
        return sign * ldexp((double)m, 1 - bias - frac_bits);
    return sign * ldexp((double)(m | (1u << frac_bits)), (int)e - bias - frac_bits);
}

static bool is_nan16(enum fb_dtype d, uint32_t h)
{
    return fb_dtype_bits_are_nan(d, h);
}

/* Round-to-nearest-even of the finite fp32 value x to type d, by search: the two 16-bit
 * patterns of x's sign around |x| (the largest magnitude not above it and the next), the
 * nearer by exact distance in double (every value involved is exact in double), ties to
 * the one with an even last bit; past the largest finite value, the next pattern is Inf
 * and the distance to it is measured to 2^(emax + 1), as IEEE-754 rounds. */
static uint32_t round16(enum fb_dtype d, float x)
{
    const uint32_t sign = signbit(x) ? 0x8000u : 0u;
    const double ax = fabs((double)x);
    const uint32_t inf = d == FB_DTYPE_FP16 ? 0x7c00u : 0x7f80u;
    uint32_t lo = 0, hi = inf; /* magnitudes: value16(lo) <= ax < value16(hi) */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (value16(d, mid) <= ax)
            lo = mid;
        else
            hi = mid;
    }
    if (value16(d, lo) == ax)
        return sign | lo;
    const double vhi = hi == inf ? (d == FB_DTYPE_FP16 ? 65536.0 : ldexp(1.0, 128)) : value16(d, hi);
    const double dlo = ax - value16(d, lo), dhi = vhi - ax;
    if (dlo < dhi)
        return sign | lo;
    if (dhi < dlo)
        return sign | hi;
    return sign | ((lo & 1u) ? hi : lo);
}

static uint32_t narrow(enum fb_dtype d, float x)
{
    return d == FB_DTYPE_FP16 ? fb_fp16_from_float(x) : fb_bf16_from_float(x);
}

static float widen(enum fb_dtype d, uint32_t h)
{
    return d == FB_DTYPE_FP16 ? fb_float_from_fp16((uint16_t)h) : fb_float_from_bf16((uint16_t)h);
}

static const char *name(enum fb_dtype d)
{
    return d == FB_DTYPE_FP16 ? "fp16" : "bf16";
}

/* One fp32 value checked: NaN gives a quiet NaN of the same sign, anything else the
 * definition's rounding (and _Float16's, for fp16 where the compiler has it). */
static void check_narrow(enum fb_dtype d, uint32_t bits)
{
    const float x = fb_bits_float(bits);
    const uint32_t got = narrow(d, x);
    if (isnan(x)) {
        const uint32_t quiet = d == FB_DTYPE_FP16 ? 0x0200u : 0x0040u;
        if (!is_nan16(d, got) || !(got & quiet) || (got & 0x8000u) != ((bits >> 16) & 0x8000u))
            fail_msg("%s(0x%08" PRIx32 ", a NaN) = 0x%04" PRIx32 ": not a quiet NaN of its sign",
                     name(d), bits, got);
        return;
    }
    const uint32_t want = round16(d, x);
    if (got != want)
        fail_msg("%s(0x%08" PRIx32 " = %.9g) = 0x%04" PRIx32 ", the definition says 0x%04" PRIx32,
                 name(d), bits, (double)x, got, want);
#ifdef __FLT16_MANT_DIG__
    if (d == FB_DTYPE_FP16) {
        _Float16 h = (_Float16)x;
        uint16_t hb;
        memcpy(&hb, &h, sizeof hb);
        if (got != hb)
            fail_msg("fp16(0x%08" PRIx32 " = %.9g) = 0x%04" PRIx32 ", _Float16 says 0x%04x",
                     bits, (double)x, got, hb);
    }
#endif
}

/* ---- widening ---- */

static void test_every_16_bit_value_widens_exactly(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        const enum fb_dtype d = t ? FB_DTYPE_BF16 : FB_DTYPE_FP16;
        for (uint32_t h = 0; h < 0x10000u; h++) {
            const float got = widen(d, h);
            const double want = value16(d, h);
            if (isnan(want)) {
                /* a NaN, its sign and payload kept; fp16's quieted (as F16C does), bf16's as
                 * it was (a plain shift) */
                const uint32_t g = fb_float_bits(got), frac = d == FB_DTYPE_FP16 ? 10 : 7;
                const uint32_t quiet = d == FB_DTYPE_FP16 ? 0x200u : 0u;
                if (!isnan(got) || (g >> 31) != (h >> 15) ||
                    ((g >> (23 - frac)) & ((1u << frac) - 1)) != ((h & ((1u << frac) - 1)) | quiet))
                    fail_msg("%s 0x%04" PRIx32 " (NaN) widened to 0x%08" PRIx32, name(d), h, g);
                continue;
            }
            if ((double)got != want || !signbit(got) != !signbit(want))
                fail_msg("%s 0x%04" PRIx32 " = %.17g widened to %.17g", name(d), h, want,
                         (double)got);
#ifdef __FLT16_MANT_DIG__
            if (d == FB_DTYPE_FP16) {
                _Float16 x;
                uint16_t hb = (uint16_t)h;
                memcpy(&x, &hb, sizeof x);
                assert_int_equal(fb_float_bits((float)x), fb_float_bits(got));
            }
#endif
            /* and back: every value is its own rounding */
            assert_int_equal(narrow(d, got), h);
        }
    }
}

/* ---- narrowing ---- */

/* Around every rounding boundary: for each pair of neighbouring 16-bit values, the fp32
 * midpoint between them (a tie) and the fp32 values one and two steps either side of it,
 * and each value itself and its fp32 neighbours. */
static void test_narrowing_rounds_to_nearest_even_at_every_boundary(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        const enum fb_dtype d = t ? FB_DTYPE_BF16 : FB_DTYPE_FP16;
        const uint32_t inf = t ? 0x7f80u : 0x7c00u;
        for (uint32_t sign = 0; sign <= 0x8000u; sign += 0x8000u) {
            for (uint32_t m = 0; m < inf; m++) {
                const double lo = value16(d, m);
                const double hi = m + 1 == inf ? (t ? ldexp(1.0, 128) : 65536.0)
                                               : value16(d, m + 1);
                const double mid = (lo + hi) / 2; /* exact in double */
                const float points[] = {(float)lo, (float)mid};
                for (int p = 0; p < 2; p++) {
                    if (isinf(points[p]))
                        continue; /* bf16's last midpoint is 2^128 - 2^119... still finite */
                    uint32_t b = fb_float_bits(points[p]) | (sign << 16);
                    for (int step = -2; step <= 2; step++) {
                        const uint32_t s = b + (uint32_t)step;
                        if (((s ^ b) & 0x80000000u) == 0) /* stay on the same side of zero */
                            check_narrow(d, s);
                    }
                }
            }
        }
    }
}

/* A stride through all 2^32 patterns (every exponent, NaNs and infinities included). */
static void test_narrowing_matches_the_definition_across_all_fp32(void **state)
{
    (void)state;
    for (uint64_t u = 0; u <= 0xffffffffu; u += 4099)
        for (int t = 0; t < 2; t++)
            check_narrow(t ? FB_DTYPE_BF16 : FB_DTYPE_FP16, (uint32_t)u);
}

/* ---- the cases by name ---- */

struct named {
    enum fb_dtype d;
    uint32_t in;  /* fp32 bits */
    uint32_t out; /* 16 bits; for a NaN: some quiet NaN of that sign */
    const char *why;
};

static const struct named named_cases[] = {
    {FB_DTYPE_FP16, 0x7fc00000u, 0x7e00u, "quiet NaN"},
    {FB_DTYPE_FP16, 0xffc00000u, 0xfe00u, "negative quiet NaN"},
    {FB_DTYPE_FP16, 0x7f800001u, 0x7e00u, "signalling NaN, payload in the low bits only"},
    {FB_DTYPE_FP16, 0xff812345u, 0xfe00u, "negative signalling NaN with a payload"},
    {FB_DTYPE_FP16, 0x7f800000u, 0x7c00u, "+Inf"},
    {FB_DTYPE_FP16, 0xff800000u, 0xfc00u, "-Inf"},
    {FB_DTYPE_FP16, 0x477fe000u, 0x7bffu, "65504, the largest finite, stays"},
    {FB_DTYPE_FP16, 0x477fefffu, 0x7bffu, "just under 65520 rounds down to 65504"},
    {FB_DTYPE_FP16, 0x477ff000u, 0x7c00u, "65520: the tie between 65504 and 2^16 goes to even = Inf"},
    {FB_DTYPE_FP16, 0x47c35000u, 0x7c00u, "1e5 overflows to Inf"},
    {FB_DTYPE_FP16, 0x7f7fffffu, 0x7c00u, "FLT_MAX overflows to Inf"},
    {FB_DTYPE_FP16, 0xc77ff000u, 0xfc00u, "-65520 to -Inf"},
    {FB_DTYPE_FP16, 0x38800000u, 0x0400u, "2^-14, the smallest normal"},
    {FB_DTYPE_FP16, 0x387fc000u, 0x03ffu, "the largest subnormal, exact"},
    {FB_DTYPE_FP16, 0x387fe000u, 0x0400u, "half way from the largest subnormal up: tie to even (2^-14)"},
    {FB_DTYPE_FP16, 0x33800000u, 0x0001u, "2^-24, the smallest subnormal"},
    {FB_DTYPE_FP16, 0x35800000u, 0x0010u, "2^-20 becomes a subnormal (16 x 2^-24), exact"},
    {FB_DTYPE_FP16, 0x33000000u, 0x0000u, "2^-25: a tie between 0 and 2^-24, to even (+0)"},
    {FB_DTYPE_FP16, 0x33000001u, 0x0001u, "just over 2^-25 rounds up to 2^-24"},
    {FB_DTYPE_FP16, 0x33c00000u, 0x0002u, "1.5 x 2^-24: a tie, to even (2 x 2^-24)"},
    {FB_DTYPE_FP16, 0xb3000000u, 0x8000u, "-2^-25 rounds to -0"},
    {FB_DTYPE_FP16, 0x00000001u, 0x0000u, "an fp32 subnormal becomes +0"},
    {FB_DTYPE_FP16, 0x80000000u, 0x8000u, "-0 stays -0"},
    {FB_DTYPE_FP16, 0x3f801000u, 0x3c00u, "1 + 2^-11: a tie, to even (1)"},
    {FB_DTYPE_FP16, 0x3f803000u, 0x3c02u, "1 + 3 x 2^-11: a tie, to even (1 + 2^-9)"},
    {FB_DTYPE_FP16, 0x3f801001u, 0x3c01u, "just over the tie rounds up"},
    {FB_DTYPE_BF16, 0x7fc00000u, 0x7fc0u, "quiet NaN"},
    {FB_DTYPE_BF16, 0xffc00001u, 0xffc0u, "negative quiet NaN with a payload"},
    {FB_DTYPE_BF16, 0x7f800001u, 0x7fc0u, "signalling NaN, payload in the dropped half only: not Inf"},
    {FB_DTYPE_BF16, 0xff800001u, 0xffc0u, "the same, negative"},
    {FB_DTYPE_BF16, 0x7f800000u, 0x7f80u, "+Inf"},
    {FB_DTYPE_BF16, 0xff800000u, 0xff80u, "-Inf"},
    {FB_DTYPE_BF16, 0x7f7fffffu, 0x7f80u, "FLT_MAX rounds up to Inf"},
    {FB_DTYPE_BF16, 0x7f7f8000u, 0x7f80u, "the tie above the largest finite bf16 goes to even = Inf"},
    {FB_DTYPE_BF16, 0x7f7f7fffu, 0x7f7fu, "just under that tie stays finite"},
    {FB_DTYPE_BF16, 0xff7fffffu, 0xff80u, "-FLT_MAX to -Inf"},
    {FB_DTYPE_BF16, 0x00000001u, 0x0000u, "the smallest fp32 subnormal to +0"},
    {FB_DTYPE_BF16, 0x00008000u, 0x0000u, "a tie between 0 and the smallest bf16 subnormal: +0"},
    {FB_DTYPE_BF16, 0x00018000u, 0x0002u, "a tie between subnormals 1 and 2: to even (2)"},
    {FB_DTYPE_BF16, 0x007fffffu, 0x0080u, "the largest fp32 subnormal rounds up to the smallest normal"},
    {FB_DTYPE_BF16, 0x3f808000u, 0x3f80u, "1 + 2^-8: a tie, to even (1)"},
    {FB_DTYPE_BF16, 0x3f818000u, 0x3f82u, "1 + 3 x 2^-8: a tie, to even"},
    {FB_DTYPE_BF16, 0x80000000u, 0x8000u, "-0 stays -0"},
};

static void test_named_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof named_cases / sizeof named_cases[0]; i++) {
        const struct named *c = &named_cases[i];
        const uint32_t got = narrow(c->d, fb_bits_float(c->in));
        const bool ok = is_nan16(c->d, c->out)
                            ? is_nan16(c->d, got) && (got & 0x8000u) == (c->out & 0x8000u) &&
                                  (got & (c->d == FB_DTYPE_FP16 ? 0x0200u : 0x0040u))
                            : got == c->out;
        if (!ok)
            fail_msg("%s(0x%08" PRIx32 "): 0x%04" PRIx32 ", expected 0x%04" PRIx32 " (%s)",
                     name(c->d), c->in, got, c->out, c->why);
        check_narrow(c->d, c->in); /* and the definition agrees */
    }
}

/* The helpers the runner and the reference use, at each type. */
static void test_load_store_and_round_follow_the_type(void **state)
{
    (void)state;
    uint16_t h[2];
    float f[2];
    fb_dtype_store(FB_DTYPE_FP16, h, 1, 65520.0f);
    assert_int_equal(h[1], 0x7c00);
    assert_true(isinf(fb_dtype_load(FB_DTYPE_FP16, h, 1)));
    fb_dtype_store(FB_DTYPE_BF16, h, 0, 1.00390625f); /* 1 + 2^-8: tie to even */
    assert_int_equal(h[0], 0x3f80);
    assert_int_equal(fb_dtype_bits(FB_DTYPE_BF16, h, 0), 0x3f80);
    assert_true(fb_dtype_load(FB_DTYPE_BF16, h, 0) == 1.0f);
    fb_dtype_store(FB_DTYPE_FP32, f, 1, 0.1f);
    assert_true(f[1] == 0.1f);
    assert_int_equal(fb_dtype_bits(FB_DTYPE_FP32, f, 1), fb_float_bits(0.1f));
    assert_true(fb_round_to_dtype(FB_DTYPE_FP16, 0.1f) == 0.0999755859375f);
    assert_true(fb_round_to_dtype(FB_DTYPE_BF16, 0.1f) == 0.10009765625f);
    assert_true(fb_round_to_dtype(FB_DTYPE_FP32, 0.1f) == 0.1f);
    assert_int_equal(fb_dtype_size(FB_DTYPE_FP32), 4);
    assert_int_equal(fb_dtype_size(FB_DTYPE_FP16), 2);
    assert_int_equal(fb_dtype_size(FB_DTYPE_BF16), 2);
    /* 0xFF bytes, the runner's poison, are a NaN in all three */
    memset(h, 0xff, sizeof h);
    memset(f, 0xff, sizeof f);
    assert_true(isnan(fb_dtype_load(FB_DTYPE_FP16, h, 0)));
    assert_true(isnan(fb_dtype_load(FB_DTYPE_BF16, h, 0)));
    assert_true(isnan(fb_dtype_load(FB_DTYPE_FP32, f, 0)));
}

/* The contract's comparison at the 16-bit types. */
static void test_contract_compares_16_bit_patterns(void **state)
{
    (void)state;
    assert_true(fb_dtype_result_matches(FB_DTYPE_FP16, 0x7e00u, 0xfe01u)); /* NaN for NaN */
    assert_false(fb_dtype_result_matches(FB_DTYPE_FP16, 0x7e00u, 0x7c00u));
    assert_false(fb_dtype_result_matches(FB_DTYPE_FP16, 0x0000u, 0x8000u)); /* +0 is not -0 */
    assert_true(fb_dtype_result_matches(FB_DTYPE_BF16, 0x7fc0u, 0x7f81u));
    assert_false(fb_dtype_result_matches(FB_DTYPE_BF16, 0x7e00u, 0x7fc0u)); /* 0x7e00 is finite */
    assert_true(fb_dtype_result_within_ulps(FB_DTYPE_FP16, 0x3c00u, 0x3bffu, 1));
    assert_true(fb_dtype_result_within_ulps(FB_DTYPE_FP16, 0x0000u, 0x8001u, 1));
    assert_false(fb_dtype_result_within_ulps(FB_DTYPE_FP16, 0x3c00u, 0x3c02u, 1));
    assert_false(fb_dtype_result_within_ulps(FB_DTYPE_FP16, 0x7bffu, 0x7c00u, 1)); /* Inf */
    assert_true(fb_dtype_result_within_ulps(FB_DTYPE_BF16, 0xbf80u, 0xbf81u, 1));
    assert_false(fb_dtype_result_within_ulps(FB_DTYPE_BF16, 0x7fc0u, 0x3f80u, 1));
}

/* The CPU kernels' fp16 tile conversions, of every instruction set this build has and this
 * CPU runs (cpu_loops.h: baseline, avx2, avx512), each with F16C (vcvtph2ps / vcvtps2ph, 8 or
 * 16 elements an instruction; the baseline only where the CPU has it) and with the portable
 * code vectorised at the set's width, against the scalar conversions of dtype_convert.h
 * (which the tests above hold to the definition): every fp16 value widened, and narrowed
 * every fp32 value at and around every fp16 rounding boundary (the values, the midpoints, one
 * and two steps either side, both signs) plus a stride through all fp32 patterns; bit for
 * bit, NaNs included; at lengths that leave the 8- and 16-element steps a tail. */
static void check_fp16_tiles(const struct fb_cpu_loops *loops, bool f16c)
{
    static uint16_t h[0x10000];
    static float f[0x10000];
    for (uint32_t i = 0; i < 0x10000u; i++)
        h[i] = (uint16_t)i;
    loops->fp16_widen(h, f, 0x10000 - 3, f16c);
    for (uint32_t i = 0; i < 0x10000u - 3; i++)
        if (fb_float_bits(f[i]) != fb_float_bits(fb_float_from_fp16((uint16_t)i)))
            fail_msg("%s%s: fp16 0x%04x widened to 0x%08x, dtype_convert.h 0x%08x",
                     fb_cpu_isa_name(loops->isa), f16c ? " F16C" : " portable", i,
                     fb_float_bits(f[i]), fb_float_bits(fb_float_from_fp16((uint16_t)i)));
    /* fp32 values to narrow, a batch at a time */
    static uint32_t in[0x10000];
    size_t k = 0;
    uint64_t u = 0;
    for (int phase = 0; phase < 2; phase++) {
        for (uint32_t m = 0;; m++) {
            if (phase == 0) { /* the boundaries: around each value and each midpoint */
                if (m >= 0x7c00u)
                    break;
                const double lo = value16(FB_DTYPE_FP16, m);
                const double hi = m + 1 == 0x7c00u ? 65536.0 : value16(FB_DTYPE_FP16, m + 1);
                const uint32_t centres[2] = {fb_float_bits((float)lo),
                                             fb_float_bits((float)((lo + hi) / 2))};
                for (int c = 0; c < 2; c++)
                    for (int s = -2; s <= 2; s++)
                        for (uint32_t sign = 0; sign < 2; sign++)
                            in[k++] = (centres[c] + (uint32_t)s) ^ (sign << 31);
            } else { /* a stride through every pattern */
                if (u > 0xffffffffu)
                    break;
                in[k++] = (uint32_t)u;
                u += 65537;
            }
            if (k > 0x10000 - 32 || (phase == 0 && m + 1 >= 0x7c00u) || (phase == 1 && u > 0xffffffffu)) {
                loops->fp16_narrow((const float *)(const void *)in, h, (int64_t)k, f16c);
                for (size_t j = 0; j < k; j++)
                    if (h[j] != fb_fp16_from_float(fb_bits_float(in[j])))
                        fail_msg("%s%s: fp32 0x%08x narrowed to 0x%04x, dtype_convert.h 0x%04x",
                                 fb_cpu_isa_name(loops->isa), f16c ? " F16C" : " portable",
                                 in[j], h[j], fb_fp16_from_float(fb_bits_float(in[j])));
                k = 0;
            }
        }
    }
}

static void test_fp16_tiles_of_every_instruction_set_match_dtype_convert(void **state)
{
    (void)state;
    int sets = 0;
    for (int isa = 0; isa < FB_CPU_ISA_COUNT; isa++) {
        const struct fb_cpu_loops *loops = fb_cpu_loops_built((enum fb_cpu_isa)isa);
        if (!loops || !fb_cpu_isa_supported((enum fb_cpu_isa)isa)) {
            printf("%s: not %s here\n", fb_cpu_isa_name((enum fb_cpu_isa)isa),
                   loops ? "supported by this CPU" : "in this build");
            continue;
        }
        check_fp16_tiles(loops, false);
        check_fp16_tiles(loops, true);
        sets++;
        printf("%s: fp16 tiles, portable and %s, the same bits as dtype_convert.h\n",
               fb_cpu_isa_name((enum fb_cpu_isa)isa),
               isa == FB_CPU_ISA_BASELINE && !fb_cpu_has_f16c() ? "(no F16C here) portable again"
                                                                : "F16C");
    }
    assert_true(sets >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_16_bit_value_widens_exactly),
        cmocka_unit_test(test_narrowing_rounds_to_nearest_even_at_every_boundary),
        cmocka_unit_test(test_narrowing_matches_the_definition_across_all_fp32),
        cmocka_unit_test(test_named_cases),
        cmocka_unit_test(test_load_store_and_round_follow_the_type),
        cmocka_unit_test(test_contract_compares_16_bit_patterns),
        cmocka_unit_test(test_fp16_tiles_of_every_instruction_set_match_dtype_convert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
