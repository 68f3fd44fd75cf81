/* The audit chart's numbers and tables (contract in audit.h). */
#include "chart/audit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/charts.h"
#include "chart/model.h"

/* The rows tools/torch_audit.py writes (its NAMES and CHAIN = "audit"), in the order drawn:
 * torch's two, then fusebench's chain where the function maps onto one. meta: the suffix of
 * the mode's metadata keys, NULL for fusebench's rows (their row holds what is predicted). */
static const struct {
    const char *variant, *name, *meta;
} MODES[FB_AUDIT_MODES] = {
    {"torch_eager_audit", "torch eager", "eager"},
    {"torch_compile_audit", "torch.compile", "compiled"},
    {"eager_audit", "fusebench eager", NULL},
    {"fused_audit", "fusebench fused", NULL},
};

static const unsigned GREY = 0x777777;

/* The number in metadata key PREFIX + suffix, or NaN when absent or not a number. */
static double meta_num(const struct fb_csv_table *t, const char *prefix, const char *suffix)
{
    char key[64];
    snprintf(key, sizeof key, "%s%s", prefix, suffix);
    return fb_csv_meta_number(t, key);
}

/* The last row of variant in t, or NULL. */
static const struct fb_record *row_of(const struct fb_csv_table *t, const char *variant)
{
    for (size_t i = t->n_records; i-- > 0;)
        if (strcmp(t->records[i].variant, variant) == 0)
            return &t->records[i];
    return NULL;
}

/* Appends text to a note (size bytes), "; " between parts, each part once. */
static void note_add(char *note, size_t size, const char *text)
{
    if (strstr(note, text))
        return;
    size_t len = strlen(note);
    snprintf(note + len, size - len, "%s%s", len ? "; " : "", text);
}

static void fill_mode(struct fb_audit_mode *m, const struct fb_csv_table *t,
                      const struct fb_record *r, const char *meta)
{
    if (meta) {
        m->kernels_predicted = meta_num(t, "audit_predicted_kernels_", meta);
        m->transfers_predicted = meta_num(t, "audit_predicted_transfers_", meta);
        m->bytes_predicted = meta_num(t, "audit_predicted_bytes_", meta);
        m->bytes_measured = meta_num(t, "audit_dram_bytes_", meta);
    } else if (r) {
        /* ours: the model the row was verified and timed against */
        double elements = fb_model_elements(r);
        int kernels = fb_model_launches(r->role, elements);
        m->kernels_predicted = kernels >= 0 ? kernels : NAN;
        m->transfers_predicted = elements;
        m->bytes_predicted = r->bytes_model > 0 ? (double)r->bytes_model : NAN;
        m->bytes_measured = r->dram_read_bytes >= 0 && r->dram_write_bytes >= 0
                                ? (double)(r->dram_read_bytes + r->dram_write_bytes) : NAN;
    }
    m->kernels_counted = r && r->launches >= 0 ? (double)r->launches : NAN;
    const bool timed = r && (r->status == FB_POINT_OK || r->status == FB_POINT_NOISY) &&
                       isfinite(r->time_median_s) && r->time_median_s > 0;
    m->time_s = timed ? r->time_median_s : NAN;
    const bool interval = timed && isfinite(r->noise) && r->noise > 0;
    m->time_lo_s = interval ? r->time_median_s * (1 - r->noise) : NAN;
    m->time_hi_s = interval ? r->time_median_s * (1 + r->noise) : NAN;
}

/* Why a mode has no measured bytes: the audit's reason for a torch mode; for fusebench's
 * rows, timed in the same session on the same device, the torch modes' reason where they
 * have one. */
static void bytes_note(struct fb_audit *a, const struct fb_csv_table *t)
{
    char why[FB_CHART_TEXT_MAX] = "", torch_why[FB_CHART_TEXT_MAX] = "";
    size_t measured = 0;
    for (size_t i = 0; i < a->n_modes; i++)
        measured += isfinite(a->modes[i].bytes_measured);
    if (measured == a->n_modes)
        return;
    for (size_t k = 0; k < FB_AUDIT_MODES; k++) {
        char key[64];
        if (!MODES[k].meta)
            continue;
        snprintf(key, sizeof key, "audit_dram_na_%s", MODES[k].meta);
        const char *v = fb_csv_meta_get(t, key);
        if (v && *v)
            note_add(torch_why, sizeof torch_why, v);
    }
    for (size_t i = 0; i < a->n_modes; i++) {
        const struct fb_audit_mode *m = &a->modes[i];
        if (isfinite(m->bytes_measured))
            continue;
        const char *meta = NULL;
        for (size_t k = 0; k < FB_AUDIT_MODES; k++)
            if (strcmp(MODES[k].variant, m->variant) == 0)
                meta = MODES[k].meta;
        if (meta) {
            char key[64];
            snprintf(key, sizeof key, "audit_dram_na_%s", meta);
            const char *v = fb_csv_meta_get(t, key);
            note_add(why, sizeof why, v && *v ? v : "not in this file: an older audit");
        } else {
            note_add(why, sizeof why, *torch_why ? torch_why : "no DRAM counters in this run");
        }
    }
    snprintf(a->bytes_note, sizeof a->bytes_note, "measured: %s (%s)",
             measured ? "not for every mode" : "none", why);
}

