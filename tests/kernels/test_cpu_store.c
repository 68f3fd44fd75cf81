/* The CPU store layer (src/backends/cpu/cpu_store.h) by itself: fb_cpu_store_tile writes
 * exactly tile[0..len) to dst[0..len), every bit (NaN payloads included: a store must not
 * go through arithmetic), nothing before or after, at every 4-byte offset of dst within a
 * 64-byte line (the streaming head of 0..3 floats) and every length around the 16-byte
 * store (0..67: empty, head only, head and tail, several aligned stores), with normal and
 * with streaming stores; fb_cpu_store_tile16 likewise for 16-bit elements (fp16, bf16) at
 * every 2-byte offset; and the build says honestly whether it streams. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "backends/cpu/cpu_store.h"

#define GUARD 32                /* floats each side of the output, checked untouched */
#define MAX_LEN 67
#define POISON UINT32_C(0xffffffff)
_Static_assert(2 * GUARD + 16 + MAX_LEN <= 256, "the test buffer holds guards and tile");

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t next_bits(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static void check_store(bool streaming)
{
    /* 64-byte aligned, so offset o floats puts dst at byte 4 * o of a line */
    uint32_t *buf = aligned_alloc(64, 256 * sizeof(uint32_t)); /* a multiple of 64 bytes */
    uint32_t tile[MAX_LEN + 1];
    assert_non_null(buf);
    for (int off = 0; off < 16; off++) {
        for (int len = 0; len <= MAX_LEN; len++) {
            const size_t total = 2 * GUARD + 16 + MAX_LEN;
            for (size_t i = 0; i < total; i++)
                buf[i] = POISON;
            for (int i = 0; i < len; i++)
                tile[i] = next_bits() | 1; /* never the poison: odd, and random */
            float *dst = (float *)(buf + GUARD + off);
            /* tile offset by one float too: the layer must not assume an aligned tile */
            float src[MAX_LEN + 1];
            memcpy(src + 1, tile, (size_t)len * sizeof(float));
            fb_cpu_store_tile(dst, src + 1, len, streaming);
            fb_cpu_store_fence(streaming);
            for (size_t i = 0; i < total; i++) {
                const int64_t at = (int64_t)i - GUARD - off;
                const uint32_t want = at >= 0 && at < len ? tile[at] : POISON;
                if (buf[i] != want)
                    fail_msg("%s stores, dst offset %d floats, len %d: element %lld is "
                             "0x%08x, expected 0x%08x",
                             streaming ? "streaming" : "normal", off, len, (long long)at,
                             buf[i], want);
            }
        }
    }
    free(buf);
}

static void test_normal_stores_write_exactly_the_tile(void **state)
{
    (void)state;
    check_store(false);
}

static void test_streaming_stores_write_exactly_the_tile(void **state)
{
    (void)state;
    check_store(true);
}

/* The 16-bit store (fp16, bf16 tiles): every 2-byte offset of dst in a 64-byte line (the
 * streaming head of 0..7 elements) and every length around the 8-element store, exact bits,
 * nothing outside, normal and streaming. */
static void check_store16(bool streaming)
{
    enum { GUARD16 = 64, MAX16 = 67, TOTAL16 = 2 * GUARD16 + 32 + MAX16 };
    uint16_t *buf = aligned_alloc(64, 320 * sizeof(uint16_t)); /* 640 bytes: a multiple of 64 */
    uint16_t tile[MAX16 + 1], src[MAX16 + 2];
    assert_non_null(buf);
    _Static_assert(TOTAL16 <= 320, "the test buffer holds guards and tile");
    for (int off = 0; off < 32; off++) {
        for (int len = 0; len <= MAX16; len++) {
            for (size_t i = 0; i < TOTAL16; i++)
                buf[i] = 0xffffu;
            for (int i = 0; i < len; i++)
                tile[i] = (uint16_t)(next_bits() | 1); /* never the poison: odd */
            memcpy(src + 1, tile, (size_t)len * sizeof(uint16_t)); /* a misaligned tile */
            fb_cpu_store_tile16(buf + GUARD16 + off, src + 1, len, streaming);
            fb_cpu_store_fence(streaming);
            for (size_t i = 0; i < TOTAL16; i++) {
                const int64_t at = (int64_t)i - GUARD16 - off;
                const uint16_t want = at >= 0 && at < len ? tile[at] : 0xffffu;
                if (buf[i] != want)
                    fail_msg("%s 16-bit stores, dst offset %d elements, len %d: element %lld is "
                             "0x%04x, expected 0x%04x",
                             streaming ? "streaming" : "normal", off, len, (long long)at,
                             buf[i], want);
            }
        }
    }
    free(buf);
}

static void test_16_bit_stores_write_exactly_the_tile(void **state)
{
    (void)state;
    check_store16(false);
    check_store16(true);
}

/* On x86 the build has movntdq and must say so; elsewhere (or built as elsewhere, with
 * FB_CPU_NO_STREAMING_STORES: the test cpu_store_fallback) it must say it falls back. */
static void test_availability_is_stated(void **state)
{
    (void)state;
    const char *what = fb_cpu_streaming_stores_description();
    printf("streaming stores here: %s\n", what);
#if defined(FB_CPU_NO_STREAMING_STORES)
    assert_false(fb_cpu_streaming_stores_available());
    assert_non_null(strstr(what, "normal"));
#elif defined(__x86_64__)
    assert_true(fb_cpu_streaming_stores_available());
    assert_non_null(strstr(what, "movntdq"));
#else
    if (!fb_cpu_streaming_stores_available())
        assert_non_null(strstr(what, "normal"));
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_stores_write_exactly_the_tile),
        cmocka_unit_test(test_streaming_stores_write_exactly_the_tile),
        cmocka_unit_test(test_16_bit_stores_write_exactly_the_tile),
        cmocka_unit_test(test_availability_is_stated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
