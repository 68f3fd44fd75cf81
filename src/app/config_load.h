/* The config a command runs with: the INI file, then the command line's overrides. */
#ifndef FB_APP_CONFIG_LOAD_H
#define FB_APP_CONFIG_LOAD_H

#include <stddef.h>

#include "config/config.h"

/* fb_plan_config_load (plan/load.h) with its diagnostics on stderr, then the [plot] section
 * checked against the charts (app/plot_options.h), and sets cfg->plot_dir from plot_dir (--plot-dir) when it is not NULL. Prints its
 * own messages. Returns FB_OK or FB_ERR_USAGE (a file that cannot be read included). */
int fb_app_config_load(struct fb_config *cfg, const char *path,
                       const struct fb_config_setting *settings, size_t count,
                       const char *plot_dir);

#endif
