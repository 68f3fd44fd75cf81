/* CUPTI on one device: kernel activity (launch count, kernel durations) and memory-traffic
 * counters (range profiler), behind plain C types.
 *
 * Typical use by the runner, per point:
 *   fb_cupti_session_open(&c, device, true, true, err)            once per process
 *   fb_cupti_activity_start(c, stream, err); K calls; synchronize;
 *   fb_cupti_activity_stop(c, &trace, err); fb_kernel_trace_summarize(&trace, K, L, ...)
 *   fb_cupti_measure_traffic(c, flush, run_once, ctx, &traffic, err)   own pass, never timed
 *   fb_cupti_session_close(c)                                      at the end
 *
 * Limits:
 * - One CUPTI client per process: under ncu or nsys, opening reports the part that clashes as
 *   unavailable. One session open at a time (activity buffers arrive through callbacks that
 *   carry no user pointer, so the collector is process-wide).
 * - Activity and counters must not overlap: kernel replay runs every kernel several times,
 *   which would show up as extra launches. fb_cupti_measure_traffic refuses while an activity
 *   window is open.
 * - Everything here needs a GPU. Without one, or in a build without CUPTI (FB_HAVE_CUPTI
 *   undefined, where a stub implementation is linked), fb_cupti_session_open returns
 *   FB_ERR_UNAVAILABLE and never touches the target-side CUPTI calls (one of them,
 *   cuptiDeviceGetChipName, crashes without a GPU). */
#ifndef FB_CUPTI_CUPTI_SESSION_H
#define FB_CUPTI_CUPTI_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "cupti/kernel_trace.h"
#include "cupti/traffic.h"

struct fb_cupti_session;

enum fb_cupti_part {
    FB_CUPTI_ACTIVITY, /* launches and kernel_time_s */
    FB_CUPTI_COUNTERS, /* dram_read_bytes, dram_write_bytes, l2_bytes */
};

/* Opens CUPTI on CUDA device `device` (a cudaSetDevice index; it becomes the current device)
 * for the parts requested. Each part gets a trial enable here, once, so that a sandbox or a
 * driver that refuses it (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, a profiler library that does
 * not load) is found at setup, with CUPTI's own error text (cuptiGetResultString) as the
 * reason, rather than at the first point: activity enables and disables kernel activity; the
 * counters part checks device support, reads the counter availability, builds the config
 * image, and enables and disables the range profiler on the context.
 * Returns:
 *   FB_OK: *out is a handle (close it with fb_cupti_session_close); at least one requested
 *     part works, and fb_cupti_session_available says which. A part that failed keeps its
 *     reason there: a part that fails its trial is a normal state, not an error.
 *   FB_ERR_UNAVAILABLE: *out = NULL; no device answers ("no CUDA device answers: ..."), the
 *     build has no CUPTI, or every requested part failed (err joins their reasons, e.g.
 *     "counters: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ...").
 *   FB_ERR_USAGE: *out = NULL; device is not a valid index.
 *   FB_ERR_RUNTIME: *out = NULL; a CUDA call failed (message names the call, file and line). */
int fb_cupti_session_open(struct fb_cupti_session **out, int device, bool activity, bool counters,
                  struct fb_error *err);

/* Disables what is enabled and frees c. c may be NULL. Never fails (errors are dropped: there
 * is nothing the caller could do with them at the end). */
void fb_cupti_session_close(struct fb_cupti_session *c);

/* Whether `part` of c works. When it does not (not requested, or failed at open), *reason (if
 * reason is not NULL) points to a sentence saying why, owned by c; else to "". */
bool fb_cupti_session_available(const struct fb_cupti_session *c, enum fb_cupti_part part,
                                const char **reason);

/* The counters metadata's words for the DRAM metrics the counters part asks for on this
 * chip (traffic.h, fb_traffic_names_describe: the names, or NA and why); "" when the part
 * does not work. */
void fb_cupti_session_metrics(const struct fb_cupti_session *c, char *out, size_t size);

/* Starts an activity window that collects the kernels run on `stream` (a cudaStream_t; NULL is
 * the legacy default stream). Records from before the window are discarded. The caller then
 * launches and synchronizes before fb_cupti_activity_stop.
 * Returns FB_OK; FB_ERR_UNAVAILABLE if the activity part does not work; FB_ERR_USAGE if a
 * window is already open; FB_ERR_RUNTIME if a CUPTI call failed. */
int fb_cupti_activity_start(struct fb_cupti_session *c, void *stream, struct fb_error *err);

/* Ends the window: flushes CUPTI's buffers, disables kernel activity, and replaces the contents
 * of *out (initialized with fb_kernel_trace_init, or returned by a previous stop) with the
 * window's kernel records, the measured stream id and the number of records CUPTI dropped
 * (cuptiActivityGetNumDroppedRecords). Returns FB_OK; FB_ERR_USAGE if no window is open;
 * FB_ERR_RUNTIME if a CUPTI call failed or memory ran out while collecting. */
int fb_cupti_activity_stop(struct fb_cupti_session *c, struct fb_kernel_trace *out,
                           struct fb_error *err);

/* Runs one call of a variant under the range profiler and returns its traffic.
 * prepare(ctx, err), when not NULL, runs before each pass, outside the profiled range, and
 * must leave the device idle: the cold mode's "flush the L2 and wait", so the bytes are those
 * of a call that starts with a flushed L2, and the flush's own bytes are not counted. NULL
 * (warm mode): the call finds the caches as the caller left them.
 * run_once(ctx, err) must launch the call's kernels on the current device and return FB_OK or
 * a negative fb_status (passed through unchanged). It may run more than once if CUPTI asks for
 * more passes (kernel replay normally needs one: each kernel is replayed inside its launch).
 * Auto range makes one range per kernel; *out is the sum over the call's ranges and
 * out->ranges their number (it should equal the variant's launches).
 * Returns FB_OK; FB_ERR_UNAVAILABLE if the counters part does not work; FB_ERR_USAGE inside an
 * activity window; FB_ERR_RUNTIME if a CUPTI call failed, ranges were dropped or a value
 * could not be evaluated. *out is fb_traffic_init'ed (not measured) on any error. */
int fb_cupti_measure_traffic(struct fb_cupti_session *c,
                             int (*prepare)(void *ctx, struct fb_error *err),
                             int (*run_once)(void *ctx, struct fb_error *err), void *ctx,
                             struct fb_traffic *out, struct fb_error *err);

/* CUPTI's chip name of device `device` (e.g. "GH100"), copied into buf (size bytes).
 * Checks that a device answers before asking CUPTI. Returns FB_OK; FB_ERR_UNAVAILABLE when no
 * device answers or the build has no CUPTI; FB_ERR_USAGE for a bad index or size == 0;
 * FB_ERR_RUNTIME when a call fails. */
int fb_cupti_chip_name(int device, char *buf, size_t size, struct fb_error *err);

#endif
