/* Output paths judged up front (contract in output_paths.h). */
#include "results/output_paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/text.h"
#include "common/limits.h"

int fb_output_name_check(const char *path, const char *what, struct fb_error *err)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (*name && strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
        return FB_OK;
    char shown[FB_PATH_MAX];
    fb_text_escape(shown, sizeof shown, path);
    if (!*name)
        return fb_fail(err, FB_ERR_USAGE, "%s %s: the path ends in '/', naming no file: give "
                       "the file's name too (e.g. %sresults.csv)", what, shown, shown);
    return fb_fail(err, FB_ERR_USAGE, "%s %s: its last part, '%s', is a directory, not a file "
                   "name: give the file's name (e.g. %s/results.csv)", what, shown, name, shown);
}

int fb_output_replaceable(int dirfd, const char *name, const char *signature, bool force,
                          const char *what, const char *shown, struct fb_error *err)
{
    if (force)
        return FB_OK;
    /* O_NOFOLLOW: a link is judged as itself (the rename replaces the link, not its target);
     * O_NONBLOCK: a FIFO never blocks the open; fstat then refuses it unread. */
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return FB_OK;
    const char *why = "is not a regular file";
    char head[64] = "";
    size_t want = strlen(signature) < sizeof head ? strlen(signature) : sizeof head - 1;
    struct stat st;
    bool sniffed = false; /* read, and not our start: the message quotes the start */
    if (fd < 0)
        why = errno == ELOOP ? "is a symlink" : "cannot be read";
    else if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        ssize_t got = st.st_size == 0 ? 0 : pread(fd, head, want, 0);
        if (st.st_size == 0 || (got == (ssize_t)want && memcmp(head, signature, want) == 0))
            why = NULL;
        else {
            why = "is not one fusebench wrote: it does not start";
            sniffed = true;
        }
    }
    if (fd >= 0)
        close(fd);
    if (!why)
        return FB_OK;
    return fb_fail(err, FB_ERR_USAGE, "%s %s: exists and %s%s%s%s; not replaced: choose another "
                   "directory, or add --force to replace it", what, shown, why,
                   sniffed ? " \"" : "", sniffed ? signature : "", sniffed ? "\"" : "");
}

void fb_output_dir_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, size, ".");
        return;
    }
    while (slash > path && slash[-1] == '/')
        slash--;
    if (slash == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

static const char *kind_of(mode_t mode)
{
    return S_ISREG(mode) ? "a regular file" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ?
           "a character device" : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ?
           "a socket" : "not a directory";
}

/* What the probe writes: one block, so that a full file system is found too (an empty file
 * takes an inode and no block). */
#define PROBE_BYTES 4096

/* Writes PROBE_BYTES to fd; 0, or the errno of the failure. */
static int probe_write(int fd)
{
    static const char block[PROBE_BYTES];
    for (size_t done = 0; done < sizeof block;) {
        ssize_t n = write(fd, block + done, sizeof block - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        done += (size_t)n;
    }
    return 0;
}

/* Creates a probe file in the existing directory dir (the one judged, shown_dir escaped, or
 * when that is still to be made its nearest existing ancestor), writes a block to it and
 * removes it. */
static int probe_dir(const char *dir, bool ancestor, const char *what, const char *shown_dir,
                     struct fb_error *err)
{
    char probe[FB_PATH_MAX + 32];
    if (snprintf(probe, sizeof probe, "%s/.fusebench-probe.XXXXXX", dir) >= (int)sizeof probe)
        return fb_fail(err, FB_ERR_USAGE, "%s %s: path too long", what, shown_dir);
    int fd = mkstemp(probe);
    const int made_errno = errno;
    if (fd < 0 && !ancestor)
        return fb_fail(err, FB_ERR_USAGE, "%s %s: cannot create files in it: %s", what,
                       shown_dir, strerror(made_errno));
    if (fd < 0) {
        char shown[FB_PATH_MAX];
        fb_text_escape(shown, sizeof shown, dir);
        return fb_fail(err, FB_ERR_USAGE, "%s %s: cannot be made: cannot create anything in "
                       "%s: %s", what, shown_dir, shown, strerror(made_errno));
    }
    int e = probe_write(fd);
    close(fd);
    unlink(probe);
    if (e && !ancestor)
        return fb_fail(err, FB_ERR_USAGE, "%s %s: cannot write a file in it: %s", what,
                       shown_dir, strerror(e));
    if (e) {
        char shown[FB_PATH_MAX];
        fb_text_escape(shown, sizeof shown, dir);
        return fb_fail(err, FB_ERR_USAGE, "%s %s: cannot be made: cannot write in %s: %s",
                       what, shown_dir, shown, strerror(e));
    }
    return FB_OK;
}

/* dir without the '/'s at its end ("/" stays "/"); false when it does not fit. */
static bool copy_trimmed(char *out, size_t size, const char *dir)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    if (len >= size)
        return false;
    memcpy(out, dir, len);
    out[len] = '\0';
    return true;
}

int fb_output_dir_check(const char *dir, const char *what, char *make_dir, size_t size,
                        struct fb_error *err)
{
    char shown[FB_PATH_MAX], cur[FB_PATH_MAX], up[FB_PATH_MAX];
    fb_text_escape(shown, sizeof shown, dir);
    if (size)
        make_dir[0] = '\0';
    if (!*dir)
        return fb_fail(err, FB_ERR_USAGE, "%s: the path is empty", what);
    if (!copy_trimmed(cur, sizeof cur, dir))
        return fb_fail(err, FB_ERR_USAGE, "%s %s: path too long", what, shown);
    /* Up from dir to the first part of it that exists; cur is then the one below it. */
    for (bool missing = false;;) {
        struct stat st;
        const char *at = missing ? up : cur;
        if (stat(at, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                char shown_at[FB_PATH_MAX];
                fb_text_escape(shown_at, sizeof shown_at, at);
                if (!missing)
                    return fb_fail(err, FB_ERR_USAGE, "%s %s: is %s; it must be a directory",
                                   what, shown, kind_of(st.st_mode));
                return fb_fail(err, FB_ERR_USAGE, "%s %s: cannot be made: %s is %s", what,
                               shown, shown_at, kind_of(st.st_mode));
            }
            if (missing && snprintf(make_dir, size, "%s", cur) >= (int)size)
                return fb_fail(err, FB_ERR_USAGE, "%s %s: path too long", what, shown);
            return probe_dir(at, missing, what, shown, err);
        }
        if (errno != ENOENT) {
            const int e = errno;
            char shown_at[FB_PATH_MAX];
            fb_text_escape(shown_at, sizeof shown_at, at);
            return fb_fail(err, FB_ERR_USAGE, "%s %s: %s%s%s%s", what, shown,
                           missing ? shown_at : "", missing ? ": " : "", strerror(e),
                           e == ENOTDIR ? " (a part of the path is a file)" : "");
        }
        if (missing)
            memcpy(cur, up, sizeof cur);
        missing = true;
        fb_output_dir_of(cur, up, sizeof up);
        if (strcmp(up, cur) == 0) /* "." or "/" gone: the working directory was removed */
            return fb_fail(err, FB_ERR_USAGE, "%s %s: %s does not exist", what, shown, up);
    }
}
