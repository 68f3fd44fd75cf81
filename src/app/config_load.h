/* The config a command runs with: the INI file, then the command line's overrides. */
#ifndef FB_APP_CONFIG_LOAD_H
#define FB_APP_CONFIG_LOAD_H

#include <stddef.h>

#include "config/config.h"

/* Loads the file at path into cfg (its diagnostics go to stderr), applies every override of
 * settings (count of them) at once, so that the min <= max rules judge the final set, not
 * each step, and sets cfg->plot_dir from plot_dir (--plot-dir) when it is not NULL. Prints its
 * own messages. Returns FB_OK or FB_ERR_USAGE (a file that cannot be read included). */
int fb_app_config_load(struct fb_config *cfg, const char *path,
                       const struct fb_config_setting *settings, size_t count,
                       const char *plot_dir);

#endif
