/* The audit chart: what tools/torch_audit.py found for a user's function, from its results
 * file (--output), in three panels side by side, one bar group per mode (torch eager,
 * torch.compile, and where the function is one of fusebench's chains fusebench eager and
 * fused):
 *   kernels per call   predicted beside counted (the row's launches)
 *   bytes per call     predicted beside measured DRAM bytes (read + written), where measured;
 *                      where not, no bar and a note that says why
 *   time per call      the row's median, with its 95% interval (median x (1 +- noise))
 * Derived here, once, from the charted file's rows and its `# key: value` lines; plots/audit.gp
 * only draws the tables. A torch mode's predictions are the audit's metadata (per mode MODE,
 * "eager" or "compiled"): audit_predicted_kernels_MODE, audit_predicted_transfers_MODE,
 * audit_predicted_bytes_MODE, and audit_dram_bytes_MODE (measured) or audit_dram_na_MODE (why
 * not). fusebench's rows carry their own: the model's kernels (chart/model.h,
 * fb_model_launches), bytes_model, and dram_read_bytes + dram_write_bytes.
 *
 * Tables (fb_chart_audit's, chart/charts.h; chart/table.h prints them):
 *   audit.tsv         one row per mode: i (1..), name ("torch eager"), colour (0xRRGGBB, its
 *                     variant's identity), kp, kc (kernels predicted, counted), bp, bm (bytes
 *                     per call predicted, measured, in bytes_unit), ta (array-sized transfers
 *                     predicted), t, tlo, thi (median time per call and its interval, in µs)
 *   audit_labels.tsv  one row: title ("Audit of add_relu: a=1000000 b=1000000, fp32"),
 *                     bytes_unit ("MB"), bytes_scale (bytes per unit), bytes_note
 *                     ("measured: none (the CPU backend has no DRAM counters)", "" when every
 *                     mode was measured), time_note (modes not timed, and why; "" none) */
#ifndef FB_CHART_AUDIT_H
#define FB_CHART_AUDIT_H

#include <stddef.h>

#include "chart/derive.h"
#include "common/error.h"
#include "results/csv.h"

#define FB_AUDIT_MODES 4

struct fb_audit_mode {
    char name[32];                         /* "torch eager", "torch.compile", ... */
    char variant[48];                      /* its row's variant */
    unsigned colour;
    double kernels_predicted, kernels_counted;
    double transfers_predicted;            /* arrays of n; NaN where the file has none */
    double bytes_predicted, bytes_measured; /* per call; NaN where not known */
    double time_s, time_lo_s, time_hi_s;   /* median and its 95% interval; NaN none */
};

struct fb_audit {
    size_t n_modes;
    struct fb_audit_mode modes[FB_AUDIT_MODES];
    char title[FB_CHART_TEXT_MAX];
    char bytes_unit[4];
    double bytes_scale;
    char bytes_note[FB_CHART_TEXT_MAX];
    char time_note[FB_CHART_TEXT_MAX];
    char why_not[FB_CHART_TEXT_MAX];       /* "" when the file is an audit with rows */
};

/* Derives the audit chart's numbers from t (the charted run, as fb_chart_derive read and
 * adjusted it) into d->audit (allocated; freed by fb_audit_free, which
 * fb_chart_derived_free calls), with the colours of d's series. A file that is not an audit
 * (no audit_function metadata) gets an audit with no modes and why_not said. Returns FB_OK,
 * or FB_ERR_RUNTIME when out of memory. */
int fb_audit_derive(struct fb_chart_derived *d, const struct fb_csv_table *t,
                    struct fb_error *err);

/* Frees what fb_audit_derive allocated. NULL: nothing. */
void fb_audit_free(struct fb_audit *a);

/* NULL when d holds an audit to draw, else why not (valid while d is). */
const char *fb_audit_skip(const struct fb_chart_derived *d);

#endif
