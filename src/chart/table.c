/* The table model and its two printers (contract in table.h). */
#include "chart/table.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/label.h"
#include "common/json.h"
#include "common/text.h"

/* Where the cells of a table that could not be made go (never printed). */
static struct fb_table scratch;

struct fb_table *fb_table_add(struct fb_tables *ts, const char *columns, const char *name, ...)
{
    struct fb_table *t = calloc(1, sizeof *t);
    if (t && ts->n == ts->cap) {
        size_t cap = ts->cap ? ts->cap * 2 : 32;
        struct fb_table **v = realloc(ts->v, cap * sizeof *v);
        if (v) {
            ts->v = v;
            ts->cap = cap;
        }
    }
    if (!t || ts->n == ts->cap) {
        free(t);
        ts->failed = true;
        scratch.n_columns = 1;
        scratch.n_cells = 0;
        return &scratch;
    }
    va_list ap;
    va_start(ap, name);
    vsnprintf(t->name, sizeof t->name, name, ap);
    va_end(ap);
    for (const char *c = columns; *c && t->n_columns < FB_TABLE_MAX_COLS;) {
        size_t len = strcspn(c, " ");
        if (len && !(t->columns[t->n_columns++] = strndup(c, len)))
            ts->failed = true;
        c += len + (c[len] == ' ');
    }
    ts->v[ts->n++] = t;
    return t;
}

static void add_cell(struct fb_table *t, struct fb_cell cell)
{
    if (t == &scratch) {
        free(cell.text);
        return;
    }
    if (t->n_cells == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct fb_cell *cells = realloc(t->cells, cap * sizeof *cells);
        if (!cells) {
            free(cell.text);
            t->torn = true;
            return;
        }
        t->cells = cells;
        t->cap = cap;
    }
    t->cells[t->n_cells++] = cell;
}

void fb_table_num(struct fb_table *t, double x)
{
    add_cell(t, (struct fb_cell){FB_CELL_NUMBER, x, NULL});
}

void fb_table_nums(struct fb_table *t, const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fb_table_num(t, x[i]);
}

void fb_table_text(struct fb_table *t, const char *text)
{
    char *copy = strdup(text ? text : "");
    add_cell(t, (struct fb_cell){copy ? FB_CELL_TEXT : FB_CELL_NUMBER, NAN, copy});
}

void fb_table_colour(struct fb_table *t, unsigned rgb)
{
    char text[8];
    snprintf(text, sizeof text, "#%06x", rgb & 0xFFFFFF);
    fb_table_text(t, text);
}

void fb_table_bool(struct fb_table *t, bool b)
{
    add_cell(t, (struct fb_cell){FB_CELL_BOOL, b, NULL});
}

size_t fb_table_rows(const struct fb_table *t)
{
    return t->n_columns ? t->n_cells / t->n_columns : 0;
}

const struct fb_cell *fb_table_cell(const struct fb_table *t, size_t row, const char *column)
{
    for (size_t c = 0; t && c < t->n_columns && row < fb_table_rows(t); c++)
        if (strcmp(t->columns[c], column) == 0)
            return &t->cells[row * t->n_columns + c];
    return NULL;
}

const struct fb_table *fb_tables_find(const struct fb_tables *ts, const char *name)
{
    for (size_t i = 0; i < ts->n; i++)
        if (strcmp(ts->v[i]->name, name) == 0)
            return ts->v[i];
    return NULL;
}

void fb_tables_free(struct fb_tables *ts)
{
    for (size_t i = 0; i < ts->n; i++) {
        struct fb_table *t = ts->v[i];
        for (size_t c = 0; c < t->n_cells; c++)
            free(t->cells[c].text);
        for (size_t c = 0; c < t->n_columns; c++)
            free(t->columns[c]);
        free(t->cells);
        free(t);
    }
    free(ts->v);
    *ts = (struct fb_tables){0};
}

static bool whole(const struct fb_table *t)
{
    return t->n_columns && !t->torn && t->n_cells % t->n_columns == 0;
}

