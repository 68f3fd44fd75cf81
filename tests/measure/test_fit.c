/* The launch/bandwidth fit (src/measure/fit.h) on synthetic sweeps with a known answer:
 * L = 1 us per launch, B = 50 GB/s beyond a 32 MiB cache, B_c = 200 GB/s within it, the
 * sizes and variants of a real sweep (copy, eager, fused). Clean data is recovered exactly;
 * noisy data with outliers within a few %; and the fit says "not fitted" (NaN) rather than
 * guessing when a sweep lacks the points a parameter needs.
 * Noise is drawn from a fresh seed each run (printed; FB_TEST_SEED=N replays it). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure/fit.h"

#define TRUE_L 1e-6      /* s per launch */
#define TRUE_B 50e9      /* B/s beyond the cache */
#define TRUE_BC 200e9    /* B/s within the cache */
#define MID_B 90e9       /* B/s between 1x and 4x the cache: the cache still helps; no fit
                            set uses these points, so their rate must not show up anywhere */
#define CACHE (32ull << 20)
#define MAX_POINTS 1024

/* A variant as the fit sees it: counted launches, bytes per element (bytes_model / n), and
 * the launches it really costs (a CUDA graph counts 2 kernels but pays about 1 launch). */
struct shape {
    double launches, bytes_per_element, real_launches;
};
static const struct shape COPY = {1, 8, 1}, EAGER = {2, 20, 2}, FUSED = {1, 12, 1},
                          GRAPH = {2, 20, 1};

/* The model time of a shape at n elements: launches * L + bytes / (the rate of where the
 * bytes live). */
static double model_time(const struct shape *s, double n)
{
    double bytes = s->bytes_per_element * n;
    double rate = bytes <= (double)CACHE ? TRUE_BC : bytes <= 4.0 * (double)CACHE ? MID_B : TRUE_B;
    return s->real_launches * TRUE_L + bytes / rate;
}

/* ---- random numbers: splitmix64, seeded once per run ---- */
static uint64_t rng_state;

static void seed_once(void)
{
    static int seeded;
    if (seeded)
        return;
    const char *env = getenv("FB_TEST_SEED");
    uint64_t seed = env && *env ? strtoull(env, NULL, 0)
                                : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    printf("test_fit: seed %" PRIu64 " (FB_TEST_SEED=%" PRIu64 " replays this run)\n", seed,
           seed);
    fflush(stdout);
    rng_state = seed;
    seeded = 1;
}

static double uniform(void) /* [0, 1) */
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* Disturbances of a synthetic measurement. */
struct noise {
    double jitter;       /* each time times 1 + uniform(-jitter, +jitter) */
    double slow_share;   /* this share of the points is 1.5x..10x slower (a preempted run) */
    double fast_share;   /* this share is 0.5x (a timer glitch) */
};

/* Appends one point per size of a log-spaced grid (per_decade points from lo to hi). */
static size_t add_sweep(struct fb_fit_point *pts, size_t k, const struct shape *s, double lo,
                        double hi, int per_decade, const struct noise *noise)
{
    for (double e = log10(lo); e <= log10(hi) + 1e-9; e += 1.0 / per_decade) {
        double n = round(pow(10, e));
        double t = model_time(s, n);
        if (noise) {
            t *= 1.0 + noise->jitter * (2.0 * uniform() - 1.0);
            double u = uniform();
            if (u < noise->slow_share)
                t *= 1.5 + 8.5 * uniform();
            else if (u < noise->slow_share + noise->fast_share)
                t *= 0.5;
        }
        assert_true(k < MAX_POINTS);
        pts[k++] = (struct fb_fit_point){s->launches, s->bytes_per_element * n, t};
    }
    return k;
}

