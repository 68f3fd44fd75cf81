/* Provenance on every published chart: a figure found in a paper or a slide says which
 * results file it was drawn from, by which fusebench, from which commit and config, on which
 * device and when. Written into the file gnuplot drew, in C, after its trailer check and
 * before it is published (chart/gnuplot.h), because gnuplot's svg and pdfcairo terminals
 * cannot set these fields:
 *   - SVG: a <title> and a <desc> (one "key: value" line each) as the first children of
 *     <svg>, in place of gnuplot's "<title>Gnuplot</title>";
 *   - PDF: an incremental update (ISO 32000-1 7.5.6) appended after cairo's %%EOF: a new
 *     document information dictionary (/Title, /Producer, /Subject, and /Source, /Commit,
 *     /ConfigHash, /Device, /Date of its own), a cross-reference section for it and a
 *     trailer whose /Info names it and whose /Prev is cairo's cross-reference table;
 *   - PNG: nothing (the chart file's name ties it to its results file).
 * Text from a results file is data: escaped for XML (&, <, >, quotes; control bytes and bytes
 * outside UTF-8 as visible escapes first, common/text.h) or written as a PDF string (a literal
 * with \, ( and ) escaped, or UTF-16BE in hex when not ASCII), never as markup or PDF syntax. */
#ifndef FB_CHART_PROVENANCE_H
#define FB_CHART_PROVENANCE_H

#include <stddef.h>

#define FB_PROVENANCE_TEXT_MAX 256

struct fb_chart_provenance {
    char title[FB_PROVENANCE_TEXT_MAX];  /* "fusebench chart speedup" */
    char source[FB_PROVENANCE_TEXT_MAX]; /* the results file's name ("" when none) */
    char commit[FB_PROVENANCE_TEXT_MAX]; /* its # git_commit, config_hash, device, date */
    char config_hash[FB_PROVENANCE_TEXT_MAX];
    char device[FB_PROVENANCE_TEXT_MAX];
    char date[FB_PROVENANCE_TEXT_MAX];
};

struct fb_csv_table;

/* The provenance of charts drawn from the n results files paths (read as t[0..n)): their
 * file names and their # git_commit, config_hash, device and date, each field the runs'
 * values joined by " vs " ("unknown" for a run without it; "" when none has it; cut where
 * the field is full); title left empty. */
void fb_chart_provenance_of(const struct fb_csv_table *t, const char *const *paths, size_t n,
                            struct fb_chart_provenance *p);

/* Writes p into the chart `name` of format `format` ("svg", "pdf"; any other: nothing) in the
 * directory dirfd (a file of at most max_size bytes that passed its trailer check): the SVG is
 * rewritten through a temporary file renamed over it, the PDF is appended to. Returns 0, or -1
 * with why filled ("no <svg> element", "no trailer before startxref"). */
int fb_chart_stamp(int dirfd, const char *name, const char *format,
                   const struct fb_chart_provenance *p, size_t max_size, char *why,
                   size_t why_size);

#endif
