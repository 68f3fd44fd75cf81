/* The sweep's configuration: parsed from an INI file (inih), validated as a whole,
 * then immutable. Every consumer takes a `const struct fb_config *`; nothing is global.
 *
 * File format (configs/default.ini documents every key with its unit):
 *   [sweep]    sizes, points_per_decade, variants, dtype, label
 *   [backend]  backend, device, cpu_threads
 *   [measure]  warmup, min_reps, max_reps, min_time, max_time, target_noise, cache, stores,
 *              gpu_min_clock, gpu_other_processes
 *   [cupti]    activity, counters
 *   [output]   csv, plots, report
 *   [plot]     charts, size, formats, label.<variant> (struct fb_config_plot)
 *   [chain NAME]  ops (one section per chain; see struct fb_config_chain)
 * A line holds at most FB_CONFIG_LINE_MAX characters (inih's buffer); a longer one is an
 * error of its own. A chain too long for one line goes on in "ops += ..." lines.
 *
 * Config knows ops (kernels/op_table.h), not variants: the [sweep] variants list is kept as
 * names, and plan resolves them against the variants it builds (plan/select.h). */
#ifndef FB_CONFIG_CONFIG_H
#define FB_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/format.h"
#include "common/limits.h"
#include "op_table.h"

#define FB_CONFIG_LINE_MAX 198      /* characters of a config line: inih's INI_MAX_LINE (200)
                                       less the line feed and the NUL */
#define FB_MAX_SIZES 1024
#define FB_CHAIN_NAME_MAX 32        /* a chain's name, NUL included */
#define FB_MAX_VARIANT_NAMES 64     /* names in a [sweep] variants list */

/* A chain from a `[chain NAME]` section: `ops = mul, bias(0.5), relu`, checked against the op
 * table (kernels/op_table.h): known ops, the right number of parameters, only the first op
 * binary, at most FB_CHAIN_MAX_OPS. A list longer than a line goes on in `ops += ...` lines
 * after the `ops =` line, in order (each line a whole list of items: no trailing comma). The
 * plan turns each into the variants eager_NAME and fused_NAME. */
struct fb_config_chain {
    char name[FB_CHAIN_NAME_MAX]; /* NAME: lower-case letters, digits and '_' */
    int line;                     /* the line of its ops key, for messages of later stages */
    struct fb_chain chain;
};

/* The names of plan's built-in variants (plan/variants.c), which a chain's variants
 * (eager_NAME, fused_NAME) must not take. The one copy of the list: config refuses a chain
 * name that would clash (config must not include plan, which depends on it), and
 * tests/plan/test_select.c holds the list to plan's table. When plan builds the variants
 * from the chains it can own the list and this check. */
extern const char *const fb_builtin_variant_names[];
extern const size_t fb_builtin_variant_name_count;

#define FB_PLOT_MAX_NAMES 16      /* names in a [plot] charts or formats list */
#define FB_PLOT_NAME_CHARS 24     /* one of them, NUL included */
#define FB_PLOT_LABEL_CHARS 96    /* a label's text, NUL included (chart/label.h's limit) */

/* The [plot] section: what the charts draw and how, as written. Only the syntax is checked
 * here (lists of non-empty names of [a-z0-9_-], a label's variant name and a non-empty
 * text); which charts, formats, sizes and variants exist is known above config (the chart
 * tables, the plan), which checks the names against them with the lines kept here, so that
 * a wrong one is still reported as "file:line: [plot] key: ..." before anything is measured.
 *   charts = speedup, time         the charts to draw (default: every chart)
 *   size = column                  a page preset (default: the charts' own 1600 x 1000 px)
 *   formats = png, svg, pdf        the files of each chart (default: all three)
 *   label.<variant> = text         the series' label in the legends */