int fb_table_print_tsv(FILE *f, const struct fb_table *t)
{
    int failed = 0;
    for (size_t c = 0; c < t->n_columns; c++)
        failed |= fprintf(f, "%s\t%s", t->columns[c], c + 1 < t->n_columns ? "" : "\n") < 0;
    char label[FB_CHART_LABEL_SIZE];
    for (size_t i = 0; i < t->n_cells; i++) {
        const struct fb_cell *x = &t->cells[i];
        /* every cell ends in a TAB, the last too: gnuplot 5.4 reads a blank last field as
         * bytes of the line before it ("32" of "fp32") */
        const char *sep = (i + 1) % t->n_columns ? "\t" : "\t\n";
        if (x->kind == FB_CELL_TEXT)
            failed |= fprintf(f, "%s%s", x->text[0] ? fb_chart_label(label, sizeof label, x->text)
                                                    : " ", sep) < 0;
        else if (isfinite(x->number))
            failed |= fprintf(f, "%.10g%s", x->number, sep) < 0;
        else
            failed |= fprintf(f, "NaN%s", sep) < 0;
    }
    return failed ? -1 : 0;
}

static int write_one(int dirfd, const struct fb_table *t, struct fb_error *err)
{
    unlinkat(dirfd, t->name, 0);
    int fd = openat(dirfd, t->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return fb_fail(err, FB_ERR_RUNTIME, "charts: cannot create the table %s: %s", t->name,
                       strerror(e));
    }
    errno = 0;
    int failed = fb_table_print_tsv(f, t) != 0 || fflush(f) != 0;
    int e = errno ? errno : EIO;
    failed |= fclose(f) != 0;
    if (failed)
        return fb_fail(err, FB_ERR_RUNTIME, "charts: cannot write the table %s: %s", t->name,
                       strerror(errno ? errno : e));
    return FB_OK;
}

int fb_tables_write_tsv(int dirfd, const struct fb_tables *ts, struct fb_error *err)
{
    for (size_t i = 0; i < ts->n; i++) {
        if (ts->failed || !whole(ts->v[i]))
            return fb_fail(err, FB_ERR_RUNTIME, "charts: out of memory deriving the table %s",
                           ts->v[i]->name);
        int rc = write_one(dirfd, ts->v[i], err);
        if (rc)
            return rc;
    }
    return FB_OK;
}

int fb_tables_row_counts(const struct fb_tables *ts, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < ts->n; i++) {
        const char *name = ts->v[i]->name;
        size_t stem = strlen(name);
        if (stem < 5 || strcmp(name + stem - 4, ".tsv") != 0)
            continue;
        int k = snprintf(out + len, size - len, "rows_%.*s=%zu;", (int)(stem - 4), name,
                         fb_table_rows(ts->v[i]));
        if (k < 0 || (size_t)k >= size - len)
            return -1;
        len += (size_t)k;
    }
    return 0;
}

void fb_table_print_json(FILE *out, const struct fb_table *t)
{
    fputs(t->record ? "" : "[", out);
    size_t rows = fb_table_rows(t);
    for (size_t r = 0; r < rows; r++) {
        fputs(r ? ",{" : "{", out);
        for (size_t c = 0; c < t->n_columns; c++) {
            const struct fb_cell *x = &t->cells[r * t->n_columns + c];
            fprintf(out, "%s\"%s\":", c ? "," : "", t->columns[c]);
            if (x->kind == FB_CELL_BOOL) {
                fputs(x->number ? "true" : "false", out);
            } else if (x->kind == FB_CELL_NUMBER) {
                fb_json_write_number(out, x->number);
            } else {
                size_t room = strlen(x->text) * 4 + 1;
                char *text = malloc(room);
                if (text)
                    fb_json_write_string(out, fb_text_escape(text, room, x->text));
                else
                    fputs("null", out);
                free(text);
            }
        }
        fputc('}', out);
    }
    fputs(t->record ? (rows ? "" : "{}") : "]", out);
}
