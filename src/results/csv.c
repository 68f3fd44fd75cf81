/* CSV writer: the schema table, the atomic write, and mkdir -p for the output's directory. */
#include "results/csv.h"
#include "results/csv_schema.h"

#include "results/atomic_file.h"

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
    /* appended later: older files without them still load (measure/pairing.h) */
    {"role", FB_CSV_TEXT, FIELD(role), 0},
    {"pair", FB_CSV_TEXT, FIELD(pair), 0},
    {"speedup", FB_CSV_REAL, FIELD(speedup), 0},
    {"preempted", FB_CSV_REAL, FIELD(preempted), 0},
    {"stores", FB_CSV_TEXT, FIELD(stores), 0},
    {"host_launches", FB_CSV_COUNT, FIELD(host_launches), 0},
    {"mirror", FB_CSV_TEXT, FIELD(mirror), 0},
    {"ours_ratio", FB_CSV_REAL, FIELD(ours_ratio), 0},
    {"ours_ratio_lo", FB_CSV_REAL, FIELD(ours_ratio_lo), 0},
    {"ours_ratio_hi", FB_CSV_REAL, FIELD(ours_ratio_hi), 0},
    {"speedup_lo", FB_CSV_REAL, FIELD(speedup_lo), 0},
    {"speedup_hi", FB_CSV_REAL, FIELD(speedup_hi), 0},
    {"speedup_rounds", FB_CSV_COUNT, FIELD(speedup_rounds), 0},
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

/* The directory part of path ("." when there is none), into out. */
static void dir_of(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, size, ".");
    else if (slash == path)
        snprintf(out, size, "/");
    else
        snprintf(out, size, "%.*s", (int)(slash - path), path);
}

int fb_csv_output_target(const char *path, char *out, size_t size, struct fb_error *err)
{
    char cur[FB_CSV_PATH_MAX], link[FB_CSV_PATH_MAX], dir[FB_CSV_PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
        return fb_fail(err, FB_ERR_USAGE, "%s: path too long", path);
    /* 40 hops, the kernel's own limit (ELOOP) for a path's symlinks */
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            if (errno == ENOENT) /* a new file (parent directories are made later) */
                break;
            return fb_fail(err, FB_ERR_USAGE, "%s: cannot write the results here: %s", cur,
                           strerror(errno));
        }
        if (S_ISREG(st.st_mode))
            break;
        if (!S_ISLNK(st.st_mode))
            return fb_fail(err, FB_ERR_USAGE,
                           "%s%s%s is %s; the results must go to a regular file (or a new one)",
                           cur, strcmp(cur, path) ? ", where the symlink " : "",
                           strcmp(cur, path) ? path : "", fb_file_kind(&st));
        if (hops >= 40)
            return fb_fail(err, FB_ERR_USAGE, "%s: too many levels of symbolic links", path);
        ssize_t len = readlink(cur, link, sizeof link - 1);
        if (len < 0)
            return fb_fail(err, FB_ERR_USAGE, "%s: cannot read the symlink: %s", cur,
                           strerror(errno));
        link[len] = '\0';
        if (link[0] == '/') {
            snprintf(cur, sizeof cur, "%s", link);
        } else { /* relative to the link's own directory */
            dir_of(cur, dir, sizeof dir);
            if (snprintf(cur, sizeof cur, "%s/%s", dir, link) >= (int)sizeof cur)
                return fb_fail(err, FB_ERR_USAGE, "%s: path too long", path);
        }
    }
    if (snprintf(out, size, "%s", cur) >= (int)size)
        return fb_fail(err, FB_ERR_USAGE, "%s: path too long", path);
    return FB_OK;
}

/* What fb_csv_write hands the atomic writer. */
struct csv_content {
    const struct fb_csv_meta *meta;
    size_t n_meta;
    const struct fb_record *records;
    size_t n_records;
};

static int write_content(FILE *f, void *ctx)
{
    const struct csv_content *c = ctx;
    struct out o = {f, 0};
    out_file(&o, c->meta, c->n_meta, c->records, c->n_records);
    return o.errnum;
}

int fb_csv_write(const char *path, const struct fb_csv_meta *meta, size_t n_meta,
                 const struct fb_record *records, size_t n_records, struct fb_error *err)
{
    int rc = check_meta_keys(path, meta, n_meta, err);
    if (rc != FB_OK)
        return rc;
    char target[FB_CSV_PATH_MAX];
    rc = fb_csv_output_target(path, target, sizeof target, err);
    if (rc != FB_OK)
        return rc;
    struct csv_content content = {meta, n_meta, records, n_records};
    return fb_atomic_write(target, write_content, &content, "the results", err);
}
