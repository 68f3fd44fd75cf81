/* The chart file formats and the check that a file is complete and valid for its format
 * before it is published (renamed over the chart it replaces). gnuplot exits 0 on a full
 * disk with a truncated file, and an SVG is only as valid as the text in it: a chart is
 * published when it passes this check, never on gnuplot's exit status alone.
 *
 * A format is one entry of fb_chart_formats: its name (the file extension, and the terminal
 * plots/style.gp selects for it) and its check. A new format is one more entry and one more
 * check function. */
#ifndef FB_CHART_CHART_FILE_H
#define FB_CHART_CHART_FILE_H

#include <stddef.h>

struct fb_chart_format {
    const char *name; /* "png", "svg", "pdf" */
    /* 0 when data[0..size-1] is a complete, valid file of this format; else -1 with the
     * first thing wrong in why (a short phrase: "no IEND chunk", "unclosed <g> at byte 812") */
    int (*check)(const unsigned char *data, size_t size, char *why, size_t why_size);
};

/* The formats a chart is drawn in, in order (all of them unless [plot] formats says). */
extern const struct fb_chart_format fb_chart_formats[];
extern const size_t fb_chart_format_count;

/* The format named `name`, or NULL. */
const struct fb_chart_format *fb_chart_format_find(const char *name);

/* PNG (ISO/IEC 15948): the 8-byte signature, then chunks (4-byte big-endian length, 4-byte
 * type of ASCII letters, data, CRC-32 of type and data), IHDR first (13 bytes), at least one
 * IDAT, IEND last with nothing after it; every CRC must match. */
int fb_chart_check_png(const unsigned char *data, size_t size, char *why, size_t why_size);

/* SVG: well-formed XML 1.0 (a prolog of <?...?>, comments and <!DOCTYPE>; one root element
 * named "svg"; every element closed in order; attributes quoted; '<' never in text or
 * attribute values, '&' only as a predefined, decimal or hexadecimal entity; no "]]>" in text;
 * CDATA sections closed), valid UTF-8 throughout (RFC 3629) and no control byte but TAB, LF
 * and CR. */
int fb_chart_check_svg(const unsigned char *data, size_t size, char *why, size_t why_size);

/* PDF (ISO 32000): the "%PDF-1.x" header at byte 0 (x a digit), a "startxref" line near
 * the end followed by the cross-reference table's byte offset (digits, inside the file, where
 * "xref" or an xref stream's "N 0 obj" starts), then "%%EOF" with at most blanks and line
 * ends after it; at least one "obj" and "endobj" in between. A file cut anywhere loses its
 * trailer, and a trailer pointing past the end is refused. */
int fb_chart_check_pdf(const unsigned char *data, size_t size, char *why, size_t why_size);

/* Reads the file `name` in the directory dirfd (at most max_size bytes: a larger file fails)
 * and checks it as `format`. 0 when valid; -1 with why filled ("cannot read: ...", or the
 * check's phrase). */
int fb_chart_check_file(int dirfd, const char *name, const struct fb_chart_format *format,
                        size_t max_size, char *why, size_t why_size);

#endif
