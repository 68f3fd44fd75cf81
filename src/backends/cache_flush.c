/* The size of a cache flush (contract in backend.h). */
#include "backends/backend.h"

uint64_t fb_cache_flush_bytes(uint64_t cache_bytes)
{
    const uint64_t assumed = (uint64_t)64 << 20; /* when the cache size is unknown */
    return 3 * (cache_bytes ? cache_bytes : assumed);
}
