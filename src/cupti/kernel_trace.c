/* Kernel traces and their summary: the method is described in kernel_trace.h. */
#include "cupti/kernel_trace.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fb_kernel_trace_init(struct fb_kernel_trace *t, uint32_t stream_id)
{
    memset(t, 0, sizeof(*t));
    t->stream_id = stream_id;
}

void fb_kernel_trace_clear(struct fb_kernel_trace *t)
{
    t->count = 0;
    t->dropped = 0;
}

int fb_kernel_trace_append(struct fb_kernel_trace *t, const struct fb_kernel_record *r,
                           struct fb_error *err)
{
    if (t->count == t->capacity) {
        size_t cap = t->capacity ? 2 * t->capacity : 64;
        struct fb_kernel_record *p = realloc(t->items, cap * sizeof(*p));
        if (!p)
            return fb_fail(err, FB_ERR_RUNTIME, "kernel trace: out of memory for %zu records",
                           cap);
        t->items = p;
        t->capacity = cap;
    }
    t->items[t->count++] = *r;
    return FB_OK;
}

void fb_kernel_trace_free(struct fb_kernel_trace *t)
{
    free(t->items);
    t->items = NULL;
    t->count = t->capacity = 0;
    t->dropped = 0;
}

static int by_start_then_correlation(const void *pa, const void *pb)
{
    const struct fb_kernel_record *a = *(const struct fb_kernel_record *const *)pa;
    const struct fb_kernel_record *b = *(const struct fb_kernel_record *const *)pb;
    if (a->start_ns != b->start_ns)
        return a->start_ns < b->start_ns ? -1 : 1;
    if (a->correlation_id != b->correlation_id)
        return a->correlation_id < b->correlation_id ? -1 : 1;
    return 0;
}

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static bool counts(const struct fb_kernel_trace *t, const struct fb_kernel_record *r)
{
    return r->kind == FB_TRACE_KERNEL &&
           (t->stream_id == FB_STREAM_ANY || r->stream_id == t->stream_id);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void not_ok(struct fb_kernel_summary *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out->ok = false;
    vsnprintf(out->reason, sizeof(out->reason), fmt, ap);
    va_end(ap);
}

int fb_kernel_trace_summarize(const struct fb_kernel_trace *t, int64_t calls, int64_t declared,
                              struct fb_kernel_summary *out, struct fb_error *err)
{
    memset(out, 0, sizeof(*out));
    out->launches_per_call = -1;
    out->kernel_time_s = out->kernel_time_min_s = out->kernel_time_max_s = NAN;
    if (calls < 1 || declared < 0)
        return fb_fail(err, FB_ERR_USAGE,
                       "kernel summary: calls must be >= 1 and declared launches >= 0 "
                       "(got %lld, %lld)", (long long)calls, (long long)declared);

    int64_t kernels = 0;
    for (size_t i = 0; i < t->count; i++)
        kernels += counts(t, &t->items[i]);
    out->kernels = kernels;
    if (kernels % calls == 0)
        out->launches_per_call = kernels / calls;

    if (t->dropped > 0) {
        not_ok(out, "%llu activity records dropped", (unsigned long long)t->dropped);
        return FB_OK;
    }
    if (out->launches_per_call < 0) {
        not_ok(out, "%lld kernels for %lld calls is not a whole number per call "
               "(declared %lld)", (long long)kernels, (long long)calls, (long long)declared);
        return FB_OK;
    }
    if (out->launches_per_call != declared) {
        not_ok(out, "counted %lld launches per call, the variant declares %lld",
               (long long)out->launches_per_call, (long long)declared);
        return FB_OK;
    }
    out->ok = true;
    if (declared == 0) {
        out->kernel_time_s = out->kernel_time_min_s = out->kernel_time_max_s = 0.0;
        return FB_OK;
    }

    /* Pointers, not copies: a record is ~300 bytes and only the order is needed. */
    const struct fb_kernel_record **order = malloc((size_t)kernels * sizeof(*order));
    double *per_call = malloc((size_t)calls * sizeof(*per_call));
    if (!order || !per_call) {
        free(order);
        free(per_call);
        out->ok = false;
        return fb_fail(err, FB_ERR_RUNTIME, "kernel summary: out of memory for %lld kernels",
                       (long long)kernels);
    }
    size_t k = 0;
    for (size_t i = 0; i < t->count; i++)
        if (counts(t, &t->items[i]))
            order[k++] = &t->items[i];
    qsort(order, k, sizeof(*order), by_start_then_correlation);

    for (int64_t c = 0; c < calls; c++) {
        uint64_t ns = 0;
        for (int64_t j = 0; j < declared; j++) {
            const struct fb_kernel_record *r = order[c * declared + j];
            ns += r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
        }
        per_call[c] = (double)ns * 1e-9;
    }
    qsort(per_call, (size_t)calls, sizeof(*per_call), by_value);
    /* Median of K values: the middle one, or the mean of the two middle ones when K is even. */
    out->kernel_time_s = calls % 2 ? per_call[calls / 2]
                                   : 0.5 * (per_call[calls / 2 - 1] + per_call[calls / 2]);
    out->kernel_time_min_s = per_call[0];
    out->kernel_time_max_s = per_call[calls - 1];
    free(order);
    free(per_call);
    return FB_OK;
}

enum fb_trace_kind fb_kernel_record_kind(const char *name)
{
    static const char prefix[] = FB_CACHE_FLUSH_KERNEL_PREFIX;
    if (name && strncmp(name, prefix, sizeof prefix - 1) == 0)
        return FB_TRACE_OTHER;
    return FB_TRACE_KERNEL;
}
