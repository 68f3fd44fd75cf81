/* What every chart shows, derived once from results files: the series to draw, the
 * eager/fused pairs and their speedups and model ratios (launch limit, traffic ratio, with and
 * without write-allocate: chart/model.h), the regime bounds and the fit. Each chart derives
 * the rest from these (src/chart/<chart>.c: its model lines, curves, its own tables); the
 * chart scripts (plots/) only draw the tables; --derive prints them as JSON.
 *
 * Inputs: results files read with output/csv.h, the first being the run charted, the others
 * overlaid (the PyTorch peer's, another run's). Per file, before anything is derived:
 *   - rows of a file older than the role and pair columns take them from the built-in
 *     variant of their name (measure/pairing.h, fb_pairing_fill_builtin_roles);
 *   - speedup and copy_fraction are filled where a row has none (fb_pairing_derive_missing;
 *     values a file holds are kept: fusebench computed them when the rows were measured);
 *   - a row of an overlay with no copy_fraction gets one against the charted run's copy
 *     ceiling at the same device, size and format (fb_pairing_copy_fraction_against).
 * Only rows with status ok and a positive time are drawn; rows with status noisy (another
 * program disturbed their samples) are counted instead (noisy).
 *
 * A series is the rows of one variant in one format of one file: its key is the variant,
 * plus "-fp16" / "-bf16" for a 16-bit dtype, "-streaming" for streaming stores and "-cold"
 * for a cold cache (the suffixes the pair's key gets too); one point per n (the later row of
 * a repeated point, as a resumed sweep may hold). A pair is an eager series and the series
 * its rows name in the pair column (same file, same suffix), at the sizes where the eager
 * row has a speedup. */
#ifndef FB_CHART_DERIVE_H
#define FB_CHART_DERIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "results/csv.h"

/* The most results files one chart overlays (the command line's --plot limit). */
#define FB_CHART_MAX_FILES 8
/* The most rows a results file may have to be charted: a sweep of every size of
 * configs/default.ini (44) x 39 variants x 6 formats x 2 cache modes is about 20,600 rows;
 * a file past this is refused (exit 2) before anything is drawn, so that --plot ends in
 * seconds whatever it is given. */
#define FB_CHART_MAX_ROWS 100000
/* Sizes at which the fitted model's curves are sampled, log-spaced over the drawn range. */
#define FB_CHART_CURVE_POINTS 160

#define FB_CHART_KEY_MAX 96
#define FB_CHART_TEXT_MAX 256

struct fb_audit;

/* One drawn point of a series (per call; NaN where not measured). */
struct fb_chart_point {
    double n, time_s, p10_s, p90_s, bandwidth_gbps, dram_elements, launches, kernel_time_s,
        copy_fraction, speedup;
    double ours_ratio, ours_lo, ours_hi; /* a peer's row measured with ours: measure/pairing.h */
    double speedup_lo, speedup_hi; /* the row's columns: the speedup's 95% interval from its
                                      interleaved rounds (measure/interval.h) */
};

struct fb_chart_series {
    size_t file;                      /* which input */
    char key[FB_CHART_KEY_MAX];       /* variant + format suffix (above) */
    char title[FB_CHART_TEXT_MAX];    /* its label in words (fb_chart_derive_titles), with
                                         " (STEM)" when an earlier file has its key */
    char variant[48], role[24];
    char pair_key[FB_CHART_KEY_MAX];  /* its pair's key, "" none */
    char dtype[16], stores[16];       /* canonical: fp32..., normal / streaming */
    bool cold;
    struct fb_chart_point *points;    /* sorted by n, one per n */
    size_t n_points;
    /* Of its last row that has them (the model's inputs): */
    double elements;                  /* arrays of n moved per call (chart/model.h) */
    double launches, host_launches;   /* kernels counted; launches the host issues */
    int model_launches;               /* by role (fb_model_launches), -1 none or an overlay */
    bool write_allocate;              /* its stores read each line first (a CPU, normal) */
    bool has_dram, has_copy_fraction, has_ours_ratio;
    unsigned colour;                  /* 0xRRGGBB, point and dash: the variant's identity */
    int point_type, dash;             /* (chart/identity.h), open points for overlays */
};

struct fb_chart_speedup {
    double n, speedup, lo, hi; /* lo, hi: the eager row's speedup_lo, speedup_hi, the 95%
                                  confidence interval of the speedup from the interleaved rounds
                                  (measure/interval.h); NaN where the file has none (older
                                  files, fewer than 8 paired rounds): no bar is drawn */
};

struct fb_chart_pair {
    size_t eager, fused;             /* series indices */
    char title[FB_CHART_TEXT_MAX];   /* the eager series' title / the fused side's "how"
                                        and count ("... / fused (1 kernel)") */
    bool primary;                    /* of the charted run (file 0) */
    bool chain;                      /* its fused series is no other eager series' pair */
    double launch_limit;             /* host launches eager / fused */
    double elements_eager, elements_fused;
    double traffic_ratio;            /* elements eager / fused */
    double traffic_ratio_wa;         /* with write-allocate; NaN where stores do not */
    struct fb_chart_speedup *points;
    size_t n_points;
};

/* A noisy row drawn hollow (chart/noisy.h): on the time and bandwidth charts (series) or the
 * speedup chart (pair). */
