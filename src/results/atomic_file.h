/* Writing a file whole or not at all: the one routine behind the results CSV (csv.h) and
 * --profile's trace (trace_json.h). */
#ifndef FB_OUTPUT_ATOMIC_FILE_H
#define FB_OUTPUT_ATOMIC_FILE_H

#include <stdio.h>
#include <sys/stat.h>

#include "common/error.h"

/* What kind of thing st is, for messages: "a directory", "a FIFO", "a socket", "a character
 * device", "a block device", else "not a regular file". */
const char *fb_file_kind(const struct stat *st);

/* Writes the file `target` (a regular file or a new name; the caller has followed symlinks)
 * atomically: write(f, ctx) fills a new, uniquely named "<target>.tmp.XXXXXX" (mkstemp) in the
 * target's directory and returns 0 or the errno of its first failed write; the file gets the
 * old file's permissions (0666 less the umask for a new one), is fflush'ed, fsync'ed and
 * closed, then rename()d onto the target, and the directory synced (best effort). Every write,
 * flush, sync and close is checked. Readers see the old file or the new one, never a torn
 * one. On any failure the temporary file is removed, a file already at the target is left as
 * it was, and the function returns FB_ERR_RUNTIME (I/O; the message names the file and the
 * system error) or FB_ERR_USAGE (the target exists and is not a regular file, checked again
 * right before the rename; "TARGET is a FIFO; WHAT must go to a regular file", `what` e.g.
 * "the results"). Parent directories are not created. */
int fb_atomic_write(const char *target, int (*write)(FILE *f, void *ctx), void *ctx,
                    const char *what, struct fb_error *err);

#endif
