/* --profile's trace in the Chrome trace event format (the JSON object form that
 * torch.profiler's export_chrome_trace writes, and Perfetto's UI and chrome://tracing open):
 *
 *   {"otherData": {"producer": "fusebench", "version": ..., "backend": ..., "device": ...,
 *                  "n": N, "calls": K, "timing": how the kernels were timed},
 *    "displayTimeUnit": "ns",
 *    "traceEvents": [ one event per line ]}
 *
 * One process per variant (pid 1, 2, ... in the order given), with metadata events
 * ("ph": "M") naming it (process_name: the variant's name; process_labels: its description;
 * process_sort_index: its position) and its two threads (thread_name): tid 1 "host
 * launches", tid 2 the kernels' queue (kernels_name: "CPU passes, timed on the host",
 * "CUDA stream 7, CUPTI activity"). Then per record of the variant's trace
 * (cupti/kernel_trace.h), timestamps in microseconds ("ts", "dur": %.3f, so ns resolution)
 * from the earliest record of the whole trace:
 *   FB_TRACE_KERNEL   {"name": kernel, "cat": "kernel", "ph": "X", "pid", "tid": 2, "ts",
 *                      "dur", "args": {"call": i}}  (a complete event)
 *   FB_TRACE_PLATFORM the same with "cat": "platform" (the platform's routine, e.g. memcpy)
 *   FB_TRACE_LAUNCH   {"name": "launch", "cat": "launch", "ph": "i", "s": "t", "pid",
 *                      "tid": 1, "ts", "args": {"call": i}}  (an instant event)
 * "call" is the record's correlation_id: the index of the call it belongs to (fusebench's
 * traces number them so, measure/host_trace.h). Kernel records on another stream than the
 * trace's measured one, and FB_TRACE_OTHER records, are left out.
 * Every string goes through fb_json_write_string (common/json.h): valid UTF-8 JSON
 * whatever the bytes of a variant's or chain's name. The file starts with
 * FB_TRACE_JSON_SIGNATURE, by which fusebench knows a trace of its own (output/trace_output.h). */
#ifndef FB_OUTPUT_TRACE_JSON_H
#define FB_OUTPUT_TRACE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cupti/kernel_trace.h"

#define FB_TRACE_JSON_SIGNATURE "{\"otherData\": {\"producer\": \"fusebench\""

/* The thread ids of a variant's process. */
enum { FB_TRACE_TID_LAUNCHES = 1, FB_TRACE_TID_KERNELS = 2 };

struct fb_trace_info {
    const char *version, *backend, *device;
    int64_t n;          /* elements */
    int calls;          /* calls per variant */
    const char *timing; /* how the kernels were timed, in words */
};

struct fb_trace_track {
    const char *name;         /* the variant */
    const char *description;  /* plan/variants.h's description */
    const char *kernels_name; /* the name of the kernels' thread */
    const struct fb_kernel_trace *trace;
};

/* Writes the trace of tracks[0..count-1] (count may be 0) to out, as described above.
 * Returns 0, or the errno of the first failed write (EIO when ferror says so without one). */
int fb_trace_json_write(FILE *out, const struct fb_trace_info *info,
                        const struct fb_trace_track *tracks, size_t count);

#endif
