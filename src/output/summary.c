#include "output/summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "common/checked.h"
#include "output/point_index.h"

/* Rows in the order that puts one point's variants side by side: by n, then the rest of the
 * point key (backend, device, dtype, cache), then file position (so the later of two rows of
 * one point comes last). Sorting pointers makes the summary O(rows log rows): a 200k-row
 * resumed file used to take minutes with a linear search per size. */
static int compare_rows(const void *a, const void *b)
{
    const struct fb_record *x = *(const struct fb_record *const *)a;
    const struct fb_record *y = *(const struct fb_record *const *)b;
    if (x->n != y->n)
        return (x->n > y->n) - (x->n < y->n);
    int c = strcmp(x->backend, y->backend);
    if (!c)
        c = strcmp(x->device, y->device);
    if (!c)
        c = strcmp(fb_dtype_canonical(x->dtype), fb_dtype_canonical(y->dtype));
    if (!c)
        c = strcmp(x->cache, y->cache);
    return c ? c : (x > y) - (x < y);
}

/* A time in the unit that keeps 3-4 significant digits readable; '*' after a noisy one. */
static void format_time(char *buf, size_t size, const struct fb_record *r)
{
    if (!r) {
        snprintf(buf, size, "-");
        return;
    }
    double t = r->time_median_s;
    if (t < 1e-6)
        snprintf(buf, size, "%.1f ns", t * 1e9);
    else if (t < 1e-3)
        snprintf(buf, size, "%.2f us", t * 1e6);
    else if (t < 1.0)
        snprintf(buf, size, "%.2f ms", t * 1e3);
    else
        snprintf(buf, size, "%.3f s", t);
    if (r->status == FB_POINT_NOISY && strlen(buf) + 1 < size)
        strcat(buf, "*");
}

static void format_size(char *buf, size_t size, int64_t n)
{
    if (n >= 1000000000 && n % 1000000000 == 0)
        snprintf(buf, size, "%" PRId64 "G", n / 1000000000);
    else if (n >= 1000000 && n % 1000000 == 0)
        snprintf(buf, size, "%" PRId64 "M", n / 1000000);
    else if (n >= 1000 && n % 1000 == 0)
        snprintf(buf, size, "%" PRId64 "K", n / 1000);
    else
        snprintf(buf, size, "%" PRId64, n);
}

/* "2", or "-" when the row is missing or its launches were not measured (-1). */
static void format_launches(char *buf, size_t size, const struct fb_record *r)
{
    if (r && r->launches >= 0)
        snprintf(buf, size, "%" PRId64, r->launches);
    else
        snprintf(buf, size, "-");
}

