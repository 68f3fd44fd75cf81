/* The config a plan is built from: the INI file, then the command line's overrides, then the
 * variants list checked against the variants plan knows. What every command that measures
 * (and the peer library) loads; the [plot] section is the drawing commands' business
 * (app/config_load.h). */
#ifndef FB_PLAN_LOAD_H
#define FB_PLAN_LOAD_H

#include <stddef.h>
#include <stdio.h>

#include "config/config.h"

/* Loads the file at path into cfg, applies every override of settings (count of them) at
 * once, so that the min <= max rules judge the final set, not each step, and checks the
 * variants list (fb_plan_check_variants). Every message goes to diag (may be NULL). Returns
 * FB_OK or FB_ERR_USAGE (a file that cannot be read included). */
int fb_plan_config_load(struct fb_config *cfg, const char *path,
                        const struct fb_config_setting *settings, size_t count, FILE *diag);

#endif
