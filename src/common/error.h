/* Errors that carry their context up to the command that prints them.
 *
 * Library code (below src/app/) never exits and prints nothing of its own: it fills a struct
 * fb_error and returns one of the negative codes below. The commands (src/app/) print the
 * messages, naming files and what to do next; main alone turns the code into the exit code. */
#ifndef FB_COMMON_ERROR_H
#define FB_COMMON_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum fb_status {
    FB_OK = 0,
    FB_ERR_RUNTIME = -1,     /* a call failed (CUDA, allocation, I/O): exit 1 */
    FB_ERR_USAGE = -2,       /* the user asked for something impossible: exit 2 */
    FB_ERR_VERIFY = -3,      /* a kernel produced a wrong result: exit 1 */
    FB_ERR_UNAVAILABLE = -4, /* a feature cannot run here (no GPU, no counters) */
    FB_ERR_INTERRUPTED = -5, /* Ctrl-C: stop cleanly, exit 130 */
};

struct fb_error {
    char msg[1024];
};

/* Formats msg into err (printf-style) and returns code, so callers can write
 * `return fb_fail(err, FB_ERR_RUNTIME, "cudaMalloc(%zu): %s", n, s);`.
 * err may be NULL (the message is then dropped). */
int fb_fail(struct fb_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif
