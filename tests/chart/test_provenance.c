/* Provenance in the published charts: the SVG's <title> and <desc>, the PDF's information
 * dictionary in an incremental update; text from a results file escaped (a hostile device
 * name stays text), and the file still whole by its trailer check. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/chart_file.h"
#include "chart/provenance.h"

static char dir[4096];
static int dirfd_ = -1;

static int setup(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fb-test-provenance.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    dirfd_ = open(dir, O_RDONLY | O_DIRECTORY);
    return dirfd_ < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    unlinkat(dirfd_, "c.svg", 0);
    unlinkat(dirfd_, "c.pdf", 0);
    close(dirfd_);
    return rmdir(dir);
}

static void put(const char *name, const char *text, size_t len)
{
    int fd = openat(dirfd_, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_true(write(fd, text, len) == (ssize_t)len);
    close(fd);
}

/* The file's text (NUL-terminated; static, overwritten by the next call). */
static const char *get(const char *name, size_t *len)
{
    static char buf[8192];
    int fd = openat(dirfd_, name, O_RDONLY);
    assert_true(fd >= 0);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    assert_true(n >= 0);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

static const struct fb_chart_provenance hostile = {
    .title = "fusebench chart speedup (run.csv)", .source = "run.csv",
    .commit = "fc9363e8709e", .config_hash = "3a737e4b266b7454",
    .device = "</desc><script>alert(1)</script> & \"x' \x01 a) /JS (evil\\",
    .date = "2026-12-03T10:21:22Z"};

static const char gnuplot_svg[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n<svg \n"
    " viewBox=\"0 0 10 10\"\n xmlns=\"http://www.w3.org/2000/svg\"\n>\n\n"
    "<title>Gnuplot</title>\n<desc>Produced by GNUPLOT 5.4 patchlevel 4 </desc>\n\n"
    "<g id=\"gnuplot_canvas\"></g>\n</svg>\n\n";

static void test_an_svg_gets_its_title_and_desc_escaped_and_stays_whole(void **state)
{
    (void)state;
    put("c.svg", gnuplot_svg, sizeof gnuplot_svg - 1);
    char why[128] = "";
    assert_int_equal(fb_chart_stamp(dirfd_, "c.svg", "svg", &hostile, 1 << 20, why, sizeof why),
                     0);
    size_t len;
    const char *s = get("c.svg", &len);
    assert_non_null(strstr(s, ">\n<title>fusebench chart speedup (run.csv)</title>\n<desc>"));
    assert_null(strstr(s, "<title>Gnuplot</title>"));
    assert_non_null(strstr(s, "<desc>Produced by GNUPLOT")); /* gnuplot's own note kept */
    assert_non_null(strstr(s, "<desc>source: run.csv\ncommit: fc9363e8709e\n"
                              "config_hash: 3a737e4b266b7454\n"));
    assert_non_null(strstr(s, "\ndevice: &lt;/desc&gt;&lt;script&gt;alert(1)&lt;/script&gt; "
                              "&amp; &quot;x&apos; \\x01 a) /JS (evil\\\n"));
    assert_null(strstr(s, "<script>"));
    assert_non_null(strstr(s, "\ndate: 2026-12-03T10:21:22Z\nproducer: fusebench "));
    assert_int_equal(fb_chart_check_file(dirfd_, "c.svg", fb_chart_format_find("svg"), 1 << 20,
                                         why, sizeof why), 0);
    /* a chart drawn from no results file (--compare's, the timeline): no empty fields */
    put("c.svg", gnuplot_svg, sizeof gnuplot_svg - 1);
    const struct fb_chart_provenance none = {.title = "fusebench chart timeline"};
    assert_int_equal(fb_chart_stamp(dirfd_, "c.svg", "svg", &none, 1 << 20, why, sizeof why), 0);
    assert_non_null(strstr(get("c.svg", &len), "<desc>producer: fusebench "));
    /* a file with no <svg> is refused, not stamped somewhere */
    put("c.svg", "<?xml?>", 7);
    assert_int_equal(fb_chart_stamp(dirfd_, "c.svg", "svg", &hostile, 1 << 20, why, sizeof why),
                     -1);
}

/* A PDF as cairo ends one: its objects, the xref table, the trailer, startxref, %%EOF. */
static size_t cairo_pdf(char *out, size_t size)
{
    int xref = snprintf(out, size, "%%PDF-1.5\n"
                        "1 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
                        "2 0 obj\n<< /Type /Catalog /Pages 1 0 R >>\nendobj\n");
    return (size_t)(xref + snprintf(out + xref, size - (size_t)xref,
                                    "xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n"
                                    "0000000064 00000 n \ntrailer\n<< /Size 3\n   /Root 2 0 R\n"
                                    ">>\nstartxref\n%d\n%%%%EOF\n", xref));
}

static void test_a_pdf_gets_an_info_update_escaped_and_stays_whole(void **state)
{
    (void)state;
    char pdf[1024];
    size_t n = cairo_pdf(pdf, sizeof pdf);
    put("c.pdf", pdf, n);
    char why[128] = "";
    struct fb_chart_provenance p = hostile;
    assert_int_equal(fb_chart_stamp(dirfd_, "c.pdf", "pdf", &p, 1 << 20, why, sizeof why), 0);
    size_t len;
    const char *s = get("c.pdf", &len);
    assert_memory_equal(s, pdf, n); /* appended to, nothing before changed */
    const char *u = s + n;
    /* the new Info object, at the offset its xref entry gives, numbered /Size */
    const char *head = "3 0 obj\n<< /Title (fusebench chart speedup \\(run.csv\\))\n";
    assert_memory_equal(u, head, strlen(head));
    assert_non_null(strstr(u, "/Commit (fc9363e8709e)"));
    assert_non_null(strstr(u, "/ConfigHash (3a737e4b266b7454)"));
    assert_non_null(strstr(u, "/Source (run.csv)"));
    assert_non_null(strstr(u, "/Producer (fusebench "));
    assert_non_null(strstr(u, "/Device (</desc><script>alert\\(1\\)</script> & \"x' \\\\x01 "
                              "a\\) /JS \\(evil\\\\)\n"));
    char entry[64];
    snprintf(entry, sizeof entry, "xref\n0 1\n0000000000 65535 f \n3 1\n%010zu 00000 n \n", n);
    const char *xref = strstr(u, entry);
    assert_non_null(xref);
    char trailer[160];
    snprintf(trailer, sizeof trailer, "trailer\n<< /Size 4 /Root 2 0 R /Info 3 0 R /Prev %d >>\n"
             "startxref\n%zu\n%%%%EOF\n", (int)(strstr(pdf, "xref") - pdf), (size_t)(xref - s));
    assert_string_equal(strstr(u, "trailer"), trailer);
    assert_int_equal(fb_chart_check_file(dirfd_, "c.pdf", fb_chart_format_find("pdf"), 1 << 20,
                                         why, sizeof why), 0);
    /* text beyond ASCII: UTF-16BE in hex, its byte order mark first */
    put("c.pdf", pdf, n);
    snprintf(p.device, sizeof p.device, "caf\xC3\xA9 \xF0\x9F\x98\x80");
    assert_int_equal(fb_chart_stamp(dirfd_, "c.pdf", "pdf", &p, 1 << 20, why, sizeof why), 0);
    assert_non_null(strstr(get("c.pdf", &len), "/Device <FEFF00630061006600E90020D83DDE00>"));
    /* a PDF without its trailer is refused, not appended to */
    put("c.pdf", pdf, (size_t)(strstr(pdf, "trailer") - pdf));
    assert_int_equal(fb_chart_stamp(dirfd_, "c.pdf", "pdf", &p, 1 << 20, why, sizeof why), -1);
    get("c.pdf", &len);
    assert_int_equal(len, (size_t)(strstr(pdf, "trailer") - pdf));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_svg_gets_its_title_and_desc_escaped_and_stays_whole),
        cmocka_unit_test(test_a_pdf_gets_an_info_update_escaped_and_stays_whole),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
