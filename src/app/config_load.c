/* The config from the file and the command line (contract in config_load.h). */
#include "app/config_load.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/plot_options.h"
#include "common/text.h"

#include "plan/select.h"

int fb_app_config_load(struct fb_config *cfg, const char *path,
                       const struct fb_config_setting *settings, size_t count,
                       const char *plot_dir)
{
    struct fb_error err = {{0}};
    int rc = fb_config_load(cfg, path, stderr, &err);
    if (rc == FB_ERR_RUNTIME)
        fb_text_print(stderr, "", err.msg);
    if (rc != FB_OK)
        return FB_ERR_USAGE;
    /* All overrides at once: the min <= max rules judge the final set, not each step. */
    rc = fb_config_override_all(cfg, settings, count, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return FB_ERR_USAGE;
    }
    /* The variants list names variants, which plan knows (chains add some): checked here,
     * before anything runs. */
    rc = fb_plan_check_variants(cfg, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return FB_ERR_USAGE;
    }
    /* [plot]'s charts, formats, size and labels name tables the config does not know */
    struct fb_plot_options *opt = malloc(sizeof *opt);
    rc = opt ? fb_plot_options_from_config(opt, cfg, true, stderr) : FB_OK;
    free(opt);
    if (rc != FB_OK)
        return FB_ERR_USAGE;
    if (plot_dir)
        snprintf(cfg->plot_dir, sizeof cfg->plot_dir, "%s", plot_dir);
    return FB_OK;
}
