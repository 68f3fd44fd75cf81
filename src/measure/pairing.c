#include "measure/pairing.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plan/variants.h"

static bool same_group(const struct fb_record *a, const struct fb_record *b)
{
    return a->n == b->n && strcmp(a->backend, b->backend) == 0 &&
           strcmp(a->device, b->device) == 0 && strcmp(a->dtype, b->dtype) == 0 &&
           strcmp(a->cache, b->cache) == 0;
}

/* The last row of the group of records[member] whose role is `role` or whose variant is
 * `variant` (pass NULL for the one not asked), or NULL. */
static const struct fb_record *last_in_group(const struct fb_record *records, size_t count,
                                             size_t member, const char *role,
                                             const char *variant)
{
    for (size_t i = count; i-- > 0;) {
        const struct fb_record *r = &records[i];
        if (!same_group(r, &records[member]))
            continue;
        if ((role && strcmp(r->role, role) == 0) || (variant && strcmp(r->variant, variant) == 0))
            return r;
    }
    return NULL;
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

/* Derives row i's numbers against the other rows of its group (formulas in pairing.h). */
static void derive_row(struct fb_record *records, size_t count, size_t i)
{
    struct fb_record *r = &records[i];
    r->copy_fraction = r->speedup = NAN;
    const struct fb_record *ceiling = last_in_group(records, count, i, "copy_ceiling", NULL);
    if (usable(r, bandwidth_of(r)) && ceiling && usable(ceiling, bandwidth_of(ceiling)))
        r->copy_fraction = bandwidth_of(r) / bandwidth_of(ceiling);
    const struct fb_record *pair = r->pair[0] ? last_in_group(records, count, i, NULL, r->pair)
                                              : NULL;
    if (usable(r, r->time_median_s) && pair && pair != r && usable(pair, pair->time_median_s))
        r->speedup = r->time_median_s / pair->time_median_s; /* t_row / t_pair */
}

void fb_pairing_derive_group(struct fb_record *records, size_t count, size_t member)
{
    for (size_t i = 0; i < count; i++)
        if (same_group(&records[i], &records[member]))
            derive_row(records, count, i);
}

void fb_pairing_derive_all(struct fb_record *records, size_t count)
{
    for (size_t i = 0; i < count; i++)
        derive_row(records, count, i);
}

void fb_pairing_derive_missing(struct fb_record *records, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        struct fb_record *r = &records[i];
        const double copy_fraction = r->copy_fraction, speedup = r->speedup;
        derive_row(records, count, i);
        if (!isnan(copy_fraction))
            r->copy_fraction = copy_fraction;
        if (!isnan(speedup))
            r->speedup = speedup;
    }
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
