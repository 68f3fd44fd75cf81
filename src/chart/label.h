/* Text from a results file (device, date, variant, pair, config label, file name) on its way
 * into a chart: the one routine that makes such text safe for gnuplot and for the SVG and PNG
 * files it writes. Text never enters gnuplot as code: it goes into the data files gnuplot
 * reads (chart/tables.h), one field per TAB-separated cell, and the chart scripts draw it
 * with `noenhanced`, so that ^ _ @ { } % and ' show as typed. What a data field cannot hold,
 * and what would make the SVG invalid, is changed here, and only here. */
#ifndef FB_CHART_LABEL_H
#define FB_CHART_LABEL_H

#include <stddef.h>

/* The longest label drawn, in characters (a longer one is cut and ends in U+2026 "…"):
 * a legend or a title line stays readable at 1600 pixels. */
#define FB_CHART_LABEL_CHARS 96

/* Room for any label fb_chart_label() writes: every character may become an escape of 4
 * bytes, and each of its backslashes is doubled. */
#define FB_CHART_LABEL_SIZE (FB_CHART_LABEL_CHARS * 8 + 8)

/* Writes `in` into out (size bytes, NUL-terminated when size > 0) as one field of a gnuplot
 * data file that gnuplot's strcol() reads back as the text to draw:
 *   - control bytes, C1 controls and bytes that are not valid UTF-8 become visible escapes
 *     ("\t", "\n", "\x01": common/text.h), so that a field is one line without a TAB and
 *     an SVG holds valid UTF-8 only;
 *   - cut to FB_CHART_LABEL_CHARS characters (never inside a character), "…" when cut;
 *   - '"' becomes "''" (two apostrophes: gnuplot's data reader takes '"' as the start of a
 *     quoted field, with no escape for it) and "]]>" becomes "]] >" (not allowed in an XML
 *     text node);
 *   - every '\' is doubled (strcol() reads "\\" as one backslash);
 *   - an empty text becomes "-" (an empty field reads as missing).
 * Returns out. A result that does not fit in size is cut at a character boundary. */
char *fb_chart_label(char *out, size_t size, const char *in);

/* A size as the charts write it: 215, 146780, 1K, 100M (%g of thousands and millions where
 * whole, else %.6g). */
void fb_chart_n_text(double n, char *out, size_t size);

#endif
