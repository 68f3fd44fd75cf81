/* The config from the file and the command line (contract in config_load.h). */
#include "app/config_load.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/plot_options.h"
#include "plan/load.h"

int fb_app_config_load(struct fb_config *cfg, const char *path,
                       const struct fb_config_setting *settings, size_t count,
                       const char *plot_dir)
{
    if (fb_plan_config_load(cfg, path, settings, count, stderr) != FB_OK)
        return FB_ERR_USAGE;
    /* [plot]'s charts, formats, size and labels name tables the config does not know */
    struct fb_plot_options *opt = malloc(sizeof *opt);
    int rc = opt ? fb_plot_options_from_config(opt, cfg, true, stderr) : FB_OK;
    free(opt);
    if (rc != FB_OK)
        return FB_ERR_USAGE;
    if (plot_dir)
        snprintf(cfg->plot_dir, sizeof cfg->plot_dir, "%s", plot_dir);
    return FB_OK;
}
