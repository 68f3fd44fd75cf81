/* The timeline chart's tables (contract in timeline.h). */
#include "chart/timeline.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/label.h"
#include "chart/tsv.h"

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

int fb_chart_timeline_write(int dirfd, const struct fb_trace_track *tracks, size_t count,
                            const struct fb_trace_info *info, struct fb_error *err)
{
    struct kinds kinds = {.count = 0};
    struct fb_tsv bars, launches, f;
    size_t n_bars = 0, n_launches = 0;
    double xmax = 0.0;
    int rc = fb_tsv_open(&bars, dirfd, "timeline_bars.dat", false, err);
    if (rc != FB_OK)
        return rc;
    rc = fb_tsv_open(&launches, dirfd, "timeline_launches.dat", false, err);
    if (rc != FB_OK)
        return fb_tsv_close(&bars, rc, err);
    fb_tsv_printf(&bars, "%s", "x0\tx1\ty\tk\n");
    fb_tsv_printf(&launches, "%s", "x\ty\n");
    for (size_t i = 0; i < count; i++) {
        const struct fb_kernel_trace *t = tracks[i].trace;
        const double y = (double)(count - i);
        const long call = median_call(t);
        const uint64_t origin = origin_of(t, call);
        for (size_t j = 0; j < t->count; j++) {
            const struct fb_kernel_record *r = &t->items[j];
            if (!drawn(t, r, call))
                continue;
            const double x0 = us(r->start_ns, origin), x1 = us(r->end_ns, origin);
            xmax = x1 > xmax ? x1 : xmax;
            if (r->kind == FB_TRACE_LAUNCH) {
                put_numbers(&launches, (const double[]){x0, y}, 2, "\n");
                n_launches++;
            } else {
                put_numbers(&bars, (const double[]){x0, x1, y, (double)kind_of(&kinds, r->name)},
                            4, "\n");
                n_bars++;
            }
        }
    }
    rc = fb_tsv_close(&bars, FB_OK, err);
    rc = fb_tsv_close(&launches, rc, err);
    if (rc == FB_OK && (rc = fb_tsv_open(&f, dirfd, "timeline_kinds.tsv", false, err)) == FB_OK) {
        fb_tsv_printf(&f, "%s", "k\tname\tcolour\n");
        for (size_t k = 0; k < kinds.count; k++) {
            put_numbers(&f, (const double[]){(double)(k + 1)}, 1, "\t");
            fb_tsv_text(&f, kinds.name[k], "\t");
            fb_tsv_text(&f, kind_colours[k % N_COLOURS], "\n");
        }
        rc = fb_tsv_close(&f, rc, err);
    }
    if (rc == FB_OK && (rc = fb_tsv_open(&f, dirfd, "timeline_tracks.tsv", false, err)) == FB_OK) {
        fb_tsv_printf(&f, "%s", "i\ty\tname\tnote\n");
        for (size_t i = 0; i < count; i++) {
            char note[160];
            track_note(tracks[i].trace, note, sizeof note);
            put_numbers(&f, (const double[]){(double)(i + 1), (double)(count - i)}, 2, "\t");
            fb_tsv_text(&f, tracks[i].name, "\t");
            fb_tsv_text(&f, note, "\n");
        }
        rc = fb_tsv_close(&f, rc, err);
    }
    if (rc == FB_OK && (rc = fb_tsv_open(&f, dirfd, "timeline_text.tsv", false, err)) == FB_OK) {
        char title[256];
        snprintf(title, sizeof title, "n = %lld elements, the median call of %d per variant",
                 (long long)info->n, info->calls);
        fb_tsv_printf(&f, "%s", "title\ttiming\n");
        fb_tsv_text(&f, title, "\t");
        fb_tsv_text(&f, info->timing, "\n");
        rc = fb_tsv_close(&f, rc, err);
    }
    if (rc == FB_OK && (rc = fb_tsv_open(&f, dirfd, "timeline.tsv", false, err)) == FB_OK) {
        fb_tsv_printf(&f, "%s", "ntracks\tnkinds\tnbars\tnlaunches\n");
        put_numbers(&f, (const double[]){(double)count, (double)kinds.count, (double)n_bars,
                                         (double)n_launches}, 4, "\n");
        rc = fb_tsv_close(&f, rc, err);
    }
    if (rc == FB_OK && (rc = fb_tsv_open(&f, dirfd, "timeline_range.tsv", false, err)) == FB_OK) {
        fb_tsv_printf(&f, "%s", "xmax\n");
        put_numbers(&f, &xmax, 1, "\n");
        rc = fb_tsv_close(&f, rc, err);
    }
    return rc;
}