struct fb_chart_noisy_point {
    size_t of;                  /* its series (times) or pair (speedups) */
    double n, value, bandwidth_gbps; /* value: time_s, or the speedup */
    unsigned colour;
    int point_type;             /* open marker (fb_chart_open_marker) */
};

struct fb_chart_derived {
    size_t n_files;
    char stems[FB_CHART_MAX_FILES][FB_CHART_TEXT_MAX]; /* file names less ".csv" */
    /* how labels name each file: its stem, or where another file has the same stem (two
     * machines' default.csv) its directory's name: "cpu-amd-epyc" */
    char names[FB_CHART_MAX_FILES][FB_CHART_TEXT_MAX];

    struct fb_chart_series *series;
    size_t n_series;
    struct fb_chart_pair *pairs;
    size_t n_pairs;
    /* Scalars (NaN / 0 where unknown). */
    double nmin, nmax;                       /* drawn sizes */
    double cache_bytes, n_cache;             /* n_cache: where the main eager chain's arrays
                                                fill the cache: cache_bytes / (arrays x size) */
    double peak_gbps, bandwidth_max, copy_max, speedup_max;
    double n_launch;                         /* end of the launch-bound regime */
    bool n_launch_from_fit;                  /* else from the data (below) */
    double fit_launch_s, fit_gbps, fit_cache_gbps;
    char fit_dtype[16], fit_stores[16];      /* the format the fit is of (# fit_format) */
    size_t noisy;                            /* noisy rows of the charted run: not points of
                                                their series, drawn hollow (chart/noisy.h) */
    struct fb_chart_noisy_point *noisy_times, *noisy_speedups;
    size_t n_noisy_times, n_noisy_speedups;

    /* Text, as read (chart/label.h makes it safe to draw). */
    char device[FB_CHART_TEXT_MAX], day[32], backend[32], cache_name[32];
    char cache_text[FB_CHART_TEXT_MAX];      /* "L3 32 MB" */
    char fit_text[4][FB_CHART_TEXT_MAX];     /* the fit's numbers, one line each */
    size_t n_fit_text;

    struct fb_audit *audit;                  /* the audit chart's (chart/audit.h) */
};

/* Derives everything above from tables[0..n-1] (the charted run first), read from paths
 * (their stems name overlays). The tables are adjusted in place (roles, derived columns:
 * above). Regimes: launch-bound up to n_launch, which comes from the fit when the charted
 * run has one (# fit_launch_s and a bandwidth): the n at which the main fused kernel's bytes
 * take as long as its launches, n = host_launches * L * B_c / (bytes per element) (B when
 * there is no B_c); otherwise from the data, the largest n at which the main fused time is
 * still under twice its time at the smallest n. The main pair is the first pair of the
 * charted run. A file without a row to draw gives no series (the caller decides whether that
 * is an error). Returns FB_OK, FB_ERR_USAGE for more than FB_CHART_MAX_FILES files,
 * FB_ERR_RUNTIME when out of memory. Free *out with fb_chart_derived_free (also after a
 * failure). */
int fb_chart_derive(struct fb_csv_table *tables, const char *const *paths, size_t n,
                    struct fb_chart_derived *out, struct fb_error *err);

void fb_chart_derived_free(struct fb_chart_derived *d);

/* A label given from outside the results, for every series of a variant: a chain's ops in
 * the words of its label (whole false: "add, relu, scale(0.5)"), or the whole label (whole
 * true: a [plot] label.<variant> of the config). */
struct fb_chart_name {
    const char *variant, *text;
    bool whole;
};

/* (Re)writes every series' and pair's title: a series' label in words (chart/identity.h:
 * "eager: add, relu (2 kernels)", its format in words, " (STEM)" for an overlay's series
 * whose key an earlier file has), or names' text for its variant (the later of two names of
 * one variant wins); a pair's "<eager title> / <fused how> (<its count>)", or the fused
 * variant's whole name. fb_chart_derive calls it with no names. */
void fb_chart_derive_titles(struct fb_chart_derived *d, const struct fb_chart_name *names,
                            size_t n_names);

/* Whether the run has a fit (L and B), and one in the cache too (B_c and the cache's size). */
bool fb_chart_has_fit(const struct fb_chart_derived *d);
bool fb_chart_has_cache_fit(const struct fb_chart_derived *d);

/* Whether the fit's curves are drawn for pair p: a pair of the charted run in the fit's
 * format, with its counts known, each side launching each of its kernels itself (the fit
 * prices a launch, not a kernel: a graph pays for kernels the model does not see). */
bool fb_chart_fit_covers(const struct fb_chart_derived *d, const struct fb_chart_pair *p);

/* The j-th of FB_CHART_CURVE_POINTS sizes, log-spaced over the drawn range (the x axis spans
 * nmin / 1.6 .. nmax * 1.6), at which the fit's curves are drawn. */
double fb_chart_curve_n(const struct fb_chart_derived *d, size_t j);

/* The stores of a series per call: its kernels counted, else the model's; NaN unknown. */
double fb_chart_stores(const struct fb_chart_series *s);

/* The series with `key` in `file`, or SIZE_MAX. */
size_t fb_chart_find_series(const struct fb_chart_derived *d, size_t file, const char *key);

/* The format suffix of row r's series key into out (above: "", "-fp16", "-streaming",
 * "-bf16-cold"). */
void fb_chart_format_suffix(const struct fb_record *r, char *out, size_t size);

#endif
