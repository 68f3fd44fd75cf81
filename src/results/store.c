#include "results/results.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/checked.h"
#include "results/output_paths.h"
#include "common/text.h"
#include "fb_build_config.h"
#include "git_version.h"
#include "measure/pairing.h"

__attribute__((format(printf, 3, 4))) static void add_meta(struct fb_results *res, const char *key, const char *fmt, ...)
{
    struct fb_csv_meta *m = NULL;
    for (size_t i = 0; i < res->n_meta && !m; i++) /* a key set again is replaced */
        if (strcmp(res->meta[i].key, key) == 0)
            m = &res->meta[i];
    if (!m && res->n_meta >= FB_RESULTS_MAX_META)
        return;
    if (!m)
        m = &res->meta[res->n_meta++];
    snprintf(m->key, sizeof m->key, "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->value, sizeof m->value, fmt, ap);
    va_end(ap);
}

void fb_results_set_meta(struct fb_results *res, const char *key, const char *value)
{
    add_meta(res, key, "%s", value);
}

void fb_results_init(struct fb_results *res, const char *path, const struct fb_plan *plan,
                     const char *backend, const struct fb_device_info *dev, uint64_t seed,
                     const char *counters_status)
{
    memset(res, 0, sizeof *res);
    snprintf(res->final_path, sizeof res->final_path, "%s", path);
    snprintf(res->partial_path, sizeof res->partial_path, "%.*s.partial",
             (int)(sizeof res->partial_path - sizeof ".partial"), path);
    /* --resume continues an unfinished run when there is one: it holds the newest rows */
    struct stat st;
    snprintf(res->path, sizeof res->path, "%s",
             lstat(res->partial_path, &st) == 0 ? res->partial_path : res->final_path);
    char host[256] = "unknown", date[64] = "";
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);

    add_meta(res, "fusebench", "%s", FB_VERSION);
    add_meta(res, "git_commit", "%s", FB_GIT_COMMIT);
    add_meta(res, "date", "%s", date);
    add_meta(res, "host", "%s", host);
    add_meta(res, "backend", "%s", backend);
    add_meta(res, "device", "%s", dev->name);
    if (dev->chip[0])
        add_meta(res, "chip", "%s", dev->chip);
    if (dev->driver_version[0])
        add_meta(res, "driver_version", "%s", dev->driver_version);
    if (dev->runtime_version[0])
        add_meta(res, "runtime_version", "%s", dev->runtime_version);
    if (dev->backend_note[0])
        add_meta(res, "backend_note", "%s", dev->backend_note);
    if (dev->arch[0])
        add_meta(res, "gpu_arch", "%s", dev->arch);
    if (dev->gpu_code[0])
        add_meta(res, "gpu_code", "%s", dev->gpu_code);
    if (dev->launch_plan[0])
        add_meta(res, "launch_plan", "%s", dev->launch_plan);
    add_meta(res, "compute_units", "%d", dev->compute_units);
    add_meta(res, "memory_bytes", "%" PRIu64, dev->memory_total_bytes);
    add_meta(res, "cache_name", "%s", dev->cache_name);
    add_meta(res, "cache_bytes", "%" PRIu64, dev->cache_bytes);
    if (dev->memory_bus_bits)
        add_meta(res, "memory_bus_bits", "%d", dev->memory_bus_bits);
    if (dev->memory_clock_khz)
        add_meta(res, "memory_clock_khz", "%d", dev->memory_clock_khz);
    if (dev->peak_bandwidth_gbps > 0)
        add_meta(res, "peak_bandwidth_gbps", "%.1f", dev->peak_bandwidth_gbps);
    else
        add_meta(res, "peak_bandwidth_gbps", "%s", "");
    add_meta(res, "timer_resolution_s", "%.3g", dev->timer_resolution_s);
    add_meta(res, "contention", "%s",
             dev->contention_probe[0] ? dev->contention_probe : "not watched");
    bool streaming = false;
    for (size_t i = 0; i < plan->n_stores; i++)
        streaming |= plan->stores[i] == FB_STORES_STREAMING;
    if (streaming)
        add_meta(res, "streaming_stores", "%s",
                 dev->streaming_stores[0] ? dev->streaming_stores : "not described");
    add_meta(res, "config", "%s", plan->config_path);
    add_meta(res, "config_hash", "%016" PRIx64, plan->config_hash);
    add_meta(res, "label", "%s", plan->label);
    add_meta(res, "cache_mode", "%s", fb_cache_mode_name(plan->measure.cache));
    add_meta(res, "seed", "%" PRIu64, seed);
    add_meta(res, "counters", "%s", counters_status);
    add_meta(res, "time", "%s", "time_*_s are seconds per call: medians of samples, each a "
                                "batch of back-to-back calls divided by the batch size");
}

