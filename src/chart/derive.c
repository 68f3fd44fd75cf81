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
#include "measure/pairing.h"

/* Model line colours (a series' own comes from chart/identity.h). */
enum { GREY = 0x555555, BROWN = 0x8c564b, TARGET_RED = 0xb2182b, EAGER_MODEL = 0xD55E00,
       FUSED_MODEL = 0x0072B2 };
/* The dtype chart's colours and points: fp32, fp16, bf16 (Okabe-Ito blue, vermillion,
 * bluish green). */
static const unsigned dtype_colours[] = {0x0072B2, 0xD55E00, 0x009E73};
static const int dtype_points[] = {7, 5, 9};
/* Dash types of the model lines: launches, traffic, traffic with write-allocate. */
enum { DASH_LAUNCH = 2, DASH_TRAFFIC = 4, DASH_WA = 3 };
/* Fused over copy: the bandwidth target (DESIGN.md: fused >= 90% of copy), in percent. */
#define COPY_TARGET_PERCENT 90.0

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

static double meta_number(const struct fb_csv_table *t, const char *key)
{
    const char *v = fb_csv_meta_get(t, key);
    if (!v || !*v)
        return NAN;
    char *end;
    double x = strtod(v, &end);
    return *end == '\0' && isfinite(x) ? x : NAN;
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

/* The format suffix of a row's series (derive.h). */
static void format_suffix(const struct fb_record *r, char *out, size_t size)
{
    const char *dtype = fb_dtype_canonical(r->dtype);
    bool plain = !dtype[0] || strcmp(dtype, "fp32") == 0;
    snprintf(out, size, "%s%s%s%s", plain ? "" : "-", plain ? "" : dtype,
             strcmp(fb_stores_canonical(r->stores), "streaming") == 0 ? "-streaming" : "",
             strcmp(r->cache, "cold") == 0 ? "-cold" : "");
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
        format_suffix(r, suffix, sizeof suffix);
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


static double stores_of(const struct fb_chart_series *s)
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
                ? fb_model_traffic(es->elements, stores_of(es), true) /
                      fb_model_traffic(fs->elements, stores_of(fs), true)
                : NAN;
        size_t shared = 0;
        for (size_t o = 0; o < d->n_series; o++)
            shared += d->series[o].file == es->file && strcmp(d->series[o].role, "eager") == 0 &&
                      strcmp(d->series[o].pair_key, es->pair_key) == 0;
        p->chain = shared == 1;
    }
    return FB_OK;
}

/* --- model lines ------------------------------------------------------------------------ */

/* A fraction of two whole numbers of arrays as text ("5/3"), or the value (%.3g). */
static void fraction_text(double num, double den, char *out, size_t size)
{
    if (num == floor(num) && den == floor(den) && num > 0 && den > 0 && num < 1e6 && den < 1e6)
        snprintf(out, size, "%.0f/%.0f", num, den);
    else
        snprintf(out, size, "%.3g", num / den);
}

/* The line of `value` and `dash` among lines[0..*n-1], adding it when new. A line shared by
 * pairs of other colours turns grey. */
static struct fb_chart_line *add_line(struct fb_chart_line *lines, size_t *n, size_t cap,
                                      double value, int dash, const char *title, unsigned colour)
{
    if (!isfinite(value))
        return NULL;
    for (size_t i = 0; i < *n; i++)
        if (lines[i].dash == dash && fabs(lines[i].value - value) <= 1e-9 * fabs(value)) {
            if (lines[i].colour != colour)
                lines[i].colour = GREY;
            return &lines[i];
        }
    if (*n == cap)
        return NULL;
    struct fb_chart_line *l = &lines[(*n)++];
    l->value = value;
    l->dash = dash;
    l->from = 0;
    l->to = INFINITY;
    l->colour = colour;
    snprintf(l->title, sizeof l->title, "%s", title);
    return l;
}

/* One model line per kind is grey when it is the only one of its kind; with more than 3 of
 * a kind, only the first keeps a legend entry, saying the colours are the pairs'. */
static void settle_lines(struct fb_chart_line *lines, size_t n, int dash, const char *many)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += lines[i].dash == dash;
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (lines[i].dash != dash)
            continue;
        if (count == 1)
            lines[i].colour = GREY;
        if (count > 3) {
            snprintf(lines[i].title, sizeof lines[i].title, "%s", first ? many : "");
            first = false;
        }
    }
}

