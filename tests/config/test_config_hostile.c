/* Hostile and careless input to the config reader (issue 10): files that are not configs
 * (FIFO, directory, huge), overrides judged as a set, numbers beyond a double, and control
 * bytes that must never reach the terminal raw. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/text.h"
#include "config/config.h"
#include "config_fixture.h"

/* Loads `path`, capturing what fb_config_load writes to diag. */
static int load_path(const char *path, struct fb_config *cfg, char *diag, size_t size,
                     struct fb_error *err)
{
    FILE *d = fmemopen(diag, size, "w");
    assert_non_null(d);
    int rc = fb_config_load(cfg, path, d, err);
    fclose(d);
    return rc;
}

static void a_fifo_is_refused_without_blocking(void **state)
{
    (void)state;
    char dir[] = "/tmp/fb-cfg-fifo-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/cfg.ini", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(10); /* the old reader blocked here forever: fail by SIGALRM instead of hanging */
    struct fb_config cfg;
    char diag[2048] = "";
    struct fb_error err;
    int rc = load_path(path, &cfg, diag, sizeof diag, &err);
    alarm(0);
    unlink(path);
    rmdir(dir);
    assert_int_equal(rc, FB_ERR_USAGE);
    assert_non_null(strstr(diag, path));
    assert_non_null(strstr(diag, "FIFO"));
}

static void a_directory_is_refused(void **state)
{
    (void)state;
    char dir[] = "/tmp/fb-cfg-dir-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct fb_config cfg;
    char diag[2048] = "";
    struct fb_error err;
    int rc = load_path(dir, &cfg, diag, sizeof diag, &err);
    rmdir(dir);
    assert_int_equal(rc, FB_ERR_USAGE);
    assert_non_null(strstr(diag, dir));
    assert_non_null(strstr(diag, "directory"));
}

static void a_file_over_the_size_limit_is_refused(void **state)
{
    (void)state;
    char path[] = "/tmp/fb-cfg-big-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    /* 5 MB of comment lines: a valid INI, but no config is that big */
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    for (int i = 0; i < 5 * 1024 * 1024 / 64; i++)
        fprintf(f, "; %061d\n", i);
    fclose(f);
    struct fb_config cfg;
    char diag[2048] = "";
    struct fb_error err;
    int rc = load_path(path, &cfg, diag, sizeof diag, &err);
    unlink(path);
    assert_int_equal(rc, FB_ERR_USAGE);
    assert_non_null(strstr(diag, path));
    assert_non_null(strstr(diag, "at most"));
}

static void overrides_are_checked_as_a_set(void **state)
{
    (void)state;
    struct fb_config cfg;
    fb_config_defaults(&cfg); /* min_reps 8, max_reps 200 */
    struct fb_error err = {{0}};
    const struct fb_config_setting both[] = {{"max_reps", "2"}, {"min_reps", "1"}};
    assert_int_equal(fb_config_override_all(&cfg, both, 2, &err), FB_OK);
    assert_int_equal(cfg.min_reps, 1);
    assert_int_equal(cfg.max_reps, 2);
}

