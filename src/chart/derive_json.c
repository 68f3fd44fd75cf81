/* The derived numbers as JSON (shape in derive_json.h). */
#include "chart/derive_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart/model.h"
#include "common/format.h"
#include "common/json.h"
#include "common/text.h"

static void string(FILE *out, const char *s)
{
    size_t room = strlen(s) * 4 + 1;
    char *text = malloc(room);
    if (!text) {
        fputs("null", out);
        return;
    }
    fb_json_write_string(out, fb_text_escape(text, room, s));
    free(text);
}

static void count(FILE *out, int64_t x)
{
    if (x >= 0)
        fprintf(out, "%" PRId64, x);
    else
        fputs("null", out);
}

static void key(FILE *out, const char *k)
{
    fprintf(out, ",\"%s\":", k);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median time of the pair of row r (file f) at its size, NaN when not drawn. */
static double pair_time(const struct fb_chart_derived *d, size_t f, const struct fb_record *r)
{
    if (!r->pair[0] || r->status != FB_POINT_OK)
        return NAN;
    char suffix[48], k[FB_CHART_KEY_MAX];
    const char *dtype = fb_dtype_canonical(r->dtype);
    bool plain = !dtype[0] || strcmp(dtype, "fp32") == 0;
    snprintf(suffix, sizeof suffix, "%s%s%s%s", plain ? "" : "-", plain ? "" : dtype,
             strcmp(fb_stores_canonical(r->stores), "streaming") == 0 ? "-streaming" : "",
             strcmp(r->cache, "cold") == 0 ? "-cold" : "");
    snprintf(k, sizeof k, "%s%s", r->pair, suffix);
    size_t s = fb_chart_find_series(d, f, k);
    if (s == SIZE_MAX)
        return NAN;
    const struct fb_chart_series *se = &d->series[s];
    for (size_t i = 0; i < se->n_points; i++)
        if (se->points[i].n == (double)r->n)
            return se->points[i].time_s;
    return NAN;
}

static void row(FILE *out, const struct fb_chart_derived *d, size_t f, const struct fb_record *r)
{
    fprintf(out, "{\"file\":%zu", f);
    const struct { const char *name; const char *value; } texts[] = {
        {"backend", r->backend}, {"device", r->device}, {"variant", r->variant},
        {"dtype", r->dtype}, {"cache", r->cache}, {"reason", r->reason}, {"role", r->role},
        {"pair", r->pair}, {"stores", r->stores}, {"mirror", r->mirror}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        key(out, texts[i].name);
        string(out, texts[i].value);
    }
    const struct { const char *name; int64_t value; } counts[] = {
        {"n", r->n}, {"launches", r->launches}, {"bytes_model", r->bytes_model},
        {"reps", r->reps}, {"batch", r->batch}, {"dram_read_bytes", r->dram_read_bytes},
        {"dram_write_bytes", r->dram_write_bytes}, {"l2_bytes", r->l2_bytes},
        {"host_launches", r->host_launches}, {"speedup_rounds", r->speedup_rounds}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        key(out, counts[i].name);
        count(out, counts[i].value);
    }
    const struct { const char *name; double value; } reals[] = {
        {"time_median_s", r->time_median_s}, {"time_min_s", r->time_min_s},
        {"time_max_s", r->time_max_s}, {"time_p10_s", r->time_p10_s},
        {"time_p90_s", r->time_p90_s}, {"noise", r->noise},
        {"bandwidth_gbps", r->bandwidth_gbps}, {"copy_fraction", r->copy_fraction},
        {"kernel_time_s", r->kernel_time_s}, {"launch_overhead_s", r->launch_overhead_s},
        {"dram_bytes_per_element", r->dram_bytes_per_element}, {"speedup", r->speedup},
        {"preempted", r->preempted}, {"speedup_lo", r->speedup_lo},
        {"speedup_hi", r->speedup_hi}, {"pair_time_s", pair_time(d, f, r)},
        {"elements", fb_model_elements(r)}, {"ours_ratio", r->ours_ratio},
        {"ours_ratio_lo", r->ours_ratio_lo}, {"ours_ratio_hi", r->ours_ratio_hi}};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        key(out, reals[i].name);
        fb_json_write_number(out, reals[i].value);
    }
    key(out, "verified");
    fputs(r->verified ? "true" : "false", out);
    key(out, "status");
    string(out, fb_point_status_name(r->status));
    fputc('}', out);
}

