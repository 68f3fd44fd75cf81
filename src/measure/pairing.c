#include "measure/pairing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "plan/variants.h"

/* The rows of a derivation, sorted by group, then variant, then position, so that a group is
 * a run of entries and a variant's rows in it are found by binary search, the later row last:
 * O(n log n) for n rows, whatever the file holds. */
struct entry {
    struct fb_record *r;
    size_t position;
};

/* The group less the backend (a peer's rows against another run's), then the group. */
static int compare_group_any_backend(const struct fb_record *a, const struct fb_record *b)
{
    int c;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    if ((c = strcmp(a->device, b->device)) ||
        (c = strcmp(fb_dtype_canonical(a->dtype), fb_dtype_canonical(b->dtype))) ||
        (c = strcmp(a->cache, b->cache)) ||
        (c = strcmp(fb_stores_canonical(a->stores), fb_stores_canonical(b->stores))))
        return c;
    return 0;
}

static int compare_group(const struct fb_record *a, const struct fb_record *b)
{
    int c = compare_group_any_backend(a, b);
    return c ? c : strcmp(a->backend, b->backend);
}

static int compare_entries(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    int c = compare_group(a->r, b->r);
    if (c == 0)
        c = strcmp(a->r->variant, b->r->variant);
    if (c == 0)
        c = (a->position > b->position) - (a->position < b->position);
    return c;
}

/* The last (latest) entry of `variant` among e[0..count-1] (one group, sorted), or NULL. */
static const struct fb_record *find_variant(const struct entry *e, size_t count,
                                            const char *variant)
{
    size_t lo = 0, hi = count; /* first entry whose variant sorts after `variant` */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(e[mid].r->variant, variant) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && strcmp(e[lo - 1].r->variant, variant) == 0 ? e[lo - 1].r : NULL;
}

static bool usable(const struct fb_record *r, double value)
{
    return r && r->status == FB_POINT_OK && isfinite(value) && value > 0;
}

/* bandwidth_gbps from its exact parts when it can (bytes_model / time_median_s / 1e9): a row
 * read back from a file carries bandwidth_gbps rounded to 4 decimals, which is 0 for the
 * smallest sizes, but its bytes exactly and its time to 9 digits. */
static double bandwidth_of(const struct fb_record *r)
{
    if (r->bytes_model > 0 && isfinite(r->time_median_s) && r->time_median_s > 0)
        return (double)r->bytes_model / r->time_median_s / 1e9;
    return r->bandwidth_gbps;
}

/* Derives the rows of one group, e[0..count-1] (formulas in pairing.h); with only_missing,
 * a value a row already holds is kept. */
static void derive_group(const struct entry *e, size_t count, bool only_missing)
{
    const struct fb_record *ceiling = NULL;
    size_t ceiling_position = 0;
    for (size_t i = 0; i < count; i++)
        if (strcmp(e[i].r->role, "copy_ceiling") == 0 &&
            (!ceiling || e[i].position > ceiling_position)) {
            ceiling = e[i].r;
            ceiling_position = e[i].position;
        }
    for (size_t i = 0; i < count; i++) {
        struct fb_record *r = e[i].r;
        double copy_fraction = NAN, speedup = NAN;
        if (usable(r, bandwidth_of(r)) && usable(ceiling, ceiling ? bandwidth_of(ceiling) : 0))
            copy_fraction = bandwidth_of(r) / bandwidth_of(ceiling);
        const struct fb_record *pair = r->pair[0] ? find_variant(e, count, r->pair) : NULL;
        if (usable(r, r->time_median_s) && pair && pair != r && usable(pair, pair->time_median_s))
            speedup = r->time_median_s / pair->time_median_s; /* t_row / t_pair */
        if (!only_missing || isnan(r->copy_fraction))
            r->copy_fraction = copy_fraction;
        if (!only_missing || isnan(r->speedup))
            r->speedup = speedup;
    }
}

/* Sorts the entries and derives each group. */
static void derive_sorted(struct entry *e, size_t count, bool only_missing)
{
    qsort(e, count, sizeof *e, compare_entries);
    for (size_t lo = 0, hi; lo < count; lo = hi) {
        for (hi = lo + 1; hi < count && compare_group(e[lo].r, e[hi].r) == 0; hi++)
            ;
        derive_group(e + lo, hi - lo, only_missing);
    }
}

static int compare_mirror_entries(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    int c = compare_group_any_backend(a->r, b->r);
    if (c == 0)
        c = strcmp(a->r->variant, b->r->variant);
    return c ? c : (a->position > b->position) - (a->position < b->position);
}

/* The latest row of e[0..count-1] (sorted by compare_mirror_entries) in r's group less the
 * backend whose variant is r's mirror and whose backend is not r's, or NULL. */
