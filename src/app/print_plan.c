/* --print-plan (contract in print_plan.h). */
#include "app/print_plan.h"

#include <stdio.h>

#include "common/text.h"
#include "output/plan_json.h"
#include "plan/plan.h"

int fb_app_print_plan(const struct fb_config *cfg)
{
    struct fb_error err = {{0}};
    struct fb_plan *plan = NULL;
    int rc = fb_plan_build(cfg, 0, &plan, &err);
    if (rc != FB_OK) {
        fb_text_print(stderr, "", err.msg);
        return rc;
    }
    rc = fb_plan_json_write(stdout, plan);
    fb_plan_free(plan);
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "--print-plan: cannot write the plan to stdout\n");
        return FB_ERR_RUNTIME;
    }
    return FB_OK;
}
