/* The launch/bandwidth fit: see fit.h for the model, the point sets and why medians. */
#include "measure/fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"

/* Alternations of the three estimates. Each estimate's correction term is small by the choice
 * of its points (at most 10% or 25% of the time), so they settle in a few rounds; the cap only
 * guards against two sets that keep trading a boundary point. */
enum { MAX_ROUNDS = 20 };

static bool valid(const struct fb_fit_point *p)
{
    return p->launches >= 1 && p->bytes > 0 && p->time_s > 0 && isfinite(p->launches) &&
           isfinite(p->bytes) && isfinite(p->time_s);
}

static void unfitted(struct fb_fit_param *p, size_t points)
{
    p->value = NAN;
    p->spread = NAN;
    p->points = points;
}

/* The median and spread of est[0..k-1] (sorted in place) into *p; NaN below the minimum. */
static void summarize(double *est, size_t k, struct fb_fit_param *p)
{
    if (k < FB_FIT_MIN_POINTS) {
        unfitted(p, k);
        return;
    }
    fb_stats_sort(est, k);
    p->value = fb_stats_percentile_sorted(est, k, 50);
    p->spread = (fb_stats_percentile_sorted(est, k, 75) - fb_stats_percentile_sorted(est, k, 25)) /
                2.0 / fabs(p->value);
    p->points = k;
}

/* Launch time to subtract: none when L is unknown. */
static double launch_time(const struct fb_fit_point *p, double launch_s)
{
    return isnan(launch_s) ? 0.0 : p->launches * launch_s;
}

/* B over the memory-bound points: median of bytes_i / (t_i - launches_i * L). */
static void fit_memory_bandwidth(const struct fb_fit_point *pts, size_t n, double launch_s,
                                 uint64_t cache_bytes, double *est, struct fb_fit_param *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct fb_fit_point *p = &pts[i];
        double lt = launch_time(p, launch_s);
        if (p->bytes > FB_FIT_MEMORY_FACTOR * (double)cache_bytes && p->time_s > lt)
            est[k++] = p->bytes / (p->time_s - lt);
    }
    summarize(est, k, out);
}

/* B_c over the cache-resident points, the same way. Which points have launches at most
 * FB_FIT_CACHE_LAUNCH_SHARE of their time is decided by the model (launches * L against
 * bytes / guess_bps), never by the measured time: a launch-bound point that a disturbance
 * made 4x slower would pass a test on its time and, with its few bytes, drag B_c down.
 * With L unknown the choice is made with L_0 (start_s) in its place, an upper bound on L (a
 * point's time per launch is L plus its bytes' time): subtracting nothing then errs by under
 * the share, where choosing with no launch cost at all would take in the launch-bound
 * points of a sweep with one small size (chain-length.ini: 1K, 1M, 100M) and pull B_c down
 * to their bytes over their launch time. */
static void fit_cache_bandwidth(const struct fb_fit_point *pts, size_t n, double launch_s,
                                double start_s, uint64_t cache_bytes, double guess_bps,
                                double *est, struct fb_fit_param *out)
{
    const double share = FB_FIT_CACHE_LAUNCH_SHARE;
    const double choose_s = isnan(launch_s) ? start_s : launch_s;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct fb_fit_point *p = &pts[i];
        double lt = launch_time(p, launch_s), chosen_lt = p->launches * choose_s;
        if (p->bytes <= FB_FIT_CACHE_FACTOR * (double)cache_bytes &&
            chosen_lt <= share * (chosen_lt + p->bytes / guess_bps) && p->time_s > lt)
            est[k++] = p->bytes / (p->time_s - lt);
    }
    summarize(est, k, out);
}

/* A first guess of B_c when neither B_c nor B is known yet: the median of
 * bytes_i / (t_i - launches_i * L) over the cache-resident points with the most bytes per
 * launch (the largest third of them). NaN when there are none. keys and est: n doubles. */
