/* The tables' printer (contract in tsv.h). */
#include "chart/tsv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "chart/label.h"

int fb_tsv_open(struct fb_tsv *t, int dirfd, const char *name, bool replace,
                struct fb_error *err)
{
    t->name = name;
    t->failed = 0;
    if (replace)
        unlinkat(dirfd, name, 0);
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    t->f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (t->f)
        return FB_OK;
    int e = errno;
    if (fd >= 0)
        close(fd);
    return fb_fail(err, FB_ERR_RUNTIME, "charts: cannot create the table %s: %s", name,
                   strerror(e));
}

void fb_tsv_printf(struct fb_tsv *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vfprintf(t->f, fmt, ap) < 0 && !t->failed)
        t->failed = errno ? errno : EIO;
    va_end(ap);
}

void fb_tsv_num(struct fb_tsv *t, double x, const char *sep)
{
    if (isfinite(x))
        fb_tsv_printf(t, "%.10g%s", x, sep);
    else
        fb_tsv_printf(t, "NaN%s", sep);
}

void fb_tsv_text(struct fb_tsv *t, const char *s, const char *sep)
{
    char label[FB_CHART_LABEL_SIZE];
    fb_tsv_printf(t, "%s%s", s[0] ? fb_chart_label(label, sizeof label, s) : " ", sep);
}

int fb_tsv_close(struct fb_tsv *t, int rc, struct fb_error *err)
{
    if (fflush(t->f) != 0 && !t->failed)
        t->failed = errno;
    if (fclose(t->f) != 0 && !t->failed)
        t->failed = errno;
    t->f = NULL;
    if (rc == FB_OK && t->failed)
        return fb_fail(err, FB_ERR_RUNTIME, "charts: cannot write the table %s: %s", t->name,
                       strerror(t->failed));
    return rc;
}
