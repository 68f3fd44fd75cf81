/* The one clock of fusebench's host side: CLOCK_MONOTONIC (never jumps with the wall clock). */
#ifndef FB_COMMON_CLOCK_H
#define FB_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Seconds since an arbitrary start, as a double (ns resolution for any realistic uptime). */
static inline double fb_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The same clock in integer nanoseconds. */
static inline uint64_t fb_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#endif
