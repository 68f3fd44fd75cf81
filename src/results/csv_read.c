/* CSV reader (for --resume, peers and tests): columns by header name, RFC 4180 quotes within a
 * line, errors as "path:line: ...". */
#include "results/csv.h"
#include "results/csv_schema.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "common/text.h"

/* Reading state: the open file, where we are, and the growing arrays. */
struct reader {
    const char *path;
    FILE *f;
    long line_no;
    char *line;
    size_t line_cap;
    char **fields; /* pointers into line after split_fields() */
    size_t n_fields, fields_cap;
    int *col_of_field; /* header field index -> fb_csv_schema index, or -1 (ignored) */
    size_t n_header;
    bool has_status, has_verified, has_cache; /* columns an older schema may lack */
    struct fb_csv_table *t;
    size_t meta_cap, records_cap;
    size_t meta_bytes; /* key and value bytes of the metadata kept so far */
    size_t max_records; /* rows past this are refused */
    struct fb_error *err;
};

static int bad(struct reader *r, const char *what, const char *detail)
{
    return fb_fail(r->err, FB_ERR_USAGE, "%s:%ld: %s%s", r->path, r->line_no, what, detail);
}

static int oom(struct reader *r)
{
    return fb_fail(r->err, FB_ERR_RUNTIME, "%s:%ld: out of memory", r->path, r->line_no);
}

/* Grows *arr (of elem-sized items) so that index `need - 1` fits. */
static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16, bytes;
    while (n < need)
        if (!fb_mul_size(n, 2, &n))
            return -1;
    if (!fb_mul_size(n, elem, &bytes))
        return -1;
    void *p = realloc(*arr, bytes);
    if (!p)
        return -1;
    *arr = p;
    *cap = n;
    return 0;
}

/* Splits r->line in place into fields: separators are ',', a field that starts with '"' is
 * quoted until the next lone '"' ("" inside stands for one '"') and must be followed by ',' or
 * the end of the line. A '"' inside an unquoted field is taken literally. */
static int split_fields(struct reader *r)
{
    r->n_fields = 0;
    char *in = r->line;
    for (;;) {
        if (grow((void **)&r->fields, &r->fields_cap, r->n_fields + 1, sizeof *r->fields))
            return oom(r);
        char *start = in, *outp = in;
        r->fields[r->n_fields++] = start;
        if (*in == '"') {
            in++;
            for (;;) {
                if (*in == '\0')
                    return bad(r, "unterminated quoted field", "");
                if (*in == '"') {
                    if (in[1] != '"')
                        break;
                    in++;
                }
                *outp++ = *in++;
            }
            in++; /* the closing quote */
            if (*in != ',' && *in != '\0')
                return bad(r, "text after a closing quote", "");
        } else {
            while (*in && *in != ',')
                *outp++ = *in++;
        }
        char sep = *in;
        *outp = '\0'; /* outp <= in: unescaping only shrinks */
        if (sep == '\0')
            return FB_OK;
        in++;
    }
}

/* Reads the next line into r->line without its line break. Returns 1, 0 at end of file, or a
 * negative error. */
static int next_line(struct reader *r)
{
    errno = 0;
    ssize_t len = getline(&r->line, &r->line_cap, r->f);
    if (len < 0) {
        if (ferror(r->f))
            return fb_fail(r->err, FB_ERR_RUNTIME, "%s:%ld: read error: %s", r->path,
                           r->line_no + 1, strerror(errno ? errno : EIO));
        return 0;
    }
    r->line_no++;
    /* Text that is not UTF-8 read as lines would fail later with a message about its
     * content ("header lacks the required column backend"): say what the file is instead. */
    if (r->line_no == 1 && len >= 2 &&
        (memcmp(r->line, "\xFF\xFE", 2) == 0 || memcmp(r->line, "\xFE\xFF", 2) == 0))
        return bad(r, "the file is UTF-16 (its byte order mark says so): save it as UTF-8", "");
    if (strlen(r->line) != (size_t)len)
        return bad(r, "a NUL byte: not a text file in UTF-8 (UTF-16? save it as UTF-8)", "");
    while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
        r->line[--len] = '\0';
    /* Only a line feed ends a line (a CR before it is dropped above): a CR inside one means
     * the file's line breaks are CR alone (classic Mac OS), and it reads as one long line. */
    if (strchr(r->line, '\r'))
        return bad(r, "a carriage return inside a line: the file's line breaks are CR only; "
                      "convert them to LF (e.g. tr '\\r' '\\n')", "");
    /* A UTF-8 byte order mark, as spreadsheet programs save it. */
    if (r->line_no == 1 && strncmp(r->line, "\xEF\xBB\xBF", 3) == 0)
        memmove(r->line, r->line + 3, (size_t)len - 2);
    return 1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        s[--len] = '\0';
    return s;
}