/* copy, eager (twice: add_relu and add_threshold) and fused from lo to hi elements. */
static size_t add_variants(struct fb_fit_point *pts, double lo, double hi, int per_decade,
                           const struct noise *noise)
{
    size_t k = 0;
    k = add_sweep(pts, k, &COPY, lo, hi, per_decade, noise);
    k = add_sweep(pts, k, &EAGER, lo, hi, per_decade, noise);
    k = add_sweep(pts, k, &EAGER, lo, hi, per_decade, noise);
    k = add_sweep(pts, k, &FUSED, lo, hi, per_decade, noise);
    return k;
}

#define assert_relative(got, want, tolerance)                                              \
    do {                                                                                   \
        double g_ = (got), w_ = (want);                                                    \
        if (!(fabs(g_ - w_) <= (tolerance) * fabs(w_))) {                                  \
            print_error("%s = %.9g, expected %.9g (+-%g%%)\n", #got, g_, w_,               \
                        100.0 * (tolerance));                                              \
            fail();                                                                        \
        }                                                                                  \
    } while (0)

static struct fb_fit fit_of(const struct fb_fit_point *pts, size_t k, uint64_t cache, bool warm)
{
    struct fb_fit fit;
    struct fb_error err = {{0}};
    assert_int_equal(fb_fit_decompose(pts, k, cache, warm, &fit, &err), FB_OK);
    return fit;
}

static void clean_sweep_gives_back_the_model_exactly(void **state)
{
    (void)state;
    static struct fb_fit_point pts[MAX_POINTS];
    size_t k = add_variants(pts, 8, 1e8, 8, NULL);
    struct fb_fit fit = fit_of(pts, k, CACHE, true);
    assert_relative(fit.launch.value, TRUE_L, 1e-9);
    assert_relative(fit.bandwidth.value, TRUE_B, 1e-9);
    assert_relative(fit.cache_bandwidth.value, TRUE_BC, 1e-9);
    assert_true(fit.launch.points >= 20);
    assert_true(fit.bandwidth.points >= 12);
    assert_true(fit.cache_bandwidth.points >= 12);
    assert_int_equal(fit.used, k);
    assert_true(fit.launch.spread < 1e-9);
}

static void noise_and_outliers_move_the_fit_by_a_few_percent_at_most(void **state)
{
    (void)state;
    seed_once();
    static struct fb_fit_point pts[MAX_POINTS];
    /* +-3% jitter on every point, 15% of them 1.5-10x slow, 3% of them 2x fast */
    const struct noise noise = {0.03, 0.15, 0.03};
    for (int trial = 0; trial < 20; trial++) {
        size_t k = add_variants(pts, 8, 1e8, 8, &noise);
        struct fb_fit fit = fit_of(pts, k, CACHE, true);
        assert_relative(fit.launch.value, TRUE_L, 0.03);
        assert_relative(fit.bandwidth.value, TRUE_B, 0.03);
        assert_relative(fit.cache_bandwidth.value, TRUE_BC, 0.05);
        /* the jitter shows in the spread (the outliers may too: 15% slow ones reach the
         * upper quartile when a draw puts a quarter of them among the launch-bound points) */
        assert_true(fit.launch.spread > 0.003 && isfinite(fit.launch.spread));
    }
}

/* The spread is the relative half interquartile range: L_i of 0.9..1.1 us give quartiles
 * 0.95 and 1.05 around a median of 1. */
static void spread_is_the_half_interquartile_range_over_the_median(void **state)
{
    (void)state;
    const double t_us[5] = {1.0, 1.1, 0.9, 1.05, 0.95};
    struct fb_fit_point pts[5];
    for (int i = 0; i < 5; i++)
        pts[i] = (struct fb_fit_point){1, 8 << i, t_us[i] * 1e-6};
    struct fb_fit fit = fit_of(pts, 5, 0, true); /* no cache size: L alone, by time */
    /* L_0 = median of the 3 smallest = 1 us; launch-bound: t <= 1.2 us, all 5 (bytes 8..128) */
    assert_int_equal(fit.launch.points, 5);
    assert_relative(fit.launch.value, 1e-6, 1e-12);
    assert_relative(fit.launch.spread, (1.05 - 0.95) / 2 / 1.0, 1e-9);
}

