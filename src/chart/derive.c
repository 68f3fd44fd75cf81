/* The numbers the charts show, derived once (contract in derive.h; formulas in model.h). */
#include "chart/derive.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/audit.h"
#include "chart/identity.h"
#include "chart/model.h"
#include "chart/noisy.h"
#include "common/format.h"
#include "common/text.h"
#include "measure/pairing.h"

/* Working state. */
struct builder {
    struct fb_chart_derived *d;
    size_t series_cap, pairs_cap;
    struct fb_error *err;
};

static int oom(struct builder *b)
{
    return fb_fail(b->err, FB_ERR_RUNTIME, "charts: out of memory");
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    if (n > SIZE_MAX / elem)
        return -1;
    void *p = realloc(*arr, n * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = n;
    return 0;
}

static const char *meta(const struct fb_csv_table *t, const char *key)
{
    const char *v = fb_csv_meta_get(t, key);
    return v ? v : "";
}

/* A file's stem: its base name less ".csv". */
static void stem_of(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".csv") == 0)
        len -= 4;
    snprintf(out, size, "%.*s", (int)len, base);
}

void fb_chart_format_suffix(const struct fb_record *r, char *out, size_t size)
{
    const char *dtype = fb_dtype_canonical(r->dtype);
    bool plain = !dtype[0] || strcmp(dtype, "fp32") == 0;
    snprintf(out, size, "%s%s%s%s", plain ? "" : "-", plain ? "" : dtype,
             strcmp(fb_stores_canonical(r->stores), "streaming") == 0 ? "-streaming" : "",
             strcmp(r->cache, "cold") == 0 ? "-cold" : "");
}

/* d->names (derive.h) of the files at paths, their stems set: where two files' stems are
 * alike, their directories' names tell them apart. */
static void name_files(struct fb_chart_derived *d, const char *const *paths)
{
    for (size_t f = 0; f < d->n_files; f++) {
        bool alike = false;
        for (size_t g = 0; g < d->n_files; g++)
            alike |= g != f && strcmp(d->stems[g], d->stems[f]) == 0;
        const char *base = strrchr(paths[f], '/'), *dir = base;
        while (dir && dir > paths[f] && dir[-1] != '/')
            dir--;
        const size_t dir_len = dir ? (size_t)(base - dir) : 0;
        if (!alike || dir_len == 0) {
            snprintf(d->names[f], sizeof d->names[f], "%s", d->stems[f]);
            continue;
        }
        /* at most 16 bytes of it, in whole characters: a key has room for little more */
        size_t len = 0;
        while (len < dir_len) {
            size_t c = fb_text_utf8_char(dir + len);
            c = c ? c : 1; /* a byte that is not UTF-8 counts alone */
            if (len + c > 16)
                break;
            len += c;
        }
        snprintf(d->names[f], sizeof d->names[f], "%.*s%s", (int)len, dir,
                 len < dir_len ? "…" : "");
    }
}

size_t fb_chart_find_series(const struct fb_chart_derived *d, size_t file, const char *key)
{
    for (size_t i = 0; i < d->n_series; i++)
        if (d->series[i].file == file && strcmp(d->series[i].key, key) == 0)
            return i;
    return SIZE_MAX;
}

static bool drawable(const struct fb_record *r)
{
    return r->status == FB_POINT_OK && r->n > 0 && isfinite(r->time_median_s) &&
           r->time_median_s > 0;
}

/* A row of a series, for sorting: series, n, then file order (the later row wins). */
struct slot {
    size_t series, row;
    int64_t n;
};

