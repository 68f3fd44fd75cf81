/* CSV writer: the schema table, the atomic write, and mkdir -p for the output's directory. */
#include "output/csv.h"
#include "output/csv_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIELD(f) offsetof(struct fb_record, f), sizeof(((struct fb_record *)0)->f)

/* The order here is the file's column order (see csv.h). */
const struct fb_csv_column fb_csv_schema[] = {
    {"backend", FB_CSV_TEXT, FIELD(backend), 1},
    {"device", FB_CSV_TEXT, FIELD(device), 0},
    {"variant", FB_CSV_TEXT, FIELD(variant), 1},
    {"dtype", FB_CSV_TEXT, FIELD(dtype), 1},
    {"n", FB_CSV_COUNT, FIELD(n), 1},
    {"launches", FB_CSV_COUNT, FIELD(launches), 0},
    {"bytes_model", FB_CSV_COUNT, FIELD(bytes_model), 0},
    {"reps", FB_CSV_COUNT, FIELD(reps), 0},
    {"batch", FB_CSV_COUNT, FIELD(batch), 0},
    {"time_median_s", FB_CSV_REAL, FIELD(time_median_s), 0},
    {"time_min_s", FB_CSV_REAL, FIELD(time_min_s), 0},
    {"time_max_s", FB_CSV_REAL, FIELD(time_max_s), 0},
    {"time_p10_s", FB_CSV_REAL, FIELD(time_p10_s), 0},
    {"time_p90_s", FB_CSV_REAL, FIELD(time_p90_s), 0},
    {"noise", FB_CSV_REAL, FIELD(noise), 0},
    {"bandwidth_gbps", FB_CSV_BANDWIDTH, FIELD(bandwidth_gbps), 0},
    {"copy_fraction", FB_CSV_REAL, FIELD(copy_fraction), 0},
    {"kernel_time_s", FB_CSV_REAL, FIELD(kernel_time_s), 0},
    {"launch_overhead_s", FB_CSV_REAL, FIELD(launch_overhead_s), 0},
    {"dram_read_bytes", FB_CSV_COUNT, FIELD(dram_read_bytes), 0},
    {"dram_write_bytes", FB_CSV_COUNT, FIELD(dram_write_bytes), 0},
    {"l2_bytes", FB_CSV_COUNT, FIELD(l2_bytes), 0},
    {"dram_bytes_per_element", FB_CSV_REAL, FIELD(dram_bytes_per_element), 0},
    {"cache", FB_CSV_TEXT, FIELD(cache), 0},
    {"verified", FB_CSV_BOOL, FIELD(verified), 0},
    {"status", FB_CSV_STATUS, FIELD(status), 0},
    {"reason", FB_CSV_TEXT, FIELD(reason), 0},
};
const size_t fb_csv_schema_count = sizeof fb_csv_schema / sizeof fb_csv_schema[0];

size_t fb_csv_column_count(void)
{
    return fb_csv_schema_count;
}

const char *fb_csv_column_name(size_t i)
{
    return i < fb_csv_schema_count ? fb_csv_schema[i].name : NULL;
}

/* ---- mkdir -p ---------------------------------------------------------------------------- */

/* Makes directory `dir` unless it already is one. */
static int make_dir(const char *dir, const char *for_path, struct fb_error *err)
{
    if (mkdir(dir, 0777) == 0)
        return FB_OK;
    int e = errno;
    struct stat st;
    if (e == EEXIST) {
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return FB_OK;
        return fb_fail(err, FB_ERR_RUNTIME,
                       "cannot create directory '%s' for '%s': it exists and is not a directory",
                       dir, for_path);
    }
    return fb_fail(err, FB_ERR_RUNTIME, "cannot create directory '%s' for '%s': %s", dir,
                   for_path, strerror(e));
}

int fb_csv_make_parent_dirs(const char *path, struct fb_error *err)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path) /* "x.csv" or "/x.csv": the directory exists */
        return FB_OK;
    size_t len = (size_t)(slash - path);
    char *dir = malloc(len + 1);
    if (!dir)
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory creating directories for '%s'", path);
    memcpy(dir, path, len);
    dir[len] = '\0';
    int rc = FB_OK;
    /* Every prefix ending before a '/', shortest first, then dir itself. Empty components
     * ("a//b", a leading '/') and "." are skipped by mkdir's EEXIST. */
    for (char *p = dir + 1; rc == FB_OK && *p; p++) {
        if (*p != '/' || p[-1] == '/')
            continue;
        *p = '\0';
        rc = make_dir(dir, path, err);
        *p = '/';
    }
    if (rc == FB_OK)
        rc = make_dir(dir, path, err);
    free(dir);
    return rc;
}

/* ---- writer ------------------------------------------------------------------------------ */

/* Output with a sticky first error, so formatting code stays linear and no failed write goes
 * unnoticed: after the first failure nothing more is written and errno is kept. */
struct out {
    FILE *f;
    int errnum; /* 0, or the errno of the first failed write */
};

