/* Reading back a trace fusebench wrote (output/trace_json.h), for `--plot FILE.json`, which
 * redraws its timeline without measuring. Only fusebench's own layout is read: the file starts
 * with FB_TRACE_JSON_SIGNATURE and holds one event object per line; each line is parsed as
 * JSON (objects, strings with every JSON escape, numbers), so the order of keys does not
 * matter. A byte outside UTF-8 that the writer turned into the text \xNN stays that text. */
#ifndef FB_OUTPUT_TRACE_READ_H
#define FB_OUTPUT_TRACE_READ_H

#include <stddef.h>

#include "common/error.h"
#include "output/trace_json.h"

/* The most variants a trace holds (plan/variants.h's FB_MAX_VARIANTS and some room). */
#define FB_TRACE_READ_MAX_TRACKS 64
/* The most events a trace may hold: 20 calls of 64 variants of 32 steps, twice, and room. */
#define FB_TRACE_READ_MAX_EVENTS 200000
/* The largest trace read: its events at 1 KiB a line (a line with a 256-byte name is about
 * 300 bytes), so that a file that only looks like a trace is not read without end. */
#define FB_TRACE_READ_MAX_BYTES ((unsigned long long)FB_TRACE_READ_MAX_EVENTS * 1024)

struct fb_trace_read {
    char version[64], backend[32], device[256], timing[256];
    char names[FB_TRACE_READ_MAX_TRACKS][FB_KERNEL_NAME_MAX];
    char descriptions[FB_TRACE_READ_MAX_TRACKS][FB_KERNEL_NAME_MAX];
    char kernels_names[FB_TRACE_READ_MAX_TRACKS][FB_KERNEL_NAME_MAX];
    struct fb_kernel_trace traces[FB_TRACE_READ_MAX_TRACKS];
    struct fb_trace_track tracks[FB_TRACE_READ_MAX_TRACKS]; /* pointing into the above */
    size_t count;                                           /* tracks, pid 1 .. count */
    struct fb_trace_info info;                              /* pointing into the above */
};

/* Reads the trace at path into *out (large: allocate it; fb_trace_read_free afterwards, also
 * after an error). Timestamps come back in ns from the trace's origin; each record's
 * correlation_id is its "call". Returns FB_OK; FB_ERR_USAGE with "PATH: is a FIFO, not a
 * trace (a regular file)" for anything but a regular file (never read, nor waited for), "PATH:
 * is N bytes; ..." past FB_TRACE_READ_MAX_BYTES, "PATH: cannot open the trace: ..." and
 * "PATH:LINE: why" for a file that is not a fusebench trace, a line that is not a JSON object,
 * objects nested deeper than fusebench writes, a number out of its field's range, an event of
 * an unknown process or kind, more than FB_TRACE_READ_MAX_TRACKS processes or
 * FB_TRACE_READ_MAX_EVENTS events; FB_ERR_RUNTIME when reading fails or memory runs out. */
int fb_trace_read(const char *path, struct fb_trace_read *out, struct fb_error *err);

void fb_trace_read_free(struct fb_trace_read *t);

#endif
