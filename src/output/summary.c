#include "output/summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The ok row of `variant` at size n (the latest when there are several), or NULL. */
static const struct fb_record *find(const struct fb_record *records, size_t count,
                                    const char *variant, int64_t n)
{
    for (size_t i = count; i-- > 0;)
        if (records[i].n == n && records[i].status == FB_POINT_OK &&
            strcmp(records[i].variant, variant) == 0)
            return &records[i];
    return NULL;
}

/* The ok copy-ceiling row at size n (found by role), or NULL. */
static const struct fb_record *find_ceiling(const struct fb_record *records, size_t count,
                                            int64_t n)
{
    for (size_t i = count; i-- > 0;)
        if (records[i].n == n && records[i].status == FB_POINT_OK &&
            strcmp(records[i].role, "copy_ceiling") == 0)
            return &records[i];
    return NULL;
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* A time in the unit that keeps 3-4 significant digits readable. */
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
    size_t n_sizes = 0, not_ok = 0;
    for (size_t i = 0; i < count; i++) {
        if (records[i].status != FB_POINT_OK)
            not_ok++;
        sizes[n_sizes++] = records[i].n;
    }
    qsort(sizes, n_sizes, sizeof *sizes, compare_i64);

    fprintf(out, "%10s  %-24s %-24s %10s  %10s  %7s  %8s  %10s  %10s  %9s\n", "n", "variant",
            "vs (pair)", "time", "pair time", "speedup", "launches", "pair GB/s", "copy GB/s",
            "pair/copy");
    for (size_t i = 0; i < n_sizes; i++) {
        if (i > 0 && sizes[i] == sizes[i - 1])
            continue;
        int64_t n = sizes[i];
        const struct fb_record *ceiling = find_ceiling(records, count, n);
        /* one line per row that has a pair, in the order the rows were measured */
        for (size_t j = 0; j < count; j++) {
            const struct fb_record *row = &records[j];
            if (row->n != n || !row->pair[0] || find(records, count, row->variant, n) != row)
                continue;
            const struct fb_record *pair = find(records, count, row->pair, n);
            char size_text[32], row_time[32], pair_time[32], speedup[32], launches[48];
            char pair_bw[32], copy_bw[32], fraction[32];
            format_size(size_text, sizeof size_text, n);
            format_time(row_time, sizeof row_time, row);
            format_time(pair_time, sizeof pair_time, pair);
            snprintf(speedup, sizeof speedup, "-");
            if (!isnan(row->speedup)) /* computed once, in measure/pairing.c */
                snprintf(speedup, sizeof speedup, "%.2fx", row->speedup);
            snprintf(launches, sizeof launches, "%" PRId64 "/%s", row->launches, "-");
            if (pair)
                snprintf(launches, sizeof launches, "%" PRId64 "/%" PRId64, row->launches,
                         pair->launches);
            snprintf(pair_bw, sizeof pair_bw, pair ? "%.1f" : "-",
                     pair ? pair->bandwidth_gbps : 0);
            snprintf(copy_bw, sizeof copy_bw, ceiling ? "%.1f" : "-",
                     ceiling ? ceiling->bandwidth_gbps : 0);
            snprintf(fraction, sizeof fraction, "-");
            if (pair && !isnan(pair->copy_fraction))
                snprintf(fraction, sizeof fraction, "%.0f%%", 100.0 * pair->copy_fraction);
            fprintf(out, "%10s  %-24s %-24s %10s  %10s  %7s  %8s  %10s  %10s  %9s\n",
                    size_text, row->variant, row->pair, row_time, pair_time, speedup, launches,
                    pair_bw, copy_bw, fraction);
        }
    }
    fprintf(out, "speedup = time / pair time (medians, same run): for an eager variant, what "
                 "fusing saves; launches = variant/pair per call, counted; copy = the copy "
                 "ceiling\n");
    if (not_ok)
        fprintf(out, "%zu point%s failed or skipped: see the status and reason columns\n", not_ok,
                not_ok == 1 ? "" : "s");
    free(sizes);
}
