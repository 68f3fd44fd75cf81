/* A per-kernel table of a trace, like torch.profiler's key_averages(): one row per kernel
 * name with its calls and times. Plain C, always compiled. The printer is in
 * kernel_table_print.h (formatting lives apart from the numbers). */
#ifndef FB_CUPTI_KERNEL_TABLE_H
#define FB_CUPTI_KERNEL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "cupti/kernel_trace.h"

struct fb_kernel_table_row {
    char name[FB_KERNEL_NAME_MAX];
    int64_t calls;        /* records with this name */
    double total_s;       /* sum of durations (end - start) */
    double avg_s;         /* total_s / calls */
    double min_s, max_s;  /* shortest and longest single record */
    double percent;       /* 100 * total_s / (sum of total_s over all rows); 0 when that is 0 */
};

struct fb_kernel_table {
    struct fb_kernel_table_row *rows; /* sorted by total_s, largest first; ties by name */
    size_t count;
    double total_s;                   /* sum over rows */
};

/* Builds the table of the kernel records of t on its measured stream (the records
 * fb_kernel_trace_summarize counts) and of its platform calls (FB_TRACE_PLATFORM: the memcpy
 * step timed on the host, a row of its own); other kinds and streams are left out. Replaces *out
 * (call fb_kernel_table_free afterwards, also after an error). Returns FB_OK, or
 * FB_ERR_RUNTIME when memory runs out. */
int fb_kernel_table_build(const struct fb_kernel_trace *t, struct fb_kernel_table *out,
                          struct fb_error *err);

void fb_kernel_table_free(struct fb_kernel_table *table);

#endif