/* "# key: value" -> a metadata pair; other '#' lines are comments. */
static int parse_meta(struct reader *r)
{
    char *body = r->line + 1;
    char *colon = strchr(body, ':');
    if (!colon)
        return FB_OK;
    *colon = '\0';
    char *key = trim(body), *value = trim(colon + 1);
    if (!key[0] || strpbrk(key, " \t"))
        return FB_OK;
    struct fb_csv_table *t = r->t;
    if (strlen(key) >= sizeof t->meta[0].key)
        return bad(r, "metadata key too long: ", key);
    if (strlen(value) >= sizeof t->meta[0].value)
        return bad(r, "metadata value too long for key ", key);
    /* Each pair takes ~1 KB in memory whatever its length and readers look keys up linearly:
     * a flood of `# k: v` lines would cost gigabytes and minutes, as rows would without
     * their cap. */
    if (t->n_meta >= FB_CSV_MAX_META)
        return fb_fail(r->err, FB_ERR_USAGE, "%s:%ld: more than %d metadata lines (`# key: "
                       "value`; the most a results file may have)", r->path, r->line_no,
                       FB_CSV_MAX_META);
    r->meta_bytes += strlen(key) + strlen(value);
    if (r->meta_bytes > FB_CSV_MAX_META_BYTES)
        return fb_fail(r->err, FB_ERR_USAGE, "%s:%ld: more than %d bytes of metadata (`# key: "
                       "value` lines; the most a results file may have)", r->path, r->line_no,
                       FB_CSV_MAX_META_BYTES);
    if (grow((void **)&t->meta, &r->meta_cap, t->n_meta + 1, sizeof *t->meta))
        return oom(r);
    struct fb_csv_meta *m = &t->meta[t->n_meta++];
    strcpy(m->key, key);
    strcpy(m->value, value);
    return FB_OK;
}

static int parse_header(struct reader *r)
{
    int rc = split_fields(r);
    if (rc != FB_OK)
        return rc;
    r->n_header = r->n_fields;
    size_t bytes;
    r->col_of_field = fb_mul_size(r->n_header, sizeof *r->col_of_field, &bytes) ? malloc(bytes)
                                                                               : NULL;
    if (!r->col_of_field)
        return oom(r);
    bool *seen = calloc(fb_csv_schema_count, sizeof *seen);
    if (!seen)
        return oom(r);
    rc = FB_OK;
    for (size_t i = 0; i < r->n_header; i++) {
        const char *name = trim(r->fields[i]);
        r->col_of_field[i] = -1;
        for (size_t c = 0; c < fb_csv_schema_count; c++) {
            if (strcmp(name, fb_csv_schema[c].name) != 0)
                continue;
            if (seen[c] && rc == FB_OK)
                rc = bad(r, "duplicate column in header: ", name);
            seen[c] = true;
            r->col_of_field[i] = (int)c;
        }
    }
    for (size_t c = 0; c < fb_csv_schema_count && rc == FB_OK; c++) {
        if (fb_csv_schema[c].required && !seen[c])
            rc = bad(r, "header lacks the required column ", fb_csv_schema[c].name);
        if (strcmp(fb_csv_schema[c].name, "status") == 0)
            r->has_status = seen[c];
        else if (strcmp(fb_csv_schema[c].name, "verified") == 0)
            r->has_verified = seen[c];
        else if (strcmp(fb_csv_schema[c].name, "cache") == 0)
            r->has_cache = seen[c];
    }
    free(seen);
    return rc;
}

/* Columns that hold a duration or a rate: a written cell must be a finite number >= 0 (an
 * empty cell is "not measured"). "nan", "inf" or "-1" there would pass into medians,
 * speedups and charts as if measured. launch_overhead_s is left out: a difference of two
 * medians, it may be slightly negative. */
