/* The table of variant identities (contract in identity.h). */
#include "chart/identity.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Okabe & Ito, "Color Universal Design" (2008): eight colours told apart with protanopia,
 * deuteranopia and tritanopia. Yellow (#F0E442) is left out: it vanishes on white paper. */
enum {
    OI_BLACK = 0x000000,
    OI_ORANGE = 0xE69F00,
    OI_SKY = 0x56B4E9,
    OI_GREEN = 0x009E73,
    OI_BLUE = 0x0072B2,
    OI_VERMILLION = 0xD55E00,
    OI_PURPLE = 0xCC79A7,
    OI_GREY = 0x999999,
};

/* gnuplot's filled markers: square, circle, triangle up, triangle down, diamond, pentagon;
 * each one's open form is its number less one. */
enum { PT_SQUARE = 5, PT_CIRCLE = 7, PT_UP = 9, PT_DOWN = 11, PT_DIAMOND = 13, PT_PENTAGON = 15 };

struct entry {
    const char *variant;
    struct fb_chart_identity id;
    const char *how, *what;
};

/* Ours: eager warm colours, fused cool ones, the references black and grey; the peer's in
 * the same families, told apart by marker and (as an overlay) by dash. */
static const struct entry table[] = {
    {"copy", {OI_BLACK, PT_DOWN, 1}, "copy", "c = a, the bandwidth ceiling"},
    {"memcpy", {OI_GREY, PT_DIAMOND, 3}, "memcpy", "the platform's copy"},
    {"eager_add_relu", {OI_VERMILLION, PT_SQUARE, 1}, "eager", "add, relu"},
    {"eager_add_threshold", {OI_ORANGE, PT_UP, 4}, "eager", "add, threshold"},
    {"eager_add_relu_graph", {OI_PURPLE, PT_DIAMOND, 5}, "eager graph", "add, relu"},
    {"fused_add_relu", {OI_BLUE, PT_CIRCLE, 1}, "fused", "add+relu"},
    {"fused_generic_add_relu", {OI_GREEN, PT_PENTAGON, 4}, "fused generic", "add+relu"},
    {"torch_eager_add_relu", {OI_VERMILLION, PT_PENTAGON, 2}, "torch eager", "add, relu"},
    {"torch_eager_add_relu_out", {OI_ORANGE, PT_DOWN, 2}, "torch eager, out=", "add, relu"},
    {"torch_eager_threshold", {OI_PURPLE, PT_UP, 2}, "torch eager", "add, threshold"},
    {"torch_compile_add_relu", {OI_SKY, PT_SQUARE, 2}, "torch.compile", "add+relu"},
    {"torch_compile_out", {OI_GREEN, PT_DIAMOND, 2}, "torch.compile, out=", "add+relu"},
};
#define TABLE_COUNT (sizeof table / sizeof table[0])

/* The entries a name outside the table may take: every colour (black and grey, the
 * references', left out) with every marker, 36 in all, eager and fused of one chain on
 * neighbouring entries (same colour, another marker). */
static const unsigned hashed_colours[] = {OI_VERMILLION, OI_BLUE, OI_GREEN, OI_ORANGE,
                                          OI_PURPLE, OI_SKY};
static const int hashed_points[] = {PT_SQUARE, PT_CIRCLE, PT_UP, PT_DOWN, PT_DIAMOND,
                                    PT_PENTAGON};

static const struct entry *find(const char *variant)
{
    for (size_t i = 0; i < TABLE_COUNT; i++)
        if (strcmp(table[i].variant, variant) == 0)
            return &table[i];
    return NULL;
}

/* FNV-1a 32: stable across runs and machines. */
static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* A chain's name without its role prefix (eager_NAME, fused_NAME), else the whole name. */
static const char *chain_name(const char *variant)
{
    if (strncmp(variant, "eager_", 6) == 0)
        return variant + 6;
    if (strncmp(variant, "fused_", 6) == 0)
        return variant + 6;
    return variant;
}

struct fb_chart_identity fb_chart_identity_of(const char *variant)
{
    const struct entry *e = find(variant);
    if (e)
        return e->id;
    /* eager_NAME and fused_NAME share the colour; eager a solid line, fused dash-dot */
    uint32_t h = fnv1a(chain_name(variant));
    size_t colour = h % 6, point = (h / 6) % 6;
    bool fused = strncmp(variant, "fused_", 6) == 0;
    return (struct fb_chart_identity){hashed_colours[colour],
                                      hashed_points[(point + (fused ? 1 : 0)) % 6],
                                      fused ? 4 : 1};
}

struct fb_chart_identity fb_chart_identity_form(const char *variant, bool overlay,
                                                const char *form)
{
    struct fb_chart_identity id = fb_chart_identity_of(variant);
    if (!overlay && !form[0])
        return id;
    id.point_type -= 1; /* the open marker of the same shape */
    /* A run in several dtypes draws each variant three times on one chart: a dash alone
     * does not tell them apart, so a 16-bit dtype also takes another colour of the cycle
     * (fp16 two on, bf16 four on: a run's eager and fused, vermillion and blue, give six
     * distinct colours) and bf16 another marker. The references' black and grey stay. */
    bool fp16 = strstr(form, "-fp16") != NULL, bf16 = strstr(form, "-bf16") != NULL;
    const size_t cycle = sizeof hashed_colours / sizeof hashed_colours[0];
    for (size_t i = 0; (fp16 || bf16) && i < cycle; i++)
        if (hashed_colours[i] == id.colour) {
            id.colour = hashed_colours[(i + (fp16 ? 2 : 4)) % cycle];
            break;
        }
    for (size_t i = 0; bf16 && i < cycle; i++)
        if (hashed_points[i] - 1 == id.point_type) {
            id.point_type = hashed_points[(i + 4) % cycle] - 1;
            break;
        }
    if (strstr(form, "-streaming"))
        id.dash = 4;
    else if (fp16 || bf16)
        id.dash = 5;
    else if (strstr(form, "-cold"))
        id.dash = 3;
    else
        id.dash = 2;
    return id;
}

bool fb_chart_identity_is_fixed(const char *variant)
{
    return find(variant) != NULL;
}

struct fb_chart_identity fb_chart_identity_next(struct fb_chart_identity id)
{
    const size_t colours = sizeof hashed_colours / sizeof hashed_colours[0];
    const size_t points = sizeof hashed_points / sizeof hashed_points[0];
    int open = id.point_type % 2 == 0; /* the filled markers' numbers are odd */
    for (size_t c = 0; c < colours; c++)
        for (size_t p = 0; p < points; p++)
            if (hashed_colours[c] == id.colour && hashed_points[p] - open == id.point_type) {
                size_t q = (p + 1) % points, d = q == 0 ? (c + 1) % colours : c;
                id.colour = hashed_colours[d];
                id.point_type = hashed_points[q] - open;
                return id;
            }
    return id;
}

const char *fb_chart_identity_how(const char *variant, const char *role)
{
    static char how[FB_CHART_HOW_CHARS];
    const struct entry *e = find(variant);
    if (e)
        return e->how;
    const char *name = chain_name(variant);
    if (name != variant) /* eager_NAME, fused_NAME: "eager NAME" */
        snprintf(how, sizeof how, "%.*s %s", (int)(name - variant - 1), variant, name);
    else if (strcmp(role, "copy_ceiling") == 0 || strcmp(role, "platform_reference") == 0)
        snprintf(how, sizeof how, "%s", variant);
    else
        snprintf(how, sizeof how, "%s", variant);
    return how;
}

/* A chain's ops for a label: whole up to OPS_SHOWN characters, else cut after the last
 * ", " that leaves room for " ..." (the kernel count says how many there are). */
#define OPS_SHOWN 40
static void ops_words(char *out, size_t size, const char *ops)
{
    size_t len = strlen(ops);
    if (len <= OPS_SHOWN) {
        snprintf(out, size, "%s", ops);
        return;
    }
    size_t cut = 0;
    for (size_t i = 0; i + 2 <= OPS_SHOWN - 4; i++)
        if (ops[i] == ',' && ops[i + 1] == ' ')
            cut = i;
    snprintf(out, size, "%.*s, \xE2\x80\xA6", (int)(cut ? cut : OPS_SHOWN - 4), ops);
}

static void count_words(char *out, size_t size, double launches, double host_launches)
{
    out[0] = '\0';
    if (!isfinite(launches))
        return;
    if (launches == 0) {
        snprintf(out, size, " (no kernel of ours)");
        return;
    }
    int k = (int)launches, h = isfinite(host_launches) ? (int)host_launches : k;
    if (h != k)
        snprintf(out, size, " (%d kernel%s, %d launch%s)", k, k == 1 ? "" : "s", h,
                 h == 1 ? "" : "es");
    else
        snprintf(out, size, " (%d kernel%s)", k, k == 1 ? "" : "s");
}

char *fb_chart_identity_form_words(char *out, size_t size, const char *form)
{
    const char *dtype = strstr(form, "-fp16") ? ", fp16" : strstr(form, "-bf16") ? ", bf16" : "";
    snprintf(out, size, "%s%s%s", dtype, strstr(form, "-streaming") ? ", streaming stores" : "",
             strstr(form, "-cold") ? ", cold cache" : "");
    return out;
}

char *fb_chart_identity_words(char *out, size_t size, const char *variant, const char *role,
                              const char *ops, const char *form, double launches,
                              double host_launches)
{
    if (size == 0)
        return out;
    const struct entry *e = find(variant);
    char what[160], count[64], forms[64];
    if (ops && ops[0])
        ops_words(what, sizeof what, ops);
    else
        snprintf(what, sizeof what, "%s", e ? e->what : "");
    count_words(count, sizeof count, launches, host_launches);
    fb_chart_identity_form_words(forms, sizeof forms, form);
    snprintf(out, size, "%s%s%s%s%s", fb_chart_identity_how(variant, role), what[0] ? ": " : "",
             what, count, forms);
    return out;
}