/* Builds the index over res->records, merging rows of one point: the later row's content
 * goes in the place of the first. */
static int results_index_rows(struct fb_results *res, struct fb_error *err)
{
    size_t kept = 0;
    for (size_t i = 0; i < res->count; i++) {
        ptrdiff_t at = fb_point_index_find(&res->index, res->records, &res->records[i]);
        if (at >= 0) {
            res->records[at] = res->records[i];
            continue;
        }
        res->records[kept] = res->records[i];
        if (fb_point_index_put(&res->index, res->records, kept) != 0)
            return fb_fail(err, FB_ERR_RUNTIME, "out of memory indexing %zu results",
                           res->count);
        kept++;
    }
    res->count = kept;
    return FB_OK;
}

int fb_results_load(struct fb_results *res, size_t *loaded, struct fb_error *err)
{
    *loaded = 0;
    res->resume_warning[0] = '\0';
    if (access(res->path, F_OK) != 0)
        return FB_OK;
    struct fb_csv_table table;
    int rc = fb_csv_read(res->path, &table, err);
    if (rc != FB_OK)
        return rc;
    free(res->records);
    fb_point_index_free(&res->index);
    res->records = table.records; /* the store takes the rows over */
    res->count = res->capacity = table.n_records;
    table.records = NULL;
    table.n_records = 0;
    rc = results_index_rows(res, err);
    if (rc != FB_OK) {
        fb_csv_table_free(&table);
        return rc;
    }
    /* Rows measured under another config are the same points (the key says so), but their
     * settings (reps, noise target, time caps) may differ: keep them, and say so. */
    const char *old_hash = fb_csv_meta_get(&table, "config_hash");
    const char *old_config = fb_csv_meta_get(&table, "config");
    const char *new_hash = NULL;
    for (size_t i = 0; i < res->n_meta; i++)
        if (strcmp(res->meta[i].key, "config_hash") == 0)
            new_hash = res->meta[i].value;
    if (res->count > 0 && new_hash && (!old_hash || strcmp(old_hash, new_hash) != 0)) {
        add_meta(res, "resumed_config_hash", "%s", old_hash ? old_hash : "unknown");
        char shown[FB_PATH_MAX];
        fb_text_escape(shown, sizeof shown, old_config ? old_config : "an unknown config");
        snprintf(res->resume_warning, sizeof res->resume_warning,
                 "warning: --resume: %.400s holds rows from another config (%.300s, hash %.64s; "
                 "this run: %.64s); they are kept, and both hashes are in the metadata",
                 res->path, shown, old_hash ? old_hash : "none recorded", new_hash);
        fb_text_escape_in_place(res->resume_warning, sizeof res->resume_warning);
    }
    fb_csv_table_free(&table);
    /* A file from before the role and pair columns: its rows take them from the built-in
     * variants of the same names, and the speedups it lacks; what a row holds is kept. */
    fb_pairing_fill_builtin_roles(res->records, res->count);
    if (!fb_pairing_derive_missing(res->records, res->count))
        return fb_fail(err, FB_ERR_RUNTIME, "%s: out of memory deriving the speedups of %zu rows",
                       res->path, res->count);
    *loaded = res->count;
    if (res->count > 0) /* the metadata above describes this run, not the kept rows */
        add_meta(res, "resumed", "%zu rows kept from an earlier run of this file", res->count);
    return FB_OK;
}

const struct fb_record *fb_results_find(const struct fb_results *res,
                                        const struct fb_record *key)
{
    ptrdiff_t at = fb_point_index_find(&res->index, res->records, key);
    return at >= 0 ? &res->records[at] : NULL;
}

bool fb_results_has_ok(const struct fb_results *res, const char *backend, const char *device,
                       const char *variant, const char *dtype, int64_t n, const char *cache,
                       const char *stores)
{
    struct fb_record key;
    fb_record_init(&key);
    snprintf(key.backend, sizeof key.backend, "%s", backend);
    snprintf(key.device, sizeof key.device, "%s", device);
    snprintf(key.variant, sizeof key.variant, "%s", variant);
    snprintf(key.dtype, sizeof key.dtype, "%s", dtype);
    key.n = n;
    snprintf(key.cache, sizeof key.cache, "%s", cache);
    snprintf(key.stores, sizeof key.stores, "%s", stores);
    const struct fb_record *r = fb_results_find(res, &key);
    return r && r->status == FB_POINT_OK;
}

