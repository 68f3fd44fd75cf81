/* --print-plan (contract in print_plan.h). */
#include "app/print_plan.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/text.h"
#include "measure/runner.h"
#include "output/plan_json.h"

int fb_app_print_plan(const struct fb_config *cfg)
{
    struct fb_error err = {{0}};
    struct fb_variant_set *set = NULL;
    int rc = fb_variant_set_new(cfg, &set, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return rc;
    }
    rc = fb_plan_json_write(stdout, cfg, set);
    free(set);
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "--print-plan: cannot write the plan to stdout\n");
        return FB_ERR_RUNTIME;
    }
    return FB_OK;
}
