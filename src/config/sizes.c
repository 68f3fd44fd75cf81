/* fb_sizes_parse: the size-list syntax shared by the [sweep] sizes key and --sizes.
 *
 *   list  := item ("," item)*
 *   item  := size | size ".." size
 *   size  := digits ["." digits] [("e"|"E") ["+"|"-"] digits] [suffix]
 *   suffix:= K | M | G (x1000, x1e6, x1e9; "k" accepted for K) | Ki | Mi | Gi (x1024^1..3)
 *
 * A range lo..hi takes the points of a decade-anchored logarithmic grid,
 *   x_j = 10^(j / points_per_decade)  for integer j,  rounded to the nearest integer,
 * that fall in [lo, hi], plus lo and hi themselves. Anchoring the grid at 10^0 (rather than at
 * lo) makes every exact power of ten a grid point (j a multiple of points_per_decade), and
 * makes two ranges with the same density share their points, so sweeps compare row by row. */
#include "config/config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"

/* 1e12 fp32 elements are 4 TB per array: far beyond any device, yet exact in a double
 * (2^53 ~ 9e15), so the float arithmetic below never rounds a valid size. */
#define SIZES_LIMIT 1000000000000ULL
#define SIZES_PPD_MAX 1000
#define SIZES_TOKEN_MAX 64

struct sizes_vec {
    uint64_t *v;
    size_t n, cap;
};