static double cache_bandwidth_guess(const struct fb_fit_point *pts, size_t n, double launch_s,
                                    uint64_t cache_bytes, double *keys, double *est)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].bytes <= FB_FIT_CACHE_FACTOR * (double)cache_bytes)
            keys[m++] = pts[i].bytes / pts[i].launches;
    if (m == 0)
        return NAN;
    fb_stats_sort(keys, m);
    double limit = keys[m - 1 - m / 3];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct fb_fit_point *p = &pts[i];
        double lt = launch_time(p, launch_s);
        if (p->bytes <= FB_FIT_CACHE_FACTOR * (double)cache_bytes &&
            p->bytes / p->launches >= limit && p->time_s > lt)
            est[k++] = p->bytes / (p->time_s - lt);
    }
    fb_stats_sort(est, k);
    return fb_stats_percentile_sorted(est, k, 50);
}

/* L over the launch-bound points chosen by the model (see fit.h): bytes / small_bps under
 * FB_FIT_LAUNCH_BYTE_SHARE of launches * L, and no slower than FB_FIT_LAUNCH_CAP * start_s per
 * launch. The cap can only leave disturbed points out, never let one in, and it breaks a loop
 * that disturbed middle sizes can start: an L too large makes t - launches * L small, so B_c
 * too large, so more and larger points look launch-bound, so L larger still. Returns the
 * number of points used. */
static size_t launch_by_model(const struct fb_fit_point *pts, size_t n, double launch_s,
                              double start_s, double small_bps, double *est)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct fb_fit_point *p = &pts[i];
        double byte_time = p->bytes / small_bps;
        if (byte_time <= FB_FIT_LAUNCH_BYTE_SHARE * p->launches * launch_s &&
            p->time_s / p->launches <= FB_FIT_LAUNCH_CAP * start_s && p->time_s > byte_time)
            est[k++] = (p->time_s - byte_time) / p->launches;
    }
    return k;
}

/* L over the launch-bound points chosen by time: t_i / launches_i within FB_FIT_LAUNCH_NEAR of
 * start_s. Accepted only when their bytes per launch span FB_FIT_LAUNCH_SPAN or more: a time
 * that stays within 20% while the bytes grow 4x leaves the bytes at most ~7% of the time of
 * the smallest points (t = L + b / B: 3 b / B <= 0.2 (L + b / B)). A sweep without small sizes
 * has only its few smallest points near start_s, at nearly equal bytes: no L. Returns the
 * number of points used (0 when not accepted). */
static size_t launch_by_time(const struct fb_fit_point *pts, size_t n, double start_s,
                             double *est)
{
    size_t k = 0;
    double least = INFINITY, most = 0;
    for (size_t i = 0; i < n; i++) {
        const struct fb_fit_point *p = &pts[i];
        double per_launch = p->bytes / p->launches;
        if (p->time_s / p->launches <= FB_FIT_LAUNCH_NEAR * start_s) {
            est[k++] = p->time_s / p->launches;
            least = per_launch < least ? per_launch : least;
            most = per_launch > most ? per_launch : most;
        }
    }
    return k > 0 && most >= FB_FIT_LAUNCH_SPAN * least ? k : 0;
}

/* L: by the model when a bandwidth for the small sizes is known (small_bps) and that gives
 * enough points, else by time (a bandwidth that a disturbed run made absurd selects nothing
 * by the model; the smallest sizes still tell L). */
