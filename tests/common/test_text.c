/* common/text.h beyond the escape itself (tested with the config's messages in
 * tests/config/test_config_hostile.c): the UTF-8 judgement the JSON writer relies on, the
 * shell word of a printed command line, and markdown text from data (the --report page's and
 * the --compare table's): no HTML, link, image, code, emphasis, table border, autolink or new
 * block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "common/text.h"

static void utf8_char_takes_only_well_formed_sequences(void **state)
{
    (void)state;
    const struct {
        const char *s;
        size_t len;
    } cases[] = {
        {"a", 1}, {"\x01", 1}, {"\x7f", 1}, {"", 0},
        {"\xc2\x80", 2}, {"\xdf\xbf", 2}, {"\xc3\xa9x", 2},
        {"\xe0\xa0\x80", 3}, {"\xed\x9f\xbf", 3}, {"\xef\xbf\xbf", 3}, {"\xe2\x82\xac", 3},
        {"\xf0\x90\x80\x80", 4}, {"\xf4\x8f\xbf\xbf", 4}, {"\xf0\x9f\x98\x80", 4},
        /* not UTF-8 */
        {"\x80", 0}, {"\xbf", 0}, {"\xc0\xaf", 0}, {"\xc1\xbf", 0}, {"\xc2", 0},
        {"\xc2" "A", 0}, {"\xe0\x9f\xbf", 0}, {"\xed\xa0\x80", 0}, {"\xed\xbf\xbf", 0},
        {"\xe2\x82", 0}, {"\xf0\x8f\xbf\xbf", 0}, {"\xf4\x90\x80\x80", 0},
        {"\xf5\x80\x80\x80", 0}, {"\xf8\x88\x80\x80\x80", 0}, {"\xfe", 0}, {"\xff", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(fb_text_utf8_char(cases[i].s), cases[i].len);
    assert_true(fb_text_is_c1("\xc2\x85"));
    assert_true(fb_text_is_c1("\xc2\x9f"));
    assert_false(fb_text_is_c1("\xc2\xa0"));
    assert_false(fb_text_is_c1("\xc2"));
}

static void shell_word_quotes_what_a_shell_would_read_otherwise(void **state)
{
    (void)state;
    char out[256];
    const char *cases[][2] = {
        {"results/cpu-x_1.csv", "results/cpu-x_1.csv"},
        {"a b.csv", "'a b.csv'"},
        {"it's", "'it'\\''s'"},
        {"$(touch x)", "'$(touch x)'"},
        {"`id`;rm", "'`id`;rm'"},
        {"~/r.csv", "'~/r.csv'"},
        {"", "''"},
        {"a\nb", "'a\\nb'"},          /* escaped for the terminal, not pasted raw */
        {"x\x1b[2J", "'x\\x1B[2J'"},
        {"caf\xc3\xa9", "'caf\xc3\xa9'"}, /* quoted: a shell's word splitting is bytes */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(fb_text_shell_word(out, sizeof out, cases[i][0]), cases[i][1]);
}

/* Whether every ASCII punctuation character of s is escaped by the backslash before it (the
 * escaping backslashes themselves aside). */
static bool all_punctuation_escaped(const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '\\') {
            if (!p[1] || !strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", p[1]))
                return false; /* a lone backslash could escape what follows it in the page */
            p++;
            continue;
        }
        if (strchr("!\"#$%&'()*+,-./:;<=>?@[]^_`{|}~", *p))
            return false;
    }
    return true;
}

static void markdown_text_from_data_is_inert(void **state)
{
    (void)state;
    const char *hostile[] = {
        "<script>alert(1)</script>",
        "[click](javascript:alert(1)) ![x](http://evil.example/x.png)",
        "<img src=x onerror=alert(1)> &amp; &#60;",
        "`code` **bold** _em_ ~~gone~~ | cell | border",
        "www.evil.example http://evil.example user@evil.example",
        "# heading\n- item\n> quote\r\n\x1b[31mred",
        "back\\slash \\<b>",
        "\xff\xfe not UTF-8",
    };
    char out[FB_TEXT_MARKDOWN_MAX];
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        fb_text_markdown(out, sizeof out, hostile[i]);
        assert_true(all_punctuation_escaped(out));
        assert_null(strchr(out, '\n'));
        assert_null(strchr(out, '\r'));
        assert_null(strchr(out, '\x1b'));
    }
    assert_string_equal(fb_text_markdown(out, sizeof out, "a<b>[c](d)|e"),
                        "a\\<b\\>\\[c\\]\\(d\\)\\|e");
    /* shown as the text \n, on one line */
    assert_string_equal(fb_text_markdown(out, sizeof out, "line\nbreak"), "line\\\\nbreak");
    /* letters, digits, spaces and characters outside ASCII stay as they are */
    assert_string_equal(fb_text_markdown(out, sizeof out, "AMD EPYC 9654 96-Core \xc3\xa9"),
                        "AMD EPYC 9654 96\\-Core \xc3\xa9");
    assert_string_equal(fb_text_markdown(out, sizeof out, NULL), "");
}

/* A result that does not fit is cut before the piece that does not fit: never after a lone
 * backslash (which would escape what the page puts next) nor inside a character. */
static void markdown_text_is_cut_between_pieces(void **state)
{
    (void)state;
    char out[5];
    assert_string_equal(fb_text_markdown(out, sizeof out, "ab|c"), "ab\\|");
    assert_string_equal(fb_text_markdown(out, sizeof out, "abc|d"), "abc");
    assert_string_equal(fb_text_markdown(out, sizeof out, "ab\xe2\x82\xac"), "ab");
    assert_string_equal(fb_text_markdown(out, sizeof out, "a\xe2\x82\xac"), "a\xe2\x82\xac");
    char one[1] = {'x'};
    assert_string_equal(fb_text_markdown(one, sizeof one, "abc"), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(utf8_char_takes_only_well_formed_sequences),
        cmocka_unit_test(shell_word_quotes_what_a_shell_would_read_otherwise),
        cmocka_unit_test(markdown_text_from_data_is_inert),
        cmocka_unit_test(markdown_text_is_cut_between_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