static int sizes_push(struct sizes_vec *s, uint64_t x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64, bytes;
        uint64_t *v = fb_mul_size(cap, sizeof *v, &bytes) ? realloc(s->v, bytes) : NULL;
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

static int sizes_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Parses one size (no surrounding blanks) into *out. On failure writes why into why. */
static int sizes_parse_one(const char *tok, uint64_t *out, char *why, size_t why_size)
{
    const char *p = tok;
    if (*p == '-') {
        snprintf(why, why_size, "sizes must be at least 1");
        return -1;
    }
    /* Scan the number by hand: strtod alone would also take "inf", "nan", hex and a sign. */
    const char *num = p;
    int digits = 0;
    while (isdigit((unsigned char)*p)) {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) {
            p++;
            digits++;
        }
    }
    if (digits == 0) {
        snprintf(why, why_size, "not a number");
        return -1;
    }
    if ((*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (isdigit((unsigned char)*q)) {
            while (isdigit((unsigned char)*q))
                q++;
            p = q;
        }
    }
    char buf[SIZES_TOKEN_MAX];
    memcpy(buf, num, (size_t)(p - num));
    buf[p - num] = '\0';
    double mantissa = strtod(buf, NULL);

    static const struct {
        const char *suffix;
        double factor;
    } suffixes[] = {
        {"", 1.0},           {"K", 1e3},          {"k", 1e3},
        {"M", 1e6},          {"G", 1e9},          {"Ki", 1024.0},
        {"Mi", 1048576.0},   {"Gi", 1073741824.0},
    };
    double factor = 0.0;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (strcmp(p, suffixes[i].suffix) == 0)
            factor = suffixes[i].factor;
    if (factor == 0.0) {
        snprintf(why, why_size, "unknown suffix \"%s\" (use K, M, G, Ki, Mi or Gi)", p);
        return -1;
    }
    double v = mantissa * factor;
    if (!(v >= 1.0)) {
        snprintf(why, why_size, "sizes must be at least 1");
        return -1;
    }
    if (v > (double)SIZES_LIMIT) {
        snprintf(why, why_size, "more than the limit of %llu elements",
                 (unsigned long long)SIZES_LIMIT);
        return -1;
    }
    double r = nearbyint(v);
    if (fabs(v - r) > 1e-9 * v) {
        snprintf(why, why_size, "not a whole number of elements (%.17g)", v);
        return -1;
    }
    *out = (uint64_t)r;
    return 0;
}

static uint64_t sizes_pow10(int e)
{
    uint64_t x = 1;
    while (e-- > 0)
        x *= 10;
    return x;
}

static int sizes_add_range(struct sizes_vec *s, uint64_t lo, uint64_t hi, int ppd)
{
    if (sizes_push(s, lo) || sizes_push(s, hi))
        return -1;
    /* One grid step of margin on each side: log10 of the endpoints may round either way. */
    int jlo = (int)floor(ppd * log10((double)lo)) - 1;
    int jhi = (int)ceil(ppd * log10((double)hi)) + 1;
    for (int j = jlo < 0 ? 0 : jlo; j <= jhi; j++) {
        uint64_t x = j % ppd == 0 ? sizes_pow10(j / ppd)
                                  : (uint64_t)llround(pow(10.0, (double)j / ppd));
        if (x >= lo && x <= hi && sizes_push(s, x))
            return -1;
    }
    return 0;
}

/* Copies text[a, b) without surrounding blanks into out (size SIZES_TOKEN_MAX);
 * returns -1 when it does not fit. */
static int sizes_token(const char *a, const char *b, char *out)
{
    while (a < b && isspace((unsigned char)*a))
        a++;
    while (b > a && isspace((unsigned char)b[-1]))
        b--;
    if ((size_t)(b - a) >= SIZES_TOKEN_MAX)
        return -1;
    memcpy(out, a, (size_t)(b - a));
    out[b - a] = '\0';
    return 0;
}

int fb_sizes_parse(const char *text, int points_per_decade, uint64_t *sizes, size_t max_sizes,
                   size_t *n_sizes, struct fb_error *err)
{
    if (points_per_decade < 1 || points_per_decade > SIZES_PPD_MAX)
        return fb_fail(err, FB_ERR_USAGE, "points_per_decade %d is out of range [1, %d]",
                       points_per_decade, SIZES_PPD_MAX);
    struct sizes_vec s = {0};
    char item[SIZES_TOKEN_MAX * 2 + 2], lo_t[SIZES_TOKEN_MAX], hi_t[SIZES_TOKEN_MAX];
    char why[160];
    int rc = FB_OK;
    const char *p = text;

    for (;;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        if (sizes_token(p, end, item) != 0) {
            rc = fb_fail(err, FB_ERR_USAGE, "item \"%.*s...\" is too long", 20, p);
            goto out;
        }
        if (item[0] == '\0') {
            rc = fb_fail(err, FB_ERR_USAGE, "empty item in size list \"%s\"", text);
            goto out;
        }
        const char *dots = strstr(item, "..");
        uint64_t lo, hi;
        if (dots) {
            /* Token lengths are bounded by item's, which sizes_token already checked. */
            sizes_token(item, dots, lo_t);
            sizes_token(dots + 2, item + strlen(item), hi_t);
            if (sizes_parse_one(lo_t, &lo, why, sizeof why) != 0) {
                rc = fb_fail(err, FB_ERR_USAGE, "bad size \"%s\" in \"%s\": %s", lo_t, item, why);
                goto out;
            }
            if (sizes_parse_one(hi_t, &hi, why, sizeof why) != 0) {
                rc = fb_fail(err, FB_ERR_USAGE, "bad size \"%s\" in \"%s\": %s", hi_t, item, why);
                goto out;
            }
            if (lo > hi) {
                rc = fb_fail(err, FB_ERR_USAGE, "range \"%s\" runs backwards (%llu > %llu)",
                             item, (unsigned long long)lo, (unsigned long long)hi);
                goto out;
            }
            if (sizes_add_range(&s, lo, hi, points_per_decade) != 0)
                goto oom;
        } else {
            if (sizes_parse_one(item, &lo, why, sizeof why) != 0) {
                rc = fb_fail(err, FB_ERR_USAGE, "bad size \"%s\": %s", item, why);
                goto out;
            }
            if (sizes_push(&s, lo) != 0)
                goto oom;
        }
        if (*end == '\0')
            break;
        p = end + 1;
    }

    qsort(s.v, s.n, sizeof *s.v, sizes_cmp);
    size_t n = 0;
    for (size_t i = 0; i < s.n; i++)
        if (n == 0 || s.v[i] != s.v[n - 1])
            s.v[n++] = s.v[i];
    if (n > max_sizes) {
        rc = fb_fail(err, FB_ERR_USAGE,
                     "\"%s\" gives %zu sizes, more than the limit of %zu "
                     "(narrow the range or lower points_per_decade)",
                     text, n, max_sizes);
        goto out;
    }
    memcpy(sizes, s.v, n * sizeof *sizes);
    *n_sizes = n;
    goto out;
oom:
    rc = fb_fail(err, FB_ERR_RUNTIME, "out of memory expanding sizes \"%s\"", text);
out:
    free(s.v);
    return rc;
}