/* Where r goes: the row of the same point, or a new one at the end (indexed). NULL when out
 * of memory. */
static struct fb_record *results_slot_for(struct fb_results *res, const struct fb_record *r)
{
    ptrdiff_t at = fb_point_index_find(&res->index, res->records, r);
    if (at >= 0)
        return &res->records[at];
    if (res->count == res->capacity) {
        size_t capacity = res->capacity ? 2 * res->capacity : 64, bytes;
        if (!fb_mul_size(capacity, sizeof *res->records, &bytes))
            return NULL;
        struct fb_record *grown = realloc(res->records, bytes);
        if (!grown)
            return NULL;
        res->records = grown;
        res->capacity = capacity;
    }
    res->records[res->count] = *r;
    if (fb_point_index_put(&res->index, res->records, res->count) != 0)
        return NULL;
    return &res->records[res->count++];
}

int fb_results_add(struct fb_results *res, const struct fb_record *r, struct fb_error *err)
{
    struct fb_record *added = results_slot_for(res, r);
    if (!added)
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory for %zu results", res->count + 1);
    *added = *r;
    /* the new row's size: its copy fractions and speedups as they stand with this row in */
    if (!fb_pairing_derive_group(res->records, res->count, (size_t)(added - res->records)))
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory deriving the speedups of %zu results",
                       res->count);
    int rc = fb_csv_write(res->partial_path, res->meta, res->n_meta, res->records, res->count,
                          err);
    if (rc == FB_OK)
        res->wrote = true;
    return rc;
}

/* A fitted parameter as a metadata value: scale * value in %.4g, or "" when not fitted. */
static void add_fit_meta(struct fb_results *res, const char *key, const struct fb_fit_param *p,
                         double scale)
{
    if (isnan(p->value))
        add_meta(res, key, "%s", "");
    else
        add_meta(res, key, "%.4g", scale * p->value);
}

int fb_results_fit(struct fb_results *res, const char *backend, const char *cache,
                   const struct fb_format *format, uint64_t cache_bytes, struct fb_fit *fit,
                   struct fb_error *err)
{
    int rc = fb_fit_records(res->records, res->count, backend, cache, format, cache_bytes, fit,
                            err);
    if (rc != FB_OK)
        return rc;
    add_fit_meta(res, "fit_launch_s", &fit->launch, 1.0);
    add_fit_meta(res, "fit_bandwidth_gbps", &fit->bandwidth, 1e-9);
    add_fit_meta(res, "fit_cache_bandwidth_gbps", &fit->cache_bandwidth, 1e-9);
    char spread[3][32];
    const struct fb_fit_param *params[3] = {&fit->launch, &fit->bandwidth, &fit->cache_bandwidth};
    for (int i = 0; i < 3; i++) {
        if (isnan(params[i]->value))
            snprintf(spread[i], sizeof spread[i], "not fitted");
        else
            snprintf(spread[i], sizeof spread[i], "spread %.1f%%", 100.0 * params[i]->spread);
    }
    add_meta(res, "fit_points", "launch-bound %zu (%s), memory-bound %zu (%s), cache-resident "
             "%zu (%s) of %zu rows with launches", fit->launch.points, spread[0],
             fit->bandwidth.points, spread[1], fit->cache_bandwidth.points, spread[2],
             fit->used);
    if (format)
        add_meta(res, "fit_format", "dtype %s, stores %s", fb_dtype_name(format->dtype),
                 fb_store_kind_name(format->stores));
    add_meta(res, "fit_model", "t(n) = host_launches * fit_launch_s + bytes_model / "
             "bandwidth, fitted jointly to every ok row with host_launches >= 1 of this run in "
             "its first format (fit_format) (host_launches: launches the host issues per call, "
             "1 for a CUDA graph or a CPU parallel region running several kernels), at the ends "
             "where one term decides: fit_bandwidth_gbps beyond %gx the cache, "
             "fit_cache_bandwidth_gbps within %gx of it (warm runs); medians of per-point "
             "estimates; empty: too few points (src/measure/fit.h)", FB_FIT_MEMORY_FACTOR,
             FB_FIT_CACHE_FACTOR);
    /* Rewritten only where fb_results_finish() will rename it: a run that measured nothing
     * new leaves the results file exactly as it was. */
    if (res->count == 0 || (!res->wrote && strcmp(res->path, res->partial_path) != 0))
        return FB_OK;
    rc = fb_csv_write(res->partial_path, res->meta, res->n_meta, res->records, res->count,
                      err);
    if (rc == FB_OK)
        res->wrote = true;
    return rc;
}

