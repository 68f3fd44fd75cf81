/* The checks a chart passes before it is published: a PNG whole to its IEND with every CRC
 * right, an SVG well-formed UTF-8 XML to its closing tag. Truncated at every byte, corrupted,
 * or holding what an XML parser refuses, a file fails. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/chart_file.h"

/* CRC-32 bit by bit (the test's own, not the table of the code under test). */
static uint32_t crc32_bits(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}

static size_t chunk(unsigned char *out, const char *type, const unsigned char *data, size_t len)
{
    out[0] = (unsigned char)(len >> 24);
    out[1] = (unsigned char)(len >> 16);
    out[2] = (unsigned char)(len >> 8);
    out[3] = (unsigned char)len;
    memcpy(out + 4, type, 4);
    if (len > 0) /* memcpy from NULL is undefined even for 0 bytes (IEND has no data) */
        memcpy(out + 8, data, len);
    uint32_t crc = crc32_bits(out + 4, len + 4);
    for (int i = 0; i < 4; i++)
        out[8 + len + i] = (unsigned char)(crc >> (24 - 8 * i));
    return 12 + len;
}

/* A 1x1 PNG: signature, IHDR, IDAT (a stored zlib block), IEND. */
static size_t make_png(unsigned char *out, bool with_idat)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    static const unsigned char ihdr[13] = {0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0};
    static const unsigned char idat[] = {0x78, 0x01, 0x01, 0x02, 0x00, 0xFD, 0xFF, 0x00, 0x00,
                                         0x00, 0x01, 0x00, 0x01};
    size_t n = 8;
    memcpy(out, sig, 8);
    n += chunk(out + n, "IHDR", ihdr, sizeof ihdr);
    if (with_idat)
        n += chunk(out + n, "IDAT", idat, sizeof idat);
    n += chunk(out + n, "IEND", NULL, 0);
    return n;
}

static int png(const unsigned char *data, size_t size)
{
    char why[128];
    return fb_chart_check_png(data, size, why, sizeof why);
}

static int svg(const char *text)
{
    char why[128];
    return fb_chart_check_svg((const unsigned char *)text, strlen(text), why, sizeof why);
}

static void test_a_whole_png_passes(void **state)
{
    (void)state;
    unsigned char buf[128];
    assert_int_equal(png(buf, make_png(buf, true)), 0);
}

static void test_a_png_cut_at_any_byte_fails(void **state)
{
    (void)state;
    unsigned char buf[128];
    size_t n = make_png(buf, true);
    for (size_t len = 0; len < n; len++)
        assert_int_equal(png(buf, len), -1);
}

static void test_a_png_with_a_changed_byte_fails(void **state)
{
    (void)state;
    unsigned char buf[128];
    size_t n = make_png(buf, true);
    for (size_t at = 0; at < n; at++) {
        buf[at] ^= 0x20;
        assert_int_equal(png(buf, n), -1);
        buf[at] ^= 0x20;
    }
}

static void test_a_png_with_bytes_after_iend_or_without_idat_fails(void **state)
{
    (void)state;
    unsigned char buf[128];
    size_t n = make_png(buf, true);
    buf[n] = 0;
    assert_int_equal(png(buf, n + 1), -1);
    assert_int_equal(png(buf, make_png(buf, false)), -1);
}

static const char *const whole_svg =
    "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\" [ <!ENTITY a \"b\"> ]>\n"
    "<svg viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\">\n"
    "<!-- a comment with <tags> & ampersands -->\n"
    "<g id='gnuplot_plot_1'><title>eager &amp; fused &lt;&#x41;&#65;&gt;</title>\n"
    "\t<text>caf\xC3\xA9 \xE6\x97\xA5 a]]b ''x''</text><path d='M1,1 L2,2'/>\n"
    "<script><![CDATA[ if (a < b && c) {} ]]></script>\n"
    "</g>\n"
    "</svg>";

static void test_a_whole_svg_passes(void **state)
{
    (void)state;
    assert_int_equal(svg(whole_svg), 0);
    char with_space[1024];
    snprintf(with_space, sizeof with_space, "%s\n\n", whole_svg);
    assert_int_equal(svg(with_space), 0);
}

static void test_an_svg_cut_at_any_byte_fails(void **state)
{
    (void)state;
    size_t n = strlen(whole_svg);
    char why[128];
    for (size_t len = 0; len < n; len++)
        assert_int_equal(fb_chart_check_svg((const unsigned char *)whole_svg, len, why,
                                            sizeof why), -1);
}

static void test_svg_text_that_is_not_xml_fails(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "<svg><text>a \xFF b</text></svg>",          /* not UTF-8 */
        "<svg><text>a \xC0\xAF b</text></svg>",      /* overlong */
        "<svg><text>a \xED\xA0\x80 b</text></svg>",  /* a surrogate */
        "<svg><text>a \x01 b</text></svg>",          /* a control byte */
        "<svg><text>a & b</text></svg>",             /* a bare ampersand */
        "<svg><text>&bogus;</text></svg>",
        "<svg><text>a < b</text></svg>",
        "<svg><text>a ]]> b</text></svg>",
        "<svg><g x=\"a<b\"></g></svg>",
        "<svg><g x=a></g></svg>",
        "<svg><g></h></svg>",
        "<svg><g></svg>",
        "<svg></svg><svg></svg>",
        "<html></html>",
        "text<svg></svg>",
        "<svg><!-- open </svg>",
        "<svg><g a=\"1\"b=\"2\"></g></svg>",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (svg(bad[i]) != -1)
            fail_msg("accepted: %s", bad[i]);
    }
}

