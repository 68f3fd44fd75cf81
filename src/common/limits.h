/* Sizes shared by every floor, so that a path fits the same buffer wherever it goes. */
#ifndef FB_COMMON_LIMITS_H
#define FB_COMMON_LIMITS_H

#define FB_PATH_MAX 1024 /* a path of the config, the results, the charts, NUL included */

#endif
