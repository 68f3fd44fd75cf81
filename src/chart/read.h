/* Reading the results files a chart or a derivation is made from: each must be a regular
 * file (a FIFO or a device is never opened: it could block or never end) of at most
 * FB_CHART_MAX_ROWS rows (chart/derive.h), read with output/csv.h. */
#ifndef FB_CHART_READ_H
#define FB_CHART_READ_H

#include <stddef.h>

#include "common/error.h"
#include "results/csv.h"

/* Reads paths[0..n-1] into tables[0..n-1] (n <= FB_CHART_MAX_FILES). Returns FB_OK, or
 * FB_ERR_USAGE (missing, not a regular file, malformed, too many rows: the message names the
 * file and line) or FB_ERR_RUNTIME (unreadable, out of memory); on failure every table is
 * empty. Free them with fb_csv_table_free. */
int fb_chart_read_tables(const char *const *paths, size_t n, struct fb_csv_table *tables,
                         struct fb_error *err);

#endif