static void fit_launch(const struct fb_fit_point *pts, size_t n, double launch_s,
                       double start_s, double small_bps, double *est, struct fb_fit_param *out)
{
    size_t k = isnan(small_bps) ? 0 : launch_by_model(pts, n, launch_s, start_s, small_bps, est);
    if (k < FB_FIT_MIN_POINTS)
        k = launch_by_time(pts, n, start_s, est);
    summarize(est, k, out);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* L_0: the median time per launch of the points with the smallest bytes per launch (the
 * smallest tenth of them, at least FB_FIT_MIN_POINTS). keys and est: n doubles each. */
static double launch_start(const struct fb_fit_point *pts, size_t n, double *keys, double *est)
{
    for (size_t i = 0; i < n; i++)
        keys[i] = pts[i].bytes / pts[i].launches;
    qsort(keys, n, sizeof *keys, compare_double);
    size_t take = n / 10 > FB_FIT_MIN_POINTS ? n / 10 : FB_FIT_MIN_POINTS;
    if (take > n)
        take = n;
    double limit = keys[take - 1];
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].bytes / pts[i].launches <= limit)
            est[k++] = pts[i].time_s / pts[i].launches;
    fb_stats_sort(est, k);
    return fb_stats_percentile_sorted(est, k, 50);
}

static bool settled(double now, double before)
{
    if (isnan(now) || isnan(before))
        return isnan(now) && isnan(before);
    return fabs(now - before) <= 1e-9 * fabs(now);
}

int fb_fit_decompose(const struct fb_fit_point *points, size_t n, uint64_t cache_bytes,
                     bool cache_warm, struct fb_fit *out, struct fb_error *err)
{
    memset(out, 0, sizeof *out);
    unfitted(&out->launch, 0);
    unfitted(&out->bandwidth, 0);
    unfitted(&out->cache_bandwidth, 0);
    size_t used = 0;
    for (size_t i = 0; i < n; i++)
        used += valid(&points[i]);
    out->used = used;
    if (used == 0)
        return FB_OK;
    struct fb_fit_point *pts = malloc(used * sizeof *pts);
    double *est = malloc(used * sizeof *est);
    double *keys = malloc(used * sizeof *keys);
    if (!pts || !est || !keys) {
        free(pts);
        free(est);
        free(keys);
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory fitting %zu points", used);
    }
    used = 0;
    for (size_t i = 0; i < n; i++)
        if (valid(&points[i]))
            pts[used++] = points[i];

    const double start_s = launch_start(pts, used, keys, est);
    double launch_s = start_s;
    for (int round = 0; round < MAX_ROUNDS; round++) {
        struct fb_fit before = *out;
        if (cache_bytes > 0) {
            fit_memory_bandwidth(pts, used, launch_s, cache_bytes, est, &out->bandwidth);
            if (cache_warm) {
                /* the points to use are chosen with the best bandwidth known so far; B is
                 * a safe first guess: it makes the byte times look longer, so the first
                 * set holds only points where launches matter even less */
                double guess = out->cache_bandwidth.value;
                if (isnan(guess))
                    guess = out->bandwidth.value;
                if (isnan(guess))
                    guess = cache_bandwidth_guess(pts, used, launch_s, cache_bytes, keys, est);
                if (!isnan(guess))
                    fit_cache_bandwidth(pts, used, launch_s, start_s, cache_bytes, guess,
                                        est, &out->cache_bandwidth);
            }
        }
        double small_bps = !isnan(out->cache_bandwidth.value) ? out->cache_bandwidth.value
                                                               : out->bandwidth.value;
        fit_launch(pts, used, launch_s, start_s, small_bps, est, &out->launch);
        /* An empty launch-bound set (a sweep without small sizes: no point where launches
         * dominate) leaves L unknown; the bandwidths then subtract no launch time, which
         * is right at sizes where launches do not matter. */
        launch_s = out->launch.value;
        if (round > 0 && settled(out->launch.value, before.launch.value) &&
            settled(out->bandwidth.value, before.bandwidth.value) &&
            settled(out->cache_bandwidth.value, before.cache_bandwidth.value))
            break;
    }
    free(pts);
    free(est);
    free(keys);
    return FB_OK;
}

