/* Every configuration key: its section, its value syntax and its valid range.
 * configs/default.ini documents the same keys with their units; keep the two in step. */
#include "config/keys.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/suggest.h"

/* ---- value parsers ------------------------------------------------------------------ */

static int parse_int(const char *value, long lo, long hi, int *out, char *msg, size_t n)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (end == value || *end != '\0' || isspace((unsigned char)*value)) {
        snprintf(msg, n, "\"%s\" is not an integer", value);
        return -1;
    }
    if (errno == ERANGE) { /* an integer, but beyond a long: say so, not "not an integer" */
        snprintf(msg, n, "%s is out of range [%ld, %ld]", value, lo, hi);
        return -1;
    }
    if (v < lo || v > hi) {
        snprintf(msg, n, "%ld is out of range [%ld, %ld]", v, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int cfg_parse_real(const char *value, double lo, int lo_open, double hi, double *out,
                        char *msg, size_t n)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (end == value || *end != '\0' || isspace((unsigned char)*value) || isnan(v)) {
        snprintf(msg, n, "\"%s\" is not a number", value);
        return -1;
    }
    /* A number, but not one a double holds: strtod sets ERANGE both for overflow (+-HUGE_VAL)
     * and for underflow (a result below DBL_MIN in magnitude, 1e-400 for example). */
    if (errno == ERANGE || !isfinite(v)) {
        const char *why = errno != ERANGE ? "is infinite"
                          : fabs(v) > 1.0 ? "overflows a double" : "underflows a double";
        snprintf(msg, n, "%s is out of range %c%g, %g] (it %s)", value, lo_open ? '(' : '[', lo,
                 hi, why);
        return -1;
    }
    if ((lo_open ? v <= lo : v < lo) || v > hi) {
        snprintf(msg, n, "%g is out of range %c%g, %g]", v, lo_open ? '(' : '[', lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_bool(const char *value, bool *out, char *msg, size_t n)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(value, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcasecmp(value, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    snprintf(msg, n, "\"%s\" is not a boolean (use true/false, yes/no, on/off or 1/0)", value);
    return -1;
}

/* One of names[0..count); index into *out. */
static int parse_choice(const char *value, const char *const *names, size_t count, int *out,
                        char *msg, size_t n)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(value, names[i]) == 0) {
            *out = (int)i;
            return 0;
        }
    const char *near = cfg_suggest(value, names, count);
    int len = snprintf(msg, n, "\"%s\" is not one of ", value);
    for (size_t i = 0; i < count && len >= 0 && (size_t)len < n; i++)
        len += snprintf(msg + len, n - (size_t)len, "%s%s", i ? ", " : "", names[i]);
    if (near && len >= 0 && (size_t)len < n)
        snprintf(msg + len, n - (size_t)len, "; did you mean \"%s\"?", near);
    return -1;
}

static int copy_string(const char *value, char *dst, size_t dst_size, int allow_empty,
                       char *msg, size_t n)
{
    size_t len = strlen(value);
    if (!allow_empty && len == 0) {
        snprintf(msg, n, "must not be empty");
        return -1;
    }
    if (len >= dst_size) {
        snprintf(msg, n, "is %zu characters long; at most %zu fit", len, dst_size - 1);
        return -1;
    }
    memcpy(dst, value, len + 1);
    return 0;
}

/* ---- [sweep] -------------------------------------------------------------------------- */

static int set_sizes(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    /* Expanded by cfg_expand_sizes once points_per_decade is final (it may come later). */
    return copy_string(value, cfg->sizes_spec, sizeof cfg->sizes_spec, 0, msg, n);
}

static int set_points_per_decade(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_int(value, 1, 100, &cfg->points_per_decade, msg, n);
}

/* The list's syntax only: which names exist is resolved by plan (fb_plan_select_variants),
 * which knows the variants (the built-ins and those of the chains). */
static int set_variants(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    struct fb_config_variants v = {.all = strcmp(value, "all") == 0};
    for (const char *p = value; !v.all;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        size_t len = (size_t)(b - a);
        if (len == 0) {
            snprintf(msg, n, "empty name in list \"%s\" (give names separated by commas, or all)",
                     value);
            return -1;
        }
        if (len >= sizeof v.names[0]) {
            snprintf(msg, n, "name \"%.*s...\" is %zu characters long; no variant name has more "
                     "than %zu", 20, a, len, sizeof v.names[0] - 1);
            return -1;
        }
        if (v.n_names == FB_MAX_VARIANT_NAMES) {
            snprintf(msg, n, "more than %d names in the list", FB_MAX_VARIANT_NAMES);
            return -1;
        }
        memcpy(v.names[v.n_names], a, len);
        v.names[v.n_names++][len] = '\0';
        if (*end == '\0')
            break;
        p = end + 1;
    }
    v.line = 0; /* the file's loader sets it */
    cfg->variants = v;
    return 0;
}

/* A comma list of names from `names` (spaces around commas allowed), each at most once, in
 * the order given, into out[0..*count-1] as indexes of `names`. For the format axes: dtype
 * and stores (whether a backend runs a format is its own check_format's business). */
static int parse_choice_list(const char *value, const char *const *names, size_t count_names,
                             int *out, size_t *count, char *msg, size_t n)
{
    char item[64];
    size_t k = 0;
    const char *p = value;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len == 0) {
            snprintf(msg, n, "empty name in list \"%s\" (give names separated by commas)",
                     value);
            return -1;
        }
        if (len >= sizeof item) {
            snprintf(msg, n, "name \"%.*s...\" is too long", 20, p);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        int i = 0;
        if (parse_choice(item, names, count_names, &i, msg, n) != 0)
            return -1;
        for (size_t j = 0; j < k; j++)
            if (out[j] == i) {
                snprintf(msg, n, "\"%s\" is listed twice", item);
                return -1;
            }
        out[k++] = i; /* k < count_names: a longer list repeats a name, refused above */
        if (!end)
            break;
        p = end + 1;
    }
    *count = k;
    return 0;
}

/* [sweep] dtype: a list of the names fb_dtype_name spells. */
static int set_dtype(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    const char *names[FB_DTYPE_COUNT];
    int idx[FB_DTYPE_COUNT];
    size_t count = 0;
    for (int i = 0; i < FB_DTYPE_COUNT; i++)
        names[i] = fb_dtype_name((enum fb_dtype)i);
    if (parse_choice_list(value, names, FB_DTYPE_COUNT, idx, &count, msg, n) != 0)
        return -1;
    for (size_t i = 0; i < count; i++)
        cfg->dtypes[i] = (enum fb_dtype)idx[i];
    cfg->n_dtypes = count;
    return 0;
}

static int set_label(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return copy_string(value, cfg->label, sizeof cfg->label, 1, msg, n);
}

/* ---- [backend] ------------------------------------------------------------------------ */

static int set_backend(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    static const char *const names[] = {"auto", "cpu", "cuda"};
    int i = 0;
    if (parse_choice(value, names, 3, &i, msg, n) != 0)
        return -1;
    cfg->backend = i == 0 ? FB_BACKEND_AUTO : i == 1 ? FB_BACKEND_CPU : FB_BACKEND_CUDA;
    return 0;
}

static int set_device(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_int(value, 0, 1023, &cfg->device, msg, n);
}

static int set_cpu_threads(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_int(value, 0, 4096, &cfg->cpu_threads, msg, n);
}

/* ---- [measure] ------------------------------------------------------------------------ */

static int set_warmup(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_int(value, 0, 1000000, &cfg->warmup, msg, n);
}

static int set_min_reps(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_int(value, 1, 1000000, &cfg->min_reps, msg, n);
}

static int set_max_reps(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_int(value, 1, 1000000, &cfg->max_reps, msg, n);
}

static int set_min_time(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return cfg_parse_real(value, 0.0, 0, 3600.0, &cfg->min_time_s, msg, n);
}

static int set_max_time(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return cfg_parse_real(value, 0.0, 1, 3600.0, &cfg->max_time_s, msg, n);
}

static int set_target_noise(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    /* 0 is allowed: never "stable enough", so every point runs to max_time or max_reps. */
    return cfg_parse_real(value, 0.0, 0, 1.0, &cfg->target_noise, msg, n);
}

static int set_gpu_min_clock(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    /* 0: the clock rule judges nothing (a GPU whose power cap holds it low by design) */
    return cfg_parse_real(value, 0.0, 0, 1.0, &cfg->gpu_min_clock, msg, n);
}

static int set_gpu_other_processes(struct fb_config *cfg, const char *value, char *msg,
                                   size_t n)
{
    return parse_int(value, 0, 1000000, &cfg->gpu_other_processes, msg, n);
}

/* [measure] stores: a list, like dtype (normal, streaming: the backends say which they run). */
static int set_stores(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    const char *names[FB_STORES_COUNT];
    int idx[FB_STORES_COUNT];
    size_t count = 0;
    for (int i = 0; i < FB_STORES_COUNT; i++)
        names[i] = fb_store_kind_name((enum fb_store_kind)i);
    if (parse_choice_list(value, names, FB_STORES_COUNT, idx, &count, msg, n) != 0)
        return -1;
    for (size_t i = 0; i < count; i++)
        cfg->stores[i] = (enum fb_store_kind)idx[i];
    cfg->n_stores = count;
    return 0;
}

static int set_cache(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    static const char *const names[] = {"warm", "cold"};
    int i = 0;
    if (parse_choice(value, names, 2, &i, msg, n) != 0)
        return -1;
    cfg->cache = i == 0 ? FB_CACHE_WARM : FB_CACHE_COLD;
    return 0;
}

/* ---- [cupti] -------------------------------------------------------------------------- */

static int set_activity(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_bool(value, &cfg->cupti_activity, msg, n);
}

static int set_counters(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_bool(value, &cfg->cupti_counters, msg, n);
}

/* ---- [output] ------------------------------------------------------------------------- */

static int set_csv(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    char probe[FB_PATH_MAX];
    struct fb_error e;
    /* The longest names the placeholders take ("cuda", device 1023) must still fit. */
    if (strlen(value) == 0) {
        snprintf(msg, n, "must not be empty");
        return -1;
    }
    if (fb_config_expand_path(value, "cuda", "device", probe, sizeof probe, &e) != FB_OK) {
        snprintf(msg, n, "%s", e.msg);
        return -1;
    }
    /* A file name must end it: "dir/", "dir/." and "dir/.." name directories (the run would
     * otherwise find out only when renaming its results into place). */
    const char *slash = strrchr(value, '/');
    const char *name = slash ? slash + 1 : value;
    if (!*name) {
        snprintf(msg, n, "\"%s\" ends in '/', naming no file: give the file's name too (e.g. "
                 "\"%sresults.csv\")", value, value);
        return -1;
    }
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        snprintf(msg, n, "\"%s\" ends in '%s', a directory: give a file name (e.g. "
                 "\"%s/results.csv\")", value, name, value);
        return -1;
    }
    return copy_string(value, cfg->csv_path, sizeof cfg->csv_path, 0, msg, n);
}

static int set_plots(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return copy_string(value, cfg->plot_dir, sizeof cfg->plot_dir, 0, msg, n);
}

/* ---- [plot] --------------------------------------------------------------------------- */

static bool plot_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* A comma list of names of plot_name_char into names[0..*count); blanks around items
 * dropped. */
static int parse_plot_names(const char *value, char names[][FB_PLOT_NAME_CHARS],
                            size_t *count, char *msg, size_t n)
{
    size_t k = 0;
    const char *p = value;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *start = p;
        while (*p && *p != ',')
            p++;
        const char *end = p;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        size_t len = (size_t)(end - start);
        if (len == 0) {
            snprintf(msg, n, "an empty item in \"%s\" (a comma list of names)", value);
            return -1;
        }
        for (size_t i = 0; i < len; i++)
            if (!plot_name_char(start[i])) {
                snprintf(msg, n, "\"%.*s\" is not a name (lower-case letters, digits, '_' "
                         "and '-')", (int)len, start);
                return -1;
            }
        if (len >= FB_PLOT_NAME_CHARS || k == FB_PLOT_MAX_NAMES) {
            snprintf(msg, n, "\"%.*s\": at most %d names of %d characters", (int)len, start,
                     FB_PLOT_MAX_NAMES, FB_PLOT_NAME_CHARS - 1);
            return -1;
        }
        memcpy(names[k], start, len);
        names[k][len] = '\0';
        k++;
        if (!*p)
            break;
        p++;
    }
    *count = k;
    return 0;
}