static void out_printf(struct out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void out_printf(struct out *o, const char *fmt, ...)
{
    if (o->errnum)
        return;
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    int rc = vfprintf(o->f, fmt, ap);
    va_end(ap);
    if (rc < 0)
        o->errnum = errno ? errno : EIO;
}

static void out_char(struct out *o, char c)
{
    if (o->errnum)
        return;
    errno = 0;
    if (fputc(c, o->f) == EOF)
        o->errnum = errno ? errno : EIO;
}

/* A text cell: quoted (RFC 4180: enclosed in '"', inner '"' doubled) when it holds ',' or '"';
 * CR and LF written as spaces so a row is one line. */
static void out_text(struct out *o, const char *s)
{
    bool quote = strpbrk(s, ",\"") != NULL;
    if (quote)
        out_char(o, '"');
    for (; *s; s++) {
        if (*s == '"')
            out_char(o, '"');
        out_char(o, (*s == '\n' || *s == '\r') ? ' ' : *s);
    }
    if (quote)
        out_char(o, '"');
}

static void out_cell(struct out *o, const struct fb_csv_column *c, const struct fb_record *r)
{
    const char *field = (const char *)r + c->offset;
    switch (c->kind) {
    case FB_CSV_TEXT:
        out_text(o, field);
        break;
    case FB_CSV_COUNT: {
        int64_t v;
        memcpy(&v, field, sizeof v);
        if (v >= 0)
            out_printf(o, "%" PRId64, v);
        break;
    }
    case FB_CSV_REAL:
    case FB_CSV_BANDWIDTH: {
        double v;
        memcpy(&v, field, sizeof v);
        if (!isnan(v))
            out_printf(o, c->kind == FB_CSV_REAL ? "%.9g" : "%.4f", v);
        break;
    }
    case FB_CSV_BOOL: {
        bool v;
        memcpy(&v, field, sizeof v);
        out_char(o, v ? '1' : '0');
        break;
    }
    case FB_CSV_STATUS: {
        enum fb_point_status v;
        memcpy(&v, field, sizeof v);
        out_printf(o, "%s", fb_point_status_name(v));
        break;
    }
    }
}

static void out_meta(struct out *o, const struct fb_csv_meta *m)
{
    out_printf(o, "# %s:", m->key);
    if (m->value[0]) {
        out_char(o, ' ');
        for (const char *s = m->value; *s; s++)
            out_char(o, (*s == '\n' || *s == '\r') ? ' ' : *s);
    }
    out_char(o, '\n');
}

static void out_file(struct out *o, const struct fb_csv_meta *meta, size_t n_meta,
                     const struct fb_record *records, size_t n_records)
{
    for (size_t i = 0; i < n_meta; i++)
        out_meta(o, &meta[i]);
    for (size_t c = 0; c < fb_csv_schema_count; c++)
        out_printf(o, "%s%s", c ? "," : "", fb_csv_schema[c].name);
    out_char(o, '\n');
    for (size_t i = 0; i < n_records; i++) {
        for (size_t c = 0; c < fb_csv_schema_count; c++) {
            if (c)
                out_char(o, ',');
            out_cell(o, &fb_csv_schema[c], &records[i]);
        }
        out_char(o, '\n');
    }
}

static int check_meta_keys(const char *path, const struct fb_csv_meta *meta, size_t n_meta,
                           struct fb_error *err)
{
    for (size_t i = 0; i < n_meta; i++) {
        const char *k = meta[i].key;
        if (!k[0] || strpbrk(k, ": \t\r\n"))
            return fb_fail(err, FB_ERR_USAGE,
                           "%s: metadata key '%s' must be non-empty, without ':' or spaces",
                           path, k);
    }
    return FB_OK;
}

/* After the rename, make the directory entry durable too. Best effort on purpose: the new file
 * is already in place and complete, and some file systems refuse fsync on a directory
 * (EINVAL), which must not turn a good write into a failure. */
static void sync_parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        (void)close(fd);
    }
    free(dir);
}

int fb_csv_write(const char *path, const struct fb_csv_meta *meta, size_t n_meta,
                 const struct fb_record *records, size_t n_records, struct fb_error *err)
{
    int rc = check_meta_keys(path, meta, n_meta, err);
    if (rc != FB_OK)
        return rc;

    size_t len = strlen(path);
    char *tmp = malloc(len + sizeof ".tmp");
    if (!tmp)
        return fb_fail(err, FB_ERR_RUNTIME, "%s: out of memory", path);
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp", sizeof ".tmp");

    struct out o = {fopen(tmp, "w"), 0};
    if (!o.f) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot create '%s': %s", tmp, strerror(errno));
        goto error;
    }
    out_file(&o, meta, n_meta, records, n_records);
    if (o.errnum) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot write '%s': %s", tmp, strerror(o.errnum));
        goto error;
    }
    /* Buffered data reaches the kernel at fflush (this is where a full disk usually shows),
     * the disk at fsync: a crash after the rename must not leave an empty results file. */
    if (fflush(o.f) != 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot write '%s': %s", tmp, strerror(errno));
        goto error;
    }
    if (fsync(fileno(o.f)) != 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot sync '%s': %s", tmp, strerror(errno));
        goto error;
    }
    FILE *f = o.f;
    o.f = NULL;
    if (fclose(f) != 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot close '%s': %s", tmp, strerror(errno));
        goto error;
    }
    if (rename(tmp, path) != 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot rename '%s' to '%s': %s", tmp, path,
                     strerror(errno));
        goto error;
    }
    free(tmp);
    sync_parent_dir(path);
    return FB_OK;

error:
    if (o.f)
        (void)fclose(o.f);
    /* Removes our partial file; when fopen failed this fails harmlessly (nothing, or a
     * directory, is there). */
    (void)unlink(tmp);
    free(tmp);
    return rc;
}
