/* The timeline chart's tables (contract in timeline.h). */
#include "chart/timeline.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/label.h"
#include "chart/tsv.h"
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

/* Number cells separated by TABs, then `end` ("\n", or "\t" before text cells). */
static void put_numbers(struct fb_tsv *t, const double *v, size_t n, const char *end)
{
    for (size_t i = 0; i < n; i++)
        fb_tsv_num(t, v[i], i + 1 < n ? "\t" : end);
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

/* One table of the file: two blank lines before it (gnuplot's index blocks), a comment saying
 * what it is, and its header row. */
static void begin_block(struct fb_tsv *t, const char *what, const char *header)
{
    fb_tsv_printf(t, "\n\n# %s\n%s\n", what, header);
}

int fb_chart_timeline_print(struct fb_tsv *t, const struct fb_trace_track *tracks, size_t count,
                            const struct fb_trace_info *info)
{
    struct kinds kinds = {.count = 0};
    size_t n_bars = 0, n_launches = 0;
    double xmax = 0.0;
    fb_tsv_printf(t, "%s\n", FB_TIMELINE_SIGNATURE);
    begin_block(t, "index 0: a kernel or platform record drawn (\xC2\xB5s)", "x0\tx1\ty\tk");
    for (size_t i = 0; i < count; i++) {
        const struct fb_kernel_trace *tr = tracks[i].trace;
        const double y = (double)(count - i);
        const long call = median_call(tr);
        const uint64_t origin = origin_of(tr, call);
        for (size_t j = 0; j < tr->count; j++) {
            const struct fb_kernel_record *r = &tr->items[j];
            if (!drawn(tr, r, call) || r->kind == FB_TRACE_LAUNCH)
                continue;
            const double x1 = us(r->end_ns, origin);
            xmax = x1 > xmax ? x1 : xmax;
            put_numbers(t, (const double[]){us(r->start_ns, origin), x1, y,
                                            (double)kind_of(&kinds, r->name)}, 4, "\n");
            n_bars++;
        }
    }
    begin_block(t, "index 1: a host launch drawn (\xC2\xB5s)", "x\ty");
    for (size_t i = 0; i < count; i++) {
        const struct fb_kernel_trace *tr = tracks[i].trace;
        const long call = median_call(tr);
        const uint64_t origin = origin_of(tr, call);
        for (size_t j = 0; j < tr->count; j++) {
            const struct fb_kernel_record *r = &tr->items[j];
            if (!drawn(tr, r, call) || r->kind != FB_TRACE_LAUNCH)
                continue;
            const double x1 = us(r->end_ns, origin);
            xmax = x1 > xmax ? x1 : xmax;
            put_numbers(t, (const double[]){us(r->start_ns, origin), (double)(count - i)}, 2,
                        "\n");
            n_launches++;
        }
    }
    begin_block(t, "index 2: the kernel names, in order of first appearance", "k\tname\tcolour");
    for (size_t k = 0; k < kinds.count; k++) {
        put_numbers(t, (const double[]){(double)(k + 1)}, 1, "\t");
        fb_tsv_text(t, kinds.name[k], "\t");
        fb_tsv_text(t, kind_colours[k % N_COLOURS], "\n");
    }
    begin_block(t, "index 3: the lanes, the first at the top", "i\ty\tname\tnote");
    for (size_t i = 0; i < count; i++) {
        char note[160];
        track_note(tracks[i].trace, note, sizeof note);
        put_numbers(t, (const double[]){(double)(i + 1), (double)(count - i)}, 2, "\t");
        fb_tsv_text(t, tracks[i].name, "\t");
        fb_tsv_text(t, note, "\n");
    }
    char title[256];
    snprintf(title, sizeof title, "n = %lld elements, the median call of %d per variant",
             (long long)info->n, info->calls);
    begin_block(t, "index 4: the chart",
                "ntracks\tnkinds\tnbars\tnlaunches\txmax\tdevice\ttitle\ttiming");
    put_numbers(t, (const double[]){(double)count, (double)kinds.count, (double)n_bars,
                                    (double)n_launches, xmax}, 5, "\t");
    fb_tsv_text(t, info->device, "\t");
    fb_tsv_text(t, title, "\t");
    fb_tsv_text(t, info->timing, "\n");
    return t->failed;
}

struct saved {
    const struct fb_trace_track *tracks;
    size_t count;
    const struct fb_trace_info *info;
};

static int print_to(FILE *f, void *ctx)
{
    const struct saved *s = ctx;
    struct fb_tsv t = {.f = f, .name = "", .failed = 0};
    return fb_chart_timeline_print(&t, s->tracks, s->count, s->info);
}

int fb_chart_timeline_save(const char *path, const struct fb_trace_track *tracks, size_t count,
                           const struct fb_trace_info *info, struct fb_error *err)
{
    struct saved s = {tracks, count, info};
    return fb_atomic_write(path, print_to, &s, "the timeline's table", err);
}
