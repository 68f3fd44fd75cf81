/* Kernel activity windows (contracts in cupti_session.h).
 *
 * CUPTI hands activity buffers to two callbacks that carry no user pointer, so the records of
 * the open window are collected in one process-wide sink, under a mutex because CUPTI may call
 * back from its own thread. Only one CUPTI session is open at a time (cupti_session.h), so the
 * sink is that session's.
 *
 * Sequence (CUDA13-NOTES.md): register callbacks; enable CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
 * (KIND_KERNEL would serialize the kernels it observes); the caller launches and synchronizes;
 * cuptiActivityFlushAll(FORCED) delivers every buffer before it returns; read each buffer with
 * cuptiActivityGetNextRecord; count what CUPTI dropped. */
#include <cuda.h>
#include <cupti.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cupti/cupti_check.h"
#include "cupti/cupti_internal.h"

/* The kernel record of this CUPTI: CUpti_ActivityKernel10 from CUDA 13.0 (CUPTI_API_VERSION
 * 130001), CUpti_ActivityKernel9 up to 12.9 (CUPTI_API_VERSION 28), which has no Kernel10.
 * Only fields both share, at the front of the record, are read (kind, start, end, streamId,
 * correlationId, name), and CUPTI hands out the record of the version the program was built
 * against. */
#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 fb_activity_kernel;
#else
typedef CUpti_ActivityKernel9 fb_activity_kernel;
#endif

/* 8 MiB holds ~30000 kernel records (~270 bytes each): a window of K calls of two kernels
 * fills a fraction of one buffer. CUPTI wants 8-byte aligned buffers. */
#define FB_ACTIVITY_BUFFER_BYTES ((size_t)8 << 20)
#define FB_ACTIVITY_BUFFER_ALIGN 8

/* libstdc++'s demangler, which has a C ABI (the CUDA build links -lstdc++). Declared here
 * because its header, cxxabi.h, is C++. Kernel names arrive mangled ("_Z...I5AddOpEv..."). */
char *__cxa_demangle(const char *mangled, char *out, size_t *length, int *status);

static pthread_mutex_t sink_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fb_kernel_trace sink; /* the open window's records */
static bool sink_collecting;        /* false outside a window: buffers are read and discarded */
static bool sink_out_of_memory;
static bool callbacks_registered;

static void copy_name(char *dst, const char *mangled)
{
    const char *name = mangled ? mangled : "(unnamed kernel)";
    int status = -1;
    char *demangled = mangled ? __cxa_demangle(mangled, NULL, NULL, &status) : NULL;
    if (status == 0 && demangled)
        name = demangled;
    size_t len = strlen(name);
    if (len > FB_KERNEL_NAME_MAX - 1)
        len = FB_KERNEL_NAME_MAX - 1;
    memcpy(dst, name, len);
    dst[len] = '\0';
    free(demangled);
}

static void CUPTIAPI on_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(FB_ACTIVITY_BUFFER_ALIGN, FB_ACTIVITY_BUFFER_BYTES);
    /* A NULL buffer makes CUPTI drop records, which the dropped count then reports. */
    *size = *buffer ? FB_ACTIVITY_BUFFER_BYTES : 0;
    *max_records = 0; /* as many as fit */
}

static void CUPTIAPI on_buffer_complete(CUcontext ctx, uint32_t stream_id, uint8_t *buffer,
                                        size_t size, size_t valid_size)
{
    (void)size;
    CUpti_Activity *rec = NULL;
    pthread_mutex_lock(&sink_lock);
    while (cuptiActivityGetNextRecord(buffer, valid_size, &rec) == CUPTI_SUCCESS) {
        if (!sink_collecting || rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            continue; /* other kinds are not ours; records outside a window are stale */
        const fb_activity_kernel *k = (const fb_activity_kernel *)rec;
        struct fb_kernel_record r = {
            .kind = fb_kernel_record_kind(k->name),
            .start_ns = k->start,
            .end_ns = k->end,
            .stream_id = k->streamId,
            .correlation_id = k->correlationId,
        };
        copy_name(r.name, k->name);
        if (fb_kernel_trace_append(&sink, &r, NULL) < 0)
            sink_out_of_memory = true;
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS &&
        sink_collecting)
        sink.dropped += dropped;
    pthread_mutex_unlock(&sink_lock);
    free(buffer);
}

int fb_cupti_activity_setup(struct fb_cupti_session *c, struct fb_error *err)
{
    (void)c;
    int rc;
    if (!callbacks_registered) {
        rc = FB_CUPTI_CALL(cuptiActivityRegisterCallbacks(on_buffer_requested,
                                                          on_buffer_complete), err);
        if (rc < 0)
            return rc;
        callbacks_registered = true;
    }
    /* Enabling once now finds a clash (another CUPTI client, an unsupported device) at open
     * rather than at the first point. */
    if ((rc = FB_CUPTI_CALL(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                            err)) < 0)
        return rc;
    return FB_CUPTI_CALL(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), err);
}

