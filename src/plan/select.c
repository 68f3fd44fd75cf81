#include "plan/select.h"

#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "config/suggest.h"
#include "plan/variants.h"

/* Chains add two variants each to the built-ins. */
#define SELECT_MAX_NAMES (FB_MAX_VARIANTS + 2 * FB_MAX_CHAINS)

bool fb_plan_variant_selected(const struct fb_config *cfg, const char *name)
{
    if (cfg->variants.all)
        return true;
    for (size_t i = 0; i < cfg->variants.n_names; i++)
        if (strcmp(cfg->variants.names[i], name) == 0)
            return true;
    return false;
}

int fb_plan_select_variants(const struct fb_config *cfg, const char *const *known, size_t count,
                            bool *enabled, struct fb_error *err)
{
    char msg[sizeof err->msg];
    int len, bad = 0;
    if (cfg->variants.line > 0)
        len = snprintf(msg, sizeof msg, "%s:%d: [sweep] variants: ", cfg->path,
                       cfg->variants.line);
    else
        len = snprintf(msg, sizeof msg, "--variants: ");
    const size_t n = sizeof msg;
    for (size_t i = 0; i < cfg->variants.n_names && !cfg->variants.all; i++) {
        const char *name = cfg->variants.names[i];
        size_t k = 0;
        while (k < count && strcmp(known[k], name) != 0)
            k++;
        if (k < count || len < 0 || (size_t)len >= n)
            continue;
        const char *near = cfg_suggest(name, known, count);
        len += snprintf(msg + len, n - (size_t)len, "%sunknown variant \"%s\"", bad ? "; " : "",
                        name);
        if (near && (size_t)len < n)
            len += snprintf(msg + len, n - (size_t)len, " (did you mean \"%s\"?)", near);
        bad++;
    }
    if (bad) {
        if (len >= 0 && (size_t)len < n) {
            len += snprintf(msg + len, n - (size_t)len, "; known:");
            for (size_t i = 0; i < count && (size_t)len < n; i++)
                len += snprintf(msg + len, n - (size_t)len, " %s", known[i]);
            if ((size_t)len < n)
                snprintf(msg + len, n - (size_t)len, ", or all");
        }
        fb_text_escape_in_place(msg, sizeof msg); /* it quotes the user's text */
        return fb_fail(err, FB_ERR_USAGE, "%s", msg);
    }
    for (size_t k = 0; k < count; k++)
        enabled[k] = fb_plan_variant_selected(cfg, known[k]);
    return FB_OK;
}

size_t fb_plan_variant_names(const struct fb_config *cfg, const char **names,
                             char (*storage)[FB_VARIANT_NAME_CHARS], size_t max)
{
    size_t count = 0;
    for (size_t i = 0; i < fb_variant_count && count < max; i++, count++) {
        snprintf(storage[count], FB_VARIANT_NAME_CHARS, "%.*s", FB_VARIANT_NAME_CHARS - 1,
                 fb_variants[i].name);
        names[count] = storage[count];
    }
    for (size_t c = 0; c < cfg->n_chains && c < FB_MAX_CHAINS; c++)
        for (int fused = 0; fused < 2 && count < max; fused++, count++) {
            snprintf(storage[count], FB_VARIANT_NAME_CHARS, "%s_%.*s",
                     fused ? "fused" : "eager", FB_CHAIN_NAME_MAX - 1, cfg->chains[c].name);
            names[count] = storage[count];
        }
    return count;
}

int fb_plan_check_variants(const struct fb_config *cfg, struct fb_error *err)
{
    const char *names[SELECT_MAX_NAMES];
    char storage[SELECT_MAX_NAMES][FB_VARIANT_NAME_CHARS];
    bool enabled[SELECT_MAX_NAMES];
    size_t count = fb_plan_variant_names(cfg, names, storage, SELECT_MAX_NAMES);
    return fb_plan_select_variants(cfg, names, count, enabled, err);
}