static void a_broken_rule_names_the_override_that_broke_it(void **state)
{
    (void)state;
    struct fb_config cfg;
    fb_config_defaults(&cfg);
    struct fb_error err = {{0}};
    const struct fb_config_setting s[] = {{"max_reps", "2"}, {"min_reps", "3"}};
    assert_int_equal(fb_config_override_all(&cfg, s, 2, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--min_reps: min_reps (3) would be more than max_reps (2)"));
    assert_int_equal(cfg.min_reps, 8); /* unchanged */
    assert_int_equal(cfg.max_reps, 200);
    /* a wrong value names its own override, whatever comes after it */
    const struct fb_config_setting t[] = {{"warmup", "x"}, {"min_reps", "1"}};
    assert_int_equal(fb_config_override_all(&cfg, t, 2, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--warmup:"));
}

static void a_number_beyond_a_double_is_out_of_range_not_not_a_number(void **state)
{
    (void)state;
    struct fb_config cfg;
    struct fixture_result res;
    fixture_load("[measure]\ntarget_noise = 1e-400\nmax_time = 1e400\nwarmup = "
                 "99999999999999999999999\n", &cfg, &res);
    assert_int_equal(res.rc, FB_ERR_USAGE);
    if (!fixture_line_contains(&res, 2, "1e-400 is out of range [0, 1] (it underflows") ||
        !fixture_line_contains(&res, 3, "1e400 is out of range (0, 3600] (it overflows") ||
        !fixture_line_contains(&res, 4, "99999999999999999999999 is out of range [0, 1000000]")) {
        print_error("diag:\n%s", res.diag);
        fail();
    }
    assert_null(strstr(res.diag, "not a number"));
    assert_null(strstr(res.diag, "not an integer"));
}

static void control_bytes_from_the_file_are_escaped_in_messages(void **state)
{
    (void)state;
    struct fb_config cfg;
    struct fixture_result res;
    fixture_load("[sweep]\nsizes = 8\x1b[2J..9\nwarm\x07up = 1\n[measure]\ncache = \x9b" "31m\n",
                 &cfg, &res);
    assert_int_equal(res.rc, FB_ERR_USAGE);
    for (const char *p = res.diag; *p; p++)
        if ((*p != '\n' && (unsigned char)*p < 0x20) || (unsigned char)*p >= 0x7F) {
            print_error("raw byte 0x%02X in diag:\n%s", (unsigned char)*p, res.diag);
            fail();
        }
    assert_non_null(strstr(res.diag, "8\\x1B[2J"));
    assert_non_null(strstr(res.diag, "warm\\x07up"));
    assert_non_null(strstr(res.diag, "\\x9B31m"));
}

static void override_messages_escape_control_bytes(void **state)
{
    (void)state;
    struct fb_config cfg;
    fb_config_defaults(&cfg);
    struct fb_error err = {{0}};
    assert_int_equal(fb_config_override(&cfg, "cache", "w\x1b]0;owned\x07", &err), FB_ERR_USAGE);
    assert_null(strchr(err.msg, 0x1b));
    assert_non_null(strstr(err.msg, "w\\x1B]0;owned\\x07"));
}

static void escape_keeps_utf8_and_marks_everything_a_terminal_acts_on(void **state)
{
    (void)state;
    char out[128];
    assert_string_equal(fb_text_escape(out, sizeof out, "caf\xc3\xa9 \xe2\x82\xac"),
                        "caf\xc3\xa9 \xe2\x82\xac");
    assert_string_equal(fb_text_escape(out, sizeof out, "a\tb\nc\rd\x7f"),
                        "a\\tb\\nc\\rd\\x7F");
    /* C1 CSI as UTF-8 (U+009B), a lone continuation byte, an overlong '/' */
    assert_string_equal(fb_text_escape(out, sizeof out, "\xc2\x9b|\x80|\xc0\xaf"),
                        "\\xC2\\x9B|\\x80|\\xC0\\xAF");
    /* cut before an escape that does not fit, never inside it */
    assert_string_equal(fb_text_escape(out, 6, "ab\x01"), "ab");
    assert_string_equal(fb_text_escape(out, 7, "ab\x01"), "ab\\x01");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_fifo_is_refused_without_blocking),
        cmocka_unit_test(a_directory_is_refused),
        cmocka_unit_test(a_file_over_the_size_limit_is_refused),
        cmocka_unit_test(overrides_are_checked_as_a_set),
        cmocka_unit_test(a_broken_rule_names_the_override_that_broke_it),
        cmocka_unit_test(a_number_beyond_a_double_is_out_of_range_not_not_a_number),
        cmocka_unit_test(control_bytes_from_the_file_are_escaped_in_messages),
        cmocka_unit_test(override_messages_escape_control_bytes),
        cmocka_unit_test(escape_keeps_utf8_and_marks_everything_a_terminal_acts_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