static int compare_slots(const void *pa, const void *pb)
{
    const struct slot *a = pa, *b = pb;
    if (a->series != b->series)
        return a->series < b->series ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

static double finite_or_nan(double x)
{
    return isfinite(x) ? x : NAN;
}

static double count_or_nan(int64_t x)
{
    return x >= 0 ? (double)x : NAN;
}

/* The series of one file, with their points. */
static int add_file_series(struct builder *b, struct fb_csv_table *t, size_t file,
                           const char *run_backend)
{
    struct fb_chart_derived *d = b->d;
    struct slot *slots = malloc((t->n_records ? t->n_records : 1) * sizeof *slots);
    if (!slots)
        return oom(b);
    size_t used = 0, first = d->n_series;
    for (size_t i = 0; i < t->n_records; i++) {
        const struct fb_record *r = &t->records[i];
        if (file == 0 && r->status == FB_POINT_NOISY)
            d->noisy++;
        if (!drawable(r))
            continue;
        char suffix[48], key[FB_CHART_KEY_MAX];
        fb_chart_format_suffix(r, suffix, sizeof suffix);
        snprintf(key, sizeof key, "%s%s", r->variant, suffix);
        size_t s = SIZE_MAX;
        for (size_t k = first; k < d->n_series && s == SIZE_MAX; k++)
            if (strcmp(d->series[k].key, key) == 0)
                s = k;
        if (s == SIZE_MAX) {
            if (grow((void **)&d->series, &b->series_cap, d->n_series + 1, sizeof *d->series)) {
                free(slots);
                return oom(b);
            }
            s = d->n_series++;
            struct fb_chart_series *se = &d->series[s];
            memset(se, 0, sizeof *se);
            se->file = file;
            snprintf(se->key, sizeof se->key, "%s", key);
            snprintf(se->variant, sizeof se->variant, "%s", r->variant);
            snprintf(se->dtype, sizeof se->dtype, "%s", fb_dtype_canonical(r->dtype));
            snprintf(se->stores, sizeof se->stores, "%s", fb_stores_canonical(r->stores));
            se->cold = strcmp(r->cache, "cold") == 0;
            se->elements = se->launches = se->host_launches = NAN;
            se->write_allocate = fb_model_write_allocate(run_backend, r->stores);
            struct fb_chart_identity id = fb_chart_identity_form(r->variant, file > 0, suffix);
            se->colour = id.colour;
            se->point_type = id.point_type;
            se->dash = id.dash;
        }
        /* What the series is and what it models: from its last row that says it. */
        struct fb_chart_series *se = &d->series[s];
        if (r->role[0] || !se->role[0])
            snprintf(se->role, sizeof se->role, "%s", r->role);
        if (r->pair[0])
            snprintf(se->pair_key, sizeof se->pair_key, "%s%s", r->pair, suffix);
        double elements = fb_model_elements(r);
        if (isfinite(elements))
            se->elements = elements;
        if (r->launches >= 0)
            se->launches = (double)r->launches;
        if (r->host_launches >= 0)
            se->host_launches = (double)r->host_launches;
        else if (r->launches >= 0) /* older files and peers: each kernel its own launch */
            se->host_launches = (double)r->launches;
        slots[used++] = (struct slot){s, i, r->n};
    }
    qsort(slots, used, sizeof *slots, compare_slots);
    for (size_t lo = 0, hi; lo < used; lo = hi) {
        for (hi = lo + 1; hi < used && slots[hi].series == slots[lo].series; hi++)
            ;
        struct fb_chart_series *se = &d->series[slots[lo].series];
        se->points = malloc((hi - lo) * sizeof *se->points);
        if (!se->points) {
            free(slots);
            return oom(b);
        }
        for (size_t k = lo; k < hi; k++) {
            if (k + 1 < hi && slots[k + 1].n == slots[k].n)
                continue; /* a later row of the same point follows */
            const struct fb_record *r = &t->records[slots[k].row];
            double bw = r->bytes_model > 0 ? (double)r->bytes_model / r->time_median_s / 1e9
                                           : finite_or_nan(r->bandwidth_gbps);
            struct fb_chart_point p = {
                (double)r->n, r->time_median_s,
                isfinite(r->time_p10_s) ? r->time_p10_s : r->time_median_s,
                isfinite(r->time_p90_s) ? r->time_p90_s : r->time_median_s,
                bw, finite_or_nan(r->dram_bytes_per_element), count_or_nan(r->launches),
                finite_or_nan(r->kernel_time_s), finite_or_nan(r->copy_fraction),
                finite_or_nan(r->speedup), finite_or_nan(r->ours_ratio),
                finite_or_nan(r->ours_ratio_lo), finite_or_nan(r->ours_ratio_hi),
                finite_or_nan(r->speedup_lo), finite_or_nan(r->speedup_hi)};
            se->points[se->n_points++] = p;
            se->has_ours_ratio |= isfinite(p.ours_ratio);
            se->has_dram |= isfinite(p.dram_elements);
            se->has_copy_fraction |= isfinite(p.copy_fraction);
        }
    }
    free(slots);
    for (size_t s = first; s < d->n_series; s++) {
        struct fb_chart_series *se = &d->series[s];
        se->model_launches = file == 0 ? fb_model_launches(se->role, se->elements) : -1;
    }
    return FB_OK;
}

/* The point of series s at size n, or NULL (points sorted by n). */
static const struct fb_chart_point *point_at(const struct fb_chart_series *s, double n)
{
    size_t lo = 0, hi = s->n_points;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->points[mid].n < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n_points && s->points[lo].n == n ? &s->points[lo] : NULL;
}

double fb_chart_stores(const struct fb_chart_series *s)
{
    if (isfinite(s->launches))
        return s->launches;
    return s->model_launches >= 0 ? s->model_launches : NAN;
}

static int add_pairs(struct builder *b)
{
    struct fb_chart_derived *d = b->d;
    for (size_t e = 0; e < d->n_series; e++) {
        const struct fb_chart_series *es = &d->series[e];
        if (strcmp(es->role, "eager") != 0 || !es->pair_key[0])
            continue;
        size_t f = fb_chart_find_series(d, es->file, es->pair_key);
        if (f == SIZE_MAX || f == e)
            continue;
        const struct fb_chart_series *fs = &d->series[f];
        struct fb_chart_speedup *pts = malloc((es->n_points ? es->n_points : 1) * sizeof *pts);
        if (!pts)
            return oom(b);
        size_t k = 0;
        for (size_t i = 0; i < es->n_points; i++) {
            const struct fb_chart_point *pe = &es->points[i], *pf = point_at(fs, pe->n);
            if (!pf || !isfinite(pe->speedup))
                continue;
            pts[k++] = (struct fb_chart_speedup){pe->n, pe->speedup, pe->speedup_lo,
                                                 pe->speedup_hi};
            if (pe->speedup > d->speedup_max || isnan(d->speedup_max))
                d->speedup_max = pe->speedup;
        }
        if (k == 0) {
            free(pts);
            continue;
        }
        if (grow((void **)&d->pairs, &b->pairs_cap, d->n_pairs + 1, sizeof *d->pairs)) {
            free(pts);
            return oom(b);
        }
        struct fb_chart_pair *p = &d->pairs[d->n_pairs++];
        memset(p, 0, sizeof *p);
        p->eager = e;
        p->fused = f;
        p->points = pts;
        p->n_points = k;
        p->primary = es->file == 0;
        p->launch_limit = es->host_launches / fs->host_launches;
        p->elements_eager = es->elements;
        p->elements_fused = fs->elements;
        p->traffic_ratio = es->elements / fs->elements;
        p->traffic_ratio_wa =
            es->write_allocate && fs->write_allocate
                ? fb_model_traffic(es->elements, fb_chart_stores(es), true) /
                      fb_model_traffic(fs->elements, fb_chart_stores(fs), true)
                : NAN;
        size_t shared = 0;
        for (size_t o = 0; o < d->n_series; o++)
            shared += d->series[o].file == es->file && strcmp(d->series[o].role, "eager") == 0 &&
                      strcmp(d->series[o].pair_key, es->pair_key) == 0;
        p->chain = shared == 1;
    }
    return FB_OK;
}

/* --- fit, regimes ---------------------------------------------------------------------- */

static void seconds_text(double t, char *out, size_t size)
{
    if (t < 1e-6)
        snprintf(out, size, "%.0f ns", t * 1e9);
    else
        snprintf(out, size, "%.2f \xC2\xB5s", t * 1e6);
}

static void gbps_text(double g, char *out, size_t size)
{
    snprintf(out, size, g >= 100 ? "%.0f GB/s" : "%.3g GB/s", g);
}

double fb_chart_curve_n(const struct fb_chart_derived *d, size_t i)
{
    double lo = log(d->nmin / 1.6), hi = log(d->nmax * 1.6);
    return exp(lo + (hi - lo) * (double)i / (FB_CHART_CURVE_POINTS - 1));
}

static bool positive(double x)
{
    return isfinite(x) && x > 0;
}

/* Whether a series launches each of its kernels itself (kernels counted = host launches;
 * unknown counts are taken as such), as the fit's model t = launches*L + bytes/B assumes. */
static bool one_kernel_per_launch(const struct fb_chart_series *s)
{
    return !isfinite(s->launches) || !isfinite(s->host_launches) ||
           s->launches == s->host_launches;
}

bool fb_chart_has_fit(const struct fb_chart_derived *d)
{
    return positive(d->fit_launch_s) && positive(d->fit_gbps);
}

bool fb_chart_has_cache_fit(const struct fb_chart_derived *d)
{
    return fb_chart_has_fit(d) && positive(d->fit_cache_gbps) && positive(d->cache_bytes);
}

static void add_fit(struct fb_chart_derived *d, const struct fb_csv_table *t0)
{
    bool have_fit = fb_chart_has_fit(d);
    bool have_cache_fit = fb_chart_has_cache_fit(d);
    const char *cache_label = d->cache_name[0] ? d->cache_name : "cache";
    if (have_fit) {
        char l[32], bw[32], bc[32];
        seconds_text(d->fit_launch_s, l, sizeof l);
        gbps_text(d->fit_gbps, bw, sizeof bw);
        snprintf(d->fit_text[0], sizeof d->fit_text[0], "fit: t = launches\xC2\xB7L + bytes/B");
        snprintf(d->fit_text[1], sizeof d->fit_text[1], "L = %s per launch", l);
        snprintf(d->fit_text[2], sizeof d->fit_text[2], "B = %s beyond the %s", bw, cache_label);
        d->n_fit_text = 3;
        if (have_cache_fit) {
            gbps_text(d->fit_cache_gbps, bc, sizeof bc);
            snprintf(d->fit_text[3], sizeof d->fit_text[3], "B_c = %s in the %s", bc,
                     cache_label);
            d->n_fit_text = 4;
        }
    }
    /* The fit is of the run's first format (# fit_format: "dtype fp32, stores normal"): its
     * curves are drawn for the series of that format only. */
    snprintf(d->fit_dtype, sizeof d->fit_dtype, "fp32");
    snprintf(d->fit_stores, sizeof d->fit_stores, "normal");
    const char *ff = meta(t0, "fit_format");
    if (*ff && sscanf(ff, "dtype %15[^,], stores %15s", d->fit_dtype, d->fit_stores) != 2)
        snprintf(d->fit_stores, sizeof d->fit_stores, "normal");
}

bool fb_chart_fit_covers(const struct fb_chart_derived *d, const struct fb_chart_pair *p)
{
    const struct fb_chart_series *e = &d->series[p->eager], *f = &d->series[p->fused];
    return p->primary && strcmp(e->dtype, d->fit_dtype) == 0 &&
           strcmp(e->stores, d->fit_stores) == 0 && positive(e->elements) &&
           positive(f->elements) && positive(e->host_launches) && positive(f->host_launches) &&
           one_kernel_per_launch(e) && one_kernel_per_launch(f);
}

/* Regime bounds and the cache line (derive.h). */
static void add_regimes(struct fb_chart_derived *d)
{
    const struct fb_chart_pair *main = NULL;
    for (size_t i = 0; i < d->n_pairs && !main; i++)
        if (d->pairs[i].primary)
            main = &d->pairs[i];
    d->n_launch = NAN;
    int arrays = 4;
    size_t size = 4;
    if (main) {
        const struct fb_chart_series *e = &d->series[main->eager];
        int kernels = isfinite(e->launches) ? (int)e->launches : e->model_launches;
        int a = fb_model_eager_arrays(e->elements, kernels);
        arrays = a > 0 ? a : arrays;
        size = fb_model_element_size(e->dtype);
    }
    d->n_cache = positive(d->cache_bytes) ? d->cache_bytes / (double)(arrays * size) : NAN;
    if (!main)
        return;
    const struct fb_chart_series *f = &d->series[main->fused];
    double bandwidth = positive(d->fit_cache_gbps) ? d->fit_cache_gbps : d->fit_gbps;
    double bytes_per_element = f->elements * (double)fb_model_element_size(f->dtype);
    if (positive(d->fit_launch_s) && positive(bandwidth) && positive(f->host_launches) &&
        positive(bytes_per_element)) {
        d->n_launch = f->host_launches * d->fit_launch_s * bandwidth * 1e9 / bytes_per_element;
        d->n_launch_from_fit = true;
        return;
    }
    if (f->n_points == 0)
        return;
    double t0 = f->points[0].time_s; /* points sorted by n: the smallest first */
    for (size_t i = 0; i < f->n_points; i++)
        if (f->points[i].time_s <= 2 * t0)
            d->n_launch = f->points[i].n;
}

/* --- the whole ------------------------------------------------------------------------- */

static void add_scalars(struct fb_chart_derived *d, const struct fb_csv_table *t0)
{
    d->nmin = d->nmax = d->bandwidth_max = d->copy_max = NAN;
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *s = &d->series[i];
        for (size_t k = 0; k < s->n_points; k++) {
            const struct fb_chart_point *p = &s->points[k];
            if (isnan(d->nmin) || p->n < d->nmin)
                d->nmin = p->n;
            if (isnan(d->nmax) || p->n > d->nmax)
                d->nmax = p->n;
            if (isfinite(p->bandwidth_gbps) && !(p->bandwidth_gbps <= d->bandwidth_max))
                d->bandwidth_max = p->bandwidth_gbps;
            if (s->file == 0 && strcmp(s->role, "copy_ceiling") == 0 &&
                isfinite(p->bandwidth_gbps) && !(p->bandwidth_gbps <= d->copy_max))
                d->copy_max = p->bandwidth_gbps;
        }
    }
    d->cache_bytes = fb_csv_meta_number(t0, "cache_bytes");
    d->fit_launch_s = fb_csv_meta_number(t0, "fit_launch_s");
    d->fit_gbps = fb_csv_meta_number(t0, "fit_bandwidth_gbps");
    d->fit_cache_gbps = fb_csv_meta_number(t0, "fit_cache_bandwidth_gbps");
    d->peak_gbps = fb_csv_meta_number(t0, "peak_bandwidth_gbps");
    const struct fb_record *first = t0->n_records ? &t0->records[0] : NULL;
    snprintf(d->device, sizeof d->device, "%s",
             *meta(t0, "device") ? meta(t0, "device") : first ? first->device : "");
    snprintf(d->backend, sizeof d->backend, "%s",
             *meta(t0, "backend") ? meta(t0, "backend") : first ? first->backend : "");
    const char *date = meta(t0, "date");
    snprintf(d->day, sizeof d->day, "%.*s", (int)strcspn(date, "T "), date);
    snprintf(d->cache_name, sizeof d->cache_name, "%s", meta(t0, "cache_name"));
    if (positive(d->cache_bytes))
        snprintf(d->cache_text, sizeof d->cache_text, "%s %.0f MB",
                 d->cache_name[0] ? d->cache_name : "cache", d->cache_bytes / 1048576.0);
}

