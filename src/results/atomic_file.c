/* The atomic file write (contract in atomic_file.h). */
#include "results/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* After the rename, make the directory entry durable too. Best effort on purpose: the new file
 * is already in place and complete, and some file systems refuse fsync on a directory
 * (EINVAL), which must not turn a good write into a failure. */
static void sync_parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        (void)close(fd);
    }
    free(dir);
}

const char *fb_file_kind(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return "a directory";
    if (S_ISFIFO(st->st_mode))
        return "a FIFO";
    if (S_ISSOCK(st->st_mode))
        return "a socket";
    if (S_ISCHR(st->st_mode))
        return "a character device";
    if (S_ISBLK(st->st_mode))
        return "a block device";
    return "not a regular file";
}

/* The process's umask, which mkstemp ignores (it creates 0600): read it by setting it and
 * setting it back. Nothing else in fusebench creates files meanwhile. */
static mode_t current_umask(void)
{
    mode_t mask = umask(022);
    umask(mask);
    return mask;
}

int fb_atomic_write(const char *target, int (*write)(FILE *f, void *ctx), void *ctx,
                    const char *what, struct fb_error *err)
{
    int rc;
    /* The new file keeps the old one's permissions; a new one gets 0666 less the umask. */
    struct stat old;
    mode_t mode = stat(target, &old) == 0 ? (old.st_mode & 07777) : (0666 & ~current_umask());

    /* A unique name beside the target (the same directory, so the rename is atomic on one file
     * system; unique, so that two writers never share a temporary file). */
    size_t len = strlen(target);
    char *tmp = malloc(len + sizeof ".tmp.XXXXXX");
    if (!tmp)
        return fb_fail(err, FB_ERR_RUNTIME, "%s: out of memory", target);
    memcpy(tmp, target, len);
    memcpy(tmp + len, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");

    FILE *f = NULL;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot create '%s': %s", tmp, strerror(errno));
        free(tmp);
        return rc;
    }
    if (fchmod(fd, mode) != 0 || !(f = fdopen(fd, "w"))) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot open '%s': %s", tmp, strerror(errno));
        (void)close(fd);
        goto error;
    }
    int errnum = write(f, ctx);
    if (errnum) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot write '%s': %s", tmp, strerror(errnum));
        goto error;
    }
    /* Buffered data reaches the kernel at fflush (this is where a full disk usually shows),
     * the disk at fsync: a crash after the rename must not leave an empty file. */
    if (fflush(f) != 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot write '%s': %s", tmp, strerror(errno));
        goto error;
    }
    if (fsync(fileno(f)) != 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot sync '%s': %s", tmp, strerror(errno));
        goto error;
    }
    FILE *closing = f;
    f = NULL;
    if (fclose(closing) != 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot close '%s': %s", tmp, strerror(errno));
        goto error;
    }
    /* Checked again right before the rename: something that appeared at the target since
     * (a FIFO, a device node, a directory) is never replaced. */
    struct stat now;
    if (lstat(target, &now) == 0 && !S_ISREG(now.st_mode)) {
        rc = fb_fail(err, FB_ERR_USAGE, "%s is %s; %s must go to a regular file", target,
                     fb_file_kind(&now), what);
        goto error;
    }
    if (rename(tmp, target) != 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "cannot rename '%s' to '%s': %s", tmp, target,
                     strerror(errno));
        goto error;
    }
    free(tmp);
    sync_parent_dir(target);
    return FB_OK;

error:
    if (f)
        (void)fclose(f);
    (void)unlink(tmp); /* our own, uniquely named temporary file */
    free(tmp);
    return rc;
}
