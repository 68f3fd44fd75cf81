/* The timeline chart's tables (contract in timeline.h). */
#include "chart/timeline.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/label.h"
#include <errno.h>
#include "results/atomic_file.h"

/* Okabe-Ito (colour-blind safe), black last. */
static const char *const kind_colours[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                           "#56B4E9", "#D55E00", "#F0E442", "#000000"};
#define N_COLOURS (sizeof kind_colours / sizeof kind_colours[0])
#define MAX_KINDS 32

struct kinds {
    char name[MAX_KINDS][FB_KERNEL_NAME_MAX];
    size_t count;
};

/* The index (1-based) of a kernel name, added when new; the last one for any past MAX_KINDS. */
static size_t kind_of(struct kinds *k, const char *name)
{
    for (size_t i = 0; i < k->count; i++)
        if (strcmp(k->name[i], name) == 0)
            return i + 1;
    if (k->count == MAX_KINDS)
        return MAX_KINDS;
    snprintf(k->name[k->count], sizeof k->name[0], "%s", name);
    return ++k->count;
}

static bool shown(const struct fb_kernel_trace *t, const struct fb_kernel_record *r)
{
    if (r->kind == FB_TRACE_KERNEL)
        return t->stream_id == FB_STREAM_ANY || r->stream_id == t->stream_id;
    return r->kind == FB_TRACE_LAUNCH || r->kind == FB_TRACE_PLATFORM;
}