void fb_summary_print(FILE *out, const struct fb_record *records, size_t count)
{
    size_t bytes;
    if (!fb_mul_size(count ? count : 1, sizeof(const struct fb_record *), &bytes))
        return;
    const struct fb_record **rows = malloc(bytes);
    if (!rows)
        return;
    size_t not_ok = 0, noisy = 0, retaken = 0;
    bool mixed_cache = false;
    for (size_t i = 0; i < count; i++) {
        if (records[i].status == FB_POINT_NOISY)
            noisy++;
        else if (records[i].status != FB_POINT_OK)
            not_ok++;
        if (records[i].preempted > 0) /* NaN (not judged) compares false */
            retaken++;
        if (strcmp(records[i].cache, records[0].cache) != 0)
            mixed_cache = true;
        rows[i] = &records[i];
    }
    qsort(rows, count, sizeof *rows, compare_rows);

    fprintf(out, "%10s  %10s  %10s  %7s  %8s  %11s  %10s  %9s\n", "n", "eager", "fused",
            "speedup", "launches", "fused GB/s", "copy GB/s", "fused/copy");
    for (size_t i = 0; i < count;) {
        /* One line per group of rows that differ only in variant; the last ok (or noisy) row
         * of each variant in the group is the one shown. */
        const struct fb_record *eager = NULL, *fused = NULL, *copy = NULL;
        size_t j = i;
        for (; j < count && fb_point_key_equal_but_variant(rows[i], rows[j]); j++) {
            const struct fb_record *r = rows[j];
            if (r->status != FB_POINT_OK && r->status != FB_POINT_NOISY)
                continue;
            if (strcmp(r->variant, "eager_add_relu") == 0)
                eager = r;
            else if (strcmp(r->variant, "fused_add_relu") == 0)
                fused = r;
            else if (strcmp(r->variant, "copy") == 0)
                copy = r;
        }
        int64_t n = rows[i]->n;
        char size_text[48], eager_text[32], fused_text[32], speedup[32], launches[48];
        char eager_launches[24], fused_launches[24];
        char fused_bw[32], copy_bw[32], fraction[32];
        format_size(size_text, sizeof size_text, n);
        if (mixed_cache) /* two cache modes in one table: say which line is which */
            snprintf(size_text + strlen(size_text), sizeof size_text - strlen(size_text),
                     " %.8s", rows[i]->cache);
        format_time(eager_text, sizeof eager_text, eager);
        format_time(fused_text, sizeof fused_text, fused);
        snprintf(speedup, sizeof speedup, "-");
        if (eager && fused)
            snprintf(speedup, sizeof speedup, "%.2fx%s", eager->time_median_s / fused->time_median_s,
                     eager->status == FB_POINT_NOISY || fused->status == FB_POINT_NOISY ? "*"
                                                                                        : "");
        format_launches(eager_launches, sizeof eager_launches, eager);
        format_launches(fused_launches, sizeof fused_launches, fused);
        snprintf(launches, sizeof launches, "%s/%s", eager_launches, fused_launches);
        snprintf(fused_bw, sizeof fused_bw, fused ? "%.1f" : "-", fused ? fused->bandwidth_gbps : 0);
        snprintf(copy_bw, sizeof copy_bw, copy ? "%.1f" : "-", copy ? copy->bandwidth_gbps : 0);
        snprintf(fraction, sizeof fraction, "-");
        if (fused && !isnan(fused->copy_fraction))
            snprintf(fraction, sizeof fraction, "%.0f%%", 100.0 * fused->copy_fraction);
        fprintf(out, "%10s  %10s  %10s  %7s  %8s  %11s  %10s  %9s\n", size_text, eager_text,
                fused_text, speedup, launches, fused_bw, copy_bw, fraction);
        i = j;
    }
    fprintf(out, "speedup = eager_add_relu time / fused_add_relu time (medians, same run); "
                 "launches = eager/fused per call, counted\n");
    if (retaken)
        fprintf(out, "contention: %zu of %zu point%s had samples disturbed by other programs, "
                     "dropped and retaken (preempted > 0)\n",
                retaken, count, count == 1 ? "" : "s");
    if (noisy)
        fprintf(out, "* %zu point%s noisy: too few undisturbed samples within the budget, times "
                     "not to be trusted (status noisy; see reason)\n",
                noisy, noisy == 1 ? "" : "s");
    if (not_ok)
        fprintf(out, "%zu point%s failed or skipped: see the status and reason columns\n", not_ok,
                not_ok == 1 ? "" : "s");
    free(rows);
}

/* "650.3 ns" / "2.41 us": a launch cost. */
static void format_seconds(char *buf, size_t size, double t)
{
    if (t < 1e-6)
        snprintf(buf, size, "%.1f ns", t * 1e9);
    else if (t < 1e-3)
        snprintf(buf, size, "%.2f us", t * 1e6);
    else
        snprintf(buf, size, "%.2f ms", t * 1e3);
}

static void print_param_points(FILE *out, const struct fb_fit_param *p, const char *kind)
{
    if (isnan(p->value))
        fprintf(out, "not fitted: %zu %s point%s, %d needed", p->points, kind,
                p->points == 1 ? "" : "s", FB_FIT_MIN_POINTS);
    else
        fprintf(out, "%zu %s points, spread %.1f%%%s", p->points, kind, 100.0 * p->spread,
                p->spread > 0.25 ? ": the points disagree, was the run disturbed?" : "");
}

void fb_summary_print_fit(FILE *out, const struct fb_fit *fit, const char *cache_name)
{
    if (fit->used == 0)
        return;
    const char *cache = cache_name && cache_name[0] ? cache_name : "cache";
    char text[32];
    fprintf(out, "model: t = launches * L + bytes / B, fitted to every variant with launches "
                 "(medians of per-point estimates; spread: half the interquartile range)\n");
    fprintf(out, "  L   = ");
    if (!isnan(fit->launch.value)) {
        format_seconds(text, sizeof text, fit->launch.value);
        fprintf(out, "%s per launch (", text);
    } else {
        fprintf(out, "? (");
    }
    print_param_points(out, &fit->launch, "launch-bound");
    fprintf(out, ")\n  B   = ");
    if (!isnan(fit->bandwidth.value))
        fprintf(out, "%.1f GB/s beyond %gx the %s (", fit->bandwidth.value / 1e9,
                FB_FIT_MEMORY_FACTOR, cache);
    else
        fprintf(out, "? beyond %gx the %s (", FB_FIT_MEMORY_FACTOR, cache);
    print_param_points(out, &fit->bandwidth, "memory-bound");
    fprintf(out, ")\n  B_c = ");
    if (!isnan(fit->cache_bandwidth.value))
        fprintf(out, "%.1f GB/s within the %s (", fit->cache_bandwidth.value / 1e9, cache);
    else
        fprintf(out, "? within the %s (", cache);
    print_param_points(out, &fit->cache_bandwidth, "cache-resident");
    fprintf(out, ")\n");
}