static void add_speedup_lines(struct fb_chart_derived *d)
{
    bool streaming = false, normal = false;
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_series *e = &d->series[d->pairs[i].eager];
        if (strcmp(e->stores, "streaming") == 0)
            streaming = true;
        else
            normal = true;
    }
    bool cpu_both = strcmp(d->backend, "cpu") == 0 && streaming && normal;
    const size_t cap = sizeof d->speedup_lines / sizeof d->speedup_lines[0];
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        const struct fb_chart_series *e = &d->series[p->eager], *f = &d->series[p->fused];
        char title[FB_CHART_TEXT_MAX], frac[48];
        if (isfinite(p->launch_limit) && p->launch_limit != 1.0) {
            /* what the line is, as the speedup of the launch-bound regime sits near it
             * (above it where an eager launch costs more than the fused one) */
            if (e->host_launches > 0 && f->host_launches > 0)
                snprintf(title, sizeof title, "model: launch limit %.3g (launches: %.0f / %.0f)",
                         p->launch_limit, e->host_launches, f->host_launches);
            else
                snprintf(title, sizeof title, "model: launch limit %.3g", p->launch_limit);
            add_line(d->speedup_lines, &d->n_speedup_lines, cap, p->launch_limit, DASH_LAUNCH,
                     title, e->colour);
        }
        fraction_text(p->elements_eager, p->elements_fused, frac, sizeof frac);
        /* with both store kinds on a CPU, this is the streaming stores' model (the normal
         * stores' is the write-allocate line) */
        snprintf(title, sizeof title, "model: traffic ratio %s%s", frac,
                 cpu_both ? " (streaming stores)" : "");
        add_line(d->speedup_lines, &d->n_speedup_lines, cap, p->traffic_ratio, DASH_TRAFFIC,
                 title, e->colour);
        if (isfinite(p->traffic_ratio_wa)) {
            fraction_text(fb_model_traffic(e->elements, stores_of(e), true),
                          fb_model_traffic(f->elements, stores_of(f), true), frac, sizeof frac);
            snprintf(title, sizeof title, "model: %s %s",
                     cpu_both ? "write-allocate (normal stores)"
                              : "traffic with write-allocate (CPU)", frac);
            add_line(d->speedup_lines, &d->n_speedup_lines, cap, p->traffic_ratio_wa, DASH_WA,
                     title, e->colour);
        }
    }
    settle_lines(d->speedup_lines, d->n_speedup_lines, DASH_LAUNCH,
                 "models: launch limits (pairs' colours)");
    settle_lines(d->speedup_lines, d->n_speedup_lines, DASH_TRAFFIC,
                 "models: traffic ratios (pairs' colours)");
    settle_lines(d->speedup_lines, d->n_speedup_lines, DASH_WA,
                 "models: write-allocate traffic (pairs' colours)");
}

static long gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The fused series on the copy-fraction chart (of every file: a peer's fused rows are set
 * against the charted run's copy ceiling) and the model lines: 1 (both move their model
 * bytes), the write-allocate ratio where stores read their lines, the 90% target. */
static int add_copy_fraction(struct builder *b)
{
    struct fb_chart_derived *d = b->d;
    const struct fb_chart_series *copy = NULL;
    for (size_t i = 0; i < d->n_series && !copy; i++)
        if (d->series[i].file == 0 && strcmp(d->series[i].role, "copy_ceiling") == 0)
            copy = &d->series[i];
    d->fused_on_copy_chart = malloc((d->n_series ? d->n_series : 1) * sizeof(size_t));
    if (!d->fused_on_copy_chart)
        return oom(b);
    bool cpu = strcmp(d->backend, "cpu") == 0, streaming = false;
    const size_t cap = sizeof d->copy_lines / sizeof d->copy_lines[0];
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *f = &d->series[i];
        if (strcmp(f->role, "fused") != 0 || !f->has_copy_fraction)
            continue;
        d->fused_on_copy_chart[d->n_fused_on_copy_chart++] = i;
        streaming |= strcmp(f->stores, "streaming") == 0;
        if (copy && f->write_allocate && copy->write_allocate) {
            double tf = fb_model_traffic(f->elements, stores_of(f), true);
            double tc = fb_model_traffic(copy->elements, stores_of(copy), true);
            /* (ef / tf) / (ec / tc) = ef tc / (tf ec) */
            double num = f->elements * tc, den = tf * copy->elements;
            char title[FB_CHART_TEXT_MAX], frac[48];
            if (num == floor(num) && den == floor(den) && num > 0 && den > 0 && num < 1e9) {
                long g = gcd((long)num, (long)den);
                snprintf(frac, sizeof frac, "%ld/%ld", (long)num / g, (long)den / g);
            } else {
                snprintf(frac, sizeof frac, "%.3g", num / den);
            }
            snprintf(title, sizeof title, "%s: model, normal stores (write-allocate)", frac);
            add_line(d->copy_lines, &d->n_copy_lines, cap, 100.0 * num / den, DASH_WA, title,
                     BROWN);
        }
    }
    const char *plain = !cpu ? "1: traffic model"
                        : streaming ? "1: model, streaming stores (no write-allocate)"
                                    : "1: model without write-allocate";
    add_line(d->copy_lines, &d->n_copy_lines, cap, 100.0, DASH_TRAFFIC, plain, GREY);
    char target[64];
    snprintf(target, sizeof target, "target %.0f%%", COPY_TARGET_PERCENT);
    add_line(d->copy_lines, &d->n_copy_lines, cap, COPY_TARGET_PERCENT, DASH_LAUNCH, target,
             TARGET_RED);
    return FB_OK;
}

