/* The Chrome trace writer (format in trace_json.h). */
#include "output/trace_json.h"

#include <errno.h>
#include <inttypes.h>

#include "common/json.h"

/* Whether record r of t is one the trace shows. */
static bool shown(const struct fb_kernel_trace *t, const struct fb_kernel_record *r)
{
    switch (r->kind) {
    case FB_TRACE_KERNEL:
        return t->stream_id == FB_STREAM_ANY || r->stream_id == t->stream_id;
    case FB_TRACE_PLATFORM:
    case FB_TRACE_LAUNCH:
        return true;
    case FB_TRACE_OTHER:
        break;
    }
    return false;
}

/* Nanoseconds from the origin as microseconds with three decimals, exactly (no rounding
 * through a double: a GPU timestamp has 19 digits). */
static void write_us(FILE *out, uint64_t ns, uint64_t origin)
{
    const uint64_t d = ns > origin ? ns - origin : 0;
    fprintf(out, "%" PRIu64 ".%03" PRIu64, d / 1000, d % 1000);
}

static void write_metadata(FILE *out, const char *what, int pid, int tid, const char *key,
                           const char *text, int number)
{
    fprintf(out, ",\n{\"name\": \"%s\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, \"args\": {\"%s\": ",
            what, pid, tid, key);
    if (text)
        fb_json_write_string(out, text);
    else
        fprintf(out, "%d", number);
    fputs("}}", out);
}

static void write_record(FILE *out, const struct fb_kernel_record *r, int pid, uint64_t origin)
{
    if (r->kind == FB_TRACE_LAUNCH) {
        fputs(",\n{\"name\": \"launch\", \"cat\": \"launch\", \"ph\": \"i\", \"s\": \"t\"", out);
        fprintf(out, ", \"pid\": %d, \"tid\": %d, \"ts\": ", pid, FB_TRACE_TID_LAUNCHES);
        write_us(out, r->start_ns, origin);
    } else {
        fputs(",\n{\"name\": ", out);
        fb_json_write_string(out, r->name);
        fprintf(out, ", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": %d, \"tid\": %d, \"ts\": ",
                r->kind == FB_TRACE_KERNEL ? "kernel" : "platform", pid, FB_TRACE_TID_KERNELS);
        write_us(out, r->start_ns, origin);
        fputs(", \"dur\": ", out);
        write_us(out, r->end_ns, r->start_ns);
    }
    fprintf(out, ", \"args\": {\"call\": %" PRIu32 "}}", r->correlation_id);
}

int fb_trace_json_write(FILE *out, const struct fb_trace_info *info,
                        const struct fb_trace_track *tracks, size_t count)
{
    errno = 0;
    uint64_t origin = UINT64_MAX;
    for (size_t k = 0; k < count; k++)
        for (size_t i = 0; i < tracks[k].trace->count; i++) {
            const struct fb_kernel_record *r = &tracks[k].trace->items[i];
            if (shown(tracks[k].trace, r) && r->start_ns < origin)
                origin = r->start_ns;
        }
    fputs(FB_TRACE_JSON_SIGNATURE ", \"version\": ", out);
    fb_json_write_string(out, info->version);
    fputs(", \"backend\": ", out);
    fb_json_write_string(out, info->backend);
    fputs(", \"device\": ", out);
    fb_json_write_string(out, info->device);
    fprintf(out, ", \"n\": %" PRId64 ", \"calls\": %d, \"timing\": ", info->n, info->calls);
    fb_json_write_string(out, info->timing);
    /* Every event below starts with ",\n": the first is the list's own opening one, which
     * names the trace (the process of pid 0), so that no event needs to know it is first. */
    fputs("},\n\"displayTimeUnit\": \"ns\",\n\"traceEvents\": [\n", out);
    fputs("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 0, "
          "\"args\": {\"name\": \"fusebench --profile\"}}", out);
    for (size_t k = 0; k < count; k++) {
        const int pid = (int)k + 1;
        const struct fb_trace_track *tr = &tracks[k];
        write_metadata(out, "process_name", pid, 0, "name", tr->name, 0);
        write_metadata(out, "process_labels", pid, 0, "labels", tr->description, 0);
        write_metadata(out, "process_sort_index", pid, 0, "sort_index", NULL, (int)k);
        write_metadata(out, "thread_name", pid, FB_TRACE_TID_LAUNCHES, "name", "host launches",
                       0);
        write_metadata(out, "thread_name", pid, FB_TRACE_TID_KERNELS, "name", tr->kernels_name,
                       0);
        for (size_t i = 0; i < tr->trace->count; i++)
            if (shown(tr->trace, &tr->trace->items[i]))
                write_record(out, &tr->trace->items[i], pid, origin);
    }
    fputs("\n]}\n", out);
    if (ferror(out))
        return errno ? errno : EIO;
    return 0;
}
