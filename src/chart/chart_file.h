/* The chart file formats and the check that a file gnuplot wrote is whole before it is
 * published (renamed over the chart it replaces). gnuplot exits 0 on a full disk with a
 * truncated file, so a chart is published when it passes this check, never on gnuplot's exit
 * status alone. The check is what proves a file whole, not a validation of its contents:
 * gnuplot's own terminals write the bytes, and a file cut short loses its trailer.
 *
 * A format is one entry of fb_chart_formats: its name (the file extension, and the terminal
 * plots/style.gp selects for it), how such a file starts and how it ends. */
#ifndef FB_CHART_CHART_FILE_H
#define FB_CHART_CHART_FILE_H

#include <stdbool.h>
#include <stddef.h>

struct fb_chart_format {
    const char *name; /* "png", "svg", "pdf" */
    const char *head; /* the bytes a file of this format starts with */
    size_t head_len;
    const char *tail; /* the bytes it ends with: PNG's IEND chunk, "</svg>", "%%EOF" */
    size_t tail_len;
    bool blanks_after; /* line ends and blanks may follow tail (text formats) */
};

/* The formats a chart is drawn in, in order (all of them unless [plot] formats says). */
extern const struct fb_chart_format fb_chart_formats[];
extern const size_t fb_chart_format_count;

/* The format named `name`, or NULL. */
const struct fb_chart_format *fb_chart_format_find(const char *name);

/* 0 when data[0..size-1] is whole as `format`: not empty, starts with its head and ends with
 * its tail; else -1 with the first thing wrong in why ("empty", "no </svg> at its end"). */
int fb_chart_check(const struct fb_chart_format *format, const unsigned char *data,
                   size_t size, char *why, size_t why_size);

/* Checks the file `name` in the directory dirfd as fb_chart_check does, reading only its
 * first and last bytes; a file that is not regular or larger than max_size fails. 0 when
 * whole; -1 with why filled ("cannot open it: ...", or the check's phrase). */
int fb_chart_check_file(int dirfd, const char *name, const struct fb_chart_format *format,
                        size_t max_size, char *why, size_t why_size);

/* -1, with why (of n bytes; NULL or 0: none) filled with fmt's message: what the checks above
 * and the provenance's stamp (chart/provenance.h) say is wrong with a chart file. */
int fb_chart_wrong(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
