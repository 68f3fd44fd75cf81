/* Chart file checks (contracts in chart_file.h). */
#include "chart/chart_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIT(s) s, sizeof s - 1

/* PNG: the signature, and the IEND chunk (length 0, type, its fixed CRC) as the last 12 bytes. */
const struct fb_chart_format fb_chart_formats[] = {
    {"png", LIT("\x89PNG\r\n\x1a\n"), LIT("\0\0\0\0IEND\xae\x42\x60\x82"), false},
    {"svg", LIT("<?xml"), LIT("</svg>"), true},
    {"pdf", LIT("%PDF-"), LIT("%%EOF"), true},
};
const size_t fb_chart_format_count = sizeof fb_chart_formats / sizeof fb_chart_formats[0];

/* The most blanks and line ends looked at after a text format's tail. */
#define BLANKS_MAX 64

const struct fb_chart_format *fb_chart_format_find(const char *name)
{
    for (size_t i = 0; i < fb_chart_format_count; i++)
        if (strcmp(fb_chart_formats[i].name, name) == 0)
            return &fb_chart_formats[i];
    return NULL;
}

int fb_chart_wrong(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (why && n)
        vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

int fb_chart_check(const struct fb_chart_format *f, const unsigned char *data, size_t size,
                   char *why, size_t why_size)
{
    if (size == 0)
        return fb_chart_wrong(why, why_size, "empty");
    if (size < f->head_len || memcmp(data, f->head, f->head_len) != 0)
        return fb_chart_wrong(why, why_size, "not a %s file (it does not start as one)", f->name);
    while (f->blanks_after && size > 0 && memchr(" \t\r\n", data[size - 1], 4))
        size--;
    if (size < f->head_len + f->tail_len ||
        memcmp(data + size - f->tail_len, f->tail, f->tail_len) != 0)
        return fb_chart_wrong(why, why_size, "truncated (no %s at its end)",
                              f->blanks_after ? f->tail : "IEND chunk");
    return 0;
}

int fb_chart_check_file(int dirfd, const char *name, const struct fb_chart_format *format,
                        size_t max_size, char *why, size_t why_size)
{
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return fb_chart_wrong(why, why_size, "cannot open it: %s", strerror(errno));
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        rc = fb_chart_wrong(why, why_size, "not a regular file");
    else if ((uintmax_t)st.st_size > max_size)
        rc = fb_chart_wrong(why, why_size, "%jd bytes, more than a chart may have (%zu)",
                            (intmax_t)st.st_size, max_size);
    /* The head and the end, side by side: head_len + tail_len + BLANKS_MAX bytes at most. */
    unsigned char buf[2 * BLANKS_MAX];
    size_t size = rc ? 0 : (size_t)st.st_size, head = format->head_len;
    size_t end = size - head < sizeof buf - head ? size - head : sizeof buf - head;
    if (rc == 0 && size >= head &&
        (pread(fd, buf, head, 0) != (ssize_t)head ||
         pread(fd, buf + head, end, (off_t)(size - end)) != (ssize_t)end))
        rc = fb_chart_wrong(why, why_size, "cannot read it: %s", strerror(errno ? errno : EIO));
    close(fd);
    if (rc == 0)
        rc = fb_chart_check(format, buf, size < head ? size : head + end, why, why_size);
    return rc;
}
