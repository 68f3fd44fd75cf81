#include "config/suggest.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define SUGGEST_MAX_LEN 63

size_t cfg_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > SUGGEST_MAX_LEN)
        la = SUGGEST_MAX_LEN;
    if (lb > SUGGEST_MAX_LEN)
        lb = SUGGEST_MAX_LEN;

    /* Two rows of the dynamic-programming table: row[j] = distance(a[0..i), b[0..j)). */
    size_t prev[SUGGEST_MAX_LEN + 1], cur[SUGGEST_MAX_LEN + 1];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            size_t best = prev[j - 1] + (same ? 0 : 1); /* substitute (or keep) */
            if (prev[j] + 1 < best)
                best = prev[j] + 1; /* delete a[i-1] */
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1; /* insert b[j-1] */
            cur[j] = best;
        }
        memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
    }
    return prev[lb];
}

const char *cfg_suggest(const char *word, const char *const *candidates, size_t n)
{
    /* A third of the word's length catches typos in long names (max_reps vs max_rep) without
     * offering unrelated short names; 2 keeps short words (cpu vs cup) suggestible. */
    size_t limit = strlen(word) / 3;
    if (limit < 2)
        limit = 2;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        size_t d = cfg_edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    if (best)
        return best;
    /* A clipped name ("fused" for fused_add_relu) is too far in edits but plainly meant. */
    size_t len = strlen(word);
    for (size_t i = 0; len >= 3 && i < n; i++)
        if (strncasecmp(candidates[i], word, len) == 0)
            return candidates[i];
    return NULL;
}
