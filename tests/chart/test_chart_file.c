/* The check a chart passes before it is published: a file is whole when it is not empty,
 * starts as its format does and ends with its format's trailer (PNG's IEND chunk, "</svg>",
 * "%%EOF"). Cut anywhere before its trailer, empty, or of another format, a file fails. */
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

/* A whole file of each format as gnuplot's terminals end them (middles elided). */
static const char png_bytes[] = "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR...IDAT..."
                                "\0\0\0\0IEND\xae\x42\x60\x82";
static const char svg_text[] = "<?xml version=\"1.0\"?>\n<svg>\n<g></g>\n</svg>\n\n";
static const char pdf_text[] = "%PDF-1.5\n1 0 obj\n<< >>\nendobj\ntrailer\nstartxref\n9\n%%EOF\n";
static const struct { const char *data; size_t size; } whole[] = {
    {png_bytes, sizeof png_bytes - 1}, {svg_text, sizeof svg_text - 1},
    {pdf_text, sizeof pdf_text - 1},
};

static int check(size_t format, const char *data, size_t size)
{
    char why[128] = "";
    int rc = fb_chart_check(&fb_chart_formats[format], (const unsigned char *)data, size, why,
                            sizeof why);
    if (rc != 0 && !why[0])
        fail_msg("refused without saying why");
    return rc;
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

static void test_a_whole_file_passes_and_one_cut_before_its_trailer_fails(void **state)
{
    (void)state;
    for (size_t f = 0; f < 3; f++) {
        assert_int_equal(check(f, whole[f].data, whole[f].size), 0);
        /* every cut that loses a byte of the trailer (the text formats' line ends may go) */
        const char *tail = fb_chart_formats[f].tail;
        size_t keep = (size_t)(strstr(whole[f].data, tail) - whole[f].data) +
                      fb_chart_formats[f].tail_len;
        if (f == 0)
            keep = whole[f].size; /* strstr stops at the PNG's NUL bytes */
        for (size_t len = 0; len < keep; len++)
            if (check(f, whole[f].data, len) != -1)
                fail_msg("%s cut to %zu of %zu bytes passed", fb_chart_formats[f].name, len,
                         whole[f].size);
    }
}

static void test_a_file_of_another_format_or_with_text_after_its_trailer_fails(void **state)
{
    (void)state;
    for (size_t f = 0; f < 3; f++)
        for (size_t g = 0; g < 3; g++)
            if (f != g && check(f, whole[g].data, whole[g].size) != -1)
                fail_msg("a %s passed as a %s", fb_chart_formats[g].name,
                         fb_chart_formats[f].name);
    assert_int_equal(check(1, "<svg></svg>", 11), -1); /* ends as an SVG, starts as none */
    char buf[256];
    int n = snprintf(buf, sizeof buf, "%s1 0 obj\n", pdf_text); /* a torn second update */
    assert_int_equal(check(2, buf, (size_t)n), -1);
    memcpy(buf, png_bytes, sizeof png_bytes - 1);
    buf[sizeof png_bytes - 1] = '\n'; /* nothing, not even a line end, after IEND */
    assert_int_equal(check(0, buf, sizeof png_bytes), -1);
}

static void test_the_file_check_reads_its_ends_and_bounds_its_size(void **state)
{
    (void)state;
    char dir[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fb-test-chart-file.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(dirfd >= 0);
    /* an SVG longer than the bytes read at each end, so that its middle is not read */
    int fd = openat(dirfd, "c.svg", O_WRONLY | O_CREAT, 0644);
    char middle[4096];
    memset(middle, ' ', sizeof middle);
    assert_true(write(fd, svg_text, 30) == 30 &&
                write(fd, middle, sizeof middle) == (ssize_t)sizeof middle &&
                write(fd, svg_text + 30, sizeof svg_text - 31) == (ssize_t)sizeof svg_text - 31);
    close(fd);
    close(openat(dirfd, "empty.svg", O_WRONLY | O_CREAT, 0644));
    const struct fb_chart_format *svg = &fb_chart_formats[1];
    char why[128] = "";
    assert_int_equal(fb_chart_check_file(dirfd, "c.svg", svg, 1 << 20, why, sizeof why), 0);
    assert_int_equal(fb_chart_check_file(dirfd, "c.svg", svg, 100, why, sizeof why), -1);
    assert_non_null(strstr(why, "more than"));
    assert_int_equal(fb_chart_check_file(dirfd, "empty.svg", svg, 1 << 20, why, sizeof why), -1);
    assert_string_equal(why, "empty");
    assert_int_equal(fb_chart_check_file(dirfd, "none.svg", svg, 1 << 20, why, sizeof why), -1);
    assert_int_equal(fb_chart_check_file(dirfd, "c.svg", &fb_chart_formats[0], 1 << 20, why,
                                         sizeof why), -1); /* an SVG is no PNG */
    fd = openat(dirfd, "c.svg", O_WRONLY);
    assert_int_equal(ftruncate(fd, 30 + (off_t)sizeof middle + (off_t)sizeof svg_text - 35), 0);
    close(fd); /* cut inside "</svg>" */
    assert_int_equal(fb_chart_check_file(dirfd, "c.svg", svg, 1 << 20, why, sizeof why), -1);
    unlinkat(dirfd, "c.svg", 0);
    unlinkat(dirfd, "empty.svg", 0);
    close(dirfd);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_formats_are_png_svg_and_pdf),
        cmocka_unit_test(test_a_whole_file_passes_and_one_cut_before_its_trailer_fails),
        cmocka_unit_test(test_a_file_of_another_format_or_with_text_after_its_trailer_fails),
        cmocka_unit_test(test_the_file_check_reads_its_ends_and_bounds_its_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