/* By time alone, a flat time is launch-bound only when the bytes grew meanwhile: the same
 * times at bytes within 2x of each other say nothing about what a launch costs. */
static void flat_times_over_nearly_equal_bytes_fit_no_launch_cost(void **state)
{
    (void)state;
    struct fb_fit_point pts[5];
    for (int i = 0; i < 5; i++)
        pts[i] = (struct fb_fit_point){1, 1e6 + 2e5 * i, 1e-4};
    struct fb_fit fit = fit_of(pts, 5, 0, true);
    assert_true(isnan(fit.launch.value));
}

static void a_variant_whose_counted_launches_overstate_its_cost_does_not_move_l(void **state)
{
    (void)state;
    seed_once();
    static struct fb_fit_point pts[MAX_POINTS];
    const struct noise noise = {0.02, 0.05, 0.0};
    size_t k = add_variants(pts, 8, 1e8, 8, &noise);
    k = add_sweep(pts, k, &GRAPH, 8, 1e8, 8, &noise); /* 2 counted, 1 paid: L_i = L / 2 */
    struct fb_fit fit = fit_of(pts, k, CACHE, true);
    assert_relative(fit.launch.value, TRUE_L, 0.03);
    assert_relative(fit.bandwidth.value, TRUE_B, 0.03);
}

/* A busy machine can ruin most of the launch-bound points: here the two eager variants and
 * fused are 1000x slow (ms a call instead of us) from 30 to 3K elements, more than half of
 * the points below ~2.5K elements, where launches dominate. The smallest sizes, where the fit
 * starts, stay clean, and the time cap of the launch-bound set keeps the slow ones out. */
static void disturbed_launch_bound_points_do_not_move_l(void **state)
{
    (void)state;
    static struct fb_fit_point pts[MAX_POINTS];
    size_t k = add_sweep(pts, 0, &COPY, 8, 1e8, 8, NULL);
    const size_t copy_points = k;
    k = add_sweep(pts, k, &EAGER, 8, 1e8, 8, NULL);
    k = add_sweep(pts, k, &EAGER, 8, 1e8, 8, NULL);
    k = add_sweep(pts, k, &FUSED, 8, 1e8, 8, NULL);
    for (size_t i = copy_points; i < k; i++) {
        double n = pts[i].bytes / (pts[i].launches == 2 ? EAGER : FUSED).bytes_per_element;
        if (n >= 30 && n <= 3000)
            pts[i].time_s *= 1000.0;
    }
    struct fb_fit fit = fit_of(pts, k, CACHE, true);
    assert_relative(fit.launch.value, TRUE_L, 0.03);
    assert_relative(fit.bandwidth.value, TRUE_B, 0.01);
}

/* What a fit of a synthetic sweep must give for one parameter: anything, "not fitted" (NaN),
 * or a value in [lo, hi]. */
struct want {
    enum { ANY, NOT_FITTED, WITHIN } kind;
    double lo, hi;
};
#define NEAR(value, tolerance) {WITHIN, (value) * (1 - (tolerance)), (value) * (1 + (tolerance))}
#define NO_FIT {NOT_FITTED, 0, 0}

/* copy, eager twice and fused from lo to hi elements (8 sizes a decade, no noise), fitted with
 * the cache size `cache` (0: unknown) in warm or cold mode. */
struct sweep_case {
    const char *what;
    double lo, hi;
    uint64_t cache;
    bool warm;
    struct want launch, bandwidth, cache_bandwidth;
    int bandwidth_points; /* -1: any */
};