struct fb_config_plot {
    size_t n_charts, n_formats;   /* 0: the default */
    char charts[FB_PLOT_MAX_NAMES][FB_PLOT_NAME_CHARS];
    char formats[FB_PLOT_MAX_NAMES][FB_PLOT_NAME_CHARS];
    char size[FB_PLOT_NAME_CHARS]; /* "": the default */
    int charts_line, formats_line, size_line; /* 0: default or command line */
    size_t n_labels;
    struct fb_config_plot_label {
        char variant[FB_VARIANT_NAME_CHARS];
        char text[FB_PLOT_LABEL_CHARS];
        int line;
    } labels[FB_PLOT_MAX_LABELS];
};


/* The [sweep] variants list as written: "all" (the default), or names. Only its syntax is
 * checked here (a comma list of non-empty names); which names exist is plan's business
 * (fb_plan_select_variants), since chains add variants. */
struct fb_config_variants {
    bool all;
    size_t n_names;
    char names[FB_MAX_VARIANT_NAMES][FB_VARIANT_NAME_CHARS];
    int line; /* the line of the key in the file; 0: the default or a command-line override */
};

struct fb_config {
    /* where it came from */
    char path[FB_PATH_MAX];
    uint64_t content_hash;  /* FNV-1a 64 of the file's bytes, for the CSV metadata */
    char label[256];        /* free text stored in the results */

    /* [sweep] */
    char sizes_spec[FB_PATH_MAX]; /* the sizes text as written (fb_sizes_parse syntax), kept so
                                     that a later points_per_decade override can re-expand it */
    uint64_t sizes[FB_MAX_SIZES]; /* element counts, sorted ascending, unique */
    size_t n_sizes;
    struct fb_config_variants variants;
    int points_per_decade;        /* log spacing of a "lo..hi" range */
    /* The formats (common/format.h): every variant runs at every size in each dtype, and in
     * each of those with each store kind, in the order listed. */
    enum fb_dtype dtypes[FB_DTYPE_COUNT]; /* [sweep] dtype: "fp32" by default */
    size_t n_dtypes;

    /* [chain NAME] sections, in file order */
    struct fb_config_chain chains[FB_MAX_CHAINS];
    size_t n_chains;

    /* [backend] */
    enum fb_backend_choice backend;
    int device;          /* CUDA device index */
    int cpu_threads;     /* OpenMP threads; 0 = all cores */

    /* [measure] */
    int warmup;          /* untimed calls before timing */
    int min_reps, max_reps;
    double min_time_s;   /* keep repeating until this much time was spent timing a point */
    double max_time_s;   /* stop repeating after this much, noisy or not */
    double target_noise; /* relative half-width of the median's 95% confidence interval */
    enum fb_cache_mode cache;
    enum fb_store_kind stores[FB_STORES_COUNT]; /* [measure] stores: "normal" by default */
    size_t n_stores;
    /* The GPU's disturbance rules (measure/disturbance.h): a sample is disturbed when the SM
     * clock is under gpu_min_clock x the clock the GPU holds (0: no clock rule), or when more
     * than gpu_other_processes other processes hold a compute context on the device. */
    double gpu_min_clock;
    int gpu_other_processes;

    /* [cupti] (GPU only) */
    bool cupti_activity; /* launches and kernel time from activity records */
    bool cupti_counters; /* DRAM and L2 bytes from the range profiler */

    /* [output] */
    char csv_path[FB_PATH_MAX]; /* may hold {backend} and {device}, filled in at run time */
    char plot_dir[FB_PATH_MAX]; /* "" (the default): beside the results CSV */
    bool report;                /* [output] report: the markdown report after the charts
                                   (app/report.h); default no */

    /* [plot] */
    struct fb_config_plot plot;

    /* The line each key was set on (0: default or a command-line override), for messages
     * about values that are only found wrong later, such as sizes that do not fit in the
     * device's memory. */
    int sizes_line;
    int csv_line;
};

/* Sets every field to its default (the values configs/default.ini documents). */
void fb_config_defaults(struct fb_config *cfg);

