#include "output/summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct fb_record *find(const struct fb_record *records, size_t count,
                                    const char *variant, int64_t n)
{
    for (size_t i = count; i-- > 0;)
        if (records[i].n == n &&
            (records[i].status == FB_POINT_OK || records[i].status == FB_POINT_NOISY) &&
            strcmp(records[i].variant, variant) == 0)
            return &records[i];
    return NULL;
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
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

void fb_summary_print(FILE *out, const struct fb_record *records, size_t count)
{
    int64_t *sizes = malloc((count ? count : 1) * sizeof *sizes);
    if (!sizes)
        return;
    size_t n_sizes = 0, not_ok = 0, noisy = 0, retaken = 0;
    for (size_t i = 0; i < count; i++) {
        if (records[i].status == FB_POINT_NOISY)
            noisy++;
        else if (records[i].status != FB_POINT_OK)
            not_ok++;
        if (records[i].preempted > 0) /* NaN (not judged) compares false */
            retaken++;
        sizes[n_sizes++] = records[i].n;
    }
    qsort(sizes, n_sizes, sizeof *sizes, compare_i64);

    fprintf(out, "%10s  %10s  %10s  %7s  %8s  %11s  %10s  %9s\n", "n", "eager", "fused",
            "speedup", "launches", "fused GB/s", "copy GB/s", "fused/copy");
    for (size_t i = 0; i < n_sizes; i++) {
        if (i > 0 && sizes[i] == sizes[i - 1])
            continue;
        int64_t n = sizes[i];
        const struct fb_record *eager = find(records, count, "eager_add_relu", n);
        const struct fb_record *fused = find(records, count, "fused_add_relu", n);
        const struct fb_record *copy = find(records, count, "copy", n);
        char size_text[32], eager_text[32], fused_text[32], speedup[32], launches[48];
        char fused_bw[32], copy_bw[32], fraction[32];
        format_size(size_text, sizeof size_text, n);
        format_time(eager_text, sizeof eager_text, eager);
        format_time(fused_text, sizeof fused_text, fused);
        snprintf(speedup, sizeof speedup, "-");
        if (eager && fused)
            snprintf(speedup, sizeof speedup, "%.2fx%s", eager->time_median_s / fused->time_median_s,
                     eager->status == FB_POINT_NOISY || fused->status == FB_POINT_NOISY ? "*"
                                                                                        : "");
        snprintf(launches, sizeof launches, "%s/%s", "-", "-");
        if (eager || fused)
            snprintf(launches, sizeof launches, "%" PRId64 "/%" PRId64,
                     eager ? eager->launches : -1, fused ? fused->launches : -1);
        snprintf(fused_bw, sizeof fused_bw, fused ? "%.1f" : "-", fused ? fused->bandwidth_gbps : 0);
        snprintf(copy_bw, sizeof copy_bw, copy ? "%.1f" : "-", copy ? copy->bandwidth_gbps : 0);
        snprintf(fraction, sizeof fraction, "-");
        if (fused && !isnan(fused->copy_fraction))
            snprintf(fraction, sizeof fraction, "%.0f%%", 100.0 * fused->copy_fraction);
        fprintf(out, "%10s  %10s  %10s  %7s  %8s  %11s  %10s  %9s\n", size_text, eager_text,
                fused_text, speedup, launches, fused_bw, copy_bw, fraction);
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
    free(sizes);
}