static const struct sweep_case sweep_cases[] = {
    /* MID_B (1x-4x the cache) and TRUE_BC must not leak into B, nor MID_B into B_c */
    {"cache-resident points do not bias the memory bandwidth", 8, 1e8, CACHE, true,
     NEAR(TRUE_L, 1e-9), NEAR(TRUE_B, 1e-9), NEAR(TRUE_BC, 1e-9), -1},
    /* at most 2 MB per call */
    {"a sweep that stays in the cache fits no memory bandwidth", 8, 1e5, CACHE, true,
     NEAR(TRUE_L, 1e-9), NO_FIT, NEAR(TRUE_BC, 1e-9), 0},
    /* without B_c the launch-bound points are chosen and corrected with B: the smallest ones
     * still qualify, and B's correction (4x too slow a rate there) stays under 10% of L */
    {"a cold run fits no cache bandwidth", 8, 1e8, CACHE, false, NEAR(TRUE_L, 0.05),
     NEAR(TRUE_B, 1e-4), NO_FIT, -1},
    /* by time alone: the points within 20% of the smallest sizes' time per launch, whose
     * bytes add up to 20% (median: a few %): at least L, never under it */
    {"an unknown cache size fits L alone from the smallest sizes", 8, 1e8, 0, true,
     {WITHIN, TRUE_L, TRUE_L * 1.05}, NO_FIT, NO_FIT, -1},
    /* launches are under 0.2% of the time beyond 4x the cache: B without them is within it */
    {"a sweep without small sizes fits no launch cost", 1e6, 1e8, CACHE, true, NO_FIT,
     NEAR(TRUE_B, 0.002), {ANY, 0, 0}, -1},
};

/* A sweep with one size per regime (configs/chain-length.ini: 1K, 1M, 100M), copy and the
 * chains add + k ops, k = 1..8, eager (k + 1 launches, 4 (3 + 2k) bytes an element) and
 * fused (1 launch, 12), with a CPU's figures: launches of 1.3 us against a cache at 40 GB/s,
 * so that at 1K a launch is 2-3x its bytes' time. That is too little for the launch-bound set
 * (bytes under 10% of the time), and 1K is one size, so L stays unknown; B_c must then come
 * from the 1M points, not from the 1K ones, whose bytes over their launch time give 3-10
 * GB/s (the chain-length glance drew its 1M model 3-10x slower than measured, so). */
#define CPU_L 1.3e-6
#define CPU_BC 40e9
#define CPU_B 26e9

static size_t add_cpu_point(struct fb_fit_point *pts, size_t k, double launches,
                            double bytes_per_element, double n)
{
    const double bytes = bytes_per_element * n;
    const double rate = bytes <= (double)CACHE ? CPU_BC : CPU_B;
    pts[k] = (struct fb_fit_point){launches, bytes, launches * CPU_L + bytes / rate};
    return k + 1;
}

static void one_small_size_leaves_l_unknown_and_b_c_from_the_cache_sizes(void **state)
{
    (void)state;
    static struct fb_fit_point pts[MAX_POINTS];
    const double sizes[] = {1e3, 1e6, 1e8};
    size_t k = 0;
    for (int s = 0; s < 3; s++) {
        k = add_cpu_point(pts, k, 1, 8, sizes[s]);
        for (int ops = 1; ops <= 8; ops++) {
            k = add_cpu_point(pts, k, ops + 1, 4.0 * (3 + 2 * ops), sizes[s]);
            k = add_cpu_point(pts, k, 1, 12, sizes[s]);
        }
    }
    const struct fb_fit fit = fit_of(pts, k, CACHE, true);
    assert_true(isnan(fit.launch.value));
    /* no launch time subtracted: the 1M points' launches are under 1% of their time */
    assert_relative(fit.cache_bandwidth.value, CPU_BC, 0.01);
    assert_relative(fit.bandwidth.value, CPU_B, 0.001);
}

