/* What the CPU backend reports about the machine, read from Linux's /proc and /sys.
 * Each function degrades to "unknown" (0 or "") rather than failing. */
#ifndef FB_BACKENDS_CPU_CPU_INFO_H
#define FB_BACKENDS_CPU_CPU_INFO_H

#include <stddef.h>
#include <stdint.h>

/* The "model name" of /proc/cpuinfo, or "unknown CPU". */
void fb_cpu_model_name(char *name, size_t size);

/* Size in bytes of the highest-level data/unified cache of CPU 0 (the last-level cache, which
 * decides where the CPU's middle regime ends), with its name ("L3") in name when non-NULL.
 * 0 when /sys does not say. */
uint64_t fb_cpu_last_level_cache(char *name, size_t size);

/* MemTotal and MemAvailable of /proc/meminfo, in bytes (0 when unreadable). */
void fb_cpu_memory(uint64_t *total, uint64_t *available);

/* The smallest nonzero step between two CLOCK_MONOTONIC readings, measured (the resolution
 * clock_getres reports is 1 ns, far finer than what a reading costs). */
double fb_cpu_timer_resolution(void);

#endif
