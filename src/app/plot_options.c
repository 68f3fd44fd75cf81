/* The charts' options from the config or the command line (contract in plot_options.h). */
#include "app/plot_options.h"

#include <stdlib.h>
#include <string.h>

#include "app/config_load.h"
#include "common/text.h"
#include "plan/variants.h"

/* Where a [plot] key was set, for a message: "path:line: [plot] key" or "--key". */
static void where(char *out, size_t size, const struct fb_config *cfg, int line,
                  const char *key)
{
    char path[FB_PATH_MAX * 4];
    fb_text_escape(path, sizeof path, cfg->path);
    if (line > 0)
        snprintf(out, size, "%s:%d: [plot] %s", path, line, key);
    else
        snprintf(out, size, "--%s", key);
}

/* "time, speedup, ...": the names of a table, for a message. */
static void choices(char *out, size_t size, const char *(*name)(size_t), size_t count)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%s", i ? ", " : "", name(i));
}

static const char *chart_name(size_t i) { return fb_charts[i]->name; }
static const char *format_name(size_t i) { return fb_chart_formats[i].name; }
static const char *size_name(size_t i) { return fb_chart_sizes[i].name; }

static int check_charts(struct fb_plot_options *o, const struct fb_config *cfg, FILE *diag)
{
    const struct fb_config_plot *p = &cfg->plot;
    if (p->n_charts == 0)
        return 0;
    int bad = 0;
    bool on[FB_PLOT_MAX_CHARTS] = {false};
    for (size_t k = 0; k < p->n_charts; k++) {
        size_t i = 0;
        while (i < fb_chart_count && strcmp(fb_charts[i]->name, p->charts[k]) != 0)
            i++;
        if (i < fb_chart_count && i < FB_PLOT_MAX_CHARTS) {
            on[i] = true;
            continue;
        }
        char at[FB_PATH_MAX * 4 + 64], list[512];
        where(at, sizeof at, cfg, p->charts_line, "charts");
        choices(list, sizeof list, chart_name, fb_chart_count);
        fprintf(diag, "%s: \"%s\" is not a chart; the charts: %s\n", at, p->charts[k], list);
        bad = 1;
    }
    if (!bad) {
        memcpy(o->chart_on, on, sizeof on);
        o->chart_asked = true;
    }
    return bad;
}

static int check_formats(struct fb_plot_options *o, const struct fb_config *cfg, FILE *diag)
{
    const struct fb_config_plot *p = &cfg->plot;
    if (p->n_formats == 0)
        return 0;
    int bad = 0;
    bool on[FB_PLOT_MAX_FORMATS] = {false};
    for (size_t k = 0; k < p->n_formats; k++) {
        const struct fb_chart_format *f = fb_chart_format_find(p->formats[k]);
        if (f) {
            on[f - fb_chart_formats] = true;
            continue;
        }
        char at[FB_PATH_MAX * 4 + 64], list[128];
        where(at, sizeof at, cfg, p->formats_line, "formats");
        choices(list, sizeof list, format_name, fb_chart_format_count);
        fprintf(diag, "%s: \"%s\" is not a chart format; the formats: %s\n", at,
                p->formats[k], list);
        bad = 1;
    }
    if (!bad)
        memcpy(o->format_on, on, sizeof on);
    return bad;
}

static int check_size(struct fb_plot_options *o, const struct fb_config *cfg, FILE *diag)
{
    const struct fb_config_plot *p = &cfg->plot;
    if (!p->size[0])
        return 0;
    o->size = fb_chart_size_find(p->size);
    if (o->size)
        return 0;
    char at[FB_PATH_MAX * 4 + 64], list[128];
    where(at, sizeof at, cfg, p->size_line, "size");
    choices(list, sizeof list, size_name, fb_chart_size_count);
    fprintf(diag, "%s: \"%s\" is not a size; the sizes: %s\n", at, p->size, list);
    return 1;
}

/* Whether cfg makes a variant named name (a built-in, or a chain's). */
static bool variant_known(const struct fb_config *cfg, const char *name)
{
    char buf[FB_VARIANT_NAME_MAX];
    for (size_t i = 0; fb_variant_name_at(cfg, i, buf, sizeof buf); i++)
        if (strcmp(buf, name) == 0)
            return true;
    return false;
}