/* A [plot] list key: parsed whole first, so a bad value leaves the earlier list as it was. */
static int set_plot_list(const char *value, char (*list)[FB_PLOT_NAME_CHARS], size_t *count,
                         char *msg, size_t n)
{
    char names[FB_PLOT_MAX_NAMES][FB_PLOT_NAME_CHARS];
    size_t parsed;
    if (parse_plot_names(value, names, &parsed, msg, n) != 0)
        return -1;
    memcpy(list, names, sizeof names);
    *count = parsed;
    return 0;
}

static int set_plot_charts(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return set_plot_list(value, cfg->plot.charts, &cfg->plot.n_charts, msg, n);
}

static int set_plot_formats(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return set_plot_list(value, cfg->plot.formats, &cfg->plot.n_formats, msg, n);
}

static int set_plot_size(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    char names[FB_PLOT_MAX_NAMES][FB_PLOT_NAME_CHARS];
    size_t count;
    if (parse_plot_names(value, names, &count, msg, n) != 0)
        return -1;
    if (count != 1) {
        snprintf(msg, n, "\"%s\": one size, not a list", value);
        return -1;
    }
    memcpy(cfg->plot.size, names[0], sizeof cfg->plot.size);
    return 0;
}

int cfg_set_plot_label(struct fb_config *cfg, const char *variant, const char *value,
                       int line, char *msg, size_t msg_size)
{
    size_t len = strlen(variant);
    if (len == 0 || len >= FB_VARIANT_NAME_CHARS) {
        snprintf(msg, msg_size, "label.<variant>: a variant name of 1 to %d characters",
                 FB_VARIANT_NAME_CHARS - 1);
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        if (!plot_name_char(variant[i])) {
            snprintf(msg, msg_size, "\"%s\" is not a variant name (lower-case letters, "
                     "digits, '_' and '-')", variant);
            return -1;
        }
    struct fb_config_plot *p = &cfg->plot;
    size_t at = 0;
    while (at < p->n_labels && strcmp(p->labels[at].variant, variant) != 0)
        at++;
    if (at == FB_PLOT_MAX_LABELS) {
        snprintf(msg, msg_size, "too many labels: at most %d", FB_PLOT_MAX_LABELS);
        return -1;
    }
    char text[FB_PLOT_LABEL_CHARS];
    if (copy_string(value, text, sizeof text, 0, msg, msg_size) != 0)
        return -1;
    memcpy(p->labels[at].variant, variant, len + 1);
    memcpy(p->labels[at].text, text, sizeof text);
    p->labels[at].line = line;
    if (at == p->n_labels)
        p->n_labels++;
    return 0;
}

static int set_report(struct fb_config *cfg, const char *value, char *msg, size_t n)
{
    return parse_bool(value, &cfg->report, msg, n);
}

/* ---- the table ------------------------------------------------------------------------ */

const char *const cfg_sections[] = {"sweep", "backend", "measure", "cupti", "output", "plot"};
const size_t cfg_section_count = sizeof cfg_sections / sizeof cfg_sections[0];

const struct cfg_key cfg_keys[] = {
    {"sweep", "sizes", set_sizes},
    {"sweep", "points_per_decade", set_points_per_decade},
    {"sweep", "variants", set_variants},
    {"sweep", "dtype", set_dtype},
    {"sweep", "label", set_label},
    {"backend", "backend", set_backend},
    {"backend", "device", set_device},
    {"backend", "cpu_threads", set_cpu_threads},
    {"measure", "warmup", set_warmup},
    {"measure", "min_reps", set_min_reps},
    {"measure", "max_reps", set_max_reps},
    {"measure", "min_time", set_min_time},
    {"measure", "max_time", set_max_time},
    {"measure", "target_noise", set_target_noise},
    {"measure", "cache", set_cache},
    {"measure", "stores", set_stores},
    {"measure", "gpu_min_clock", set_gpu_min_clock},
    {"measure", "gpu_other_processes", set_gpu_other_processes},
    {"cupti", "activity", set_activity},
    {"cupti", "counters", set_counters},
    {"output", "csv", set_csv},
    {"output", "plots", set_plots},
    {"plot", "charts", set_plot_charts},
    {"plot", "size", set_plot_size},
    {"plot", "formats", set_plot_formats},
    {"output", "report", set_report},
};
const size_t cfg_key_count = sizeof cfg_keys / sizeof cfg_keys[0];

const struct cfg_key *cfg_key_find(const char *section, const char *name)
{
    for (size_t i = 0; i < cfg_key_count; i++)
        if ((!section || strcmp(cfg_keys[i].section, section) == 0) &&
            strcmp(cfg_keys[i].name, name) == 0)
            return &cfg_keys[i];
    return NULL;
}

int cfg_section_known(const char *name)
{
    for (size_t i = 0; i < cfg_section_count; i++)
        if (strcmp(cfg_sections[i], name) == 0)
            return 1;
    return 0;
}

void cfg_key_hint(const char *section, const char *name, char *msg, size_t msg_size)
{
    const struct cfg_key *elsewhere = cfg_key_find(NULL, name);
    if (elsewhere) {
        snprintf(msg, msg_size, "; it belongs in [%s]", elsewhere->section);
        return;
    }
    /* Prefer a near name of this section; else a near name anywhere, with its section. */
    const char *here[sizeof cfg_keys / sizeof cfg_keys[0]];
    const char *all[sizeof cfg_keys / sizeof cfg_keys[0]];
    size_t n_here = 0;
    for (size_t i = 0; i < cfg_key_count; i++) {
        all[i] = cfg_keys[i].name;
        if (strcmp(cfg_keys[i].section, section) == 0)
            here[n_here++] = cfg_keys[i].name;
    }
    const char *near = cfg_suggest(name, here, n_here);
    if (near) {
        snprintf(msg, msg_size, "; did you mean \"%s\"?", near);
        return;
    }
    near = cfg_suggest(name, all, cfg_key_count);
    if (near) {
        snprintf(msg, msg_size, "; did you mean \"%s\" (in [%s])?", near,
                 cfg_key_find(NULL, near)->section);
        return;
    }
    int len = snprintf(msg, msg_size, "; valid keys in [%s]:", section);
    for (size_t i = 0; i < n_here && len >= 0 && (size_t)len < msg_size; i++)
        len += snprintf(msg + len, msg_size - (size_t)len, " %s", here[i]);
}

int cfg_expand_sizes(struct fb_config *cfg, char *msg, size_t msg_size)
{
    struct fb_error e;
    size_t n = 0;
    /* Expand into a scratch array so that cfg keeps its sizes when the text is wrong. */
    uint64_t *tmp = malloc(sizeof cfg->sizes);
    if (!tmp) {
        snprintf(msg, msg_size, "out of memory");
        return -1;
    }
    int rc = fb_sizes_parse(cfg->sizes_spec, cfg->points_per_decade, tmp, FB_MAX_SIZES, &n, &e);
    if (rc == FB_OK) {
        memcpy(cfg->sizes, tmp, n * sizeof *tmp);
        cfg->n_sizes = n;
    } else {
        snprintf(msg, msg_size, "%s", e.msg);
    }
    free(tmp);
    return rc == FB_OK ? 0 : -1;
}
