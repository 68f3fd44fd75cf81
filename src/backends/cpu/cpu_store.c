#include "backends/cpu/cpu_store.h"

#include <stddef.h>
#include <string.h>

/* SSE2's non-temporal 16-byte store (movntdq, _mm_stream_si128) is part of every x86-64
 * CPU, so the build needs no -march flag for it. AVX's 32-byte stores would need a target
 * attribute and a run-time check; it is not used: the write-combining buffers gather whole 64-byte lines from either
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
    return "non-temporal 16-byte stores (SSE2 movntdq, no read for ownership), "
           "unaligned head and tail stored normally, sfence per thread before the join";
#else
    return "none: this CPU build has no non-temporal store, so streaming runs normal "
           "(write-allocate) stores";
#endif
}

/* dst[0..bytes) = tile[0..bytes), for both element widths: streaming writes the part of dst
 * from its first 16-byte boundary in whole 16-byte non-temporal stores (movntdq: no read for
 * ownership) and the head before it and the tail after it with ordinary stores. dst is element-aligned, so head and tail are whole
 * elements. */
static void store_bytes(void *restrict dst, const void *restrict tile, size_t bytes,
                        bool streaming)
{
    char *d = dst;
    const char *t = tile;
#if FB_CPU_HAVE_STREAMING_STORES
    if (streaming && bytes > 0) {
        size_t head = (16 - (uintptr_t)d % 16) % 16;
        if (head > bytes)
            head = bytes;
        memcpy(d, t, head);
        size_t i = head;
        for (; i + 16 <= bytes; i += 16)
            _mm_stream_si128((__m128i *)(void *)(d + i),
                             _mm_loadu_si128((const __m128i *)(const void *)(t + i)));
        memcpy(d + i, t + i, bytes - i);
        return;
    }
#else
    (void)streaming;
#endif
    if (bytes > 0)
        memcpy(d, t, bytes);
}

void fb_cpu_store_tile(float *restrict dst, const float *restrict tile, int64_t len,
                       bool streaming)
{
    store_bytes(dst, tile, len > 0 ? (size_t)len * sizeof *dst : 0, streaming);
}

void fb_cpu_store_tile16(uint16_t *restrict dst, const uint16_t *restrict tile, int64_t len,
                         bool streaming)
{
    store_bytes(dst, tile, len > 0 ? (size_t)len * sizeof *dst : 0, streaming);
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
