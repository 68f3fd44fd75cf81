/* fb_chart_label: the one routine text from a results file goes through on its way into a
 * chart: what gnuplot's data reader cannot hold and what makes an SVG invalid never comes
 * out of it, whatever goes in. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "chart/label.h"

static const char *label(const char *in)
{
    static char out[FB_CHART_LABEL_SIZE];
    return fb_chart_label(out, sizeof out, in);
}

/* Valid UTF-8 (RFC 3629), written here independently of the code under test. */
static bool valid_utf8(const unsigned char *s)
{
    while (*s) {
        unsigned c = *s, len, cp, min;
        if (c < 0x80) {
            s++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F, min = 0x80;
        else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F, min = 0x800;
        else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07, min = 0x10000;
        else return false;
        for (unsigned i = 1; i < len; i++) {
            if ((s[i] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (s[i] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        s += len;
    }
    return true;
}

static size_t characters(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void test_plain_text_is_kept(void **state)
{
    (void)state;
    assert_string_equal(label("eager_add_relu / fused"), "eager_add_relu / fused");
    assert_string_equal(label("AMD EPYC 9B14 96-Core Processor"), "AMD EPYC 9B14 96-Core Processor");
    assert_string_equal(label("caf\xC3\xA9 \xE6\x97\xA5"), "caf\xC3\xA9 \xE6\x97\xA5");
}

static void test_enhanced_text_and_gnuplot_syntax_pass_as_typed(void **state)
{
    (void)state;
    /* drawn noenhanced, read as data: nothing here is special */
    assert_string_equal(label("^{x}_y @m %s `id` $(id) 'q' # c"),
                        "^{x}_y @m %s `id` $(id) 'q' # c");
}

static void test_a_double_quote_becomes_two_apostrophes(void **state)
{
    (void)state;
    assert_string_equal(label("x\"; system(\"touch /tmp/p\"); \""),
                        "x''; system(''touch /tmp/p''); ''");
}

static void test_backslashes_are_doubled(void **state)
{
    (void)state;
    assert_string_equal(label("a\\b\\\\c\\"), "a\\\\b\\\\\\\\c\\\\");
}

static void test_control_bytes_become_escapes_with_their_backslash_doubled(void **state)
{
    (void)state;
    /* "\t" and "\x01" as text, each backslash doubled for gnuplot's strcol */
    assert_string_equal(label("a\tb\nc\x01"), "a\\\\tb\\\\nc\\\\x01");
}

static void test_invalid_utf8_becomes_escapes(void **state)
{
    (void)state;
    assert_string_equal(label("x\xFFy"), "x\\\\xFFy");
    const char *out = label("\xC0\xAF \xED\xA0\x80 \xF5\x80 \xE2\x82");
    assert_true(valid_utf8((const unsigned char *)out));
    assert_null(strchr(out, '\xC0'));
}

static void test_cdata_end_is_broken(void **state)
{
    (void)state;
    assert_string_equal(label("a]]>b"), "a]] >b");
}

static void test_long_text_is_cut_at_a_character_with_an_ellipsis(void **state)
{
    (void)state;
    char in[1000];
    memset(in, 'a', sizeof in - 1);
    in[sizeof in - 1] = '\0';
    const char *out = label(in);
    assert_int_equal(characters(out), FB_CHART_LABEL_CHARS + 1);
    assert_string_equal(out + strlen(out) - 3, "\xE2\x80\xA6");
    /* 500 two-byte characters: cut between characters, never inside one */
    char wide[1001];
    for (int i = 0; i < 500; i++)
        memcpy(wide + 2 * i, "\xC3\xA9", 2);
    wide[1000] = '\0';
    out = label(wide);
    assert_true(valid_utf8((const unsigned char *)out));
    assert_int_equal(characters(out), FB_CHART_LABEL_CHARS + 1);
}

static void test_empty_text_is_visible(void **state)
{
    (void)state;
    assert_string_equal(label(""), "-");
}

static void test_a_small_buffer_is_never_overrun(void **state)
{
    (void)state;
    char out[8];
    memset(out, 'Z', sizeof out);
    fb_chart_label(out, 5, "\xE6\x97\xA5\xE6\x97\xA5\"\"");
    assert_true(strlen(out) < 5);
    assert_true(valid_utf8((const unsigned char *)out));
    assert_int_equal(out[7], 'Z');
}

/* Random bytes: nothing comes out that gnuplot's reader or an SVG cannot take. */
static void test_random_bytes_never_give_a_quote_a_tab_a_control_or_bad_utf8(void **state)
{
    (void)state;
    srand(20261130);
    for (int round = 0; round < 20000; round++) {
        unsigned char in[64];
        size_t len = (size_t)(rand() % 63);
        for (size_t i = 0; i < len; i++)
            in[i] = (unsigned char)(rand() % 255 + 1);
        in[len] = '\0';
        const char *out = label((const char *)in);
        assert_true(valid_utf8((const unsigned char *)out));
        for (const unsigned char *p = (const unsigned char *)out; *p; p++) {
            assert_true(*p >= 0x20 && *p != 0x7F);
            assert_true(*p != '"');
        }
        assert_null(strstr(out, "]]>"));
        /* every backslash comes in pairs: strcol reads back exactly one for each pair */
        for (const char *p = out; *p; p++)
            if (*p == '\\') {
                assert_int_equal(p[1], '\\');
                p++;
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_text_is_kept),
        cmocka_unit_test(test_enhanced_text_and_gnuplot_syntax_pass_as_typed),
        cmocka_unit_test(test_a_double_quote_becomes_two_apostrophes),
        cmocka_unit_test(test_backslashes_are_doubled),
        cmocka_unit_test(test_control_bytes_become_escapes_with_their_backslash_doubled),
        cmocka_unit_test(test_invalid_utf8_becomes_escapes),
        cmocka_unit_test(test_cdata_end_is_broken),
        cmocka_unit_test(test_long_text_is_cut_at_a_character_with_an_ellipsis),
        cmocka_unit_test(test_empty_text_is_visible),
        cmocka_unit_test(test_a_small_buffer_is_never_overrun),
        cmocka_unit_test(test_random_bytes_never_give_a_quote_a_tab_a_control_or_bad_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