static void test_the_check_reads_the_file_and_bounds_its_size(void **state)
{
    (void)state;
    char dir[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fb-test-chart-file.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(dirfd >= 0);
    int fd = openat(dirfd, "c.svg", O_WRONLY | O_CREAT, 0644);
    assert_true(write(fd, whole_svg, strlen(whole_svg)) == (ssize_t)strlen(whole_svg));
    close(fd);
    char why[128] = "";
    assert_int_equal(fb_chart_check_file(dirfd, "c.svg", &fb_chart_formats[1], 1 << 20, why,
                                         sizeof why), 0);
    assert_int_equal(fb_chart_check_file(dirfd, "c.svg", &fb_chart_formats[1], 10, why,
                                         sizeof why), -1);
    assert_non_null(strstr(why, "more than"));
    assert_int_equal(fb_chart_check_file(dirfd, "none.svg", &fb_chart_formats[1], 1 << 20, why,
                                         sizeof why), -1);
    assert_int_equal(fb_chart_check_file(dirfd, "c.svg", &fb_chart_formats[0], 1 << 20, why,
                                         sizeof why), -1); /* an SVG is no PNG */
    unlinkat(dirfd, "c.svg", 0);
    close(dirfd);
    assert_int_equal(rmdir(dir), 0);
}

/* A small PDF as pdfcairo writes one: objects, the xref table, the trailer, startxref with
 * the table's offset (found here, not hard-coded), %%EOF. */
static size_t whole_pdf(char *out, size_t size)
{
    int head = snprintf(out, size, "%%PDF-1.5\n%%\xB5\xED\xAE\xFB\n"
                        "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
                        "2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n");
    int xref = head;
    int len = xref + snprintf(out + xref, size - (size_t)xref,
                              "xref\n0 3\n0000000000 65535 f \n0000000015 00000 n \n"
                              "0000000064 00000 n \ntrailer\n<< /Size 3 /Root 1 0 R >>\n"
                              "startxref\n%d\n%%%%EOF\n", xref);
    return (size_t)len;
}

static int pdf(const char *data, size_t n)
{
    char why[128];
    return fb_chart_check_pdf((const unsigned char *)data, n, why, sizeof why);
}

static void test_a_whole_pdf_passes(void **state)
{
    (void)state;
    char data[1024];
    size_t n = whole_pdf(data, sizeof data);
    assert_int_equal(pdf(data, n), 0);
    assert_int_equal(pdf(data, n - 1), 0); /* without the last line feed */
}

static void test_a_pdf_cut_at_any_byte_before_its_trailer_fails(void **state)
{
    (void)state;
    char data[1024];
    size_t n = whole_pdf(data, sizeof data);
    for (size_t len = 0; len + 1 < n; len++)
        if (pdf(data, len) != -1)
            fail_msg("a PDF cut to %zu of %zu bytes passed", len, n);
}

static void test_a_pdf_with_a_wrong_header_or_trailer_fails(void **state)
{
    (void)state;
    char data[1024], bad[1100];
    size_t n = whole_pdf(data, sizeof data);
    memcpy(bad, data, n);
    bad[1] = 'X'; /* %XDF- */
    assert_int_equal(pdf(bad, n), -1);
    /* text after %%EOF (a second, torn update appended) */
    memcpy(bad, data, n);
    memcpy(bad + n, "1 0 obj", 7);
    assert_int_equal(pdf(bad, n + 7), -1);
    /* startxref pointing elsewhere than the table, or past it */
    char *sx = strstr(data, "startxref\n");
    assert_non_null(sx);
    size_t at = (size_t)(sx - data) + 10;
    memcpy(bad, data, n);
    bad[at] = bad[at] == '9' ? '8' : '9';
    assert_int_equal(pdf(bad, n), -1);
    int w = snprintf(bad, sizeof bad, "%.*s99999\n%%%%EOF\n", (int)at, data);
    assert_int_equal(pdf(bad, (size_t)w), -1);
    /* no object before the table */
    w = snprintf(bad, sizeof bad, "%%PDF-1.5\nxref\n0 1\ntrailer\n<< >>\nstartxref\n10\n"
                 "%%%%EOF\n");
    assert_int_equal(pdf(bad, (size_t)w), -1);
    assert_int_equal(pdf("", 0), -1);
}

static void test_the_formats_are_png_svg_and_pdf(void **state)
{
    (void)state;
    assert_int_equal(fb_chart_format_count, 3);
    assert_string_equal(fb_chart_formats[0].name, "png");
    assert_string_equal(fb_chart_formats[1].name, "svg");
    assert_string_equal(fb_chart_formats[2].name, "pdf");
    assert_ptr_equal(fb_chart_format_find("pdf"), &fb_chart_formats[2]);
    assert_null(fb_chart_format_find("PDF"));
    assert_null(fb_chart_format_find("eps"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_whole_png_passes),
        cmocka_unit_test(test_a_png_cut_at_any_byte_fails),
        cmocka_unit_test(test_a_png_with_a_changed_byte_fails),
        cmocka_unit_test(test_a_png_with_bytes_after_iend_or_without_idat_fails),
        cmocka_unit_test(test_a_whole_svg_passes),
        cmocka_unit_test(test_an_svg_cut_at_any_byte_fails),
        cmocka_unit_test(test_svg_text_that_is_not_xml_fails),
        cmocka_unit_test(test_the_check_reads_the_file_and_bounds_its_size),
        cmocka_unit_test(test_a_whole_pdf_passes),
        cmocka_unit_test(test_a_pdf_cut_at_any_byte_before_its_trailer_fails),
        cmocka_unit_test(test_a_pdf_with_a_wrong_header_or_trailer_fails),
        cmocka_unit_test(test_the_formats_are_png_svg_and_pdf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
