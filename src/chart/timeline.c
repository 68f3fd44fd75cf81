/* The timeline chart's tables (contract in timeline.h). */
#include "chart/timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/label.h"

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

/* A table file being written, with the first error it met. */
struct file {
    FILE *f;
    const char *name;
    int errnum;
};

static int open_file(int dirfd, const char *name, struct file *t, struct fb_error *err)
{
    t->name = name;
    t->errnum = 0;
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    t->f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!t->f) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return fb_fail(err, FB_ERR_RUNTIME, "charts: cannot create the table %s: %s", name,
                       strerror(e));
    }
    return FB_OK;
}

static void put_label(struct file *t, const char *text, const char *sep)
{
    char label[FB_CHART_LABEL_SIZE];
    fb_chart_label(label, sizeof label, text);
    if (fprintf(t->f, "%s%s", label, sep) < 0 && !t->errnum)
        t->errnum = errno ? errno : EIO;
}

static void put_text(struct file *t, const char *text)
{
    if (fputs(text, t->f) < 0 && !t->errnum)
        t->errnum = errno ? errno : EIO;
}

/* Numbers (%.6g) separated by TABs, then `end` ("\n", or "\t" before text cells). */
static void put_numbers(struct file *t, const double *v, size_t n, const char *end)
{
    for (size_t i = 0; i < n; i++)
        if (fprintf(t->f, "%.6g%s", v[i], i + 1 < n ? "\t" : end) < 0 && !t->errnum)
            t->errnum = errno ? errno : EIO;
}

static int close_file(struct file *t, int rc, struct fb_error *err)
{
    if (fflush(t->f) != 0 && !t->errnum)
        t->errnum = errno;
    if (fclose(t->f) != 0 && !t->errnum)
        t->errnum = errno;
    if (rc == FB_OK && t->errnum)
        return fb_fail(err, FB_ERR_RUNTIME, "charts: cannot write the table %s: %s", t->name,
                       strerror(t->errnum));
    return rc;
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
    struct file bars, launches, f;
    size_t n_bars = 0, n_launches = 0;
    double xmax = 0.0;
    int rc = open_file(dirfd, "timeline_bars.dat", &bars, err);
    if (rc != FB_OK)
        return rc;
    rc = open_file(dirfd, "timeline_launches.dat", &launches, err);
    if (rc != FB_OK)
        return close_file(&bars, rc, err);
    put_text(&bars, "x0\tx1\ty\tk\n");
    put_text(&launches, "x\ty\n");
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
    rc = close_file(&bars, FB_OK, err);
    rc = close_file(&launches, rc, err);
    if (rc == FB_OK && (rc = open_file(dirfd, "timeline_kinds.tsv", &f, err)) == FB_OK) {
        put_text(&f, "k\tname\tcolour\n");
        for (size_t k = 0; k < kinds.count; k++) {
            put_numbers(&f, (const double[]){(double)(k + 1)}, 1, "\t");
            put_label(&f, kinds.name[k], "\t");
            put_label(&f, kind_colours[k % N_COLOURS], "\n");
        }
        rc = close_file(&f, rc, err);
    }
    if (rc == FB_OK && (rc = open_file(dirfd, "timeline_tracks.tsv", &f, err)) == FB_OK) {
        put_text(&f, "i\ty\tname\tnote\n");
        for (size_t i = 0; i < count; i++) {
            char note[160];
            track_note(tracks[i].trace, note, sizeof note);
            put_numbers(&f, (const double[]){(double)(i + 1), (double)(count - i)}, 2, "\t");
            put_label(&f, tracks[i].name, "\t");
            put_label(&f, note, "\n");
        }
        rc = close_file(&f, rc, err);
    }
    if (rc == FB_OK && (rc = open_file(dirfd, "timeline_text.tsv", &f, err)) == FB_OK) {
        char title[256];
        snprintf(title, sizeof title, "n = %lld elements, the median call of %d per variant",
                 (long long)info->n, info->calls);
        put_text(&f, "title\ttiming\n");
        put_label(&f, title, "\t");
        put_label(&f, info->timing, "\n");
        rc = close_file(&f, rc, err);
    }
    if (rc == FB_OK && (rc = open_file(dirfd, "timeline.tsv", &f, err)) == FB_OK) {
        put_text(&f, "ntracks\tnkinds\tnbars\tnlaunches\n");
        put_numbers(&f, (const double[]){(double)count, (double)kinds.count, (double)n_bars,
                                         (double)n_launches}, 4, "\n");
        rc = close_file(&f, rc, err);
    }
    if (rc == FB_OK && (rc = open_file(dirfd, "timeline_range.tsv", &f, err)) == FB_OK) {
        put_text(&f, "xmax\n");
        put_numbers(&f, &xmax, 1, "\n");
        rc = close_file(&f, rc, err);
    }
    return rc;
}