static void assert_want(const char *what, const char *param, double got, struct want w)
{
    if (w.kind == NOT_FITTED && !isnan(got)) {
        print_error("%s: %s = %.9g, expected not fitted (NaN)\n", what, param, got);
        fail();
    }
    if (w.kind == WITHIN && !(got >= w.lo && got <= w.hi)) {
        print_error("%s: %s = %.9g, expected in [%.9g, %.9g]\n", what, param, got, w.lo, w.hi);
        fail();
    }
}

static void each_sweep_fits_as_its_case_says(void **state)
{
    (void)state;
    static struct fb_fit_point pts[MAX_POINTS];
    for (size_t i = 0; i < sizeof sweep_cases / sizeof sweep_cases[0]; i++) {
        const struct sweep_case *c = &sweep_cases[i];
        const size_t k = add_variants(pts, c->lo, c->hi, 8, NULL);
        const struct fb_fit fit = fit_of(pts, k, c->cache, c->warm);
        assert_want(c->what, "L", fit.launch.value, c->launch);
        assert_want(c->what, "B", fit.bandwidth.value, c->bandwidth);
        assert_want(c->what, "B_c", fit.cache_bandwidth.value, c->cache_bandwidth);
        if (c->bandwidth_points >= 0 && fit.bandwidth.points != (size_t)c->bandwidth_points) {
            print_error("%s: B on %zu points, expected %d\n", c->what, fit.bandwidth.points,
                        c->bandwidth_points);
            fail();
        }
    }
}

static void invalid_points_are_ignored(void **state)
{
    (void)state;
    static struct fb_fit_point pts[MAX_POINTS];
    size_t k = add_variants(pts, 8, 1e8, 8, NULL);
    size_t good = k;
    /* memcpy (no launch of ours), a NaN time, zero bytes, a zero time: each would skew a set */
    for (double n = 8; n <= 1e8; n *= 10) {
        pts[k++] = (struct fb_fit_point){0, 8 * n, 1e-9};
        pts[k++] = (struct fb_fit_point){1, 12 * n, NAN};
        pts[k++] = (struct fb_fit_point){1, 0, 1e-3};
        pts[k++] = (struct fb_fit_point){2, 20 * n, 0};
    }
    struct fb_fit fit = fit_of(pts, k, CACHE, true);
    assert_int_equal(fit.used, good);
    assert_relative(fit.launch.value, TRUE_L, 1e-9);
    assert_relative(fit.bandwidth.value, TRUE_B, 1e-9);
}

static void no_points_fit_nothing(void **state)
{
    (void)state;
    struct fb_fit fit = fit_of(NULL, 0, CACHE, true);
    assert_true(isnan(fit.launch.value) && isnan(fit.bandwidth.value) &&
                isnan(fit.cache_bandwidth.value));
    assert_int_equal(fit.used, 0);
}

static void too_few_points_fit_nothing(void **state)
{
    (void)state;
    const struct fb_fit_point pts[2] = {{1, 96, 1e-6}, {2, 1600, 2e-6}};
    struct fb_fit fit = fit_of(pts, 2, CACHE, true);
    assert_true(isnan(fit.launch.value));
    assert_int_equal(fit.launch.points, 2);
}

