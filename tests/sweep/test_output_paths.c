/* The up-front judgement of output paths (results/output_paths.h, fb_results_judge): names that
 * are no file names, directories that exist, can be made or cannot, and results files that
 * are not fusebench's, refused unless forced; and nothing created by any of it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/test_tmpdir.h"
#include "results/output_paths.h"
#include "results/results.h"

/* A fresh directory per test ($TMPDIR, else /tmp), removed with what a test put in it. */
static int make_scratch(void **state)
{
    char *dir = malloc(256);
    if (!dir)
        return -1;
    fb_test_mkdtemp(dir, 256, "fb-output-paths");
    *state = dir;
    return 0;
}

static int remove_scratch(void **state)
{
    fb_test_rmtree(*state);
    free(*state);
    return 0;
}

/* The number of entries in dir, "." and ".." not counted. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void a_last_component_that_is_no_file_name_is_refused(void **state)
{
    (void)state;
    const char *refused[] = {"", "/", "d/", "d//", "a/b/", ".", "..", "d/.", "d/..", "/.."};
    const char *accepted[] = {"x.csv", "d/x.csv", "d/.x", "d/...", "..x", "/x"};
    struct fb_error err;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(fb_output_name_check(refused[i], "results file", &err), FB_ERR_USAGE);
        assert_non_null(strstr(err.msg, "results file"));
    }
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++)
        assert_int_equal(fb_output_name_check(accepted[i], "results file", &err), FB_OK);
}

static void dir_of_drops_the_last_component(void **state)
{
    (void)state;
    const char *cases[][2] = {{"a/b.csv", "a"}, {"b.csv", "."}, {"/b.csv", "/"},
                              {"a//b", "a"}, {"//b", "/"}, {"a/b/c", "a/b"}};
    char dir[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fb_output_dir_of(cases[i][0], dir, sizeof dir);
        assert_string_equal(dir, cases[i][1]);
    }
}

static void a_directory_that_exists_or_can_be_made_passes_and_nothing_is_made(void **state)
{
    const char *top = *state;
    char dir[512], make[512];
    struct fb_error err;
    assert_int_equal(fb_output_dir_check(top, "charts directory", make, sizeof make, &err),
                     FB_OK);
    assert_string_equal(make, "");
    snprintf(dir, sizeof dir, "%s/new/deeper/", top);
    assert_int_equal(fb_output_dir_check(dir, "charts directory", make, sizeof make, &err),
                     FB_OK);
    char first[512];
    snprintf(first, sizeof first, "%s/new", top);
    assert_string_equal(make, first);
    assert_int_equal(entries(top), 0); /* no directory made, no probe file left */
}

static void a_directory_that_cannot_work_is_refused_naming_what_failed(void **state)
{
    const char *top = *state;
    put(top, "file", "x");
    char path[512], make[512], loop[512];
    struct fb_error err;
    snprintf(path, sizeof path, "%s/file", top); /* a regular file */
    assert_int_equal(fb_output_dir_check(path, "charts directory", make, sizeof make, &err),
                     FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "is a regular file; it must be a directory"));
    snprintf(path, sizeof path, "%s/file/sub", top); /* a part of it is a file */
    assert_int_equal(fb_output_dir_check(path, "charts directory", make, sizeof make, &err),
                     FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "a part of the path is a file"));
    snprintf(loop, sizeof loop, "%s/loop", top);
    assert_int_equal(symlink("loop", loop), 0);
    assert_int_equal(fb_output_dir_check(loop, "charts directory", make, sizeof make, &err),
                     FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, loop));
    /* /proc/self: a directory where no file can be created, whoever runs the test */
    assert_int_equal(fb_output_dir_check("/proc/self", "charts directory", make, sizeof make,
                                         &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "charts directory /proc/self: cannot create files in it"));
    assert_int_equal(fb_output_dir_check("/proc/self/new", "charts directory", make,
                                         sizeof make, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "cannot create anything in /proc/self"));
    assert_int_equal(fb_output_dir_check("", "charts directory", make, sizeof make, &err),
                     FB_ERR_USAGE);
    assert_int_equal(entries(top), 2); /* file and loop: nothing added */
}

static void a_newline_in_a_refused_path_is_escaped(void **state)
{
    const char *top = *state;
    char path[512], make[512];
    struct fb_error err;
    put(top, "a\nb", "x");
    snprintf(path, sizeof path, "%s/a\nb", top);
    assert_int_equal(fb_output_dir_check(path, "charts directory", make, sizeof make, &err),
                     FB_ERR_USAGE);
    assert_null(strchr(err.msg, '\n'));
    assert_non_null(strstr(err.msg, "a\\nb"));
    assert_int_equal(fb_output_name_check("x\x1b[2J/", "results file", &err), FB_ERR_USAGE);
    assert_null(strchr(err.msg, '\x1b'));
}