/* Whether series s shares its colour and marker with a series it must give way to: any of
 * a fixed entry, or a hashed one before it. */
static bool clashes(const struct fb_chart_derived *d, size_t s)
{
    for (size_t t = 0; t < d->n_series; t++)
        if (t != s && d->series[t].colour == d->series[s].colour &&
            d->series[t].point_type == d->series[s].point_type &&
            (t < s || fb_chart_identity_is_fixed(d->series[t].variant)))
            return true;
    return false;
}

/* Every series of a hashed name moved on (fb_chart_identity_next) until no other has its
 * colour and marker; 36 entries in all, so at most 36 steps. */
static void keep_identities_apart(struct fb_chart_derived *d)
{
    for (size_t s = 0; s < d->n_series; s++) {
        struct fb_chart_series *se = &d->series[s];
        if (fb_chart_identity_is_fixed(se->variant))
            continue;
        for (int step = 0; step < 36 && clashes(d, s); step++) {
            struct fb_chart_identity id = {se->colour, se->point_type, se->dash};
            id = fb_chart_identity_next(id);
            se->colour = id.colour;
            se->point_type = id.point_type;
        }
    }
}

int fb_chart_derive(struct fb_csv_table *tables, const char *const *paths, size_t n,
                    struct fb_chart_derived *out, struct fb_error *err)
{
    memset(out, 0, sizeof *out);
    out->speedup_max = NAN;
    struct builder b = {.d = out, .err = err};
    if (n == 0 || n > FB_CHART_MAX_FILES)
        return fb_fail(err, FB_ERR_USAGE, "charts: from 1 to %d results files, not %zu",
                       FB_CHART_MAX_FILES, n);
    out->n_files = n;
    for (size_t f = 0; f < n; f++)
        stem_of(paths[f], out->stems[f], sizeof out->stems[f]);
    name_files(out, paths);
    for (size_t f = 0; f < n; f++) {
        struct fb_csv_table *t = &tables[f];
        fb_pairing_fill_builtin_roles(t->records, t->n_records);
        if (!fb_pairing_derive_missing(t->records, t->n_records) ||
            (f > 0 && !fb_pairing_copy_fraction_against(t->records, t->n_records,
                                                        tables[0].records,
                                                        tables[0].n_records)))
            return oom(&b);
        const char *run_backend = fb_csv_meta_get(t, "backend");
        if (!run_backend || !*run_backend)
            run_backend = t->n_records ? t->records[0].backend : "";
        int rc = add_file_series(&b, t, f, run_backend);
        if (rc != FB_OK)
            return rc;
    }
    keep_identities_apart(out);
    add_scalars(out, &tables[0]);
    int rc = add_pairs(&b);
    if (rc != FB_OK)
        return rc;
    add_regimes(out);
    add_fit(out, &tables[0]);
    fb_chart_derive_titles(out, NULL, 0);
    rc = fb_chart_add_noisy(out, &tables[0], err);
    return rc == FB_OK ? fb_audit_derive(out, &tables[0], err) : rc;
}

