/* The config a plan is built from (contract in load.h). */
#include "plan/load.h"

#include "common/text.h"
#include "plan/select.h"

int fb_plan_config_load(struct fb_config *cfg, const char *path,
                        const struct fb_config_setting *settings, size_t count, FILE *diag)
{
    struct fb_error err = {{0}};
    int rc = fb_config_load(cfg, path, diag, &err);
    if (rc == FB_ERR_RUNTIME && diag)
        fb_text_print(diag, "", err.msg);
    if (rc != FB_OK)
        return FB_ERR_USAGE;
    /* All overrides at once: the min <= max rules judge the final set, not each step; then
     * the variants list, which names variants plan knows (chains add some), before anything
     * runs. */
    rc = fb_config_override_all(cfg, settings, count, &err);
    if (rc == FB_OK)
        rc = fb_plan_check_variants(cfg, &err);
    if (rc != FB_OK) {
        if (diag)
            fb_text_print(diag, "", err.msg);
        return FB_ERR_USAGE;
    }
    return FB_OK;
}