int fb_fit_records(const struct fb_record *records, size_t count, const char *backend,
                   const char *cache, const struct fb_format *format, uint64_t cache_bytes,
                   struct fb_fit *out, struct fb_error *err)
{
    struct fb_fit_point *pts = malloc((count ? count : 1) * sizeof *pts);
    if (!pts) {
        fb_fit_decompose(NULL, 0, cache_bytes, false, out, err);
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory fitting %zu points", count);
    }
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        const struct fb_record *r = &records[i];
        if (r->status != FB_POINT_OK || (backend && strcmp(r->backend, backend) != 0) ||
            (cache && strcmp(r->cache, cache) != 0))
            continue;
        if (format && (strcmp(fb_dtype_canonical(r->dtype), fb_dtype_name(format->dtype)) != 0 ||
                       strcmp(fb_stores_canonical(r->stores),
                              fb_store_kind_name(format->stores)) != 0))
            continue;
        const int64_t launches = r->host_launches >= 0 ? r->host_launches : r->launches;
        pts[k++] = (struct fb_fit_point){(double)launches, (double)r->bytes_model,
                                         r->time_median_s};
    }
    bool warm = !(cache && strcmp(cache, "cold") == 0);
    int rc = fb_fit_decompose(pts, k, cache_bytes, warm, out, err);
    free(pts);
    return rc;
}

const char *fb_fit_regime_name(enum fb_fit_regime regime)
{
    switch (regime) {
    case FB_FIT_REGIME_MEMORY:
        return "memory-bound";
    case FB_FIT_REGIME_CACHE:
        return "cache-resident";
    case FB_FIT_REGIME_BETWEEN:
        return "between the cache and memory: the model holds at neither end";
    }
    return "?";
}

int fb_fit_model_call(double launches, double bytes, double launch_s, double bandwidth,
                      double cache_bandwidth, double cache_bytes, struct fb_fit_call *out,
                      struct fb_error *err)
{
    *out = (struct fb_fit_call){NAN, NAN, NAN, NAN, FB_FIT_REGIME_MEMORY};
    if (!(isfinite(launches) && launches >= 0))
        return fb_fail(err, FB_ERR_USAGE, "model of a call: launches %g is not >= 0", launches);
    if (!(isfinite(bytes) && bytes >= 0))
        return fb_fail(err, FB_ERR_USAGE, "model of a call: bytes %g is not >= 0", bytes);
    if (!(isfinite(launch_s) && launch_s > 0))
        return fb_fail(err, FB_ERR_USAGE, "model of a call: L %g s is not > 0", launch_s);
    if (!(isfinite(bandwidth) && bandwidth > 0))
        return fb_fail(err, FB_ERR_USAGE, "model of a call: B %g B/s is not > 0", bandwidth);
    if (!isnan(cache_bandwidth) && !(isfinite(cache_bandwidth) && cache_bandwidth > 0))
        return fb_fail(err, FB_ERR_USAGE, "model of a call: B_c %g B/s is neither NaN nor > 0",
                       cache_bandwidth);
    double bw = bandwidth;
    enum fb_fit_regime regime = FB_FIT_REGIME_MEMORY;
    if (isfinite(cache_bytes) && cache_bytes > 0) {
        /* within the cache without B_c: B is the only rate known, and it is the wrong end */
        if (bytes <= FB_FIT_CACHE_FACTOR * cache_bytes && !isnan(cache_bandwidth)) {
            regime = FB_FIT_REGIME_CACHE;
            bw = cache_bandwidth;
        } else if (bytes < FB_FIT_MEMORY_FACTOR * cache_bytes) {
            regime = FB_FIT_REGIME_BETWEEN;
        }
    }
    const double launch = launches * launch_s, traffic = bytes / bw, t = launch + traffic;
    out->time_s = t;
    out->launch_share = t > 0 ? launch / t : NAN;
    out->traffic_share = t > 0 ? traffic / t : NAN;
    out->bandwidth = bw;
    out->regime = regime;
    return FB_OK;
}