static const struct fb_record *find_mirror(const struct entry *e, size_t count,
                                           const struct fb_record *r)
{
    size_t lo = 0, hi = count; /* first entry after (group, mirror) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = compare_group_any_backend(e[mid].r, r);
        if (c < 0 || (c == 0 && strcmp(e[mid].r->variant, r->mirror) <= 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo > 0; lo--) {
        const struct fb_record *m = e[lo - 1].r;
        if (compare_group_any_backend(m, r) != 0 || strcmp(m->variant, r->mirror) != 0)
            return NULL;
        if (strcmp(m->backend, r->backend) != 0)
            return m;
    }
    return NULL;
}

/* ours_ratio and its interval of every row with a mirror (formulas in pairing.h). */
static bool derive_mirrors(struct fb_record *records, size_t count, bool only_missing)
{
    size_t peers = 0;
    for (size_t i = 0; i < count; i++)
        peers += records[i].mirror[0] != 0;
    if (peers == 0)
        return true;
    struct entry *e = malloc(count * sizeof *e);
    if (!e)
        return false;
    for (size_t i = 0; i < count; i++)
        e[i] = (struct entry){&records[i], i};
    qsort(e, count, sizeof *e, compare_mirror_entries);
    for (size_t i = 0; i < count; i++) {
        struct fb_record *r = &records[i];
        if (!r->mirror[0] || (only_missing && !isnan(r->ours_ratio)))
            continue;
        const struct fb_record *m = find_mirror(e, count, r);
        double ratio = NAN, lo = NAN, hi = NAN;
        if (m && usable(r, r->time_median_s) && usable(m, m->time_median_s)) {
            ratio = m->time_median_s / r->time_median_s;
            double em = m->noise, er = r->noise;
            if (isfinite(em) && em >= 0 && isfinite(er) && er >= 0) {
                lo = ratio * fmax(1.0 - em, 0.0) / (1.0 + er);
                if (er < 1.0)
                    hi = ratio * (1.0 + em) / (1.0 - er);
            }
        }
        r->ours_ratio = ratio;
        r->ours_ratio_lo = lo;
        r->ours_ratio_hi = hi;
    }
    free(e);
    return true;
}

static bool derive(struct fb_record *records, size_t count, const struct fb_record *member,
                   bool only_missing)
{
    if (!derive_mirrors(records, count, only_missing))
        return false;
    struct entry *e = malloc((count ? count : 1) * sizeof *e);
    if (!e)
        return false;
    size_t used = 0;
    for (size_t i = 0; i < count; i++)
        if (!member || compare_group(&records[i], member) == 0)
            e[used++] = (struct entry){&records[i], i};
    derive_sorted(e, used, only_missing);
    free(e);
    return true;
}

bool fb_pairing_derive_group(struct fb_record *records, size_t count, size_t member)
{
    return member < count ? derive(records, count, &records[member], false) : true;
}

bool fb_pairing_derive_all(struct fb_record *records, size_t count)
{
    return derive(records, count, NULL, false);
}

bool fb_pairing_derive_missing(struct fb_record *records, size_t count)
{
    return derive(records, count, NULL, true);
}

static int compare_ceilings(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    int c = compare_group_any_backend(a->r, b->r);
    return c ? c : (a->position > b->position) - (a->position < b->position);
}

bool fb_pairing_copy_fraction_against(struct fb_record *rows, size_t count,
                                      const struct fb_record *reference, size_t ref_count)
{
    struct entry *e = malloc((ref_count ? ref_count : 1) * sizeof *e);
    if (!e)
        return false;
    size_t used = 0;
    for (size_t i = 0; i < ref_count; i++)
        if (strcmp(reference[i].role, "copy_ceiling") == 0)
            e[used++] = (struct entry){(struct fb_record *)&reference[i], i};
    qsort(e, used, sizeof *e, compare_ceilings);
    for (size_t i = 0; i < count; i++) {
        struct fb_record *r = &rows[i];
        if (!isnan(r->copy_fraction) || !usable(r, bandwidth_of(r)))
            continue;
        /* the last ceiling of the row's group: the latest row, as in a group of one run */
        size_t lo = 0, hi = used;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (compare_group_any_backend(e[mid].r, r) <= 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        const struct fb_record *ceiling =
            lo > 0 && compare_group_any_backend(e[lo - 1].r, r) == 0 ? e[lo - 1].r : NULL;
        if (ceiling && usable(ceiling, bandwidth_of(ceiling)))
            r->copy_fraction = bandwidth_of(r) / bandwidth_of(ceiling);
    }
    free(e);
    return true;
}

void fb_pairing_fill_builtin_roles(struct fb_record *records, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        struct fb_record *r = &records[i];
        const struct fb_variant *v = r->role[0] ? NULL : fb_variant_find(r->variant);
        if (!v)
            continue;
        snprintf(r->role, sizeof r->role, "%s", fb_variant_role_name(v->role));
        snprintf(r->pair, sizeof r->pair, "%s", v->pair);
    }
}
