/* The --profile command: which kernels a call of each variant really runs, and how long each
 * takes, at one size. */
#ifndef FB_APP_PROFILE_H
#define FB_APP_PROFILE_H

#include "config/config.h"

/* --profile N: size_text (N) is read like one --sizes item (same syntax, limit 1e12 elements)
 * and must fit in memory like a sweep's largest size, checked before anything is allocated;
 * cfg's sizes become {N}. Then, per enabled variant, runs it at N elements (3 warm-up calls,
 * then 20 calls) and prints a kernel table (name, calls, total, average, min, max) on stdout:
 * kernel durations from CUPTI activity records where CUPTI works, else each step timed on the
 * host around a synchronize. Prints its own messages (stderr). Returns FB_OK; FB_ERR_USAGE for
 * a bad N (the message starts with "--profile N: ") or one that does not fit; another negative
 * fb_status when a step failed. */
int fb_app_profile(struct fb_config *cfg, const char *size_text);

#endif
