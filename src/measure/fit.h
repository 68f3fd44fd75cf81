/* The decomposition of a sweep's times into launches and bytes: one fit per run (one backend,
 * one device, one cache mode) of
 *
 *     t(n) = launches * L + bytes_model(n) / B
 *
 * launches  the launches the HOST issues per call, the record's host_launches (plan/variants.h):
 *      a kernel launched by itself counts one, a CUDA graph or a CPU parallel region that runs
 *      several kernels counts one in all (eager_add_relu_graph: 1, for its 2 counted kernels);
 *      rows without the column (older files, peers) use their launches, which is the same
 *      number for every variant that launches its kernels one by one
 * L    seconds per launch (on the CPU: per parallel region, a fork/join of the team). In a
 *      warm GPU run a sample's start mark is taken on an idle stream (backends/backend.h), so
 *      each sample also holds one host launch latency: l / batch per call, which this fit
 *      cannot tell from L (it is per sample, not per launch; absent in cold mode and on the
 *      CPU, whose samples do not hold it)
 * B    bytes per second at which the model's bytes move once they come from memory (the
 *      points whose bytes are over FB_FIT_MEMORY_FACTOR times the cache), in the same units
 *      as the bandwidth_gbps column: model bytes, so on a CPU the write-allocate reads are not
 *      counted and show as a B below the hardware's
 * B_c  optionally, the same for points whose bytes fit in the cache (the cache the device
 *      reports: the GPU's L2, the CPU's last-level cache), warm runs only
 *
 * Jointly over every variant of ours (launches >= 1: memcpy, the platform's routine, has 0),
 * not per variant: the claim is that two numbers explain every curve, so one L and one B are
 * fitted to all of them and the eager and fused times, and so the speedup, are predicted from
 * the same two numbers. A fit per variant would redraw each variant's own points and predict
 * nothing; and where a variant departs from the model it is one voice among several instead
 * of its own fit. The one-launch variant is predicted as 1 launch plus eager's bytes: what
 * its kernels still cost beyond that (a graph's second kernel starts ~1.3 us after the first
 * on an H200; a CPU barrier) is the "almost" of "fused's launch cost", left in the residual.
 *
 * Estimator: the median of per-point estimates over the points where one term dominates,
 * the other term subtracted with its current estimate, alternating until both settle:
 *     launch-bound points  (bytes / B_small <= FB_FIT_LAUNCH_BYTE_SHARE * launches * L,
 *                          and t_i / launches_i <= FB_FIT_LAUNCH_CAP * L_0, below):
 *                          L_i = (t_i - bytes_i / B_small) / launches_i
 *     memory-bound points  (bytes_i > FB_FIT_MEMORY_FACTOR * cache_bytes):
 *                          B_i = bytes_i / (t_i - launches_i * L)
 *     cache-resident points (bytes_i <= FB_FIT_CACHE_FACTOR * cache_bytes and
 *                          launches_i * L <= FB_FIT_CACHE_LAUNCH_SHARE *
 *                                         (launches_i * L + bytes_i / B_c)):
 *                          B_c,i = bytes_i / (t_i - launches_i * L)
 * where B_small, the bandwidth at the sizes where launches dominate, is B_c when fitted, else
 * B. The sets are chosen by the model's terms, never by a point's measured time, so that a
 * disturbed point cannot select itself (a launch-bound point made 4x slower would pass
 * "launches are under a quarter of the time" and drag B_c down). The first B_c set is chosen
 * with B in place of B_c (or, without B, the median over the third of the cache-resident
 * points with the most bytes per launch). While L is not fitted, the cache-resident set is
 * chosen with L_0 (below) in its place, an upper bound on L, and no launch time is
 * subtracted: a sweep with a single small size must not count its launch-bound points there.
 *
 * Why medians of per-point estimates rather than a least-squares fit over all points: the
 * model holds only at the two ends (in between the cache changes the bandwidth from point to
 * point), and at each end a single parameter decides, so each point gives its own estimate
 * of it and the median of them has a 50% breakdown point: up to half the points of a set may
 * be disturbed (a preempted sample, a variant that departs from the model) without moving it,
 * where one 10x point would pull a least-squares fit by a lot. A two-regressor least absolute
 * deviation fit would be as robust but would weigh the middle sizes, where the model is wrong.
 *
 * Start: L from the points with the smallest bytes per launch (the smallest tenth, at least
 * FB_FIT_MIN_POINTS), L_0 = median(t_i / launches_i). When neither bandwidth can be fitted
 * (no point beyond the cache and none cache-resident, e.g. a sweep of small sizes on a GPU),
 * or the launch-bound set by the model has too few points (a bandwidth made absurd by
 * disturbed points), the launch-bound points are those with
 * t_i / launches_i <= FB_FIT_LAUNCH_NEAR * L_0 and L = median(t_i / launches_i) over them,
 * uncorrected, provided their bytes per launch span FB_FIT_LAUNCH_SPAN (else the smallest
 * sizes were not launch-bound, and L is not fitted).
 *
 * Pure functions: no I/O, no globals; measure code, so no formatting either. */
#ifndef FB_MEASURE_FIT_H
#define FB_MEASURE_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/format.h"
#include "measure/record.h"

/* The thresholds of the point sets above (dimensionless). */
/* memory-bound: bytes over 4x the cache. At 2-4x the cache a CPU's L3 still served part of
 * the traffic (up to 25% above the DRAM rate in this repository's CPU run). */