/* DRAM elements per element: one model line per role and elements among the series with
 * measured DRAM bytes. */
static void add_bytes_lines(struct fb_chart_derived *d)
{
    const size_t cap = sizeof d->bytes_lines / sizeof d->bytes_lines[0];
    for (size_t i = 0; i < d->n_series; i++) {
        const struct fb_chart_series *s = &d->series[i];
        if (!s->has_dram || !isfinite(s->elements))
            continue;
        const char *role = strcmp(s->role, "copy_ceiling") == 0 ? "copy" : s->role;
        unsigned colour = strcmp(s->role, "eager") == 0   ? EAGER_MODEL
                          : strcmp(s->role, "fused") == 0 ? FUSED_MODEL
                                                          : 0x000000;
        char title[FB_CHART_TEXT_MAX];
        snprintf(title, sizeof title, "model %s: %g", role[0] ? role : "?", s->elements);
        /* keyed by value and role: dash 2 for eager and fused, 3 for the rest */
        int dash = strcmp(s->role, "eager") == 0 || strcmp(s->role, "fused") == 0 ? 2 : 3;
        struct fb_chart_line *l = NULL;
        for (size_t k = 0; k < d->n_bytes_lines && !l; k++)
            if (d->bytes_lines[k].value == s->elements && strcmp(d->bytes_lines[k].title, title) == 0)
                l = &d->bytes_lines[k];
        if (!l && d->n_bytes_lines < cap) {
            l = &d->bytes_lines[d->n_bytes_lines++];
            l->value = s->elements;
            l->dash = dash;
            l->colour = colour;
            snprintf(l->title, sizeof l->title, "%s", title);
        }
    }
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

/* The samples of the curves: FB_CHART_CURVE_POINTS sizes, log-spaced over the drawn range
 * (the x axis spans nmin / 1.6 .. nmax * 1.6). */
static double curve_n(const struct fb_chart_derived *d, size_t i)
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

static int add_fit(struct builder *b, const struct fb_csv_table *t0)
{
    struct fb_chart_derived *d = b->d;
    bool have_fit = positive(d->fit_launch_s) && positive(d->fit_gbps);
    bool have_cache_fit = have_fit && positive(d->fit_cache_gbps) && positive(d->cache_bytes);
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
    if (!have_fit)
        return FB_OK;
    /* The fit is of the run's first format (# fit_format: "dtype fp32, stores normal"): its
     * curves are drawn for the series of that format only. */
    char fit_dtype[16] = "fp32", fit_stores[16] = "normal";
    const char *ff = meta(t0, "fit_format");
    if (*ff && sscanf(ff, "dtype %15[^,], stores %15s", fit_dtype, fit_stores) != 2)
        snprintf(fit_stores, sizeof fit_stores, "normal");
    double L = d->fit_launch_s, B = d->fit_gbps * 1e9, Bc = d->fit_cache_gbps * 1e9;
    d->time_curves = calloc(d->n_series ? d->n_series : 1, sizeof *d->time_curves);
    d->predicted_curves = calloc(d->n_pairs ? d->n_pairs : 1, sizeof *d->predicted_curves);
    if (!d->time_curves || !d->predicted_curves)
        return oom(b);
    bool *curved = calloc(d->n_series ? d->n_series : 1, sizeof *curved);
    if (!curved)
        return oom(b);
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        const struct fb_chart_series *e = &d->series[p->eager], *f = &d->series[p->fused];
        if (!p->primary || strcmp(e->dtype, fit_dtype) != 0 || strcmp(e->stores, fit_stores) != 0)
            continue;
        if (!positive(e->elements) || !positive(f->elements) || !positive(e->host_launches) ||
            !positive(f->host_launches))
            continue;
        /* The fit prices a launch, not a kernel: a side that runs more kernels than it
         * launches (a graph) pays for kernels the model does not see (the graph pair's data
         * sits at 1.7-1.9 where the model says 1.0), so neither its curve nor the pair's
         * prediction is drawn. */
        if (!one_kernel_per_launch(e) || !one_kernel_per_launch(f))
            continue;
        double size = (double)fb_model_element_size(e->dtype);
        size_t sides[2] = {p->eager, p->fused};
        for (int k = 0; k < 2; k++) {
            const struct fb_chart_series *s = &d->series[sides[k]];
            if (curved[sides[k]])
                continue;
            curved[sides[k]] = true;
            struct fb_chart_curve *c = &d->time_curves[d->n_time_curves++];
            c->colour = s->colour;
            for (size_t j = 0; j < FB_CHART_CURVE_POINTS; j++) {
                double n = curve_n(d, j), bytes = s->elements * size * n;
                c->n[j] = n;
                c->y[j] = fb_model_time(s->host_launches, L, bytes, B);
                c->y_cache[j] = have_cache_fit && bytes <= d->cache_bytes
                                    ? fb_model_time(s->host_launches, L, bytes, Bc) : NAN;
            }
        }
        bool repeat = false;
        for (size_t k = 0; k < i && !repeat; k++) {
            const struct fb_chart_pair *q = &d->pairs[k];
            const struct fb_chart_series *qe = &d->series[q->eager], *qf = &d->series[q->fused];
            repeat = q->primary && qe->elements == e->elements && qf->elements == f->elements &&
                     qe->host_launches == e->host_launches && qf->host_launches == f->host_launches &&
                     strcmp(qe->dtype, fit_dtype) == 0 && strcmp(qe->stores, fit_stores) == 0;
        }
        if (repeat)
            continue;
        struct fb_chart_curve *c = &d->predicted_curves[d->n_predicted_curves++];
        c->colour = e->colour;
        for (size_t j = 0; j < FB_CHART_CURVE_POINTS; j++) {
            double n = curve_n(d, j), be = e->elements * size * n, bf = f->elements * size * n;
            c->n[j] = n;
            c->y[j] = fb_model_time(e->host_launches, L, be, B) /
                      fb_model_time(f->host_launches, L, bf, B);
            c->y_cache[j] = have_cache_fit && be <= d->cache_bytes
                                ? fb_model_time(e->host_launches, L, be, Bc) /
                                      fb_model_time(f->host_launches, L, bf, Bc)
                                : NAN;
        }
    }
    free(curved);
    return FB_OK;
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

/* --- the storage-type and chain-length charts -------------------------------------------- */

/* Each speedup model line where its model applies (derive.h): a launch limit is what the
 * speedup tends to where launches dominate, a traffic ratio where DRAM traffic does. */
static void limit_speedup_lines(struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_speedup_lines; i++) {
        struct fb_chart_line *l = &d->speedup_lines[i];
        if (l->dash == DASH_LAUNCH && positive(d->n_launch))
            l->to = d->n_launch;
        else if (l->dash != DASH_LAUNCH && positive(d->n_cache))
            l->from = d->n_cache;
    }
}

