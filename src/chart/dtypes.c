/* The storage-type chart: one eager variant's speedup per dtype (normal stores, warm), against
 * n and against bytes per tensor, when the charted run has it in several (plots/dtypes.gp).
 *   dtypes.tsv    i, dtype, colour, pt; d<i>.dat: n, bytes_per_tensor, speedup
 *   dtype_labels.tsv  one row: variant, pair (its fused variant), cache_x (bytes per tensor at
 *                 which the eager chain's tensors fill the cache, -1 unknown), cache_text */
#include "chart/charts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart/model.h"
#include "common/format.h"

/* fp32, fp16, bf16: Okabe-Ito blue, vermillion, bluish green, and a marker each. */
static const unsigned dtype_colours[] = {0x0072B2, 0xD55E00, 0x009E73};
static const int dtype_points[] = {7, 5, 9};

static int dtype_index(const char *dtype)
{
    enum fb_dtype d;
    return fb_dtype_parse(dtype, &d) ? (int)d : -1;
}

/* The charted run's pair of eager variant e in dtype dt (normal stores, warm), or NULL. */
static const struct fb_chart_pair *pair_in(const struct fb_chart_derived *d,
                                           const struct fb_chart_series *e, int dt)
{
    for (size_t k = 0; k < d->n_pairs; k++) {
        const struct fb_chart_pair *p = &d->pairs[k];
        const struct fb_chart_series *pe = &d->series[p->eager];
        if (p->primary && strcmp(pe->variant, e->variant) == 0 && !pe->cold &&
            strcmp(pe->stores, "normal") == 0 && dtype_index(pe->dtype) == dt)
            return p;
    }
    return NULL;
}

/* The first eager series of the charted run whose variant has pairs in several dtypes, or
 * NULL. */
static const struct fb_chart_series *charted(const struct fb_chart_derived *d)
{
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_series *e = &d->series[d->pairs[i].eager];
        if (!d->pairs[i].primary || strcmp(e->stores, "normal") != 0 || e->cold)
            continue;
        int dtypes = 0;
        for (int dt = 0; dt < FB_DTYPE_COUNT; dt++)
            dtypes += pair_in(d, e, dt) != NULL;
        if (dtypes >= 2)
            return e;
    }
    return NULL;
}

static const char *one_dtype(const struct fb_chart_derived *d)
{
    return charted(d) ? NULL : "no eager variant in several dtypes";
}

static void tables(const struct fb_chart_derived *d, struct fb_tables *ts)
{
    const struct fb_chart_series *e = charted(d);
    struct fb_table *t = fb_table_add(ts, "i dtype colour pt", "dtypes.tsv");
    int arrays = 0; /* the arrays the eager chain touches: its fp32 one's, else the first's */
    const char *pair = "";
    for (int dt = 0; e && dt < FB_DTYPE_COUNT; dt++) {
        const struct fb_chart_pair *p = pair_in(d, e, dt);
        if (!p)
            continue;
        const struct fb_chart_series *pe = &d->series[p->eager];
        fb_table_num(t, (double)fb_table_rows(t) + 1);
        fb_table_text(t, pe->dtype);
        fb_table_colour(t, dtype_colours[dt]);
        fb_table_num(t, dtype_points[dt]);
        struct fb_table *dat = fb_table_add(ts, "n bytes_per_tensor speedup", "d%zu.dat",
                                            fb_table_rows(t));
        size_t elem = fb_model_element_size(pe->dtype);
        for (size_t j = 0; j < p->n_points && j < 256; j++)
            fb_table_nums(dat, (const double[]){p->points[j].n, p->points[j].n * (double)elem,
                                                p->points[j].speedup}, 3);
        if (dt == FB_DTYPE_FP32 || arrays == 0) {
            int kernels = isfinite(pe->launches) ? (int)pe->launches : pe->model_launches;
            arrays = fb_model_eager_arrays(pe->elements, kernels);
        }
        pair = d->series[p->fused].variant;
    }
    const char *cache = d->cache_name[0] ? d->cache_name : "cache";
    char text[FB_CHART_TEXT_MAX] = "";
    if (arrays > 0)
        snprintf(text, sizeof text, "%s / %d (eager: %d tensors)", cache, arrays, arrays);
    t = fb_table_add(ts, "variant pair cache_x cache_text", "dtype_labels.tsv");
    fb_table_text(t, e ? e->variant : "");
    fb_table_text(t, pair);
    fb_table_num(t, arrays > 0 && isfinite(d->cache_bytes) ? d->cache_bytes / arrays : -1);
    fb_table_text(t, text);
}

const struct fb_chart fb_chart_dtypes = {"dtypes", {"dtypes.gp"}, 2000, 900, 18, one_dtype,
                                         tables};