/* fb_fit_records: the run's own ok rows only. */
static void records_of_other_runs_and_failed_points_are_left_out(void **state)
{
    (void)state;
    static struct fb_fit_point pts[MAX_POINTS];
    size_t k = add_variants(pts, 8, 1e8, 4, NULL);
    struct fb_record *rows = calloc(4 * k, sizeof *rows);
    assert_non_null(rows);
    size_t count = 0;
    for (size_t i = 0; i < k; i++) {
        /* the run's row, then the same point from another backend, another cache mode
         * and failed, each 10x slower: any of them in the fit would move it */
        for (int copy = 0; copy < 4; copy++) {
            struct fb_record *r = &rows[count++];
            fb_record_init(r);
            snprintf(r->backend, sizeof r->backend, "%s", copy == 1 ? "cuda" : "cpu");
            snprintf(r->cache, sizeof r->cache, "%s", copy == 2 ? "cold" : "warm");
            r->status = copy == 3 ? FB_POINT_FAILED : FB_POINT_OK;
            r->launches = (int64_t)pts[i].launches;
            r->bytes_model = (int64_t)pts[i].bytes;
            r->time_median_s = pts[i].time_s * (copy ? 10.0 : 1.0);
        }
    }
    struct fb_fit fit;
    struct fb_error err = {{0}};
    assert_int_equal(fb_fit_records(rows, count, "cpu", "warm", NULL, CACHE, &fit, &err), FB_OK);
    assert_int_equal(fit.used, k);
    assert_relative(fit.launch.value, TRUE_L, 1e-6);
    assert_relative(fit.bandwidth.value, TRUE_B, 1e-6);
    assert_relative(fit.cache_bandwidth.value, TRUE_BC, 1e-6);
    /* the cold rows alone: no cache bandwidth */
    assert_int_equal(fb_fit_records(rows, count, "cpu", "cold", NULL, CACHE, &fit, &err), FB_OK);
    assert_int_equal(fit.used, k);
    assert_true(isnan(fit.cache_bandwidth.value));
    free(rows);
}

/* fb_fit_records pays L per host launch: rows of a one-launch variant (2 counted kernels,
 * host_launches 1, timed as 1 launch + eager's bytes) fit exactly, alone with copy, where
 * their counted launches would halve L. A row without host_launches (-1: an older file)
 * is fitted on its launches. */
static void records_are_fitted_on_their_host_launches(void **state)
{
    (void)state;
    static struct fb_fit_point pts[MAX_POINTS];
    size_t k = add_sweep(pts, 0, &COPY, 8, 1e8, 8, NULL);
    const size_t copy_points = k;
    k = add_sweep(pts, k, &GRAPH, 8, 1e8, 8, NULL);
    const size_t graph_points = k - copy_points;
    k = add_sweep(pts, k, &GRAPH, 8, 1e8, 8, NULL); /* copy's twin rows, twice as many */
    struct fb_record *rows = calloc(k, sizeof *rows);
    assert_non_null(rows);
    for (size_t i = 0; i < k; i++) {
        struct fb_record *r = &rows[i];
        fb_record_init(r);
        snprintf(r->backend, sizeof r->backend, "cpu");
        snprintf(r->cache, sizeof r->cache, "warm");
        r->status = FB_POINT_OK;
        const bool graph = i >= copy_points;
        r->launches = graph ? 2 : 1;
        /* copy rows as an older file has them: no host_launches */
        r->host_launches = graph ? 1 : -1;
        r->bytes_model = (int64_t)pts[i].bytes;
        r->time_median_s = pts[i].time_s;
    }
    assert_true(graph_points > 0);
    struct fb_fit fit;
    struct fb_error err = {{0}};
    assert_int_equal(fb_fit_records(rows, k, "cpu", "warm", NULL, CACHE, &fit, &err), FB_OK);
    assert_int_equal(fit.used, k);
    assert_relative(fit.launch.value, TRUE_L, 1e-6);
    assert_relative(fit.bandwidth.value, TRUE_B, 1e-6);
    assert_relative(fit.cache_bandwidth.value, TRUE_BC, 1e-6);
    /* on their counted kernels instead, two thirds of the rows say L / 2 */
    for (size_t i = copy_points; i < k; i++)
        rows[i].host_launches = -1;
    assert_int_equal(fb_fit_records(rows, k, "cpu", "warm", NULL, CACHE, &fit, &err), FB_OK);
    assert_true(fit.launch.value < 0.75 * TRUE_L);
    free(rows);
}

/* ---- the model of one call (fb_fit_model_call): L = 1 us, B = 50 GB/s, B_c = 200 GB/s,
 * the cache 32 MiB (cache-resident up to 16 MiB, memory-bound from 128 MiB) ---- */