#define FB_FIT_MEMORY_FACTOR 4.0
/* cache-resident: bytes within half the cache, and launches at most a quarter of the time
 * by the model: the subtraction of launches * L then passes at most 1/3 of L's relative
 * error into B_c. */
#define FB_FIT_CACHE_FACTOR 0.5
#define FB_FIT_CACHE_LAUNCH_SHARE 0.25
/* launch-bound: bytes under 10% of the launch time, by the model, and (a guard against
 * disturbed points, see fit.c) a time per launch under twice L_0 */
#define FB_FIT_LAUNCH_BYTE_SHARE 0.1
#define FB_FIT_LAUNCH_CAP 2.0
/* without a bandwidth (or too few points by it): time per launch within 20% of L_0, over
 * points whose bytes per launch span 4x at least */
#define FB_FIT_LAUNCH_NEAR 1.2
#define FB_FIT_LAUNCH_SPAN 4.0
/* fewer points than this in a set: that parameter is not fitted */
#define FB_FIT_MIN_POINTS 3

/* One measured point: per call. */
struct fb_fit_point {
    double launches; /* launches the host issues per call (host_launches, above; points
                        with < 1 are ignored) */
    double bytes;    /* bytes_model per call (> 0) */
    double time_s;   /* median time per call (> 0) */
};

/* One fitted parameter: the median of its per-point estimates. value is NaN when fewer than
 * FB_FIT_MIN_POINTS points qualified (points then says how many did). spread is the relative
 * half interquartile range of the per-point estimates, (p75 - p25) / 2 / median: how far the
 * points agree (0.02: half of them lie within about +-2%). */
struct fb_fit_param {
    double value;
    double spread;
    size_t points;
};

struct fb_fit {
    struct fb_fit_param launch;          /* L, seconds per launch */
    struct fb_fit_param bandwidth;       /* B, bytes per second beyond the cache */
    struct fb_fit_param cache_bandwidth; /* B_c, bytes per second within the cache */
    size_t used;                         /* valid points the fit looked at */
};

/* Fits L, B and (when cache_warm) B_c to points[0..n-1] as described at the top of this file.
 * cache_bytes: the size of the cache the device reports (0: unknown, then neither B nor B_c
 * is fitted: which points are beyond the cache is not known). cache_warm: false for a cold
 * run (a flush before every call: no point is cache-resident, B_c is not fitted).
 * Points with launches < 1, bytes <= 0, a time <= 0 or any NaN are ignored.
 * Always fills *out (unfitted parameters NaN). Returns FB_OK, or FB_ERR_RUNTIME when the
 * scratch memory (2 n doubles) cannot be allocated. */
int fb_fit_decompose(const struct fb_fit_point *points, size_t n, uint64_t cache_bytes,
                     bool cache_warm, struct fb_fit *out, struct fb_error *err);

/* fb_fit_decompose() over the rows of one run: records with status ok whose backend, cache
 * and format (dtype and stores) equal the arguments (NULL: any), their host_launches
 * (launches where that is unknown, -1), bytes_model and time_median_s. The cache mode "cold"
 * disables B_c. One format at a time: bytes move at another rate with streaming stores, and
 * the same n is other bytes in another dtype. */
int fb_fit_records(const struct fb_record *records, size_t count, const char *backend,
                   const char *cache, const struct fb_format *format, uint64_t cache_bytes,
                   struct fb_fit *out, struct fb_error *err);

/* Where one call's bytes lie against the cache, which decides the bandwidth the model of a
 * call uses (fb_fit_model_call). The values are fixed: libfbpeer hands them out as ints. */
enum fb_fit_regime {
    FB_FIT_REGIME_MEMORY = 0,  /* bytes >= FB_FIT_MEMORY_FACTOR x the cache, or the cache not
                                  known: B */
    FB_FIT_REGIME_CACHE = 1,   /* bytes <= FB_FIT_CACHE_FACTOR x the cache and B_c fitted: B_c */
    FB_FIT_REGIME_BETWEEN = 2, /* in between (or within the cache without B_c): B, but the
                                  model, fitted at the two ends, holds at neither */
};

/* The fitted model of one call, t = launches x L + bytes / bandwidth. */
struct fb_fit_call {
    double time_s;           /* t, seconds */
    double launch_share;     /* launches x L / t (NaN when t is 0) */
    double traffic_share;    /* bytes / bandwidth / t (NaN when t is 0) */
    double bandwidth;        /* bytes per second used: B_c or B, by the regime */
    enum fb_fit_regime regime;
};

/* The model of a call of `launches` launches moving `bytes` bytes (both >= 0 and finite),
 * from a fit's L (launch_s > 0, seconds), B (bandwidth > 0, bytes per second) and B_c
 * (cache_bandwidth, bytes per second; NaN when not fitted), against a cache of cache_bytes
 * (0 or NaN: not known, then the call is memory-bound). Regimes by FB_FIT_CACHE_FACTOR and
 * FB_FIT_MEMORY_FACTOR (above), as fb_fit_decompose chose its points. Always fills *out (NaN
 * and FB_FIT_REGIME_MEMORY on failure). Returns FB_OK, or FB_ERR_USAGE naming the argument
 * that is out of range. */
int fb_fit_model_call(double launches, double bytes, double launch_s, double bandwidth,
                      double cache_bandwidth, double cache_bytes, struct fb_fit_call *out,
                      struct fb_error *err);

/* The regime in words ("cache-resident", "memory-bound", "between the cache and memory: the
 * model holds at neither end"); "?" for a value not of the enum. Static storage. */
const char *fb_fit_regime_name(enum fb_fit_regime regime);

#endif