/* Makes the directory entry of a rename durable; best effort (see csv.c). */
static void sync_dir_of(const char *path)
{
    char dir[FB_PATH_MAX];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash == path ? 1 : slash - path) : 1,
             slash ? path : ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        (void)close(fd);
    }
}

int fb_results_finish(struct fb_results *res, struct fb_error *err)
{
    if (!res->wrote && strcmp(res->path, res->partial_path) != 0)
        return FB_OK; /* nothing measured and nothing unfinished: the results stay as they are */
    char target[FB_CSV_PATH_MAX];
    int rc = fb_csv_output_target(res->final_path, target, sizeof target, err);
    if (rc != FB_OK)
        return rc;
    if (rename(res->partial_path, target) != 0)
        return fb_fail(err, FB_ERR_RUNTIME, "cannot rename '%s' to '%s': %s (the results are "
                       "in the first)", res->partial_path, target, strerror(errno));
    sync_dir_of(target);
    return FB_OK;
}

/* How much of a file is read to tell a results file from another: the metadata lines of a
 * results file are about 40 lines of at most a few hundred bytes. */
#define RESULTS_SNIFF_BYTES 65536

/* Whether text (n bytes, the start of a file) starts as a results file: among its leading
 * '#' lines (blank lines skipped) one is "# fusebench:" (fusebench and the torch peer write it
 * first), or its first other line is a CSV header starting "backend," (the schema's first
 * column: a file from before the metadata, or written by hand). */
static bool looks_like_results(const char *text, size_t n)
{
    for (size_t at = 0; at < n;) {
        const char *line = text + at;
        const char *nl = memchr(line, '\n', n - at);
        size_t len = nl ? (size_t)(nl - line) : n - at;
        at += len + 1;
        if (len > 0 && line[len - 1] == '\r')
            len--;
        if (len == 0)
            continue;
        if (line[0] == '#') {
            if (len >= 12 && strncmp(line, "# fusebench:", 12) == 0)
                return true;
            continue;
        }
        return len >= 8 && strncmp(line, "backend,", 8) == 0;
    }
    return false;
}

/* What the regular file at path (or nothing) is. FB_ERR_USAGE when it cannot be read. */
static int results_existing(const char *path, enum fb_results_existing *kind,
                            struct fb_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        *kind = FB_RESULTS_NEW;
        return FB_OK;
    }
    if (fd < 0)
        return fb_fail(err, FB_ERR_USAGE, "cannot read it to tell whether it is a fusebench "
                       "results file: %s", strerror(errno));
    char *text = malloc(RESULTS_SNIFF_BYTES);
    size_t n = 0;
    int read_errno = 0;
    while (text && n < RESULTS_SNIFF_BYTES) {
        ssize_t got = read(fd, text + n, RESULTS_SNIFF_BYTES - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            read_errno = got < 0 ? errno : 0;
            break;
        }
        n += (size_t)got;
    }
    close(fd);
    int rc = FB_OK;
    if (!text)
        rc = fb_fail(err, FB_ERR_RUNTIME, "out of memory reading its start");
    else if (read_errno)
        rc = fb_fail(err, FB_ERR_USAGE, "cannot read it to tell whether it is a fusebench "
                     "results file: %s", strerror(read_errno));
    else
        *kind = n == 0 ? FB_RESULTS_EMPTY : looks_like_results(text, n) ? FB_RESULTS_OWN
                                                                          : FB_RESULTS_FOREIGN;
    free(text);
    return rc;
}

/* The file at path (the results target or its .partial) may be replaced: nothing there, an
 * empty file, a results file, or anything with --force. `role` says what path is for. */
static int check_replaceable(const char *path, const char *role, bool force,
                             enum fb_results_existing *kind, struct fb_error *err)
{
    char shown[FB_PATH_MAX];
    fb_text_escape(shown, sizeof shown, path);
    struct fb_error why;
    int rc = results_existing(path, kind, &why);
    if (rc != FB_OK && !force)
        return fb_fail(err, rc, "%s %s: %s; --force replaces it unread", role, shown, why.msg);
    if (rc != FB_OK)
        *kind = FB_RESULTS_FOREIGN;
    if (*kind == FB_RESULTS_FOREIGN && !force)
        return fb_fail(err, FB_ERR_USAGE, "%s %s: is not a fusebench results file (no \"# "
                       "fusebench:\" line, no \"backend,...\" header) and not empty; refusing "
                       "to replace it: choose another --output, or add --force to replace it",
                       role, shown);
    return FB_OK;
}