static int by_value(const void *pa, const void *pb)
{
    const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The call a lane draws: the one whose span (its first record's start to its last record's
 * end) is the median of the calls' spans (the lower one of an even count), so that a call
 * another program disturbed does not stand for the variant. -1 when the lane has none. */
static long median_call(const struct fb_kernel_trace *t)
{
    uint64_t first[FB_TIMELINE_MAX_CALLS], last[FB_TIMELINE_MAX_CALLS];
    uint64_t spans[FB_TIMELINE_MAX_CALLS], keyed[FB_TIMELINE_MAX_CALLS];
    size_t calls = 0;
    for (size_t i = 0; i < t->count; i++) {
        const struct fb_kernel_record *r = &t->items[i];
        if (!shown(t, r) || r->correlation_id >= FB_TIMELINE_MAX_CALLS)
            continue;
        const size_t c = r->correlation_id;
        for (; calls <= c; calls++)
            first[calls] = UINT64_MAX, last[calls] = 0;
        first[c] = r->start_ns < first[c] ? r->start_ns : first[c];
        last[c] = r->end_ns > last[c] ? r->end_ns : last[c];
    }
    size_t n = 0;
    for (size_t c = 0; c < calls; c++)
        if (first[c] != UINT64_MAX) {
            spans[n] = keyed[n] = last[c] - first[c];
            n++;
        }
    if (n == 0)
        return -1;
    qsort(spans, n, sizeof *spans, by_value);
    const uint64_t median = spans[(n - 1) / 2];
    for (size_t c = 0, k = 0; c < calls; c++)
        if (first[c] != UINT64_MAX && keyed[k++] == median)
            return (long)c;
    return -1;
}

static bool drawn(const struct fb_kernel_trace *t, const struct fb_kernel_record *r, long call)
{
    return shown(t, r) && call >= 0 && r->correlation_id == (uint32_t)call;
}

/* The lane's origin: the earliest start among the records drawn. */
static uint64_t origin_of(const struct fb_kernel_trace *t, long call)
{
    uint64_t origin = UINT64_MAX;
    for (size_t i = 0; i < t->count; i++)
        if (drawn(t, &t->items[i], call) && t->items[i].start_ns < origin)
            origin = t->items[i].start_ns;
    return origin == UINT64_MAX ? 0 : origin;
}

static double us(uint64_t ns, uint64_t origin)
{
    return ns > origin ? (double)(ns - origin) * 1e-3 : 0.0;
}

/* "2 kernels, 2 host launches per call", from the records of every call of the track (the
 * calls are 0 .. the largest call number). */
static void track_note(const struct fb_kernel_trace *t, char *out, size_t size)
{
    int64_t kernels = 0, launches = 0, platform = 0;
    uint32_t calls = 0;
    for (size_t i = 0; i < t->count; i++) {
        const struct fb_kernel_record *r = &t->items[i];
        if (shown(t, r) && r->correlation_id >= calls)
            calls = r->correlation_id + 1;
        kernels += r->kind == FB_TRACE_KERNEL &&
                   (t->stream_id == FB_STREAM_ANY || r->stream_id == t->stream_id);
        launches += r->kind == FB_TRACE_LAUNCH;
        platform += r->kind == FB_TRACE_PLATFORM;
    }
    const double c = calls > 0 ? calls : 1;
    int len = snprintf(out, size, "%.3g kernel%s", (double)kernels / c,
                       kernels == (int64_t)c ? "" : "s");
    if (launches > 0 && len > 0 && (size_t)len < size)
        len += snprintf(out + len, size - (size_t)len, ", %.3g host launch%s", launches / c,
                        launches == (int64_t)c ? "" : "es");
    if (platform > 0 && len > 0 && (size_t)len < size)
        len += snprintf(out + len, size - (size_t)len, ", %.3g platform call%s", platform / c,
                        platform == (int64_t)c ? "" : "s");
    if (len > 0 && (size_t)len < size)
        snprintf(out + len, size - (size_t)len, " per call");
}

/* The five tables (timeline.h), in order. */
static void add_tables(struct fb_tables *ts, const struct fb_trace_track *tracks, size_t count,
                       const struct fb_trace_info *info)
{
    struct kinds kinds = {.count = 0};
    double xmax = 0.0;
    struct fb_table *bars = fb_table_add(ts, "x0 x1 y k", "a kernel or platform record drawn "
                                                          "(\xC2\xB5s)");
    struct fb_table *launches = fb_table_add(ts, "x y", "a host launch drawn (\xC2\xB5s)");
    for (size_t i = 0; i < count; i++) {
        const struct fb_kernel_trace *tr = tracks[i].trace;
        const double y = (double)(count - i);
        const long call = median_call(tr);
        const uint64_t origin = origin_of(tr, call);
        for (size_t j = 0; j < tr->count; j++) {
            const struct fb_kernel_record *r = &tr->items[j];
            if (!drawn(tr, r, call))
                continue;
            const double x0 = us(r->start_ns, origin), x1 = us(r->end_ns, origin);
            xmax = x1 > xmax ? x1 : xmax;
            if (r->kind == FB_TRACE_LAUNCH)
                fb_table_nums(launches, (const double[]){x0, y}, 2);
            else
                fb_table_nums(bars, (const double[]){x0, x1, y, kind_of(&kinds, r->name)}, 4);
        }
    }
    struct fb_table *t = fb_table_add(ts, "k name colour", "the kernel names, in order of first "
                                                           "appearance");
    for (size_t k = 0; k < kinds.count; k++) {
        fb_table_num(t, (double)(k + 1));
        fb_table_text(t, kinds.name[k]);
        fb_table_text(t, kind_colours[k % N_COLOURS]);
    }
    t = fb_table_add(ts, "i y name note", "the lanes, the first at the top");
    for (size_t i = 0; i < count; i++) {
        char note[160];
        track_note(tracks[i].trace, note, sizeof note);
        fb_table_nums(t, (const double[]){i + 1, count - i}, 2);
        fb_table_text(t, tracks[i].name);
        fb_table_text(t, note);
    }
    char title[256];
    snprintf(title, sizeof title, "n = %lld elements, the median call of %d per variant",
             (long long)info->n, info->calls);
    t = fb_table_add(ts, "ntracks nkinds nbars nlaunches xmax device title timing", "the chart");
    fb_table_nums(t, (const double[]){count, kinds.count, fb_table_rows(bars),
                                      fb_table_rows(launches), xmax}, 5);
    fb_table_text(t, info->device);
    fb_table_text(t, title);
    fb_table_text(t, info->timing);
}

int fb_chart_timeline_print(FILE *f, const struct fb_trace_track *tracks, size_t count,
                            const struct fb_trace_info *info)
{
    struct fb_tables ts = {0};
    add_tables(&ts, tracks, count, info);
    int failed = ts.failed || fprintf(f, "%s\n", FB_TIMELINE_SIGNATURE) < 0;
    /* gnuplot's index blocks: two blank lines before each, a comment saying what it is */
    for (size_t i = 0; i < ts.n && !failed; i++)
        failed = fprintf(f, "\n\n# index %zu: %s\n", i, ts.v[i]->name) < 0 ||
                 fb_table_print_tsv(f, ts.v[i]) != 0;
    fb_tables_free(&ts);
    return failed ? (errno ? errno : EIO) : 0;
}

struct saved {
    const struct fb_trace_track *tracks;
    size_t count;
    const struct fb_trace_info *info;
};

static int print_to(FILE *f, void *ctx)
{
    const struct saved *s = ctx;
    return fb_chart_timeline_print(f, s->tracks, s->count, s->info);
}

int fb_chart_timeline_save(const char *path, const struct fb_trace_track *tracks, size_t count,
                           const struct fb_trace_info *info, struct fb_error *err)
{
    struct saved s = {tracks, count, info};
    return fb_atomic_write(path, print_to, &s, "the timeline's table", err);
}
