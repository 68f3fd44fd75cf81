#include "backends/cpu/cpu_store.h"

#include <stddef.h>
#include <string.h>

/* SSE2's _mm_stream_ps (movntps) is part of every x86-64 CPU, so the build needs no -march
 * flag for it. AVX's 32-byte _mm256_stream_ps would need a target attribute and a run-time
 * check; it is not used: the write-combining buffers gather whole 64-byte lines from either
 * width, so the width should not change the traffic (a quick comparison on the shared 2-core
 * VM was too noisy to show a difference either way). */
/* FB_CPU_NO_STREAMING_STORES builds the fallback of other architectures here (a test does). */
#if !defined(FB_CPU_NO_STREAMING_STORES) &&                                                    \
    (defined(__x86_64__) || defined(_M_X64) || (defined(__i386__) && defined(__SSE2__)))
#define FB_CPU_HAVE_STREAMING_STORES 1
#include <emmintrin.h>
#else
#define FB_CPU_HAVE_STREAMING_STORES 0
#endif

bool fb_cpu_streaming_stores_available(void)
{
    return FB_CPU_HAVE_STREAMING_STORES;
}

const char *fb_cpu_streaming_stores_description(void)
{
#if FB_CPU_HAVE_STREAMING_STORES
    return "non-temporal 16-byte stores (SSE2 movntps, no read for ownership), "
           "unaligned head and tail stored normally, sfence per thread before the join";
#else
    return "none: this CPU build has no non-temporal store, so streaming runs normal "
           "(write-allocate) stores";
#endif
}

static void store_plain(float *restrict dst, const float *restrict tile, int64_t len)
{
    if (len > 0)
        memcpy(dst, tile, (size_t)len * sizeof *dst);
}

void fb_cpu_store_tile(float *restrict dst, const float *restrict tile, int64_t len,
                       bool streaming)
{
#if FB_CPU_HAVE_STREAMING_STORES
    const uintptr_t addr = (uintptr_t)dst;
    if (streaming && len > 0) {
        /* floats up to dst's first 16-byte boundary, at most 3 */
        int64_t head = (int64_t)((16 - addr % 16) % 16 / sizeof(float));
        if (head > len)
            head = len;
        store_plain(dst, tile, head);
        int64_t i = head;
        for (; i + 4 <= len; i += 4)
            _mm_stream_ps(dst + i, _mm_loadu_ps(tile + i));
        store_plain(dst + i, tile + i, len - i);
        return;
    }
#else
    (void)streaming;
#endif
    store_plain(dst, tile, len);
}

static void store_plain16(uint16_t *restrict dst, const uint16_t *restrict tile, int64_t len)
{
    if (len > 0)
        memcpy(dst, tile, (size_t)len * sizeof *dst);
}

void fb_cpu_store_tile16(uint16_t *restrict dst, const uint16_t *restrict tile, int64_t len,
                         bool streaming)
{
#if FB_CPU_HAVE_STREAMING_STORES
    const uintptr_t addr = (uintptr_t)dst;
    if (streaming && len > 0) {
        /* elements up to dst's first 16-byte boundary, at most 7 (dst is 2-byte aligned) */
        int64_t head = (int64_t)((16 - addr % 16) % 16 / sizeof(uint16_t));
        if (head > len)
            head = len;
        store_plain16(dst, tile, head);
        int64_t i = head;
        for (; i + 8 <= len; i += 8) /* movntdq: 8 elements, no read for ownership */
            _mm_stream_si128((__m128i *)(void *)(dst + i),
                             _mm_loadu_si128((const __m128i *)(const void *)(tile + i)));
        store_plain16(dst + i, tile + i, len - i);
        return;
    }
#else
    (void)streaming;
#endif
    store_plain16(dst, tile, len);
}

void fb_cpu_store_fence(bool streaming)
{
#if FB_CPU_HAVE_STREAMING_STORES
    if (streaming)
        _mm_sfence();
#else
    (void)streaming;
#endif
}
