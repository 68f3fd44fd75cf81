/* The CPU cache flush's passes (contracts in cpu_flush.h). */
#include "backends/cpu/cpu_flush.h"

void fb_cpu_flush_prepare(unsigned char *buf, size_t bytes, unsigned char byte)
{
    const int64_t count = (int64_t)bytes;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < count; i += FB_CPU_LINE_BYTES)
        buf[i] = byte;
}

uint64_t fb_cpu_flush_read(const unsigned char *buf, size_t bytes)
{
    const int64_t count = (int64_t)bytes;
    uint64_t sum = 0;
    /* Same static schedule as the prepare pass: each thread reads the lines it first touched. */
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (int64_t i = 0; i < count; i += FB_CPU_LINE_BYTES)
        sum += buf[i];
    return sum;
}
