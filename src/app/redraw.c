/* --plot and --derive (contract in redraw.h). */
#include "app/redraw.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/derive.h"
#include "chart/derive_json.h"
#include "chart/gnuplot.h"
#include "chart/read.h"
#include "common/error.h"
#include "common/text.h"
#include "common/limits.h"
#include "output/trace_output.h"

/* Whether path ends with suffix. */
static bool ends_with(const char *path, const char *suffix)
{
    const size_t len = strlen(path), n = strlen(suffix);
    return len > n && strcmp(path + len - n, suffix) == 0;
}

/* The timeline of a trace (FILE.json: the table written beside it, FILE-timeline.tsv) or of
 * the table itself, redrawn from the table: the trace is never read back. */
static int render_timeline(const char *path, const char *out_dir,
                           const struct fb_plot_options *opt)
{
    if (!ends_with(path, ".json"))
        return fb_plots_render_timeline(path, out_dir, opt);
    char table[FB_PATH_MAX];
    if (snprintf(table, sizeof table, "%.*s%s", (int)(strlen(path) - 5), path,
                 FB_TIMELINE_TABLE_SUFFIX) >= (int)sizeof table) {
        fprintf(stderr, "--plot: the trace's path is too long\n");
        return FB_PLOTS_USAGE;
    }
    if (access(table, F_OK) != 0) {
        char shown[FB_PATH_MAX * 4], shown_table[FB_PATH_MAX * 4];
        fprintf(stderr, "--plot %s: its timeline table %s is missing: --profile N --trace FILE "
                        "writes it beside the trace (fusebench's traces before the table came "
                        "have none: profile again)\n", fb_text_escape(shown, sizeof shown, path),
                fb_text_escape(shown_table, sizeof shown_table, table));
        return FB_PLOTS_USAGE;
    }
    return fb_plots_render_timeline(table, out_dir, opt);
}

int fb_app_redraw(const char *const *csv_files, int n, const char *out_dir,
                  const struct fb_plot_options *opt)
{
    int rc;
    if (n >= 1 && (ends_with(csv_files[0], ".json") ||
                   ends_with(csv_files[0], FB_TIMELINE_TABLE_SUFFIX))) {
        if (n > 1) {
            fprintf(stderr, "--plot: a trace (.json) or its timeline table is drawn alone, "
                            "not with other files\n");
            return FB_ERR_USAGE;
        }
        rc = render_timeline(csv_files[0], out_dir, opt);
    } else {
        rc = fb_plots_render(csv_files, n, out_dir, opt);
    }
    if (rc > 128) /* the signal is in fb_interrupted */
        return FB_ERR_INTERRUPTED;
    switch (rc) {
    case FB_PLOTS_OK: return FB_OK;
    case FB_PLOTS_USAGE:
    case FB_PLOTS_NO_GNUPLOT: return FB_ERR_USAGE;
    default: return FB_ERR_RUNTIME;
    }
}

int fb_app_derive(const char *const *csv_files, int n)
{
    struct fb_csv_table tables[FB_CHART_MAX_FILES];
    struct fb_error err;
    if (n < 1 || n > FB_CHART_MAX_FILES) {
        fprintf(stderr, "--derive: give 1 to %d results files\n", FB_CHART_MAX_FILES);
        return FB_ERR_USAGE;
    }
    int rc = fb_chart_read_tables(csv_files, (size_t)n, tables, &err);
    struct fb_chart_derived *d = rc == FB_OK ? malloc(sizeof *d) : NULL;
    if (rc == FB_OK && !d)
        rc = fb_fail(&err, FB_ERR_RUNTIME, "out of memory");
    if (rc == FB_OK)
        rc = fb_chart_derive(tables, csv_files, (size_t)n, d, &err);
    if (rc == FB_OK && fb_chart_json_write(stdout, tables, csv_files, (size_t)n, d) != 0)
        rc = fb_fail(&err, FB_ERR_RUNTIME, "cannot write to stdout (or out of memory)");
    if (rc != FB_OK) {
        fb_text_escape_in_place(err.msg, sizeof err.msg);
        fprintf(stderr, "--derive: %s\n", err.msg);
    }
    if (d) {
        fb_chart_derived_free(d);
        free(d);
    }
    for (int i = 0; i < n; i++) /* emptied by a failed read already: freeing again is safe */
        fb_csv_table_free(&tables[i]);
    return rc;
}