/* The unit the bytes panel is drawn in: the largest of its bytes under 10000 units. */
static void bytes_unit(struct fb_audit *a)
{
    double most = 0;
    for (size_t i = 0; i < a->n_modes; i++) {
        if (isfinite(a->modes[i].bytes_predicted))
            most = fmax(most, a->modes[i].bytes_predicted);
        if (isfinite(a->modes[i].bytes_measured))
            most = fmax(most, a->modes[i].bytes_measured);
    }
    static const struct { const char *unit; double scale; } UNITS[] = {
        {"B", 1}, {"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9}};
    size_t u = 0;
    while (u + 1 < sizeof UNITS / sizeof UNITS[0] && most >= 1e4 * UNITS[u].scale)
        u++;
    snprintf(a->bytes_unit, sizeof a->bytes_unit, "%s", UNITS[u].unit);
    a->bytes_scale = UNITS[u].scale;
}

/* "Audit of add_relu: a=1000000 b=1000000, fp32": the function without its file's path. */
static void title_of(struct fb_audit *a, const struct fb_csv_table *t, const char *function)
{
    const char *colon = strrchr(function, ':');
    const char *name = colon && colon[1] ? colon + 1 : function;
    const char *inputs = fb_csv_meta_get(t, "audit_inputs");
    const char *dtype = fb_csv_meta_get(t, "audit_dtype");
    snprintf(a->title, sizeof a->title, "Audit of %s%s%s%s%s", name,
             inputs && *inputs ? ": " : "", inputs ? inputs : "",
             dtype && *dtype ? ", " : "", dtype ? dtype : "");
}

int fb_audit_derive(struct fb_chart_derived *d, const struct fb_csv_table *t,
                    struct fb_error *err)
{
    fb_audit_free(d->audit);
    struct fb_audit *a = d->audit = calloc(1, sizeof *a);
    if (!a)
        return fb_fail(err, FB_ERR_RUNTIME, "audit chart: out of memory");
    const char *function = fb_csv_meta_get(t, "audit_function");
    if (!function || !*function) {
        snprintf(a->why_not, sizeof a->why_not,
                 "not an audit (no audit_function metadata: tools/torch_audit.py --output)");
        return FB_OK;
    }
    for (size_t k = 0; k < FB_AUDIT_MODES; k++) {
        const struct fb_record *r = row_of(t, MODES[k].variant);
        if (!r)
            continue; /* a function that is no chain has no rows of ours */
        struct fb_audit_mode *m = &a->modes[a->n_modes++];
        snprintf(m->name, sizeof m->name, "%s", MODES[k].name);
        snprintf(m->variant, sizeof m->variant, "%s", MODES[k].variant);
        size_t s = fb_chart_find_series(d, 0, r->variant);
        m->colour = s != SIZE_MAX ? d->series[s].colour : GREY;
        fill_mode(m, t, r, MODES[k].meta);
        if (isnan(m->time_s)) {
            char text[FB_CHART_TEXT_MAX];
            snprintf(text, sizeof text, "%s not timed (%s%s%.120s)", m->name,
                     fb_point_status_name(r->status), *r->reason ? ": " : "", r->reason);
            note_add(a->time_note, sizeof a->time_note, text);
        }
    }
    if (a->n_modes == 0) {
        snprintf(a->why_not, sizeof a->why_not, "an audit without rows of its modes");
        return FB_OK;
    }
    title_of(a, t, function);
    bytes_unit(a);
    bytes_note(a, t);
    return FB_OK;
}

void fb_audit_free(struct fb_audit *a)
{
    free(a);
}

const char *fb_audit_skip(const struct fb_chart_derived *d)
{
    if (!d->audit)
        return "not an audit";
    return d->audit->n_modes ? NULL : d->audit->why_not;
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    const struct fb_audit *a = d->audit;
    struct fb_table *t = fb_table_add(ts, "i name colour kp kc bp bm ta t tlo thi", "audit.tsv");
    for (size_t i = 0; a && i < a->n_modes; i++) {
        const struct fb_audit_mode *m = &a->modes[i];
        const double us = 1e6;
        fb_table_num(t, (double)(i + 1));
        fb_table_text(t, m->name);
        fb_table_nums(t, (const double[]){m->colour & 0xFFFFFF, m->kernels_predicted,
            m->kernels_counted, m->bytes_predicted / a->bytes_scale,
            m->bytes_measured / a->bytes_scale, m->transfers_predicted, m->time_s * us,
            m->time_lo_s * us, m->time_hi_s * us}, 9);
    }
    t = fb_table_add(ts, "title bytes_unit bytes_scale bytes_note time_note", "audit_labels.tsv");
    if (!a || a->n_modes == 0)
        return;
    fb_table_text(t, a->title);
    fb_table_text(t, a->bytes_unit);
    fb_table_num(t, a->bytes_scale);
    fb_table_text(t, a->bytes_note);
    fb_table_text(t, a->time_note);
}

const struct fb_chart fb_chart_audit = {"audit", {"audit.gp"}, 2000, 1000, 20, fb_audit_skip,
                                        tables};
