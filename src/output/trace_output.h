/* Where --profile's --trace FILE goes: judged before anything is measured, written whole
 * (results/atomic_file.h) once every variant is traced. Beside it goes the timeline chart's
 * table (chart/timeline.h), from which --plot redraws the chart: FILE.json's is
 * FILE-timeline.tsv. */
#ifndef FB_OUTPUT_TRACE_OUTPUT_H
#define FB_OUTPUT_TRACE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "common/limits.h"
#include "output/trace_json.h"

/* FILE.json's timeline table is FILE-timeline.tsv (".json" replaced; another name gets the
 * suffix added); its first line is the signature, by which fusebench knows one of its own. */
#define FB_TIMELINE_TABLE_SUFFIX "-timeline.tsv"
#define FB_TIMELINE_SIGNATURE "# fusebench timeline table (plots/timeline.gp draws it)"

struct fb_trace_target {
    char path[FB_PATH_MAX];     /* the file really written: symlinks followed */
    char table[FB_PATH_MAX];    /* the timeline table beside it */
    char make_dir[FB_PATH_MAX]; /* the first directory that must be made for it; "" if none */
};

/* Judges `path` up front, creating nothing but the directory probe of fb_output_dir_check:
 * refuses a last component that is no file name (fb_output_name_check), follows symlinks to
 * the file really written and refuses one that is not a regular file (a directory, FIFO,
 * device such as /dev/null: fb_csv_output_target's policy), refuses an existing file that is
 * neither empty nor a fusebench trace (it does not start with FB_TRACE_JSON_SIGNATURE)
 * unless `force`, judges the timeline table beside it the same way (a regular file or a new
 * name; empty or starting with FB_TIMELINE_SIGNATURE unless `force`), and judges its directory (it exists or can be made, files can be created
 * in it). Fills *t. Returns FB_OK, or FB_ERR_USAGE with "--trace PATH: reason" (escaped). */
int fb_trace_judge(const char *path, bool force, struct fb_trace_target *t,
                   struct fb_error *err);

/* Makes t's missing directories and writes the trace (fb_trace_json_write) to t->path
 * atomically. Returns FB_OK, or FB_ERR_RUNTIME / FB_ERR_USAGE as fb_atomic_write. */
int fb_trace_write(const struct fb_trace_target *t, const struct fb_trace_info *info,
                   const struct fb_trace_track *tracks, size_t count, struct fb_error *err);

#endif