void fb_cupti_activity_teardown(struct fb_cupti_session *c)
{
    if (c->window_open) {
        (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        c->window_open = false;
    }
    pthread_mutex_lock(&sink_lock);
    sink_collecting = false;
    fb_kernel_trace_free(&sink);
    pthread_mutex_unlock(&sink_lock);
}

/* CUPTI's id of `stream`. If CUPTI cannot name it (unchecked for the legacy NULL stream),
 * every stream counts: the runner launches on one stream only, so that is still right, and
 * only the interleaved-stream protection is lost. */
static uint32_t stream_id_of(void *stream)
{
    uint32_t id = 0;
    if (cuptiGetStreamIdEx(NULL, (CUstream)stream, 0, &id) != CUPTI_SUCCESS)
        return FB_STREAM_ANY;
    return id;
}

int fb_cupti_activity_start(struct fb_cupti_session *c, void *stream, struct fb_error *err)
{
    const char *why = NULL;
    if (!fb_cupti_part_works(c, FB_CUPTI_ACTIVITY, &why))
        return fb_fail(err, FB_ERR_UNAVAILABLE, "CUPTI activity unavailable: %s", why);
    if (c->window_open)
        return fb_fail(err, FB_ERR_USAGE, "fb_cupti_activity_start: a window is already open");
    int rc;
    /* Deliver and discard whatever is still buffered, and reset the dropped count, so the
     * window sees only its own kernels. */
    if ((rc = FB_CUPTI_CALL(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), err)) < 0)
        return rc;
    size_t stale_dropped = 0;
    if ((rc = FB_CUPTI_CALL(cuptiActivityGetNumDroppedRecords(NULL, 0, &stale_dropped),
                            err)) < 0)
        return rc;
    c->stream_id = stream_id_of(stream);
    pthread_mutex_lock(&sink_lock);
    fb_kernel_trace_clear(&sink);
    sink.stream_id = c->stream_id;
    sink_out_of_memory = false;
    sink_collecting = true;
    pthread_mutex_unlock(&sink_lock);
    rc = FB_CUPTI_CALL(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), err);
    if (rc < 0) {
        pthread_mutex_lock(&sink_lock);
        sink_collecting = false;
        pthread_mutex_unlock(&sink_lock);
        return rc;
    }
    c->window_open = true;
    return FB_OK;
}

int fb_cupti_activity_stop(struct fb_cupti_session *c, struct fb_kernel_trace *out,
                           struct fb_error *err)
{
    if (!c || !c->window_open)
        return fb_fail(err, FB_ERR_USAGE, "fb_cupti_activity_stop: no window is open");
    /* Flush first: the caller has synchronized, so every kernel of the window has completed
     * and its record is delivered before cuptiActivityFlushAll returns. */
    int rc = FB_CUPTI_CALL(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), err);
    int rc2 = FB_CUPTI_CALL(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                            rc < 0 ? NULL : err);
    size_t dropped = 0;
    int rc3 = FB_CUPTI_CALL(cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped),
                            rc < 0 || rc2 < 0 ? NULL : err);
    c->window_open = false;

    pthread_mutex_lock(&sink_lock);
    sink_collecting = false;
    sink.dropped += dropped;
    /* Hand the sink's array to the caller and keep the caller's old one for the next window. */
    struct fb_kernel_trace old = *out;
    *out = sink;
    out->stream_id = c->stream_id;
    sink = old;
    fb_kernel_trace_clear(&sink);
    bool oom = sink_out_of_memory;
    pthread_mutex_unlock(&sink_lock);

    if (rc < 0)
        return rc;
    if (rc2 < 0)
        return rc2;
    if (rc3 < 0)
        return rc3;
    if (oom)
        return fb_fail(err, FB_ERR_RUNTIME, "CUPTI activity: out of memory while collecting "
                       "kernel records");
    return FB_OK;
}
