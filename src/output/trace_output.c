/* The trace file's path and write (contract in trace_output.h). */
#include "output/trace_output.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "results/output_paths.h"
#include "common/text.h"
#include "results/atomic_file.h"
#include "results/csv.h"

/* Whether the regular file at path may be replaced: empty, or one fusebench wrote (it starts
 * with signature). */
static bool replaceable(const char *path, const char *signature)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char head[128];
    const size_t len = strlen(signature);
    size_t got = fread(head, 1, len < sizeof head ? len : sizeof head, f);
    fclose(f);
    return got == 0 || (got == len && memcmp(head, signature, len) == 0);
}

/* The file at path may be written: a new name, or a regular file that is replaceable (or
 * force). what names it in messages ("the file", "its timeline table PATH"). */
static int judge_file(const char *path, const char *signature, bool force, const char *shown,
                      const char *what, struct fb_error *err)
{
    FILE *exists = fopen(path, "rb");
    if (exists)
        fclose(exists);
    if (exists && !force && !replaceable(path, signature))
        return fb_fail(err, FB_ERR_USAGE, "--trace %s: %s exists and is not one fusebench "
                       "wrote; not replaced (--force replaces it)", shown, what);
    if (!exists && errno != ENOENT)
        return fb_fail(err, FB_ERR_USAGE, "--trace %s: cannot read %s: %s", shown, what,
                       strerror(errno));
    return FB_OK;
}

/* t->table from t->path: ".json" replaced by the suffix, or the suffix added. */
static int table_path(struct fb_trace_target *t, const char *shown, struct fb_error *err)
{
    size_t len = strlen(t->path);
    if (len > 5 && strcmp(t->path + len - 5, ".json") == 0)
        len -= 5;
    const char *name = strrchr(t->path, '/');
    name = name ? name + 1 : t->path;
    const size_t name_len = strlen(name) - (strlen(t->path) - len);
    if (snprintf(t->table, sizeof t->table, "%.*s%s", (int)len, t->path,
                 FB_TIMELINE_TABLE_SUFFIX) >= (int)sizeof t->table ||
        name_len + strlen(FB_TIMELINE_TABLE_SUFFIX) > NAME_MAX)
        return fb_fail(err, FB_ERR_USAGE, "--trace %s: the name is too long for its timeline "
                       "table (NAME%s) beside it", shown, FB_TIMELINE_TABLE_SUFFIX);
    return FB_OK;
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
    rc = judge_file(t->path, FB_TRACE_JSON_SIGNATURE, force, shown, "the file", err);
    char table[FB_PATH_MAX], what[FB_PATH_MAX * 4 + 32];
    if (rc == FB_OK)
        rc = table_path(t, shown, err);
    if (rc == FB_OK)
        rc = fb_csv_output_target(t->table, table, sizeof table, err);
    if (rc != FB_OK && strncmp(err->msg, "--trace", 7) != 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        fb_text_escape_in_place(msg, sizeof msg);
        return fb_fail(err, FB_ERR_USAGE, "--trace %s: its timeline table: %s", shown, msg);
    }
    if (rc == FB_OK) {
        snprintf(t->table, sizeof t->table, "%s", table);
        char shown_table[FB_PATH_MAX * 4];
        snprintf(what, sizeof what, "its timeline table %s",
                 fb_text_escape(shown_table, sizeof shown_table, t->table));
        rc = judge_file(t->table, FB_TIMELINE_SIGNATURE, force, shown, what, err);
    }
    if (rc != FB_OK)
        return rc;
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
