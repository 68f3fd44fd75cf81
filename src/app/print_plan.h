/* The --print-plan command: the plan of a config as JSON on stdout (src/output/plan_json.h),
 * nothing measured, no backend opened. */
#ifndef FB_APP_PRINT_PLAN_H
#define FB_APP_PRINT_PLAN_H

#include "config/config.h"

/* Builds cfg's variant set and writes the plan to stdout. Returns FB_OK; FB_ERR_USAGE with a
 * message on stderr when a chain is malformed; FB_ERR_RUNTIME (message on stderr) when stdout
 * cannot be written. */
int fb_app_print_plan(const struct fb_config *cfg);

#endif
