/* The plan of a run: every point it will measure, in the order it measures them, and what
 * they need, built once by the command from the validated config and the command line
 * (fb_plan_build). Everything after the config reads the plan, not the config: the runner
 * walks its points, the dry run and --print-plan print it, the progress bar counts it,
 * --resume marks the points it keeps (todo = false), the memory check reads its bytes,
 * --profile and the peer library take their variants from it.
 *
 * A point is (variant, size, format) under the run's cache mode. The points are ordered
 * size-major, then format (dtypes outer, store kinds inner, as the config lists them), then
 * variant (the set's order: the built-ins, copy first, then the chains'): the order the
 * runner measures them in, so a size's buffers are allocated once and its inputs drawn once
 * per dtype (measure/runner.h). */
#ifndef FB_PLAN_PLAN_H
#define FB_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/format.h"
#include "common/limits.h"
#include "plan/variants.h"

struct fb_config; /* config/config.h: only plan.c reads it */

/* [measure]'s stop rule, cache mode and disturbance rules, as the runner applies them. */
struct fb_plan_measure {
    int warmup, min_reps, max_reps;
    double min_time_s, max_time_s, target_noise;
    enum fb_cache_mode cache;
    double gpu_min_clock;    /* measure/disturbance.h */
    int gpu_other_processes;
};

struct fb_plan_point {
    uint32_t variant; /* index into plan->set.v */
    uint32_t size;    /* index into plan->sizes */
    uint32_t format;  /* index into plan->formats */
    bool todo;        /* true when built; false: --resume keeps its row, it is not run */
};

#define FB_PLAN_MAX_FORMATS (FB_DTYPE_COUNT * FB_STORES_COUNT)

struct fb_plan {
    /* Where it came from, for --print-plan and messages. */
    char config_path[FB_PATH_MAX];
    char label[256];
    char sizes_origin[FB_PATH_MAX + 64]; /* "path:line: [sweep] sizes", or where else they came from */
    uint64_t config_hash; /* the config file's FNV-1a 64, for the results' metadata */
    /* [backend] and [cupti]: where the points run and what is probed beyond time */
    enum fb_backend_choice backend;
    int device, cpu_threads;
    bool cupti_activity, cupti_counters;
    enum fb_dtype dtypes[FB_DTYPE_COUNT]; /* as the config lists them */
    size_t n_dtypes;
    enum fb_store_kind stores[FB_STORES_COUNT];
    size_t n_stores;

    struct fb_plan_measure measure;

    /* The variants: the set (built-ins and the config's chains, plan/variants.h), which of
     * them the run measures, the [chain NAME] each came from ("" for a built-in), and the
     * enabled ones in the order the variants list names them (the set's order for "all"),
     * for --profile's tables. */
    struct fb_variant_set set;
    bool enabled[FB_MAX_VARIANTS];
    char chain[FB_MAX_VARIANTS][FB_VARIANT_NAME_MAX];
    uint32_t named[FB_MAX_VARIANTS];
    size_t n_named, n_enabled;

    uint64_t *sizes; /* ascending */
    size_t n_sizes;
    struct fb_format formats[FB_PLAN_MAX_FORMATS];
    size_t n_formats;

    struct fb_plan_point *points; /* n_enabled x n_sizes x n_formats, in run order */
    size_t n_points;

    /* What the points need: the runner's buffers some enabled variant uses, the bytes of an
     * element of the widest dtype (a size's buffers are shared by its formats), and the bytes
     * allocated at the largest size (host and backend together, and the backend's share,
     * which is host memory too on the CPU backend; saturated, so a size past any memory
     * reads as too big). */
    bool buffer_used[FB_BUF_COUNT];
    size_t element_bytes;
    uint64_t memory_bytes, backend_bytes;
};

/* fb_plan_build's flags. FB_PLAN_FIRST_FORMAT: only the config's first format (--profile's
 * kernel tables, which describe one). FB_PLAN_DEFAULT_FORMAT: only fp32 with normal stores
 * whatever the config lists (the peer library, which computes that format alone). */
#define FB_PLAN_FIRST_FORMAT 0x1u
#define FB_PLAN_DEFAULT_FORMAT 0x2u

/* Builds the plan of cfg (validated: fb_config_load, overrides, fb_plan_check_variants) into
 * *plan (heap: the variant set alone is about 130 KB; free with fb_plan_free). Returns FB_OK,
 * FB_ERR_USAGE for a malformed chain (err names it) or FB_ERR_RUNTIME when out of memory. */
int fb_plan_build(const struct fb_config *cfg, unsigned flags, struct fb_plan **plan,
                  struct fb_error *err);
void fb_plan_free(struct fb_plan *plan); /* NULL-safe */

/* The points still to run (todo), and their work in units of fb_progress_weight-like
 * `weight(n)` summed into *work when work is not NULL. */
size_t fb_plan_todo(const struct fb_plan *plan, double (*weight)(int64_t n), double *work);

/* The point's variant, size and format. */
const struct fb_variant *fb_plan_variant(const struct fb_plan *plan,
                                         const struct fb_plan_point *p);
int64_t fb_plan_n(const struct fb_plan *plan, const struct fb_plan_point *p);

#endif
