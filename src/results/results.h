/* The results of one run as they accumulate: the rows kept from a resumed file plus every
 * finished point, rewritten atomically after each point to NAME.partial beside the results
 * file NAME, and renamed over NAME only when the run completes. So NAME always holds the last
 * complete run: a crash, a kill or a Ctrl-C loses at most the point in progress, leaves NAME
 * as it was, and leaves NAME.partial for --resume to continue. A lock file NAME.lock, held for
 * the whole run, keeps a second run off the same results. */
#ifndef FB_RESULTS_RESULTS_H
#define FB_RESULTS_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "backends/backend.h"
#include "common/limits.h"
#include "measure/fit.h"
#include "measure/record.h"
#include "results/csv.h"
#include "results/point_index.h"
#include "plan/plan.h"

#define FB_RESULTS_MAX_META 48 /* 35 keys today, 6 of the fit, counters_refused */

struct fb_results {
    /* The file --resume reads (fb_results_load): the unfinished partial_path when there is
     * one, else final_path. */
    char path[FB_PATH_MAX];
    char final_path[FB_PATH_MAX];   /* NAME: replaced by fb_results_finish() */
    char partial_path[FB_PATH_MAX]; /* NAME.partial: every finished point goes here */
    bool wrote;                     /* whether this run has written partial_path */
    struct fb_csv_meta meta[FB_RESULTS_MAX_META];
    size_t n_meta;
    struct fb_record *records;
    size_t count, capacity;
    struct fb_point_index index; /* records by point key (results/point_index.h): one row per
                                    point, found in O(1) */
    char resume_warning[FB_PATH_MAX + 256]; /* set by fb_results_load when the kept rows come
                                               from another config; "" otherwise */
};

/* Sets up an empty store for the results file path (a regular file or a new one, e.g. the
 * target fb_results_judge() gave; too long a path is cut), with the run's metadata (version, commit, date,
 * host, backend, device, caches, peak bandwidth, config path and hash, label, seed...). */
void fb_results_init(struct fb_results *res, const char *path, const struct fb_plan *plan,
                     const char *backend, const struct fb_device_info *dev, uint64_t seed,
                     const char *counters_status);

/* --resume: loads the rows of an existing results file (a missing file is no error: the
 * run starts empty, *loaded = 0). Rows of one point (same key, results/point_index.h) that
 * an earlier run wrote twice are merged, the later row kept, in the place of the first.
 * When the file's config_hash differs from this run's, the rows are still kept (they are
 * the same points), res->resume_warning says so for the caller to print, and the metadata
 * records both hashes (config_hash: this run's; resumed_config_hash: the file's). Linear in
 * the file's rows. Rows of a file without the role and pair columns get them from the
 * built-in variants (fb_pairing_fill_builtin_roles), and copy_fraction and speedup where a
 * row has none (fb_pairing_derive_missing, O(n log n)); the rest is kept as read. */
int fb_results_load(struct fb_results *res, size_t *loaded, struct fb_error *err);

/* The row for the point `key` (its key fields, results/point_index.h), or NULL. O(1). */
const struct fb_record *fb_results_find(const struct fb_results *res,
                                        const struct fb_record *key);

/* Sets metadata `key` to value (replacing an earlier value of key), written with the next
 * row (fb_results_add) or fit. A key past FB_RESULTS_MAX_META is dropped. */
void fb_results_set_meta(struct fb_results *res, const char *key, const char *value);

/* Whether the store already holds an ok row for this point (every key field equal). */
bool fb_results_has_ok(const struct fb_results *res, const char *backend, const char *device,
                       const char *variant, const char *dtype, int64_t n, const char *cache,
                       const char *stores);

/* Stores r: in place of the row of the same point when there is one (a rerun replaces its
 * old row, never duplicates it), else appended; recomputes copy_fraction and speedup of the
 * rows of r's size (fb_pairing_derive_group: the copy ceiling found by role, the speedup
 * against r->pair, in whatever order the rows came); and rewrites partial_path atomically
 * (fb_csv_write) with every row. */
int fb_results_add(struct fb_results *res, const struct fb_record *r, struct fb_error *err);

/* The run's points are all in: fits t(n) = launches * L + bytes / B to its rows (those of
 * backend, cache mode `cache` and `format` (NULL: any; the sweep passes its first format,
 * written to the metadata as fit_format), with the device's cache_bytes: fb_fit_records),
 * puts the
 * result in *fit and in the metadata (fit_launch_s, fit_bandwidth_gbps,
 * fit_cache_bandwidth_gbps: empty when not fitted; fit_points, fit_model: how), and rewrites
 * partial_path with them when fb_results_finish() will rename it. Called once, at the end of
 * a run: the metadata written with every point before carries no fit. Returns FB_OK or the
 * error of fb_fit_records() or fb_csv_write(). */
