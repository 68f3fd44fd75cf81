/* The memory check before a sweep (contract in memory_check.h). */
#include "measure/memory_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "backends/cpu/cpu_info.h"
#include "common/text.h"

/* The address space this process may still map under its RLIMIT_AS (`ulimit -v`): the
 * limit minus what is mapped now (/proc/self/statm's first field, in pages). UINT64_MAX when
 * there is no limit. Allocations past it fail even when RAM is free, so the memory check
 * must count it. */
static uint64_t address_space_left(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    uint64_t mapped = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        unsigned long long pages = 0;
        if (fscanf(f, "%llu", &pages) == 1)
            mapped = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
        fclose(f);
    }
    return (uint64_t)lim.rlim_cur > mapped ? (uint64_t)lim.rlim_cur - mapped : 0;
}

int fb_memory_check(const struct fb_plan *plan, const struct fb_backend_ops *ops,
                    const struct fb_device_info *dev, struct fb_error *err)
{
    const bool on_cpu = strcmp(ops->name, "cpu") == 0;
    const char *origin = plan->sizes_origin;
    const uint64_t largest = plan->n_sizes ? plan->sizes[plan->n_sizes - 1] : 0;
    const uint64_t backend_bytes = plan->backend_bytes, total = plan->memory_bytes;
    uint64_t host_need = on_cpu ? total : total - backend_bytes;
    uint64_t host_total, host_available;
    fb_cpu_memory(&host_total, &host_available);
    char need[32], have[32];
    if (!on_cpu && backend_bytes > dev->memory_available_bytes) {
        fb_text_bytes(need, sizeof need, backend_bytes);
        fb_text_bytes(have, sizeof have, dev->memory_available_bytes);
        return fb_fail(err, FB_ERR_USAGE,
                       "%s: the largest size (%" PRIu64 " elements) needs %s of %s memory, %s "
                       "is free", origin, largest, need, dev->name, have);
    }
    /* 10% head room for everything else the process and the system hold: the message names
     * it, or "needs 91.6 MiB ... 93.8 MiB is available" reads as a wrong refusal. */
    char usable[32];
    if (host_available && host_need > host_available / 10 * 9) {
        fb_text_bytes(need, sizeof need, host_need);
        fb_text_bytes(have, sizeof have, host_available);
        fb_text_bytes(usable, sizeof usable, host_available / 10 * 9);
        return fb_fail(err, FB_ERR_USAGE,
                       "%s: the largest size (%" PRIu64 " elements) needs %s of host memory, %s "
                       "is available, of which a run uses at most 90%% (%s: 10%% is left to the "
                       "rest of the system)", origin, largest, need, have, usable);
    }
    uint64_t as_left = address_space_left();
    if (as_left != UINT64_MAX && host_need > as_left / 10 * 9) {
        fb_text_bytes(need, sizeof need, host_need);
        fb_text_bytes(have, sizeof have, as_left);
        fb_text_bytes(usable, sizeof usable, as_left / 10 * 9);
        return fb_fail(err, FB_ERR_USAGE,
                       "%s: the largest size (%" PRIu64 " elements) needs %s of host memory, but "
                       "the address-space limit (RLIMIT_AS, ulimit -v) leaves %s, of which a run "
                       "uses at most 90%% (%s: 10%% is left to the rest of the process)", origin,
                       largest, need, have, usable);
    }
    return FB_OK;
}
