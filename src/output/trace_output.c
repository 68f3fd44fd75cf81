/* The trace file's path and write (contract in trace_output.h). */
#include "output/trace_output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/output_paths.h"
#include "common/text.h"
#include "results/atomic_file.h"
#include "results/csv.h"

/* Whether the regular file at path may be replaced: empty, or a trace fusebench wrote. */
static bool replaceable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char head[sizeof FB_TRACE_JSON_SIGNATURE];
    size_t got = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    return got == 0 || (got == sizeof head - 1 &&
                        memcmp(head, FB_TRACE_JSON_SIGNATURE, sizeof head - 1) == 0);
}

int fb_trace_judge(const char *path, bool force, struct fb_trace_target *t,
                   struct fb_error *err)
{
    memset(t, 0, sizeof *t);
    int rc = fb_output_name_check(path, "--trace", err);
    if (rc != FB_OK)
        return rc;
    char shown[FB_PATH_MAX];
    fb_text_escape(shown, sizeof shown, path);
    rc = fb_csv_output_target(path, t->path, sizeof t->path, err);
    if (rc == FB_OK)
        rc = fb_output_name_check(t->path, "--trace (a symlink's target)", err);
    if (rc != FB_OK) {
        if (strncmp(err->msg, "--trace", 7) != 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            fb_text_escape_in_place(msg, sizeof msg);
            return fb_fail(err, FB_ERR_USAGE, "--trace %s: %s", shown, msg);
        }
        return rc;
    }
    FILE *exists = fopen(t->path, "rb");
    if (exists)
        fclose(exists);
    if (exists && !force && !replaceable(t->path))
        return fb_fail(err, FB_ERR_USAGE, "--trace %s: the file exists and is not a trace "
                       "fusebench wrote; not replaced (--force replaces it)", shown);
    if (!exists && errno != ENOENT)
        return fb_fail(err, FB_ERR_USAGE, "--trace %s: cannot read the file there: %s", shown,
                       strerror(errno));
    char dir[FB_PATH_MAX];
    fb_output_dir_of(t->path, dir, sizeof dir);
    return fb_output_dir_check(dir, "--trace directory", t->make_dir, sizeof t->make_dir, err);
}

struct trace_content {
    const struct fb_trace_info *info;
    const struct fb_trace_track *tracks;
    size_t count;
};

static int write_content(FILE *f, void *ctx)
{
    const struct trace_content *c = ctx;
    return fb_trace_json_write(f, c->info, c->tracks, c->count);
}

int fb_trace_write(const struct fb_trace_target *t, const struct fb_trace_info *info,
                   const struct fb_trace_track *tracks, size_t count, struct fb_error *err)
{
    int rc = fb_csv_make_parent_dirs(t->path, err);
    if (rc != FB_OK)
        return rc;
    struct trace_content content = {info, tracks, count};
    return fb_atomic_write(t->path, write_content, &content, "the trace", err);
}
