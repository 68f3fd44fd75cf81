/* The table of configuration keys and their value parsers, shared by the file loader
 * (config.c) and command-line overrides, so both accept exactly the same syntax.
 * Internal to src/config. */
#ifndef FB_CONFIG_KEYS_H
#define FB_CONFIG_KEYS_H

#include <stddef.h>

#include "config/config.h"

#define CFG_MSG_MAX 512

struct cfg_key {
    const char *section; /* "sweep", "backend", "measure", "cupti", "output" */
    const char *name;
    /* Parses value into cfg. Returns 0, or -1 with a message (no key name, no location)
     * in msg. Never touches cfg on failure. */
    int (*set)(struct fb_config *cfg, const char *value, char *msg, size_t msg_size);
};

extern const struct cfg_key cfg_keys[];
extern const size_t cfg_key_count;
extern const char *const cfg_sections[];
extern const size_t cfg_section_count;

/* A real value: a finite decimal number (strtod syntax, scientific notation included, no
 * blanks around it) in [lo, hi], or (lo, hi] when lo_open. Returns 0, or -1 with the reason
 * in msg ("\"x\" is not a number", "5 is out of range [0, 1]"); *out unchanged then. */
int cfg_parse_real(const char *value, double lo, int lo_open, double hi, double *out, char *msg,
                   size_t n);

/* The key `name` of `section`, or of any section when section is NULL; NULL if none. */
const struct cfg_key *cfg_key_find(const char *section, const char *name);

/* Whether `name` is one of cfg_sections. */
int cfg_section_known(const char *name);

/* Writes into msg a hint for an unknown key `name` in `section` (which may be unknown or
 * ""): "; did you mean 'min_reps'?", "; it belongs in [output]", or a list of the valid keys. */
void cfg_key_hint(const char *section, const char *name, char *msg, size_t msg_size);

/* [plot] label.<variant> = value: sets (or, for a variant given again, replaces) the label
 * of `variant` (the key's text after "label."). Returns 0, or -1 with the reason in msg (an
 * empty or malformed variant name, an empty or too long text, too many labels). */
int cfg_set_plot_label(struct fb_config *cfg, const char *variant, const char *value,
                       int line, char *msg, size_t msg_size);

/* Expands cfg->sizes_spec at cfg->points_per_decade into cfg->sizes / n_sizes.
 * Returns 0, or -1 with the reason in msg (cfg->sizes unchanged). */
int cfg_expand_sizes(struct fb_config *cfg, char *msg, size_t msg_size);

#endif
