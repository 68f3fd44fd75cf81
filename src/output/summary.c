#include "output/summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "common/checked.h"
#include "results/point_index.h"

/* Rows in the order that puts one point's variants side by side: by n, then the rest of the
 * point key (backend, device, dtype, cache, stores), then variant (so a pair is found by binary
 * search), then file position (so the later of two rows of one point comes last). Sorting
 * pointers makes the summary O(rows log rows): a 200k-row resumed file used to take minutes
 * with a linear search per size. */
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
    if (!c)
        c = strcmp(fb_stores_canonical(x->stores), fb_stores_canonical(y->stores));
    if (!c)
        c = strcmp(x->variant, y->variant);
    return c ? c : (x > y) - (x < y);
}

/* The last ok (or noisy) row of `variant` among rows[0..count-1] (one group, sorted), or
 * NULL. */
static const struct fb_record *find_variant(const struct fb_record *const *rows, size_t count,
                                            const char *variant)
{
    size_t lo = 0, hi = count; /* first row whose variant sorts after `variant` */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(rows[mid]->variant, variant) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo > 0 && strcmp(rows[lo - 1]->variant, variant) == 0; lo--)
        if (rows[lo - 1]->status == FB_POINT_OK || rows[lo - 1]->status == FB_POINT_NOISY)
            return rows[lo - 1];
    return NULL;
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

/* "2", "2in1" when its 2 kernels went in one launch of the host (host_launches 1: a CUDA
 * graph, one CPU parallel region), or "-" when the row is missing or its launches were not
 * measured (-1). */
static void format_launches(char *buf, size_t size, const struct fb_record *r)
{
    if (r && r->launches >= 0 && r->host_launches >= 0 && r->host_launches != r->launches)
        snprintf(buf, size, "%" PRId64 "in%" PRId64, r->launches, r->host_launches);
    else if (r && r->launches >= 0)
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
    bool mixed_cache = false, mixed_dtype = false, mixed_stores = false;
    for (size_t i = 0; i < count; i++) {
        if (records[i].status == FB_POINT_NOISY)
            noisy++;
        else if (records[i].status != FB_POINT_OK)
            not_ok++;
        if (records[i].preempted > 0) /* NaN (not judged) compares false */
            retaken++;
        if (strcmp(records[i].cache, records[0].cache) != 0)
            mixed_cache = true;
        if (strcmp(fb_dtype_canonical(records[i].dtype), fb_dtype_canonical(records[0].dtype)))
            mixed_dtype = true;
        if (strcmp(fb_stores_canonical(records[i].stores),
                   fb_stores_canonical(records[0].stores)) != 0)
            mixed_stores = true;
        rows[i] = &records[i];
    }
    qsort(rows, count, sizeof *rows, compare_rows);

    /* the first column also names the cache mode, dtype and store kind when the table has
     * several */
    const int size_width =
        10 + (mixed_cache ? 5 : 0) + (mixed_dtype ? 5 : 0) + (mixed_stores ? 10 : 0);
    fprintf(out, "%*s  %-24s %-24s %10s  %10s  %7s  %8s  %10s  %10s  %9s\n", size_width, "n",
            "variant",
            "vs (pair)", "time", "pair time", "speedup", "launches", "pair GB/s", "copy GB/s",
            "pair/copy");
    for (size_t i = 0; i < count;) {
        /* A group: the rows that differ only in variant. One line per variant of the group that
         * has a pair, its last ok row shown; the copy ceiling found by role. */
        size_t j = i;
        const struct fb_record *ceiling = NULL;
        for (; j < count && fb_point_key_equal_but_variant(rows[i], rows[j]); j++)
            if (rows[j]->status == FB_POINT_OK && strcmp(rows[j]->role, "copy_ceiling") == 0)
                ceiling = rows[j];
        for (size_t k = i; k < j; k++) {
            const struct fb_record *row = rows[k];
            if (!row->pair[0] || find_variant(rows + i, j - i, row->variant) != row)
                continue;
            const struct fb_record *pair = find_variant(rows + i, j - i, row->pair);
            char size_text[48], row_time[32], pair_time[32], speedup[32], launches[96];
            char row_launches[44], pair_launches[44], pair_bw[32], copy_bw[32], fraction[32];
            format_size(size_text, sizeof size_text, row->n);
            if (mixed_cache) /* two cache modes in one table: say which line is which */
                snprintf(size_text + strlen(size_text), sizeof size_text - strlen(size_text),
                         " %.8s", row->cache);
            if (mixed_dtype) /* several dtypes (fp32, fp16, bf16): say which line is which */
                snprintf(size_text + strlen(size_text), sizeof size_text - strlen(size_text),
                         " %.8s", row->dtype);
            if (mixed_stores) /* likewise two store kinds */
                snprintf(size_text + strlen(size_text), sizeof size_text - strlen(size_text),
                         " %.9s", fb_stores_canonical(row->stores));
            format_time(row_time, sizeof row_time, row);
            format_time(pair_time, sizeof pair_time, pair);
            snprintf(speedup, sizeof speedup, "-");
            if (!isnan(row->speedup)) /* computed once, in measure/pairing.c */
                snprintf(speedup, sizeof speedup, "%.2fx", row->speedup);
            format_launches(row_launches, sizeof row_launches, row);
            format_launches(pair_launches, sizeof pair_launches, pair);
            snprintf(launches, sizeof launches, "%s/%s", row_launches, pair_launches);
            snprintf(pair_bw, sizeof pair_bw, pair ? "%.1f" : "-",
                     pair ? pair->bandwidth_gbps : 0);
            snprintf(copy_bw, sizeof copy_bw, ceiling ? "%.1f" : "-",
                     ceiling ? ceiling->bandwidth_gbps : 0);
            snprintf(fraction, sizeof fraction, "-");
            if (pair && !isnan(pair->copy_fraction))
                snprintf(fraction, sizeof fraction, "%.0f%%", 100.0 * pair->copy_fraction);
            fprintf(out, "%*s  %-24s %-24s %10s  %10s  %7s  %8s  %10s  %10s  %9s\n",
                    size_width, size_text, row->variant, row->pair, row_time, pair_time, speedup, launches,
                    pair_bw, copy_bw, fraction);
        }
        i = j;
    }
    fprintf(out, "speedup = time / pair time (medians, same run): for an eager variant, what "
                 "fusing saves; launches = variant/pair kernels per call, counted (KinH: K "
                 "kernels in H launches of the host, a CUDA graph or one CPU parallel region); "
                 "copy = the copy ceiling\n");
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
    if (fit->used == 0) {
        fprintf(out, "model: not fitted (no ok point with launches: every point failed or was "
                     "noisy)\n");
        return;
    }
    const char *cache = cache_name && cache_name[0] ? cache_name : "cache";
    char text[32];
    fprintf(out, "model: t = launches * L + bytes / B, launches being the host's (a graph or "
                 "one parallel region counts 1), fitted to every variant with launches "
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