static struct fb_fit_call model_of(double launches, double bytes, double bc, double cache)
{
    struct fb_fit_call c;
    struct fb_error err = {{0}};
    assert_int_equal(fb_fit_model_call(launches, bytes, TRUE_L, TRUE_B, bc, cache, &c, &err),
                     FB_OK);
    return c;
}

static void a_launch_bound_call_is_its_launches(void **state)
{
    (void)state;
    /* eager add, relu at n = 4: 2 launches, 80 bytes within the cache at B_c */
    struct fb_fit_call c = model_of(2, 80, TRUE_BC, (double)CACHE);
    assert_int_equal(c.regime, FB_FIT_REGIME_CACHE);
    assert_relative(c.time_s, 2.0004e-6, 1e-12);           /* 2 us + 80 / 200e9 */
    assert_relative(c.launch_share, 2e-6 / 2.0004e-6, 1e-12);
    assert_relative(c.traffic_share, 4e-10 / 2.0004e-6, 1e-12);
    assert_relative(c.bandwidth, TRUE_BC, 0);
}

static void a_memory_bound_call_moves_its_bytes_at_b(void **state)
{
    (void)state;
    /* eager at n = 16M: 320 MiB, over 4x the cache */
    struct fb_fit_call c = model_of(2, 20.0 * (16 << 20), TRUE_BC, (double)CACHE);
    assert_int_equal(c.regime, FB_FIT_REGIME_MEMORY);
    assert_relative(c.time_s, 6.7128864e-3, 1e-12);        /* 2 us + 335544320 / 50e9 */
    assert_relative(c.traffic_share, 6.7108864e-3 / 6.7128864e-3, 1e-12);
    assert_relative(c.bandwidth, TRUE_B, 0);
    /* 4x the cache exactly is memory-bound already */
    assert_int_equal(model_of(1, 4.0 * CACHE, TRUE_BC, (double)CACHE).regime,
                     FB_FIT_REGIME_MEMORY);
}

static void a_cache_resident_call_moves_its_bytes_at_b_c(void **state)
{
    (void)state;
    /* fused at n = 1M: 12 MiB, within half the cache */
    struct fb_fit_call c = model_of(1, 12.0 * (1 << 20), TRUE_BC, (double)CACHE);
    assert_int_equal(c.regime, FB_FIT_REGIME_CACHE);
    assert_relative(c.time_s, 6.391456e-5, 1e-12);         /* 1 us + 12582912 / 200e9 */
    assert_relative(c.launch_share, 1e-6 / 6.391456e-5, 1e-12);
    assert_string_equal(fb_fit_regime_name(c.regime), "cache-resident");
    /* half the cache exactly is still cache-resident */
    assert_int_equal(model_of(1, 0.5 * CACHE, TRUE_BC, (double)CACHE).regime,
                     FB_FIT_REGIME_CACHE);
}

static void a_call_between_the_cache_and_memory_uses_b_and_says_the_model_does_not_hold(
    void **state)
{
    (void)state;
    /* fused at n = 4M: 48 MiB, over half the cache and under 4x it */
    struct fb_fit_call c = model_of(1, 12.0 * (4 << 20), TRUE_BC, (double)CACHE);
    assert_int_equal(c.regime, FB_FIT_REGIME_BETWEEN);
    assert_relative(c.time_s, 1.00763296e-3, 1e-12);       /* 1 us + 50331648 / 50e9 */
    assert_relative(c.bandwidth, TRUE_B, 0);
    assert_string_equal(fb_fit_regime_name(c.regime),
                        "between the cache and memory: the model holds at neither end");
    /* within the cache but no B_c fitted: B is the wrong end, so between too */
    c = model_of(2, 80, NAN, (double)CACHE);
    assert_int_equal(c.regime, FB_FIT_REGIME_BETWEEN);
    assert_relative(c.time_s, 2e-6 + 80 / TRUE_B, 1e-12);
}

