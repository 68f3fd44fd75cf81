/* --plot and --derive (contract in redraw.h). */
#include "app/redraw.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/derive.h"
#include "chart/derive_json.h"
#include "chart/gnuplot.h"
#include "chart/read.h"
#include "common/error.h"
#include "common/text.h"
#include "output/trace_read.h"

/* Whether path names a trace (--plot FILE.json: its timeline) rather than a results CSV. */
static bool is_trace(const char *path)
{
    const size_t len = strlen(path);
    return len > 5 && strcmp(path + len - 5, ".json") == 0;
}

/* The timeline of a trace fusebench wrote, read back (output/trace_read.h). */
static int render_trace(const char *path, const char *out_dir)
{
    struct fb_trace_read *t = malloc(sizeof *t);
    struct fb_error err;
    if (!t) {
        fprintf(stderr, "charts: out of memory\n");
        return FB_PLOTS_FAILED;
    }
    int rc = fb_trace_read(path, t, &err);
    if (rc != FB_OK) {
        fb_text_escape_in_place(err.msg, sizeof err.msg);
        fprintf(stderr, "charts: %s\n", err.msg);
        rc = rc == FB_ERR_USAGE ? FB_PLOTS_USAGE : FB_PLOTS_FAILED;
    } else {
        rc = fb_plots_render_timeline(t->tracks, t->count, &t->info, path, out_dir);
    }
    fb_trace_read_free(t);
    free(t);
    return rc;
}

int fb_app_redraw(const char *const *csv_files, int n, const char *out_dir,
                  const struct fb_plot_options *opt)
{
    int rc;
    if (n >= 1 && is_trace(csv_files[0])) {
        if (n > 1) {
            fprintf(stderr, "--plot: a trace (.json) is drawn alone, not with other files\n");
            return FB_ERR_USAGE;
        }
        rc = render_trace(csv_files[0], out_dir);
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
        rc = fb_fail(&err, FB_ERR_RUNTIME, "--derive: cannot write to stdout");
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