/* Parses and validates the INI file at path into cfg (defaults first, then the file).
 * Every problem is reported, not only the first: each as one line
 * "path:line: [section] key: message" written to `diag` in line order (unknown keys and
 * sections name the nearest valid one; out-of-range values give the range). diag may be
 * NULL (the count of errors is still in err). On error cfg holds defaults and the valid
 * values, and must not be used for a run.
 * Returns FB_OK, FB_ERR_USAGE when the file has any error (diag says which), or
 * FB_ERR_RUNTIME when it cannot be read (err says why). */
int fb_config_load(struct fb_config *cfg, const char *path, FILE *diag, struct fb_error *err);

/* One command-line override: a key name of the file ("sizes", "variants", "backend",
 * "points_per_decade", "label", "cache", "device", "cpu_threads", "warmup", "min_reps",
 * "max_reps", "min_time", "max_time", "target_noise", "plots", "csv", "charts", "size",
 * "formats", "label.<variant>", ...) or "output" (= csv), and a value with the same syntax as in the file. */
struct fb_config_setting {
    const char *key;
    const char *value;
};

/* The number of formats of a run (n_dtypes * n_stores), and the i-th of them: dtypes outer,
 * store kinds inner, in the order the config lists them. */
size_t fb_config_format_count(const struct fb_config *cfg);
struct fb_format fb_config_format(const struct fb_config *cfg, size_t i);

/* Whether [measure] stores lists the store kind `stores`. */
bool fb_config_has_stores(const struct fb_config *cfg, enum fb_store_kind stores);

/* Applies command-line overrides on top of a loaded config: every value first, in order (a
 * key given twice takes the later value), then the rules that tie keys together against the
 * final set: sizes re-expanded when sizes or points_per_decade changed, min_reps <= max_reps,
 * min_time <= max_time. So "--set max_reps=2 --set min_reps=1" is accepted whatever the file
 * says. Returns FB_OK, or FB_ERR_USAGE with err = "--key: message" naming the override whose
 * value is wrong, or for a broken rule the last override that took part in it (cfg unchanged
 * on error). Text quoted from the values is escaped (fb_text_escape). */
int fb_config_override_all(struct fb_config *cfg, const struct fb_config_setting *settings,
                           size_t count, struct fb_error *err);

/* fb_config_override_all with one setting. */
int fb_config_override(struct fb_config *cfg, const char *key, const char *value,
                       struct fb_error *err);

/* Parses a size list such as "8..100M", "8, 1K, 1Mi, 1e6" or "1K..1M, 4099" into sorted,
 * unique sizes. A range "lo..hi" is log-spaced at points_per_decade and always includes lo,
 * hi and every exact power of ten in between. SI suffixes: K M G (x1000), Ki Mi Gi (x1024);
 * plain decimal or scientific notation; every size must be an integer >= 1.
 * Returns FB_OK or FB_ERR_USAGE with err saying which token is wrong. */
int fb_sizes_parse(const char *text, int points_per_decade, uint64_t *sizes, size_t max_sizes,
                   size_t *n_sizes, struct fb_error *err);

/* Fills the placeholders {backend} and {device} of an output path pattern (csv), the device
 * name made file-name friendly (fb_slugify): "results/{backend}-{device}.csv" with ("cuda",
 * "NVIDIA H200") gives "results/cuda-nvidia-h200.csv", so runs on different machines sit
 * side by side. Returns FB_OK, or FB_ERR_USAGE when the result does not fit in out_size
 * bytes or the pattern holds another {placeholder} (err says which). */
int fb_config_expand_path(const char *pattern, const char *backend, const char *device,
                          char *out, size_t out_size, struct fb_error *err);

/* "AMD EPYC 7B13 64-Core Processor" -> "amd-epyc-7b13-64-core": lower case, runs of other
 * characters as one '-', at most 40 characters, a trailing "-processor" dropped; "x" when
 * nothing is left. */
void fb_slugify(char *out, size_t size, const char *text);


#endif