static bool is_nonnegative_column(const char *name)
{
    static const char *const names[] = {
        "time_median_s", "time_min_s", "time_max_s", "time_p10_s", "time_p90_s",
        "kernel_time_s", "bandwidth_gbps", "copy_fraction", "dram_bytes_per_element",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* Formats "column NAME: 'TEXT' is not ..." into the error. */
static int bad_cell(struct reader *r, const struct fb_csv_column *c, const char *cell,
                    const char *what)
{
    return fb_fail(r->err, FB_ERR_USAGE, "%s:%ld: column %s: '%s' %s", r->path, r->line_no,
                   c->name, cell, what);
}

static int parse_cell(struct reader *r, const struct fb_csv_column *c, const char *cell,
                      struct fb_record *rec)
{
    char *field = (char *)rec + c->offset;
    char *end;
    if (c->kind == FB_CSV_TEXT) {
        if (strlen(cell) >= c->size)
            return bad_cell(r, c, cell, "is too long");
        strcpy(field, cell);
        return FB_OK;
    }
    if (!cell[0] && c->required)
        return bad_cell(r, c, cell, "is empty (the column is required)");
    switch (c->kind) {
    case FB_CSV_TEXT:
        break;
    case FB_CSV_COUNT: {
        int64_t v = -1;
        if (cell[0]) {
            errno = 0;
            long long ll = strtoll(cell, &end, 10);
            bool ok = !*end && !errno && ll >= 0;
            if (*end == '.' || *end == 'e' || *end == 'E') {
                /* "1024.0": pandas writes an integer column that has gaps as floats (the
                 * torch peer). Accepted when the value is a whole number that fits. */
                double d = strtod(cell, &end);
                ok = !*end && d == floor(d) && d >= 0 && d < 9.2e18;
                ll = ok ? (long long)d : -1;
            }
            if (!ok)
                return bad_cell(r, c, cell, "is not a count (a non-negative integer)");
            v = ll;
        }
        memcpy(field, &v, sizeof v);
        break;
    }
    case FB_CSV_REAL:
    case FB_CSV_BANDWIDTH: {
        double v = NAN;
        if (cell[0]) {
            v = strtod(cell, &end);
            if (*end)
                return bad_cell(r, c, cell, "is not a number");
            if (is_nonnegative_column(c->name) && !(isfinite(v) && v >= 0))
                return bad_cell(r, c, cell, "is not a finite number >= 0");
        }
        memcpy(field, &v, sizeof v);
        break;
    }
    case FB_CSV_BOOL: {
        bool v;
        if (!cell[0] || strcmp(cell, "0") == 0 || strcmp(cell, "false") == 0)
            v = false;
        else if (strcmp(cell, "1") == 0 || strcmp(cell, "true") == 0)
            v = true;
        else
            return bad_cell(r, c, cell, "is not 1 or 0");
        memcpy(field, &v, sizeof v);
        break;
    }
    case FB_CSV_STATUS: {
        enum fb_point_status v;
        if (!cell[0] || strcmp(cell, "skipped") == 0)
            v = FB_POINT_SKIPPED;
        else if (strcmp(cell, "ok") == 0)
            v = FB_POINT_OK;
        else if (strcmp(cell, "failed") == 0)
            v = FB_POINT_FAILED;
        else if (strcmp(cell, "noisy") == 0)
            v = FB_POINT_NOISY;
        else
            return bad_cell(r, c, cell, "is not ok, failed, skipped or noisy");
        memcpy(field, &v, sizeof v);
        break;
    }
    }
    return FB_OK;
}

/* min <= p10 <= median <= p90 <= max, among the times written: they are order statistics of
 * one set of samples, so a row that breaks the order was edited or damaged, and the verdict
 * and charts, which read the median and the interval separately, would trust it. */
static int check_time_order(struct reader *r, const struct fb_record *rec)
{
    static const char *const names[] = {"time_min_s", "time_p10_s", "time_median_s",
                                        "time_p90_s", "time_max_s"};
    const double t[] = {rec->time_min_s, rec->time_p10_s, rec->time_median_s, rec->time_p90_s,
                        rec->time_max_s};
    for (size_t i = 0; i < 5; i++)
        for (size_t j = i + 1; j < 5; j++)
            if (isfinite(t[i]) && isfinite(t[j]) && t[i] > t[j])
                return fb_fail(r->err, FB_ERR_USAGE, "%s:%ld: %s %.6g exceeds %s %.6g (the "
                               "times must read min <= p10 <= median <= p90 <= max)", r->path,
                               r->line_no, names[i], t[i], names[j], t[j]);
    return FB_OK;
}

static int parse_row(struct reader *r)
{
    int rc = split_fields(r);
    if (rc != FB_OK)
        return rc;
    if (r->n_fields != r->n_header)
        return fb_fail(r->err, FB_ERR_USAGE, "%s:%ld: %zu fields, but the header has %zu",
                       r->path, r->line_no, r->n_fields, r->n_header);
    struct fb_csv_table *t = r->t;
    if (t->n_records >= r->max_records)
        return fb_fail(r->err, FB_ERR_USAGE, "%s:%ld: more than %zu rows (the most this "
                       "command reads)", r->path, r->line_no, r->max_records);
    if (grow((void **)&t->records, &r->records_cap, t->n_records + 1, sizeof *t->records))
        return oom(r);
    struct fb_record *rec = &t->records[t->n_records];
    fb_record_init(rec);
    for (size_t i = 0; i < r->n_fields; i++) {
        if (r->col_of_field[i] < 0)
            continue;
        rc = parse_cell(r, &fb_csv_schema[r->col_of_field[i]], r->fields[i], rec);
        if (rc != FB_OK)
            return rc;
    }
    /* An older schema: the columns it lacks get the values that keep its rows' meaning. Its
     * writers recorded a time only for a point that ran and was verified (verify before
     * timing), and measured with warm caches (cold mode came with the cache column). */
    if (!r->has_status)
        rec->status = isfinite(rec->time_median_s) ? FB_POINT_OK : FB_POINT_SKIPPED;
    if (!r->has_verified)
        rec->verified = rec->status == FB_POINT_OK;
    if (!r->has_cache)
        snprintf(rec->cache, sizeof rec->cache, "warm");
    rc = check_time_order(r, rec);
    if (rc != FB_OK)
        return rc;
    t->n_records++;
    return FB_OK;
}

static int read_all(struct reader *r)
{
    bool have_header = false;
    int rc;
    while ((rc = next_line(r)) > 0) {
        const char *s = r->line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            continue;
        if (r->line[0] == '#') {
            /* Metadata belongs above the header; '#' lines below it are comments. */
            rc = have_header ? FB_OK : parse_meta(r);
        } else if (!have_header) {
            rc = parse_header(r);
            have_header = true;
        } else {
            rc = parse_row(r);
        }
        if (rc != FB_OK)
            return rc;
    }
    if (rc < 0)
        return rc;
    if (!have_header)
        return bad(r, "no header row (is this a fusebench CSV?)", "");
    return FB_OK;
}

int fb_csv_read(const char *path, struct fb_csv_table *out, struct fb_error *err)
{
    return fb_csv_read_bounded(path, SIZE_MAX, out, err);
}

int fb_csv_read_bounded(const char *path, size_t max_records, struct fb_csv_table *out,
                        struct fb_error *err)
{
    memset(out, 0, sizeof *out);
    struct reader r = {.path = path, .t = out, .err = err, .max_records = max_records};
    r.f = fopen(path, "r");
    if (!r.f)
        return fb_fail(err, FB_ERR_RUNTIME, "cannot open '%s': %s", path, strerror(errno));
    int rc = read_all(&r);
    fclose(r.f);
    free(r.line);
    free(r.fields);
    free(r.col_of_field);
    if (rc != FB_OK) {
        fb_csv_table_free(out);
        if (err) /* the message quotes the file's text: no raw control bytes */
            fb_text_escape_in_place(err->msg, sizeof err->msg);
    }
    return rc;
}

void fb_csv_table_free(struct fb_csv_table *t)
{
    free(t->meta);
    free(t->records);
    memset(t, 0, sizeof *t);
}

const char *fb_csv_meta_get(const struct fb_csv_table *t, const char *key)
{
    for (size_t i = 0; i < t->n_meta; i++)
        if (strcmp(t->meta[i].key, key) == 0)
            return t->meta[i].value;
    return NULL;
}

double fb_csv_meta_number(const struct fb_csv_table *t, const char *key)
{
    const char *v = fb_csv_meta_get(t, key);
    if (!v || !*v)
        return NAN;
    char *end;
    double x = strtod(v, &end);
    return *end == '\0' && isfinite(x) ? x : NAN;
}

const struct fb_record *fb_csv_find_record(const struct fb_record *records, size_t count,
                                           const char *backend, const char *device,
                                           const char *variant, const char *dtype, int64_t n)
{
    for (size_t i = count; i-- > 0;) {
        const struct fb_record *rec = &records[i];
        if (rec->n == n && strcmp(rec->variant, variant) == 0 &&
            strcmp(rec->dtype, dtype) == 0 && strcmp(rec->backend, backend) == 0 &&
            strcmp(rec->device, device) == 0)
            return rec;
    }
    return NULL;
}