static void results_that_are_not_fusebench_are_kept_unless_forced(void **state)
{
    const char *top = *state;
    struct {
        const char *text;
        enum fb_results_existing kind;
    } cases[] = {
        {"", FB_RESULTS_EMPTY},
        {"# fusebench: 0.1.0\nbackend,device\n", FB_RESULTS_OWN},
        {"# fusebench: torch-peer 0.1.0\n", FB_RESULTS_OWN},
        {"\n# label: x\n# fusebench: 0.0.9\r\n", FB_RESULTS_OWN},
        {"backend,device,variant,dtype,n,time_median_s\ncpu,x,copy,fp32,8,1\n", FB_RESULTS_OWN},
        {"root:x:0:0:root:/root:/bin/bash\n", FB_RESULTS_FOREIGN},
        {"# a comment, then nothing\n", FB_RESULTS_FOREIGN},
        {"# fusebench\n", FB_RESULTS_FOREIGN}, /* no ':' */
        {" ", FB_RESULTS_FOREIGN},
        {"backend;device\n", FB_RESULTS_FOREIGN},
    };
    char path[512];
    snprintf(path, sizeof path, "%s/r.csv", top);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        put(top, "r.csv", cases[i].text);
        struct fb_results_target t;
        struct fb_error err;
        int rc = fb_results_judge(path, false, &t, &err);
        if (cases[i].kind == FB_RESULTS_FOREIGN) {
            assert_int_equal(rc, FB_ERR_USAGE);
            assert_non_null(strstr(err.msg, "--force"));
            assert_non_null(strstr(err.msg, path));
        } else {
            assert_int_equal(rc, FB_OK);
            assert_int_equal(t.existing, cases[i].kind);
        }
        assert_int_equal(fb_results_judge(path, true, &t, &err), FB_OK);
        assert_int_equal(t.existing, cases[i].kind);
        assert_string_equal(t.path, path);
    }
    /* the same rule for an unfinished run's file */
    put(top, "r.csv", "");
    put(top, "r.csv.partial", "not results\n");
    struct fb_results_target t;
    struct fb_error err;
    assert_int_equal(fb_results_judge(path, false, &t, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "r.csv.partial"));
    assert_int_equal(fb_results_judge(path, true, &t, &err), FB_OK);
    assert_int_equal(entries(top), 2); /* judged, nothing made */
}

static void a_new_results_file_in_new_directories_is_judged_then_prepared(void **state)
{
    const char *top = *state;
    char path[512], first[512];
    snprintf(path, sizeof path, "%s/runs/today/r.csv", top);
    snprintf(first, sizeof first, "%s/runs", top);
    struct fb_results_target t;
    struct fb_error err;
    assert_int_equal(fb_results_judge(path, false, &t, &err), FB_OK);
    assert_int_equal(t.existing, FB_RESULTS_NEW);
    assert_string_equal(t.make_dir, first);
    assert_int_equal(entries(top), 0);
    assert_int_equal(fb_results_prepare(&t, &err), FB_OK);
    struct stat st;
    snprintf(first, sizeof first, "%s/runs/today", top);
    assert_int_equal(stat(first, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    /* a symlink whose target names a directory */
    char link[512];
    snprintf(link, sizeof link, "%s/link.csv", top);
    assert_int_equal(symlink("gone/", link), 0);
    assert_int_equal(fb_results_judge(link, false, &t, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "symlink"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_last_component_that_is_no_file_name_is_refused),
        cmocka_unit_test(dir_of_drops_the_last_component),
        cmocka_unit_test_setup_teardown(
            a_directory_that_exists_or_can_be_made_passes_and_nothing_is_made, make_scratch,
            remove_scratch),
        cmocka_unit_test_setup_teardown(
            a_directory_that_cannot_work_is_refused_naming_what_failed, make_scratch,
            remove_scratch),
        cmocka_unit_test_setup_teardown(a_newline_in_a_refused_path_is_escaped, make_scratch,
                                        remove_scratch),
        cmocka_unit_test_setup_teardown(
            results_that_are_not_fusebench_are_kept_unless_forced, make_scratch,
            remove_scratch),
        cmocka_unit_test_setup_teardown(
            a_new_results_file_in_new_directories_is_judged_then_prepared, make_scratch,
            remove_scratch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