/* The name given for variant, or NULL. */
static const struct fb_chart_name *name_of(const struct fb_chart_name *names, size_t n,
                                           const char *variant)
{
    for (size_t i = n; i-- > 0;) /* the later one wins */
        if (strcmp(names[i].variant, variant) == 0)
            return &names[i];
    return NULL;
}

/* A series' label without the stem of an overlay. */
static void series_label(const struct fb_chart_series *s, const struct fb_chart_name *name,
                         char *out, size_t size)
{
    const char *form = s->key + strlen(s->variant);
    if (name && name->whole) {
        char forms[64];
        snprintf(out, size, "%s%s", name->text,
                 fb_chart_identity_form_words(forms, sizeof forms, form));
    } else {
        fb_chart_identity_words(out, size, s->variant, s->role, name ? name->text : NULL,
                                form, s->launches, s->host_launches);
    }
}

void fb_chart_derive_titles(struct fb_chart_derived *d, const struct fb_chart_name *names,
                            size_t n_names)
{
    for (size_t i = 0; i < d->n_series; i++) {
        struct fb_chart_series *s = &d->series[i];
        char label[FB_CHART_TEXT_MAX];
        series_label(s, name_of(names, n_names, s->variant), label, sizeof label);
        bool repeated = false;
        for (size_t k = 0; k < i && !repeated; k++)
            repeated = d->series[k].file < s->file && strcmp(d->series[k].key, s->key) == 0;
        /* an overlay's series of a key an earlier file has: its file's name in brackets
         * before its count, which a narrow key drops first ("eager: add, relu
         * [cpu-amd-epyc] (2 kernels)") */
        const char *count = NULL;
        for (const char *c = label; (c = strstr(c, " (")); c++)
            count = c;
        if (!count)
            count = label + strlen(label);
        if (repeated)
            snprintf(s->title, sizeof s->title, "%.*s [%.120s]%.60s",
                     (int)(count - label < 120 ? count - label : 120), label,
                     d->names[s->file], count);
        else
            snprintf(s->title, sizeof s->title, "%s", label);
    }
    for (size_t i = 0; i < d->n_pairs; i++) {
        struct fb_chart_pair *p = &d->pairs[i];
        const struct fb_chart_series *e = &d->series[p->eager], *f = &d->series[p->fused];
        const struct fb_chart_name *fname = name_of(names, n_names, f->variant);
        char other[FB_CHART_TEXT_MAX];
        if (fname && fname->whole) {
            snprintf(other, sizeof other, "%.200s", fname->text);
        } else {
            /* the fused side's words without what both compute: "fused (1 kernel)" */
            char words[FB_CHART_TEXT_MAX];
            fb_chart_identity_words(words, sizeof words, f->variant, f->role, NULL, "",
                                    f->launches, f->host_launches);
            const char *count = strrchr(words, '(');
            const char *how = fb_chart_identity_how(f->variant, f->role);
            /* a chain's fused side: its name is on the eager side already */
            if (strncmp(how, "fused ", 6) == 0 && strncmp(e->variant, "eager_", 6) == 0 &&
                strcmp(how + 6, e->variant + 6) == 0)
                how = "fused";
            snprintf(other, sizeof other, "%s%s%s", how, count ? " " : "", count ? count : "");
        }
        snprintf(p->title, sizeof p->title, "%.150s / %.100s", e->title, other);
    }
}

void fb_chart_derived_free(struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_series; i++)
        free(d->series[i].points);
    for (size_t i = 0; i < d->n_pairs; i++)
        free(d->pairs[i].points);
    free(d->series);
    free(d->pairs);
    free(d->noisy_times);
    free(d->noisy_speedups);
    fb_audit_free(d->audit);
    memset(d, 0, sizeof *d);
}
