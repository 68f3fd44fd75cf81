/* The results of one run as they accumulate: the rows kept from a resumed file plus every
 * finished point, rewritten atomically to the CSV after each point, so that a crash or a
 * Ctrl-C loses at most the point in progress and a run that fails before its first point
 * never touches an existing file. */
#ifndef FB_APP_RESULTS_H
#define FB_APP_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/backend.h"
#include "config/config.h"
#include "measure/record.h"
#include "output/csv.h"
#include "output/point_index.h"

#define FB_RESULTS_MAX_META 40

struct fb_results {
    char path[FB_PATH_MAX];
    struct fb_csv_meta meta[FB_RESULTS_MAX_META];
    size_t n_meta;
    struct fb_record *records;
    size_t count, capacity;
    struct fb_point_index index; /* records by point key (output/point_index.h): one row per
                                    point, found in O(1) */
    char resume_warning[FB_PATH_MAX + 256]; /* set by fb_results_load when the kept rows come
                                               from another config; "" otherwise */
};

/* Sets up an empty store writing to path, with the run's metadata (version, commit, date,
 * host, backend, device, caches, peak bandwidth, config path and hash, label, seed...). */
void fb_results_init(struct fb_results *res, const char *path, const struct fb_config *cfg,
                     const char *backend, const struct fb_device_info *dev, uint64_t seed,
                     const char *counters_status);

/* --resume: loads the rows of an existing results file (a missing file is no error: the
 * run starts empty, *loaded = 0). Rows of one point (same key, output/point_index.h) that
 * an earlier run wrote twice are merged, the later row kept, in the place of the first.
 * When the file's config_hash differs from this run's, the rows are still kept (they are
 * the same points), res->resume_warning says so for the caller to print, and the metadata
 * records both hashes (config_hash: this run's; resumed_config_hash: the file's). Linear in
 * the file's rows. */
int fb_results_load(struct fb_results *res, size_t *loaded, struct fb_error *err);

/* The row for the point `key` (its key fields, output/point_index.h), or NULL. O(1). */
const struct fb_record *fb_results_find(const struct fb_results *res,
                                        const struct fb_record *key);

/* Whether the store already holds an ok row for this point (every key field equal). */
bool fb_results_has_ok(const struct fb_results *res, const char *backend, const char *device,
                       const char *variant, const char *dtype, int64_t n, const char *cache);

/* Stores r: in place of the row of the same point when there is one (a rerun replaces its
 * old row, never duplicates it), else appended; fills its copy_fraction from the copy row of
 * the same point but variant; and rewrites the CSV atomically. */
int fb_results_add(struct fb_results *res, const struct fb_record *r, struct fb_error *err);

/* Checks up front that the results file can be written: creates the parent directories and
 * a probe "<path>.tmp" (removed again). FB_ERR_USAGE naming the path when it cannot. */
int fb_results_check_writable(const char *path, struct fb_error *err);

void fb_results_free(struct fb_results *res);

#endif