static void an_unknown_cache_makes_every_call_memory_bound(void **state)
{
    (void)state;
    assert_int_equal(model_of(2, 80, TRUE_BC, NAN).regime, FB_FIT_REGIME_MEMORY);
    struct fb_fit_call c = model_of(2, 80, TRUE_BC, 0);
    assert_int_equal(c.regime, FB_FIT_REGIME_MEMORY);
    assert_relative(c.bandwidth, TRUE_B, 0);
    assert_string_equal(fb_fit_regime_name(c.regime), "memory-bound");
    /* nothing to do: no time, so no shares */
    c = model_of(0, 0, TRUE_BC, (double)CACHE);
    assert_true(c.time_s == 0 && isnan(c.launch_share) && isnan(c.traffic_share));
}

static void nan_or_out_of_range_inputs_are_refused_with_nan_outputs(void **state)
{
    (void)state;
    const double bad[][5] = {
        /* launches, bytes, L, B, B_c */
        {NAN, 80, TRUE_L, TRUE_B, TRUE_BC},    {-1, 80, TRUE_L, TRUE_B, TRUE_BC},
        {2, NAN, TRUE_L, TRUE_B, TRUE_BC},     {2, INFINITY, TRUE_L, TRUE_B, TRUE_BC},
        {2, 80, NAN, TRUE_B, TRUE_BC},         {2, 80, 0, TRUE_B, TRUE_BC},
        {2, 80, TRUE_L, NAN, TRUE_BC},         {2, 80, TRUE_L, -TRUE_B, TRUE_BC},
        {2, 80, TRUE_L, TRUE_B, 0},            {2, 80, TRUE_L, TRUE_B, INFINITY},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct fb_fit_call c;
        struct fb_error err = {{0}};
        assert_int_equal(fb_fit_model_call(bad[i][0], bad[i][1], bad[i][2], bad[i][3],
                                           bad[i][4], (double)CACHE, &c, &err),
                         FB_ERR_USAGE);
        assert_non_null(strstr(err.msg, "model of a call"));
        assert_true(isnan(c.time_s) && isnan(c.launch_share) && isnan(c.bandwidth));
        assert_int_equal(c.regime, FB_FIT_REGIME_MEMORY);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_sweep_gives_back_the_model_exactly),
        cmocka_unit_test(noise_and_outliers_move_the_fit_by_a_few_percent_at_most),
        cmocka_unit_test(spread_is_the_half_interquartile_range_over_the_median),
        cmocka_unit_test(flat_times_over_nearly_equal_bytes_fit_no_launch_cost),
        cmocka_unit_test(a_variant_whose_counted_launches_overstate_its_cost_does_not_move_l),
        cmocka_unit_test(disturbed_launch_bound_points_do_not_move_l),
        cmocka_unit_test(each_sweep_fits_as_its_case_says),
        cmocka_unit_test(one_small_size_leaves_l_unknown_and_b_c_from_the_cache_sizes),
        cmocka_unit_test(invalid_points_are_ignored),
        cmocka_unit_test(no_points_fit_nothing),
        cmocka_unit_test(too_few_points_fit_nothing),
        cmocka_unit_test(records_of_other_runs_and_failed_points_are_left_out),
        cmocka_unit_test(records_are_fitted_on_their_host_launches),
        cmocka_unit_test(a_launch_bound_call_is_its_launches),
        cmocka_unit_test(a_memory_bound_call_moves_its_bytes_at_b),
        cmocka_unit_test(a_cache_resident_call_moves_its_bytes_at_b_c),
        cmocka_unit_test(a_call_between_the_cache_and_memory_uses_b_and_says_the_model_does_not_hold),
        cmocka_unit_test(an_unknown_cache_makes_every_call_memory_bound),
        cmocka_unit_test(nan_or_out_of_range_inputs_are_refused_with_nan_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
