/* The plan as the dry run prints it (fusebench CONFIG --dry-run), before the lines about the
 * device and the files the run would write (app/sweep.c):
 *   plan: 7 variants x 10 sizes x 1 format = 70 points on cpu (DEVICE)
 *   variants: copy eager_add_relu ...
 *   sizes: 8 80 ...
 *   formats: fp32/normal
 *   memory at the largest size: 1.2 GiB in all, 460.0 MiB of it on the backend */
#ifndef FB_OUTPUT_PLAN_TEXT_H
#define FB_OUTPUT_PLAN_TEXT_H

#include <stdio.h>

#include "plan/plan.h"

/* Writes the lines above; `device` is the device's name, already escaped. */
void fb_plan_text_write(FILE *out, const struct fb_plan *plan, const char *backend,
                        const char *device);

#endif
