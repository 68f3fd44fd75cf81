/* The GPU's cache flush for cold measurements (the contract is flush_cache's, in
 * src/backends/backend.h): one read-only kernel over a buffer larger than twice the L2.
 * C interface, like kernels.h. */
#ifndef FB_KERNELS_CACHE_FLUSH_H
#define FB_KERNELS_CACHE_FLUSH_H

#include <stddef.h>

#include "common/error.h"
#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues on ctx->stream one kernel, fb_cache_flush_read, that reads every 16-byte word of
 * buffer (bytes long, 16-byte aligned, at least 32 bytes; its last 16 bytes are not read but
 * kept as the kernel's result slot) through L2 and folds them into one value that is almost
 * never stored. The loads are plain L2-allocating loads (ld.global.cg: no evict-first hint,
 * which would let the measured arrays survive), so the L2 ends holding the buffer's last
 * lines, all clean, and every dirty line it displaced was written back during the kernel.
 * The caller writes the buffer once when it allocates it (its contents do not matter, only
 * that its pages exist). Does not synchronize. Returns FB_OK or FB_ERR_RUNTIME (the launch's
 * error, naming the call, file and line), FB_ERR_USAGE for a buffer too small. */
int fb_cuda_cache_flush(const struct fb_cuda_launch_context *ctx, void *buffer, size_t bytes,
                        struct fb_error *err);

#ifdef __cplusplus
}
#endif

#endif
