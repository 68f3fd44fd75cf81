#include "app/results.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fb_build_config.h"
#include "git_version.h"

__attribute__((format(printf, 3, 4))) static void add_meta(struct fb_results *res, const char *key, const char *fmt, ...)
{
    if (res->n_meta >= FB_RESULTS_MAX_META)
        return;
    struct fb_csv_meta *m = &res->meta[res->n_meta++];
    snprintf(m->key, sizeof m->key, "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->value, sizeof m->value, fmt, ap);
    va_end(ap);
}

void fb_results_init(struct fb_results *res, const char *path, const struct fb_config *cfg,
                     const char *backend, const struct fb_device_info *dev, uint64_t seed,
                     const char *counters_status)
{
    memset(res, 0, sizeof *res);
    snprintf(res->path, sizeof res->path, "%s", path);
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
    add_meta(res, "config", "%s", cfg->path);
    add_meta(res, "config_hash", "%016" PRIx64, cfg->content_hash);
    add_meta(res, "label", "%s", cfg->label);
    add_meta(res, "cache_mode", "%s", fb_cache_mode_name(cfg->cache));
    add_meta(res, "seed", "%" PRIu64, seed);
    add_meta(res, "counters", "%s", counters_status);
    add_meta(res, "time", "%s", "time_*_s are seconds per call: medians of samples, each a "
                                "batch of back-to-back calls divided by the batch size");
}

int fb_results_load(struct fb_results *res, size_t *loaded, struct fb_error *err)
{
    *loaded = 0;
    if (access(res->path, F_OK) != 0)
        return FB_OK;
    struct fb_csv_table table;
    int rc = fb_csv_read(res->path, &table, err);
    if (rc != FB_OK)
        return rc;
    free(res->records);
    res->records = table.records; /* the store takes the rows over */
    res->count = res->capacity = table.n_records;
    table.records = NULL;
    table.n_records = 0;
    fb_csv_table_free(&table);
    *loaded = res->count;
    if (res->count > 0) /* the metadata above describes this run, not the kept rows */
        add_meta(res, "resumed", "%zu rows kept from an earlier run of this file", res->count);
    return FB_OK;
}

bool fb_results_has_ok(const struct fb_results *res, const char *backend, const char *device,
                       const char *variant, const char *dtype, int64_t n, const char *cache)
{
    const struct fb_record *r =
        fb_csv_find_record(res->records, res->count, backend, device, variant, dtype, n);
    return r && r->status == FB_POINT_OK && strcmp(r->cache, cache) == 0;
}

int fb_results_add(struct fb_results *res, const struct fb_record *r, struct fb_error *err)
{
    if (res->count == res->capacity) {
        size_t capacity = res->capacity ? 2 * res->capacity : 64;
        struct fb_record *grown = realloc(res->records, capacity * sizeof *grown);
        if (!grown)
            return fb_fail(err, FB_ERR_RUNTIME, "out of memory for %zu results", capacity);
        res->records = grown;
        res->capacity = capacity;
    }
    struct fb_record *added = &res->records[res->count++];
    *added = *r;
    if (added->status == FB_POINT_OK) {
        const struct fb_record *copy = fb_csv_find_record(
            res->records, res->count, r->backend, r->device, "copy", r->dtype, r->n);
        if (copy && copy->status == FB_POINT_OK && copy->bandwidth_gbps > 0)
            added->copy_fraction = added->bandwidth_gbps / copy->bandwidth_gbps;
    }
    return fb_csv_write(res->path, res->meta, res->n_meta, res->records, res->count, err);
}

int fb_results_check_writable(const char *path, struct fb_error *err)
{
    int rc = fb_csv_make_parent_dirs(path, err);
    if (rc != FB_OK)
        return FB_ERR_USAGE; /* err names the directory and the path */
    char probe[FB_PATH_MAX + 8];
    snprintf(probe, sizeof probe, "%s.tmp", path);
    FILE *f = fopen(probe, "w");
    if (!f)
        return fb_fail(err, FB_ERR_USAGE, "%s: cannot write the results here: %s", path,
                       strerror(errno));
    fclose(f);
    remove(probe);
    return FB_OK;
}

void fb_results_free(struct fb_results *res)
{
    free(res->records);
    res->records = NULL;
    res->count = res->capacity = 0;
}
