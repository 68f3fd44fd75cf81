/* Sizes shared by every floor, so that a path fits the same buffer wherever it goes. */
#ifndef FB_COMMON_LIMITS_H
#define FB_COMMON_LIMITS_H

#define FB_PATH_MAX 1024 /* a path of the config, the results, the charts, NUL included */
#define FB_MAX_CHAINS 16            /* [chain NAME] sections of a config */
#define FB_VARIANT_NAME_CHARS 64    /* a variant's name, NUL included */
#define FB_PLOT_MAX_LABELS 32       /* [plot] label.<variant> keys */

#endif
