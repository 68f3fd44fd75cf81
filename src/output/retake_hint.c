#include "output/retake_hint.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

/* "1.2 K", "3.16 M", "100 M": a size as the sweep's --sizes reads it. */
static void format_n(char *buf, size_t size, int64_t n)
{
    if (n >= 1000000000)
        snprintf(buf, size, "%.3gG", (double)n / 1e9);
    else if (n >= 1000000)
        snprintf(buf, size, "%.3gM", (double)n / 1e6);
    else if (n >= 1000)
        snprintf(buf, size, "%.3gK", (double)n / 1e3);
    else
        snprintf(buf, size, "%" PRId64, n);
}

/* "134 MB": bytes in decimal units. */
static void format_bytes(char *buf, size_t size, double bytes)
{
    if (bytes >= 1e9)
        snprintf(buf, size, "%.3g GB", bytes / 1e9);
    else if (bytes >= 1e6)
        snprintf(buf, size, "%.3g MB", bytes / 1e6);
    else
        snprintf(buf, size, "%.3g KB", bytes / 1e3);
}

/* Rows in a bytes range: (lo, hi], with launches known (what the fit could use); only the
 * noisy count is printed, the ok count being the fit's own. */
struct in_range {
    size_t ok, noisy;
};

static struct in_range count_in(const struct fb_record *records, size_t count, double lo,
                                double hi)
{
    struct in_range c = {0, 0};
    for (size_t i = 0; i < count; i++) {
        const struct fb_record *r = &records[i];
        double bytes = (double)r->bytes_model;
        if (r->bytes_model <= 0 || bytes <= lo || bytes > hi || r->launches < 1)
            continue;
        c.ok += r->status == FB_POINT_OK;
        c.noisy += r->status == FB_POINT_NOISY;
    }
    return c;
}

static void print_noisy(FILE *out, const struct fb_record *records, size_t count, size_t noisy)
{
    int64_t nmin = INT64_MAX, nmax = 0;
    for (size_t i = 0; i < count; i++)
        if (records[i].status == FB_POINT_NOISY) {
            nmin = records[i].n < nmin ? records[i].n : nmin;
            nmax = records[i].n > nmax ? records[i].n : nmax;
        }
    char a[32], b[32];
    format_n(a, sizeof a, nmin);
    format_n(b, sizeof b, nmax);
    fprintf(out, "retake: %zu noisy point%s (n = %s%s%s): run the same command again with "
                 "--resume: every point of their sizes and formats is measured again (so pairs "
                 "stay interleaved), every other row is kept, and the results file is replaced "
                 "only when that run completes (Ctrl-C keeps it as it is)\n",
            noisy, noisy == 1 ? "" : "s", a, nmin == nmax ? "" : " .. ", nmin == nmax ? "" : b);
}

/* One bandwidth not fitted: why, and what to do. */
static void print_unfitted(FILE *out, const char *name, const char *where, struct in_range c,
                           size_t needed, double edge_bytes, bool beyond)
{
    char edge[32];
    format_bytes(edge, sizeof edge, edge_bytes);
    fprintf(out, "%s = ? (not fitted): %zu ok point%s %s (calls moving %s %s), %zu needed", name,
            c.ok, c.ok == 1 ? "" : "s", where, beyond ? "over" : "at most", edge, needed);
    if (c.noisy)
        fprintf(out, "; %zu noisy point%s there %s left out: retake %s as above, on a quieter "
                     "machine (fewer other programs, or [backend] cpu_threads below the free "
                     "cores)\n",
                c.noisy, c.noisy == 1 ? "" : "s", c.noisy == 1 ? "was" : "were",
                c.noisy == 1 ? "it" : "them");
    else if (beyond)
        fprintf(out, ": measure larger sizes (--sizes up to where a call moves well over %s)\n",
                edge);
    else
        fprintf(out, ": measure smaller sizes (--sizes down to where a call moves under %s)\n",
                edge);
}

void fb_retake_hint_print(FILE *out, const struct fb_record *records, size_t count,
                          const struct fb_fit *fit, uint64_t cache_bytes, const char *cache_name)
{
    size_t noisy = 0;
    for (size_t i = 0; i < count; i++)
        noisy += records[i].status == FB_POINT_NOISY;
    if (noisy)
        print_noisy(out, records, count, noisy);
    if (!fit || fit->used == 0)
        return;
    const char *cache = cache_name && cache_name[0] ? cache_name : "cache";
    bool no_b = isnan(fit->bandwidth.value), no_bc = isnan(fit->cache_bandwidth.value);
    if ((no_b || no_bc) && cache_bytes == 0) {
        fprintf(out, "B = ? (not fitted): the device reported no cache size, so no point is "
                     "known to be beyond or within it\n");
        return;
    }
    char where[64];
    if (no_b) {
        double edge = FB_FIT_MEMORY_FACTOR * (double)cache_bytes;
        snprintf(where, sizeof where, "beyond %gx the %s", FB_FIT_MEMORY_FACTOR, cache);
        struct in_range c = count_in(records, count, edge, INFINITY);
        c.ok = fit->bandwidth.points; /* the fit's own count (its format, its rows) */
        print_unfitted(out, "B", where, c, FB_FIT_MIN_POINTS, edge, true);
    }
    /* B_c is fitted on warm runs only: a cold run's "?" is by design, nothing to retake */
    bool cold = count > 0 && strcmp(records[0].cache, "cold") == 0;
    if (no_bc && !cold) {
        double edge = FB_FIT_CACHE_FACTOR * (double)cache_bytes;
        snprintf(where, sizeof where, "within %gx the %s", FB_FIT_CACHE_FACTOR, cache);
        struct in_range c = count_in(records, count, 0, edge);
        c.ok = fit->cache_bandwidth.points;
        print_unfitted(out, "B_c", where, c, FB_FIT_MIN_POINTS, edge, false);
    }
}
