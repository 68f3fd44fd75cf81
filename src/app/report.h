/* The --report command: the one-page markdown report of a results file (report/report.h),
 * written as DIR/STEM-report.md beside the charts, linking those of them that are there. */
#ifndef FB_APP_REPORT_H
#define FB_APP_REPORT_H

#include <stdbool.h>

/* Writes the report of csv (STEM: its file name less ".csv") into out_dir (NULL or "": the
 * directory of csv), embedding the PNG charts STEM-<chart>.png found there (chart/charts.h's
 * names, in that order). The page replaces an older one atomically (a temporary file in
 * out_dir, renamed): a failing run leaves the previous report whole. A file of that name that
 * is not a report (fb_output_replaceable, FB_REPORT_SIGNATURE) is replaced only with
 * `force`. Prints the page's path on stdout. Returns FB_OK, FB_ERR_USAGE (csv missing,
 * malformed, too large; out_dir not a directory; a foreign file in the way; message on
 * stderr), FB_ERR_RUNTIME (a write failed;
 * a file size limit, EFBIG, included: common/interrupt.h) or FB_ERR_INTERRUPTED (SIGINT or
 * SIGTERM before the page was renamed into place: the old page and no temporary file stay).
 * The signal is in fb_interrupted (main exits 128 + it). Temporary
 * pages of a report killed with SIGKILL are removed by the next one in the directory. */
int fb_app_report(const char *csv, const char *out_dir, bool force);

#endif
