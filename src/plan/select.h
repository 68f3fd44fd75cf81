/* Which variants a run measures: the config's [sweep] variants list (names as written, or
 * "all"; config/config.h) resolved against the variants plan knows, the built-ins and
 * eager_NAME / fused_NAME for every [chain NAME] of the config. Config keeps only the names
 * (it knows ops, not variants); the names are checked here, once, before anything runs. */
#ifndef FB_PLAN_SELECT_H
#define FB_PLAN_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "config/config.h"

/* Whether the variant named `name` is selected by cfg's list ("all" selects every one).
 * Does not say whether the list's other names exist: fb_plan_select_variants does. */
bool fb_plan_variant_selected(const struct fb_config *cfg, const char *name);

/* Resolves cfg's list against the plan's variants, known[0..count) in the plan's order:
 * enabled[i] tells whether known[i] is selected. Every name of the list must be one of
 * known; else FB_ERR_USAGE with err naming each unknown one with its nearest known name,
 * where the list came from, and the known names:
 *   path:line: [sweep] variants: unknown variant "x" (did you mean "y"?); known: a b, or all
 * (or "--variants: ..." when a command-line override set the list). Text quoted from the
 * list is escaped (fb_text_escape). Returns FB_OK otherwise. */
int fb_plan_select_variants(const struct fb_config *cfg, const char *const *known, size_t count,
                            bool *enabled, struct fb_error *err);

/* The names of the variants of a run of cfg, in the plan's order: the built-in variants
 * (plan/variants.h), then eager_NAME and fused_NAME for each chain of cfg, into storage
 * (NUL-terminated, at most FB_VARIANT_NAME_CHARS each) with names[i] pointing at each.
 * Returns how many (at most max). */
size_t fb_plan_variant_names(const struct fb_config *cfg, const char **names,
                             char (*storage)[FB_VARIANT_NAME_CHARS], size_t max);

/* fb_plan_select_variants against fb_plan_variant_names: the check a run makes before it
 * starts. Returns FB_OK or FB_ERR_USAGE (err as above). */
int fb_plan_check_variants(const struct fb_config *cfg, struct fb_error *err);

#endif
