/* The two halves of the CPU backend's cache flush (backend.h, flush_cache), apart so that
 * tests can check them on small buffers. Both are OpenMP parallel passes over 64-byte lines:
 * every core sweeps its own share, so its private caches are swept too, not only the LLC. */
#ifndef FB_BACKENDS_CPU_CPU_FLUSH_H
#define FB_BACKENDS_CPU_CPU_FLUSH_H

#include <stddef.h>
#include <stdint.h>

#define FB_CPU_LINE_BYTES 64

/* Writes `byte` to the first byte of every line of buf (bytes long), once, when the flush
 * buffer is allocated: it backs every page with its own memory (an untouched buffer reads as
 * the kernel's one shared zero page, which would evict nothing) and, as the first touch,
 * spreads the pages over the threads' memory nodes. */
void fb_cpu_flush_prepare(unsigned char *buf, size_t bytes, unsigned char byte);

/* Reads the first byte of every line of buf, the last partial line included, and returns
 * their sum, so that no read can be optimised away. Writes nothing: the lines it brings in
 * are clean, and the dirty lines it displaces are written back while it runs. */
uint64_t fb_cpu_flush_read(const unsigned char *buf, size_t bytes);

#endif
