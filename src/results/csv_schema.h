/* Internal to src/output: the CSV columns as data, shared by the writer (csv.c) and the
 * reader (csv_read.c) so both agree on names, order and cell formats by construction. */
#ifndef FB_OUTPUT_CSV_SCHEMA_H
#define FB_OUTPUT_CSV_SCHEMA_H

#include <stddef.h>

enum fb_csv_kind {
    FB_CSV_TEXT,      /* char[size]; quoted when needed */
    FB_CSV_COUNT,     /* int64_t; negative = not measured = empty cell */
    FB_CSV_REAL,      /* double, %.9g; NaN = empty cell */
    FB_CSV_BANDWIDTH, /* double, %.4f (GB/s: 0.1 MB/s resolution is plenty); NaN = empty */
    FB_CSV_BOOL,      /* bool, 1/0 */
    FB_CSV_STATUS,    /* enum fb_point_status, ok/failed/skipped/noisy */
};

struct fb_csv_column {
    const char *name;     /* header name = struct fb_record field name */
    enum fb_csv_kind kind;
    size_t offset;        /* offsetof(struct fb_record, field) */
    size_t size;          /* sizeof the field (bounds text cells) */
    int required;         /* the reader refuses a file without this column */
};

extern const struct fb_csv_column fb_csv_schema[];
extern const size_t fb_csv_schema_count;

#endif