int fb_results_judge(const char *path, bool force, struct fb_results_target *t,
                     struct fb_error *err)
{
    memset(t, 0, sizeof *t);
    int rc = fb_output_name_check(path, "results file", err);
    if (rc == FB_OK) {
        rc = fb_csv_output_target(path, t->path, sizeof t->path, err);
        if (rc != FB_OK) /* it names the path */
            fb_text_escape_in_place(err->msg, sizeof err->msg);
    }
    if (rc == FB_OK && strcmp(t->path, path) != 0) /* a symlink to "dir/" or "." */
        rc = fb_output_name_check(t->path, "results file (a symlink's target)", err);
    if (rc != FB_OK)
        return rc;
    char partial[FB_PATH_MAX + 16], shown[FB_PATH_MAX];
    snprintf(partial, sizeof partial, "%s.partial", t->path);
    struct stat st;
    if (lstat(partial, &st) == 0 && !S_ISREG(st.st_mode))
        return fb_fail(err, FB_ERR_USAGE, "%s: not a regular file; it is where the results of "
                       "an unfinished run go: remove it or choose another --output",
                       fb_text_escape(shown, sizeof shown, partial));
    enum fb_results_existing partial_kind;
    rc = check_replaceable(t->path, "results file", force, &t->existing, err);
    if (rc == FB_OK)
        rc = check_replaceable(partial, "unfinished results file", force, &partial_kind, err);
    if (rc != FB_OK)
        return rc;
    char dir[FB_PATH_MAX];
    fb_output_dir_of(t->path, dir, sizeof dir);
    rc = fb_output_dir_check(dir, "results directory", t->make_dir, sizeof t->make_dir, err);
    if (rc != FB_OK) {
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len, " (the results file %s, its .partial "
                 "and .lock go there)", fb_text_escape(shown, sizeof shown, t->path));
    }
    return rc;
}

int fb_results_prepare(const struct fb_results_target *t, struct fb_error *err)
{
    if (!t->make_dir[0])
        return FB_OK;
    int rc = fb_csv_make_parent_dirs(t->path, err);
    if (rc != FB_OK) {
        fb_text_escape_in_place(err->msg, sizeof err->msg); /* it names the directory */
        return FB_ERR_USAGE;
    }
    return FB_OK;
}

/* Whether name is prefix + ".tmp." + 6 characters: a temporary file of fb_csv_write. */
static bool is_temporary_of(const char *name, const char *prefix)
{
    size_t len = strlen(prefix);
    return strncmp(name, prefix, len) == 0 && strncmp(name + len, ".tmp.", 5) == 0 &&
           strlen(name + len + 5) == 6;
}

/* Removes the temporary files a killed run left beside target (a kill -9 in the middle of a
 * write leaves "<target>.tmp.XXXXXX" or "<target>.partial.tmp.XXXXXX", truncated). Only for
 * the lock holder: nobody else writes these names. */
static void remove_stale_temporaries(const char *target)
{
    char dir[FB_PATH_MAX], partial[FB_PATH_MAX], path[2 * FB_PATH_MAX];
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash == target ? 1 : slash - target) : 1,
             slash ? target : ".");
    snprintf(partial, sizeof partial, "%s.partial", base);
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_temporary_of(e->d_name, base) && !is_temporary_of(e->d_name, partial))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            (void)unlink(path);
    }
    closedir(d);
}

/* The results locks this process holds (fb_results_lock's list), and the mutex that guards
 * it. Process-wide by nature: a record lock belongs to the process, so a second session of
 * one process would get it again, and closing any descriptor of the lock file (the second
 * session's, refused or done) would release the first session's lock. So a lock file held
 * here is refused before it is opened again. */
static struct fb_results_lock *held_locks;
static pthread_mutex_t held_locks_mutex = PTHREAD_MUTEX_INITIALIZER;

static bool held_here(const struct stat *st)
{
    for (const struct fb_results_lock *l = held_locks; l; l = l->next)
        if (l->dev == st->st_dev && l->ino == st->st_ino)
            return true;
    return false;
}

/* Why the file st at path is no lock file to write into, or NULL: not a regular file, or one
 * with other names (a hard link planted there: truncating it and writing the pid would damage
 * the file it names). */