int fb_results_fit(struct fb_results *res, const char *backend, const char *cache,
                   const struct fb_format *format, uint64_t cache_bytes, struct fb_fit *fit,
                   struct fb_error *err);

/* The run is complete: renames partial_path over final_path (atomic: readers see the old
 * results or the new ones), when this run wrote it or resumed from it; otherwise there is
 * nothing new and final_path stays. FB_ERR_USAGE when final_path has become something other
 * than a regular file (never replaced), FB_ERR_RUNTIME when the rename fails; both name the
 * files, and partial_path is kept. */
int fb_results_finish(struct fb_results *res, struct fb_error *err);

/* What is at a results path now (fb_results_judge). */
enum fb_results_existing {
    FB_RESULTS_NEW,     /* nothing: the run makes the file */
    FB_RESULTS_EMPTY,   /* an empty regular file */
    FB_RESULTS_OWN,     /* a results file: a "# fusebench:" metadata line among its leading '#'
                           lines (fusebench and the torch peer write it first), or a CSV header
                           row starting "backend," as its first other line */
    FB_RESULTS_FOREIGN, /* anything else (or unreadable): replaced only with --force */
};

/* Where the results of a run go, judged before anything is measured. */
struct fb_results_target {
    char path[FB_PATH_MAX];     /* the file really written: symlinks followed */
    char make_dir[FB_PATH_MAX]; /* the first directory that must be made for it; "" if none */
    enum fb_results_existing existing;
};

/* Judges up front, before anything is measured and creating nothing, whether the results
 * can be written for `path`: refuses a last component that is no file name (empty: a path
 * ending in '/'; "." or ".."), follows symlinks to the file really written
 * (fb_csv_output_target: the link stays a link) and refuses a target that is not a regular
 * file (a directory, FIFO, socket, device node such as /dev/null) or whose own last
 * component is no file name, refuses a "<target>.partial" that is not a regular file,
 * refuses a target or .partial that holds a file other than a results file, empty or not
 * readable (FB_RESULTS_FOREIGN) unless `force`, and judges the target's directory with
 * fb_output_dir_check (it exists or can be made, and files can be created there: the
 * .partial, the .lock and the temporary files all go there). Fills *t.
 * Returns FB_OK, or FB_ERR_USAGE with a message naming the path that failed (escaped). */
int fb_results_judge(const char *path, bool force, struct fb_results_target *t,
                     struct fb_error *err);

/* Makes the directories a judged target needs (t->make_dir and below: fb_csv_make_parent_dirs).
 * Returns FB_OK, or FB_ERR_USAGE naming the directory that could not be made. */
int fb_results_prepare(const struct fb_results_target *t, struct fb_error *err);

/* The lock that keeps two runs off one results file: a POSIX record lock (fcntl F_SETLK)
 * on "<target>.lock", held until fb_results_unlock() or the process's end (a kill releases
 * it). The file holds the holder's pid, for people; the pid in the message comes from the
 * kernel (F_GETLK). Record locks never conflict within one process, so the locks a process
 * holds are also kept in a process-wide list (by the lock file's device and inode) that two
 * sessions of one process (libfbpeer) are checked against. */
struct fb_results_lock {
    int fd; /* -1: not held */
    char path[FB_PATH_MAX + 8];
    dev_t dev; /* the lock file's, while held */
    ino_t ino;
    struct fb_results_lock *next; /* the process's list of held locks */
};

/* Takes the lock for the results file target without waiting, then removes the temporary
 * files a killed run left beside target ("<target>.tmp.XXXXXX", "<target>.partial.tmp.XXXXXX":
 * only the lock holder writes those names). *lock must stay where it is until
 * fb_results_unlock (the process's list points to it). Safe to call from several threads.
 * Returns FB_OK, or FB_ERR_USAGE when another process holds it (the message names its pid and
 * the file), this process holds it already (another session), or the lock file cannot be
 * created, is not a regular file or has other names (a hard link: never written into). */
int fb_results_lock(struct fb_results_lock *lock, const char *target, struct fb_error *err);

/* Removes the lock file and releases the lock; harmless when it is not held. */
void fb_results_unlock(struct fb_results_lock *lock);

void fb_results_free(struct fb_results *res);

#endif
