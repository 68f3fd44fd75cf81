/* How the CPU kernels write their output: the store layer, one small piece that every pass
 * of cpu_kernels.c goes through when it writes a tile (a dtype conversion at store time can
 * live here too).
 *
 * Normal stores on x86 write-allocate: before a store the core reads the line it writes
 * (a "read for ownership"), so a pass that writes N floats also reads 4N bytes it never
 * uses: copy moves 2 + 1 = 3 arrays, not 2; fused add_relu 4, not 3; eager add -> relu
 * 7, not 5. Non-temporal ("streaming") stores (movntdq) gather a whole line in a
 * write-combining buffer and send it to memory without reading it and without keeping it
 * in the caches: the bytes moved are the model's again (2, 3, 5). The price: the written
 * data is not in the cache afterwards (a next pass that reads it comes from memory), and
 * the stores are weakly ordered, so a pass ends with a store fence (sfence) on every
 * thread before the join, after which its output is visible to every thread as usual.
 *
 * Where the compiler targets no x86 (no movntdq), streaming falls back to normal stores:
 * fb_cpu_streaming_stores_available() says so, and the backend reports it in the results
 * metadata (never silently). */
#ifndef FB_BACKENDS_CPU_CPU_STORE_H
#define FB_BACKENDS_CPU_CPU_STORE_H

#include <stdbool.h>
#include <stdint.h>

/* Whether this build writes with non-temporal stores when asked (x86-64, or 32-bit x86 with
 * SSE2); false: `streaming` below means normal stores. */
bool fb_cpu_streaming_stores_available(void);

/* What streaming means in this build, for the results metadata and notes: the instruction
 * used, or that it falls back to normal stores and why. A static string. */
const char *fb_cpu_streaming_stores_description(void);

/* Writes tile[0..len) to dst[0..len). Normal: plain stores. Streaming: non-temporal 16-byte
 * stores (movntdq) for the part of dst that is 16-byte aligned, plain stores for the
 * unaligned head (before dst's first 16-byte boundary) and tail (the last len % 4 floats
 * after it). tile and dst must not overlap; tile needs no alignment beyond a float's. len >= 0. A pass that streamed must call
 * fb_cpu_store_fence on each thread that stored before its threads join. */
void fb_cpu_store_tile(float *restrict dst, const float *restrict tile, int64_t len,
                       bool streaming);

/* The same for 16-bit elements (fp16, bf16): dst[0..len) = tile[0..len); streaming:
 * non-temporal 16-byte stores (movntdq, 8 elements) for the 16-byte aligned part of dst,
 * plain stores for the head (at most 7 elements) and the tail. dst 2-byte aligned. */
void fb_cpu_store_tile16(uint16_t *restrict dst, const uint16_t *restrict tile, int64_t len,
                         bool streaming);

/* Orders the calling thread's non-temporal stores before anything it does next (sfence);
 * nothing when !streaming or where streaming falls back to normal stores. */
void fb_cpu_store_fence(bool streaming);

#endif
