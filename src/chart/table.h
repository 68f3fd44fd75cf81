/* The one table model of the charts: a named table of columns and cells that a chart's
 * derivation fills, printed by one TSV printer for gnuplot (the chart scripts, plots/, find
 * columns by name: `set datafile columnheaders`, column("n"), strcol("title")) and one JSON
 * printer for --derive. A table knows its rows: nothing else passes a count.
 *
 * TSV: a header row of the column names, then one line per row, each field followed by a
 * TAB (the last too: gnuplot 5.4 misreads a blank last field); a number as
 * %.10g, "NaN" when not finite (gnuplot leaves the point undrawn); a text through
 * fb_chart_label (chart/label.h: never gnuplot code; an empty text is " ", which strcol reads
 * as ""). JSON: an array of objects keyed by column (a record table: one object); a number as
 * fb_json_write_number writes it (%.17g: a whole number of magnitude below 1e17 has no
 * decimal point, so a count reads back as an integer), null when not finite; a text as
 * fb_text_escape writes it. */
#ifndef FB_CHART_TABLE_H
#define FB_CHART_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"

#define FB_TABLE_MAX_COLS 48
#define FB_TABLE_NAME_MAX 64

enum fb_cell_kind { FB_CELL_NUMBER, FB_CELL_TEXT, FB_CELL_BOOL };

struct fb_cell {
    enum fb_cell_kind kind;
    double number;  /* a number, or a bool's 0 / 1 */
    char *text;     /* a text, owned */
};

struct fb_table {
    char name[FB_TABLE_NAME_MAX]; /* its file in the stage ("series.tsv", "s3.dat"); JSON key */
    char *columns[FB_TABLE_MAX_COLS];
    size_t n_columns;
    struct fb_cell *cells;        /* row after row */
    size_t n_cells, cap;
    bool record;                  /* one row, printed as one JSON object */
    bool torn;                    /* a cell was lost to memory: never printed */
};

/* The tables of one drawing or one --derive, in the order they were added. */
struct fb_tables {
    struct fb_table **v;
    size_t n, cap;
    bool failed;      /* out of memory somewhere: the printers refuse to print */
};

/* Adds a table with `columns` (names separated by spaces) named by the printf-style name.
 * Returns it (cells are added with the calls below), or a scratch table that goes nowhere
 * when out of memory (ts->failed then set): callers fill it without checking. */
struct fb_table *fb_table_add(struct fb_tables *ts, const char *columns, const char *name, ...)
    __attribute__((format(printf, 3, 4)));

/* The next cell of the current row: a number, a text (copied; NULL is ""), a colour as the
 * text "#rrggbb", a bool. */
void fb_table_num(struct fb_table *t, double x);
void fb_table_text(struct fb_table *t, const char *text);
void fb_table_colour(struct fb_table *t, unsigned rgb);
void fb_table_bool(struct fb_table *t, bool b);
/* Several number cells. */
void fb_table_nums(struct fb_table *t, const double *x, size_t n);

/* Rows (whole ones: a row is n_columns cells). */
size_t fb_table_rows(const struct fb_table *t);

/* The cell in row `row` (from 0) of column `column`, or NULL. */
const struct fb_cell *fb_table_cell(const struct fb_table *t, size_t row, const char *column);

/* The table named `name`, or NULL. */
const struct fb_table *fb_tables_find(const struct fb_tables *ts, const char *name);

void fb_tables_free(struct fb_tables *ts);

/* Prints t as TSV to f. Returns 0, or -1 when a write failed. */
int fb_table_print_tsv(FILE *f, const struct fb_table *t);

/* Writes every table of ts into the directory dirfd as its own file (an existing one is
 * replaced; no symlink followed). FB_OK, or FB_ERR_RUNTIME naming the table (out of memory,
 * a full disk: every write and the close are checked). */
int fb_tables_write_tsv(int dirfd, const struct fb_tables *ts, struct fb_error *err);

/* gnuplot definitions of the row count of every table whose name ends in ".tsv":
 * "rows_series=12;rows_pairs=3;" (names less ".tsv"), for `gnuplot -e`. Numbers and the
 * tables' own names only, never text from a results file. Returns 0, or -1 when it did not
 * fit in size. */
int fb_tables_row_counts(const struct fb_tables *ts, char *out, size_t size);

/* Prints t as JSON to out (an array of objects, or one object for a record table). */
void fb_table_print_json(FILE *out, const struct fb_table *t);

#endif
