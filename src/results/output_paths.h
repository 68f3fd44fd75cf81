/* The up-front judgement of the paths a run will write to: made before anything is measured,
 * so that a path that cannot work is refused at once (exit 2, nothing measured, nothing
 * created) instead of after the sweep. Used for the results file (results.c) and the charts
 * directory (sweep.c); creates nothing but a probe file it removes at once. */
#ifndef FB_RESULTS_OUTPUT_PATHS_H
#define FB_RESULTS_OUTPUT_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/* Refuses a file path whose last component is no file name: empty (the path ends in '/'),
 * "." or "..". `what` names the path in the message ("results file"). Returns FB_OK, or
 * FB_ERR_USAGE with "WHAT PATH: ..." (the path escaped, common/text.h). */
int fb_output_name_check(const char *path, const char *what, struct fb_error *err);

/* Judges the directory `dir` that files will be created in: it exists and is a directory
 * (symlinks followed), or it can be made (its nearest existing ancestor is a directory); and
 * files can be created in that directory or ancestor, which only trying tells for sure
 * (/proc, a read-only or full file system, root, for whom access() says yes): a uniquely
 * named probe file, ".fusebench-probe.XXXXXX", is created there, written one block (4 KiB: a
 * full file system refuses it) and removed at once. Puts in
 * make_dir (size bytes) the first directory of dir that does not exist yet, "" when dir
 * exists. `what` names dir in the messages ("charts directory"). Returns FB_OK, or
 * FB_ERR_USAGE with "WHAT DIR: reason", naming the directory that really failed (escaped). */
int fb_output_dir_check(const char *dir, const char *what, char *make_dir, size_t size,
                        struct fb_error *err);

/* Whether the page fusebench is about to rename over `name` (relative to dirfd, or AT_FDCWD)
 * may be replaced, by the results file's rule (results/results.h): nothing there, an empty
 * regular file, or a regular file that starts with `signature` (the first bytes fusebench
 * writes there) may; anything else (a foreign file, a symlink, a directory, FIFO or device,
 * a file that cannot be read) only with `force`, which renames over the entry itself, never
 * writing through it. `what` and `shown` name it in the message. Returns FB_OK, or
 * FB_ERR_USAGE with "WHAT SHOWN: ...; not replaced (--force replaces it)". */
int fb_output_replaceable(int dirfd, const char *name, const char *signature, bool force,
                          const char *what, const char *shown, struct fb_error *err);

/* The directory part of path, as the kernel resolves it: "a/b.csv" -> "a", "b.csv" -> ".",
 * "/b.csv" -> "/". Trailing slashes of the directory part are dropped ("a//b" -> "a"). */
void fb_output_dir_of(const char *path, char *dir, size_t size);

#endif