static int dtype_index(const char *dtype)
{
    enum fb_dtype d;
    return fb_dtype_parse(dtype, &d) ? (int)d : -1;
}

static void add_dtypes(struct fb_chart_derived *d)
{
    /* The first eager variant of the charted run with pairs in several dtypes. */
    for (size_t i = 0; i < d->n_pairs && d->n_dtype_lines < 2; i++) {
        const struct fb_chart_series *e = &d->series[d->pairs[i].eager];
        if (!d->pairs[i].primary || strcmp(e->stores, "normal") != 0 || e->cold)
            continue;
        d->n_dtype_lines = 0;
        for (int dt = 0; dt < FB_DTYPE_COUNT; dt++) {
            for (size_t k = 0; k < d->n_pairs; k++) {
                const struct fb_chart_pair *p = &d->pairs[k];
                const struct fb_chart_series *pe = &d->series[p->eager];
                if (!p->primary || strcmp(pe->variant, e->variant) != 0 || pe->cold ||
                    strcmp(pe->stores, "normal") != 0 || dtype_index(pe->dtype) != dt)
                    continue;
                struct fb_chart_dtype_line *l = &d->dtype_lines[d->n_dtype_lines++];
                snprintf(l->dtype, sizeof l->dtype, "%s", pe->dtype);
                l->colour = dtype_colours[dt];
                l->point_type = dtype_points[dt];
                size_t elem = fb_model_element_size(pe->dtype);
                l->n_points = 0;
                for (size_t j = 0; j < p->n_points && l->n_points < 256; j++) {
                    l->n[l->n_points] = p->points[j].n;
                    l->bytes_per_tensor[l->n_points] = p->points[j].n * (double)elem;
                    l->speedup[l->n_points] = p->points[j].speedup;
                    l->n_points++;
                }
                if (dt == FB_DTYPE_FP32 || d->dtype_arrays == 0) {
                    int kernels = isfinite(pe->launches) ? (int)pe->launches : pe->model_launches;
                    d->dtype_arrays = fb_model_eager_arrays(pe->elements, kernels);
                }
                snprintf(d->dtype_variant, sizeof d->dtype_variant, "%s", pe->variant);
                snprintf(d->dtype_pair, sizeof d->dtype_pair, "%s", d->series[p->fused].variant);
                break;
            }
        }
    }
    if (d->n_dtype_lines < 2)
        d->n_dtype_lines = 0;
}

