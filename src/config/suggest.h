/* Nearest-name suggestions for "did you mean ...?" messages: src/config's, and plan's for
 * variant names (plan depends on config, never the reverse). */
#ifndef FB_CONFIG_SUGGEST_H
#define FB_CONFIG_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance between a and b (insert, delete, substitute: cost 1 each), comparing
 * ASCII letters without regard to case, so "Sizes" is 0 away from "sizes".
 * Strings longer than 63 characters are compared on their first 63. */
size_t cfg_edit_distance(const char *a, const char *b);

/* The candidate nearest to word, or NULL when none is near enough to be a plausible typo:
 * a candidate qualifies when its distance is at most max(2, strlen(word) / 3).
 * Ties go to the earlier candidate. Failing that, the first candidate that begins with word
 * (at least 3 characters), so a clipped name such as "fused" finds "fused_add_relu". */
const char *cfg_suggest(const char *word, const char *const *candidates, size_t n);

#endif
