/* Kernel activity records of one collection window, and what they say about a variant.
 *
 * Plain C, no CUPTI types: always compiled, so the aggregation is tested everywhere. The CUPTI
 * collector (cupti_session.h) fills a trace; fb_kernel_trace_summarize turns it into the
 * `launches` and `kernel_time_s` columns of a record.
 *
 * How the records become calls. The runner makes K calls of a variant, one after another, on
 * one stream, and synchronizes; a variant declares L launches per call (fb_variant.launches).
 *   1. Keep only kernel records on the measured stream: other streams (a library's helper
 *      stream, another thread's work) and other record kinds are not the variant's.
 *   2. Order them by start time (ties by correlation id, which CUPTI assigns in launch order).
 *      A stream runs its kernels in launch order, so this is also the launch order.
 *   3. launches per call = total / K. It must be a whole number and equal L; otherwise the
 *      point fails with a reason (a launch missing, an extra kernel, a replayed kernel).
 *   4. Call i is the kernels [i*L, (i+1)*L) of that order; its kernel time is the sum of their
 *      durations (end - start, ns). Sum, not span: the gaps between the kernels of a call are
 *      launch overhead, which the runner reports separately as time_median_s - kernel_time_s.
 *   5. kernel_time_s = median over the K calls of that sum, in seconds.
 * Any dropped record makes the window useless (a missing kernel shifts every later call), so
 * the point fails with "N activity records dropped". */
#ifndef FB_CUPTI_KERNEL_TRACE_H
#define FB_CUPTI_KERNEL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define FB_KERNEL_NAME_MAX 256

/* Matches every stream: for a trace whose measured stream could not be identified. */
#define FB_STREAM_ANY UINT32_MAX

enum fb_trace_kind {
    FB_TRACE_KERNEL,  /* a kernel execution */
    FB_TRACE_OTHER,   /* anything else (memcpy, memset, a kind added by a later CUPTI): ignored */
    /* Host-side records of --profile's trace (app/profile.c, output/trace_json.h), which
     * neither the summary nor the kernel table count as kernels: */
    FB_TRACE_LAUNCH,   /* the host issuing one launch of the call (an instant:
                          start_ns == end_ns, host clock) */
    FB_TRACE_PLATFORM, /* a call of the platform's own routine (the memcpy step: libc memcpy,
                          cudaMemcpyAsync), timed on the host: not a kernel of ours */
};

/* Kernels whose names begin so are the cold mode's cache flush (kernels/cache_flush.cu), which
 * the probe enqueues before each call: they are not the measured call's launches. */
#define FB_CACHE_FLUSH_KERNEL_PREFIX "fb_cache_flush"

/* The kind a kernel record named `name` gets: FB_TRACE_OTHER for a cache flush kernel (so it is
 * neither counted nor timed as the call's), FB_TRACE_KERNEL otherwise (NULL included). */
enum fb_trace_kind fb_kernel_record_kind(const char *name);

struct fb_kernel_record {
    enum fb_trace_kind kind;
    char name[FB_KERNEL_NAME_MAX]; /* demangled when possible; truncated to fit */
    uint64_t start_ns, end_ns;     /* GPU timestamps, ns */
    uint32_t stream_id;            /* CUPTI's stream id, unique within a context */
    uint32_t correlation_id;       /* ties the record to its launch call; grows with launches */
};

/* A growable list of records plus what the collector knows about the window. */
struct fb_kernel_trace {
    struct fb_kernel_record *items;
    size_t count, capacity;
    uint64_t dropped;   /* records CUPTI could not deliver during the window */
    uint32_t stream_id; /* the measured stream, or FB_STREAM_ANY */
};

/* An empty trace measuring `stream_id`. Never fails; no allocation until the first append. */
void fb_kernel_trace_init(struct fb_kernel_trace *t, uint32_t stream_id);

/* Empties the trace (keeps its memory, its stream, resets dropped). */
void fb_kernel_trace_clear(struct fb_kernel_trace *t);

/* Appends a copy of *r (capacity doubles as needed). Returns FB_OK, or FB_ERR_RUNTIME when
 * memory runs out (the trace is unchanged). */
int fb_kernel_trace_append(struct fb_kernel_trace *t, const struct fb_kernel_record *r,
                           struct fb_error *err);

/* Frees the records; the trace is then empty and may be reused. */
void fb_kernel_trace_free(struct fb_kernel_trace *t);

/* What a window says about the variant (see the top of this file for the method). */
struct fb_kernel_summary {
    bool ok;                   /* false: the point must be marked failed with `reason` */
    char reason[256];          /* "" when ok */
    int64_t kernels;           /* kernel records on the measured stream */
    int64_t launches_per_call; /* kernels / calls; -1 when not a whole number */
    double kernel_time_s;      /* median per-call summed kernel time; NaN unless ok */
    double kernel_time_min_s, kernel_time_max_s; /* over the calls; NaN unless ok */
};

/* Summarizes trace t for `calls` calls of a variant that declares `declared` launches per
 * call. t is not modified. Returns FB_OK whenever the summary could be made, ok or not
 * (out->ok and out->reason say which); FB_ERR_USAGE if calls < 1 or declared < 0;
 * FB_ERR_RUNTIME when memory runs out. When declared == 0 (n == 0 launches nothing) and no
 * kernel was seen, the summary is ok with 0 launches and 0 s. */
int fb_kernel_trace_summarize(const struct fb_kernel_trace *t, int64_t calls, int64_t declared,
                              struct fb_kernel_summary *out, struct fb_error *err);

#endif