static int add_labels(struct fb_plot_options *o, const struct fb_config *cfg,
                      bool check_variants, FILE *diag)
{
    int bad = 0;
    /* the chains' ops first: a label given for the same variant is later, and wins */
    for (size_t c = 0; c < cfg->n_chains; c++) {
        const struct fb_config_chain *cc = &cfg->chains[c];
        for (int side = 0; side < 2; side++) {
            char *text = o->texts[o->n_names];
            fb_chain_text(&cc->chain, text, FB_PLOT_OPS_CHARS);
            char *variant = o->variants[o->n_names];
            snprintf(variant, FB_VARIANT_NAME_CHARS, "%s_%s", side ? "fused" : "eager",
                     cc->name);
            o->names[o->n_names] = (struct fb_chart_name){variant, text, false};
            o->n_names++;
        }
    }
    for (size_t i = 0; i < cfg->plot.n_labels; i++) {
        const struct fb_config_plot_label *l = &cfg->plot.labels[i];
        if (check_variants && !variant_known(cfg, l->variant)) {
            char key[FB_VARIANT_NAME_CHARS + 8], at[FB_PATH_MAX * 4 + 128];
            snprintf(key, sizeof key, "label.%s", l->variant);
            where(at, sizeof at, cfg, l->line, key);
            fprintf(diag, "%s: no variant \"%s\" (the built-ins, and eager_NAME and "
                          "fused_NAME of each [chain NAME])\n", at, l->variant);
            bad = 1;
            continue;
        }
        snprintf(o->variants[o->n_names], FB_VARIANT_NAME_CHARS, "%s", l->variant);
        snprintf(o->texts[o->n_names], FB_PLOT_OPS_CHARS, "%s", l->text);
        o->names[o->n_names] = (struct fb_chart_name){o->variants[o->n_names],
                                                      o->texts[o->n_names], true};
        o->n_names++;
    }
    return bad;
}

int fb_plot_options_from_config(struct fb_plot_options *o, const struct fb_config *cfg,
                                bool check_variants, FILE *diag)
{
    fb_plot_options_defaults(o);
    int bad = check_charts(o, cfg, diag);
    bad |= check_formats(o, cfg, diag);
    bad |= check_size(o, cfg, diag);
    bad |= add_labels(o, cfg, check_variants, diag);
    if (bad) {
        fb_plot_options_defaults(o);
        return FB_ERR_USAGE;
    }
    return FB_OK;
}

/* --plot's options: --plot-config's file (checked whole) or the defaults, with the command
 * line's overrides; without a file only [plot] keys mean anything. */
int fb_plot_options_from_cli(const struct fb_cli *cli, struct fb_plot_options *opt)
{
    const struct fb_config_setting *settings = cli->overrides;
    struct fb_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return FB_ERR_RUNTIME;
    int rc = FB_OK;
    if (cli->plot_config) {
        rc = fb_app_config_load(cfg, cli->plot_config, settings, (size_t)cli->n_overrides,
                                NULL);
        if (rc == FB_OK)
            rc = fb_plot_options_from_config(opt, cfg, true, stderr);
    } else {
        fb_config_defaults(cfg);
        static const char *const plot_keys[] = {"charts", "size", "formats"};
        for (int i = 0; i < cli->n_overrides && rc == FB_OK; i++) {
            bool plot_key = strncmp(settings[i].key, "label.", 6) == 0;
            for (size_t k = 0; k < 3; k++)
                plot_key |= strcmp(settings[i].key, plot_keys[k]) == 0;
            if (!plot_key) {
                char shown[256];
                fprintf(stderr, "--%s: --plot takes only [plot] keys (charts, size, formats, "
                                "label.<variant>), or a config's with --plot-config\n",
                        fb_text_escape(shown, sizeof shown, settings[i].key));
                rc = FB_ERR_USAGE;
            }
        }
        struct fb_error err;
        if (rc == FB_OK &&
            fb_config_override_all(cfg, settings, (size_t)cli->n_overrides, &err) != FB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            rc = FB_ERR_USAGE;
        }
        if (rc == FB_OK)
            rc = fb_plot_options_from_config(opt, cfg, false, stderr);
    }
    free(cfg);
    return rc;
}