static const char *not_a_lock_file(const struct stat *st)
{
    if (!S_ISREG(st->st_mode))
        return "the lock file is not a regular file";
    if (st->st_nlink != 1)
        return "the lock file has other names (a hard link); fusebench never writes into it: "
               "remove it";
    return NULL;
}

static int this_process_holds(const struct fb_results_lock *lock, const char *target,
                              struct fb_error *err)
{
    return fb_fail(err, FB_ERR_USAGE, "%s: this process is writing these results already "
                   "(another session); close it or choose another output (lock: %s)", target,
                   lock->path);
}

/* fb_results_lock under held_locks_mutex. */
static int take_lock(struct fb_results_lock *lock, const char *target, struct fb_error *err)
{
    /* A few tries: a run that finishes unlinks its lock file, and a file we locked after it
     * was unlinked locks nothing (checked below by comparing inodes). */
    for (int attempt = 0; attempt < 20; attempt++) {
        struct stat held, named;
        if (lstat(lock->path, &named) == 0) { /* judged before it is opened: see held_locks */
            if (held_here(&named))
                return this_process_holds(lock, target, err);
            if (S_ISREG(named.st_mode) && not_a_lock_file(&named))
                return fb_fail(err, FB_ERR_USAGE, "%s: %s", lock->path,
                               not_a_lock_file(&named));
        }
        int fd = open(lock->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
        if (fd < 0)
            return fb_fail(err, FB_ERR_USAGE, "%s: cannot create the lock file: %s", lock->path,
                           strerror(errno));
        const char *why = fstat(fd, &held) != 0 ? "cannot stat the lock file"
                                                 : not_a_lock_file(&held);
        if (why || held_here(&held)) { /* replaced since the lstat */
            close(fd);
            return why ? fb_fail(err, FB_ERR_USAGE, "%s: %s", lock->path, why)
                       : this_process_holds(lock, target, err);
        }
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        if (fcntl(fd, F_SETLK, &fl) != 0) {
            int e = errno;
            struct flock who = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
            bool known = (e == EACCES || e == EAGAIN) && fcntl(fd, F_GETLK, &who) == 0;
            close(fd);
            if (known && who.l_type == F_UNLCK)
                continue; /* released meanwhile: try again */
            if (e == EACCES || e == EAGAIN)
                return fb_fail(err, FB_ERR_USAGE,
                               "%s: another fusebench run (pid %ld) is writing these results; "
                               "wait for it to finish or choose another --output (lock: %s)",
                               target, known ? (long)who.l_pid : -1L, lock->path);
            return fb_fail(err, FB_ERR_USAGE, "%s: cannot lock: %s", lock->path, strerror(e));
        }
        if (stat(lock->path, &named) == 0 && named.st_dev == held.st_dev &&
            named.st_ino == held.st_ino) {
            if (ftruncate(fd, 0) == 0)
                dprintf(fd, "%ld\n", (long)getpid());
            lock->fd = fd;
            lock->dev = held.st_dev;
            lock->ino = held.st_ino;
            lock->next = held_locks;
            held_locks = lock;
            remove_stale_temporaries(target);
            return FB_OK;
        }
        close(fd);
    }
    return fb_fail(err, FB_ERR_USAGE, "%s: cannot take the lock (it keeps changing hands)",
                   lock->path);
}

int fb_results_lock(struct fb_results_lock *lock, const char *target, struct fb_error *err)
{
    lock->fd = -1;
    lock->next = NULL;
    snprintf(lock->path, sizeof lock->path, "%s.lock", target);
    pthread_mutex_lock(&held_locks_mutex);
    const int rc = take_lock(lock, target, err);
    pthread_mutex_unlock(&held_locks_mutex);
    return rc;
}

void fb_results_unlock(struct fb_results_lock *lock)
{
    if (lock->fd < 0)
        return;
    pthread_mutex_lock(&held_locks_mutex);
    for (struct fb_results_lock **l = &held_locks; *l; l = &(*l)->next)
        if (*l == lock) {
            *l = lock->next;
            break;
        }
    (void)unlink(lock->path); /* while still held: see fb_results_lock's inode check */
    (void)close(lock->fd);
    lock->fd = -1;
    pthread_mutex_unlock(&held_locks_mutex);
}

void fb_results_free(struct fb_results *res)
{
    fb_point_index_free(&res->index);
    free(res->records);
    res->records = NULL;
    res->count = res->capacity = 0;
}