static int add_chains(struct builder *b)
{
    struct fb_chart_derived *d = b->d;
    const struct fb_chart_series *format = NULL;
    size_t total = 0;
    for (size_t i = 0; i < d->n_pairs; i++)
        if (d->pairs[i].primary && d->pairs[i].chain)
            total += d->pairs[i].n_points;
    d->chain_points = malloc((total ? total : 1) * sizeof *d->chain_points);
    if (!d->chain_points)
        return oom(b);
    double seen[64];
    size_t n_seen = 0;
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        const struct fb_chart_series *e = &d->series[p->eager];
        if (!p->primary || !p->chain)
            continue;
        /* one format: the first chain's */
        if (!format)
            format = e;
        if (strcmp(e->dtype, format->dtype) || strcmp(e->stores, format->stores) ||
            e->cold != format->cold)
            continue;
        double kernels = isfinite(e->launches) ? e->launches : e->model_launches;
        if (!(kernels >= 1))
            continue;
        bool first = true;
        for (size_t k = 0; k < n_seen && first; k++)
            first = seen[k] != kernels;
        if (first && n_seen < 64)
            seen[n_seen++] = kernels;
        for (size_t j = 0; j < p->n_points; j++) {
            struct fb_chart_chain_point *c = &d->chain_points[d->n_chain_points++];
            c->kernels = kernels;
            c->n = p->points[j].n;
            c->speedup = p->points[j].speedup;
            c->launch_limit = p->launch_limit;
            c->traffic_ratio = p->traffic_ratio;
            c->traffic_ratio_wa = p->traffic_ratio_wa;
            c->first_at_k = first;
            snprintf(c->name, sizeof c->name, "%s", e->variant);
        }
    }
    d->chain_lengths = n_seen;
    return FB_OK;
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
    d->cache_bytes = meta_number(t0, "cache_bytes");
    d->fit_launch_s = meta_number(t0, "fit_launch_s");
    d->fit_gbps = meta_number(t0, "fit_bandwidth_gbps");
    d->fit_cache_gbps = meta_number(t0, "fit_cache_bandwidth_gbps");
    d->peak_gbps = meta_number(t0, "peak_bandwidth_gbps");
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
    for (size_t f = 0; f < n; f++) {
        stem_of(paths[f], out->stems[f], sizeof out->stems[f]);
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
    add_scalars(out, &tables[0]);
    int rc = add_pairs(&b);
    if (rc == FB_OK)
        rc = add_copy_fraction(&b);
    if (rc != FB_OK)
        return rc;
    add_speedup_lines(out);
    add_bytes_lines(out);
    add_regimes(out);
    limit_speedup_lines(out);
    add_dtypes(out);
    rc = add_fit(&b, &tables[0]);
    if (rc == FB_OK)
        rc = add_chains(&b);
    fb_chart_derive_titles(out, NULL, 0);
    if (rc == FB_OK)
        rc = fb_chart_add_noisy(out, &tables[0], err);
    if (rc == FB_OK)
        rc = fb_audit_derive(out, &tables[0], err);
    return rc;
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
        snprintf(s->title, sizeof s->title, "%.200s%s%.40s%s", label, repeated ? " (" : "",
                 repeated ? d->stems[s->file] : "", repeated ? ")" : "");
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
    free(d->fused_on_copy_chart);
    free(d->time_curves);
    free(d->predicted_curves);
    free(d->chain_points);
    free(d->noisy_times);
    free(d->noisy_speedups);
    fb_audit_free(d->audit);
    memset(d, 0, sizeof *d);
}