int fb_chart_json_write(FILE *out, const struct fb_csv_table *tables, const char *const *paths,
                        size_t n, const struct fb_chart_derived *d)
{
    fputs("{\"files\":[", out);
    size_t total = 0;
    for (size_t f = 0; f < n; f++) {
        const struct fb_csv_table *t = &tables[f];
        fprintf(out, "%s{\"path\":", f ? "," : "");
        string(out, paths[f]);
        key(out, "stem");
        string(out, d->stems[f]);
        fputs(",\"meta\":{", out);
        bool first = true;
        for (size_t m = 0; m < t->n_meta; m++) {
            if (fb_csv_meta_get(t, t->meta[m].key) != t->meta[m].value)
                continue; /* a repeated key: the first one counts */
            if (!first)
                fputc(',', out);
            first = false;
            string(out, t->meta[m].key);
            fputc(':', out);
            string(out, t->meta[m].value);
        }
        size_t noisy = 0;
        for (size_t i = 0; i < t->n_records; i++)
            noisy += t->records[i].status == FB_POINT_NOISY;
        fprintf(out, "},\"rows\":%zu,\"noisy\":%zu}", t->n_records, noisy);
        total += t->n_records;
    }
    fputs("],\"sizes\":[", out);
    double *sizes = malloc((total ? total : 1) * sizeof *sizes);
    if (!sizes)
        return -1;
    size_t k = 0;
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < tables[f].n_records; i++)
            sizes[k++] = (double)tables[f].records[i].n;
    qsort(sizes, k, sizeof *sizes, compare_doubles);
    for (size_t i = 0, written = 0; i < k; i++)
        if (i == 0 || sizes[i] != sizes[i - 1])
            fprintf(out, "%s%.0f", written++ ? "," : "", sizes[i]);
    free(sizes);
    fputs("],\"rows\":[", out);
    bool first = true;
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < tables[f].n_records; i++) {
            if (!first)
                fputc(',', out);
            first = false;
            row(out, d, f, &tables[f].records[i]);
        }
    fputs("],\"pairs\":[", out);
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        fprintf(out, "%s{\"file\":%zu", i ? "," : "", d->series[p->eager].file);
        key(out, "eager");
        string(out, d->series[p->eager].key);
        key(out, "fused");
        string(out, d->series[p->fused].key);
        key(out, "title");
        string(out, p->title);
        key(out, "launch_limit");
        fb_json_write_number(out, p->launch_limit);
        key(out, "traffic_ratio");
        fb_json_write_number(out, p->traffic_ratio);
        key(out, "traffic_ratio_write_allocate");
        fb_json_write_number(out, p->traffic_ratio_wa);
        fputs(",\"points\":[", out);
        for (size_t j = 0; j < p->n_points; j++) {
            fprintf(out, "%s[", j ? "," : "");
            fb_json_write_number(out, p->points[j].n);
            fputc(',', out);
            fb_json_write_number(out, p->points[j].speedup);
            fputc(',', out);
            fb_json_write_number(out, p->points[j].lo);
            fputc(',', out);
            fb_json_write_number(out, p->points[j].hi);
            fputc(']', out);
        }
        fputs("]}", out);
    }
    fputs("],\"fit\":{\"launch_s\":", out);
    fb_json_write_number(out, d->fit_launch_s);
    key(out, "bandwidth_gbps");
    fb_json_write_number(out, d->fit_gbps);
    key(out, "cache_bandwidth_gbps");
    fb_json_write_number(out, d->fit_cache_gbps);
    fputs("},\"regimes\":{\"n_launch\":", out);
    fb_json_write_number(out, d->n_launch);
    fprintf(out, ",\"n_launch_from\":\"%s\"",
            isfinite(d->n_launch) ? (d->n_launch_from_fit ? "fit" : "data") : "");
    key(out, "n_cache");
    fb_json_write_number(out, d->n_cache);
    fputs("}}\n", out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
