/* The CSV writer: schema and cell formats, and the atomic replace (a failed write leaves the
 * old file as it was and no temporary behind; temporary names are unique; only regular files
 * are replaced, symlinks are followed). Also mkdir -p of the output's directory. */
/* nftw() (temporary directory cleanup in csv_test_util.h) is an XSI extension. */
#define _XOPEN_SOURCE 700

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/csv.h"
#include "csv_test_util.h"

#define HEADER                                                                              \
    "backend,device,variant,dtype,n,launches,bytes_model,reps,batch,time_median_s,"         \
    "time_min_s,time_max_s,time_p10_s,time_p90_s,noise,bandwidth_gbps,copy_fraction,"       \
    "kernel_time_s,launch_overhead_s,dram_read_bytes,dram_write_bytes,l2_bytes,"            \
    "dram_bytes_per_element,cache,verified,status,reason,role,pair,speedup,preempted,stores," \
    "host_launches,mirror,ours_ratio,ours_ratio_lo,ours_ratio_hi,speedup_lo,speedup_hi,"     \
    "speedup_rounds"

#define OLD_CONTENT "# fusebench: 0.0.9\nthe previous results\n"

static struct fb_record unmeasured(void)
{
    struct fb_record r;
    fb_record_init(&r);
    strcpy(r.backend, "cpu");
    strcpy(r.device, "dev");
    strcpy(r.variant, "copy");
    strcpy(r.dtype, "float32");
    r.n = 8;
    return r;
}

/* Line `index` (0-based) of text, copied into buf without its '\n'. */
static const char *line_of(const char *text, int index, char *buf, size_t size)
{
    for (int i = 0; i < index; i++) {
        text = strchr(text, '\n');
        assert_non_null(text);
        text++;
    }
    size_t len = strcspn(text, "\n");
    assert_true(len < size);
    memcpy(buf, text, len);
    buf[len] = '\0';
    return buf;
}

static int count_char(const char *s, char c)
{
    int k = 0;
    for (; *s; s++)
        k += *s == c;
    return k;
}

static void header_has_the_schema_columns_in_that_order(void **state)
{
    char path[256], line[1024];
    in_dir(path, sizeof path, state, "r.csv");
    assert_int_equal(fb_csv_write(path, NULL, 0, NULL, 0, NULL), FB_OK);
    char *text = slurp(path);
    assert_string_equal(text, HEADER "\n");
    free(text);
    /* The exported names agree with the file. */
    assert_int_equal(fb_csv_column_count(), 40);
    line[0] = '\0';
    for (size_t i = 0; i < fb_csv_column_count(); i++) {
        if (i)
            strcat(line, ",");
        strcat(line, fb_csv_column_name(i));
    }
    assert_string_equal(line, HEADER);
    assert_null(fb_csv_column_name(40));
}

static void metadata_lines_come_first_in_the_given_order(void **state)
{
    char path[256];
    in_dir(path, sizeof path, state, "r.csv");
    const struct fb_csv_meta meta[] = {
        {"fusebench", "0.1.0"},
        {"label", "zeta first, then alpha"},
        {"peak_bandwidth_gbps", ""},
        {"config", "configs/a.ini"},
    };
    assert_int_equal(fb_csv_write(path, meta, 4, NULL, 0, NULL), FB_OK);
    char *text = slurp(path);
    assert_string_equal(text, "# fusebench: 0.1.0\n"
                              "# label: zeta first, then alpha\n"
                              "# peak_bandwidth_gbps:\n"
                              "# config: configs/a.ini\n" HEADER "\n");
    free(text);
}

static void not_measured_fields_are_empty_cells(void **state)
{
    char path[256], line[1024];
    in_dir(path, sizeof path, state, "r.csv");
    struct fb_record r = unmeasured();
    assert_int_equal(fb_csv_write(path, NULL, 0, &r, 1, NULL), FB_OK);
    char *text = slurp(path);
    assert_string_equal(line_of(text, 1, line, sizeof line),
                        "cpu,dev,copy,float32,8,,,,,,,,,,,,,,,,,,,,0,skipped,,,,,,,,,,,,,,");
    free(text);
}

static void numbers_use_the_documented_formats(void **state)
{
    char path[256], line[1024];
    in_dir(path, sizeof path, state, "r.csv");
    struct fb_record r = unmeasured();
    r.n = 100000000;
    r.launches = 2;
    r.bytes_model = 2000000000;
    r.reps = 31;
    r.batch = 1;
    r.time_median_s = 1.5e-6;
    r.time_min_s = 1.23456789012e-3;
    r.time_max_s = 2.0;
    r.time_p10_s = 0.1;
    r.time_p90_s = 3e-9;
    r.noise = INFINITY;
    r.bandwidth_gbps = 123.456789;
    r.copy_fraction = 0.5;
    r.dram_read_bytes = 0;
    r.preempted = 0.25;
    r.host_launches = 1;
    strcpy(r.stores, "streaming");
    strcpy(r.cache, "warm");
    strcpy(r.role, "eager");
    strcpy(r.pair, "fused_x");
    r.speedup = 1.6666666666666667;
    r.speedup_lo = 1.6123456789;
    r.speedup_hi = 1.7;
    r.speedup_rounds = 31;
    r.verified = true;
    r.status = FB_POINT_OK;
    assert_int_equal(fb_csv_write(path, NULL, 0, &r, 1, NULL), FB_OK);
    char *text = slurp(path);
    assert_string_equal(line_of(text, 1, line, sizeof line),
                        "cpu,dev,copy,float32,100000000,2,2000000000,31,1,"
                        "1.5e-06,0.00123456789,2,0.1,3e-09,inf,123.4568,0.5,,,0,,,,warm,1,ok,,"
                        "eager,fused_x,1.66666667,0.25,streaming,1,,,,,1.61234568,1.7,31");
    free(text);
}

static void text_with_comma_or_quote_is_quoted_and_line_breaks_become_spaces(void **state)
{
    char path[256], line[1024];
    in_dir(path, sizeof path, state, "r.csv");
    struct fb_record r = unmeasured();
    strcpy(r.device, "Xeon(R) 8480+, 2 sockets");
    r.status = FB_POINT_FAILED;
    strcpy(r.reason, "mismatch at 3: got \"-0\", want 0\nsee log");
    assert_int_equal(fb_csv_write(path, NULL, 0, &r, 1, NULL), FB_OK);
    char *text = slurp(path);
    assert_string_equal(line_of(text, 1, line, sizeof line),
                        "cpu,\"Xeon(R) 8480+, 2 sockets\",copy,float32,8,,,,,,,,,,,,,,,,,,,,0,"
                        "failed,\"mismatch at 3: got \"\"-0\"\", want 0 see log\",,,,,,,,,,,,,");
    assert_int_equal(count_char(text, '\n'), 2); /* header and one row, nothing more */
    free(text);
}

/* The number of entries in the test's directory (temporary files have unique names, so the
 * tests count what is left instead of looking for one name). */
static int entries(void **state)
{
    const struct tmpdir *d = *state;
    DIR *dir = opendir(d->path);
    assert_non_null(dir);
    int k = 0;
    for (struct dirent *e; (e = readdir(dir));)
        k += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(dir);
    return k;
}

static void replaces_an_existing_file_and_leaves_no_tmp(void **state)
{
    char path[256];
    in_dir(path, sizeof path, state, "r.csv");
    spew(path, OLD_CONTENT);
    assert_int_equal(chmod(path, 0640), 0);
    struct fb_record r = unmeasured();
    assert_int_equal(fb_csv_write(path, NULL, 0, &r, 1, NULL), FB_OK);
    char *text = slurp(path);
    assert_non_null(strstr(text, HEADER));
    assert_null(strstr(text, "previous"));
    free(text);
    assert_int_equal(entries(state), 1);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640); /* the old file's permissions, not mkstemp's */
}

/* The temporary file of an earlier run that was killed, under the old fixed name, is neither
 * used nor in the way: every write has a name of its own. */
static void a_stale_fixed_tmp_name_is_not_in_the_way(void **state)
{
    char path[256], tmp[256];
    in_dir(path, sizeof path, state, "r.csv");
    in_dir(tmp, sizeof tmp, state, "r.csv.tmp");
    assert_int_equal(mkdir(tmp, 0755), 0);
    assert_int_equal(fb_csv_write(path, NULL, 0, NULL, 0, NULL), FB_OK);
    assert_int_equal(entries(state), 2); /* r.csv and the directory */
}

/* A write error after the temporary file was opened: a file size limit (RLIMIT_FSIZE, which
 * binds root too) makes the data fail to reach it with EFBIG. */
static void existing_file_is_untouched_when_writing_fails(void **state)
{
    char path[256];
    in_dir(path, sizeof path, state, "r.csv");
    spew(path, OLD_CONTENT);
    struct fb_csv_meta meta[4];
    for (int i = 0; i < 4; i++) {
        snprintf(meta[i].key, sizeof meta[i].key, "k%d", i);
        memset(meta[i].value, 'v', sizeof meta[i].value - 1);
        meta[i].value[sizeof meta[i].value - 1] = '\0';
    }
    struct rlimit saved, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    small = saved;
    small.rlim_cur = 1000; /* bytes: the metadata alone is over 4000 */
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    struct fb_error err = {{0}};
    int rc = fb_csv_write(path, meta, 4, NULL, 0, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, old_handler);
    assert_int_equal(rc, FB_ERR_RUNTIME);
    assert_non_null(strstr(err.msg, "r.csv.tmp."));
    assert_non_null(strstr(err.msg, strerror(EFBIG)));
    char *text = slurp(path);
    assert_string_equal(text, OLD_CONTENT);
    free(text);
    assert_int_equal(entries(state), 1);
}

/* No file descriptor left (RLIMIT_NOFILE, which binds root too): mkstemp fails. */
static void existing_file_is_untouched_when_the_tmp_cannot_be_created(void **state)
{
    char path[256];
    in_dir(path, sizeof path, state, "r.csv");
    spew(path, OLD_CONTENT);
    int lowest_free = dup(0);
    assert_true(lowest_free >= 0);
    close(lowest_free);
    struct rlimit saved, none;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
    none = saved;
    none.rlim_cur = (rlim_t)lowest_free; /* every descriptor from here on is refused */
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &none), 0);
    struct fb_error err = {{0}};
    int rc = fb_csv_write(path, NULL, 0, NULL, 0, &err);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
    assert_int_equal(rc, FB_ERR_RUNTIME);
    assert_non_null(strstr(err.msg, "r.csv.tmp."));
    char *text = slurp(path);
    assert_string_equal(text, OLD_CONTENT);
    free(text);
    assert_int_equal(entries(state), 1);
}

/* A directory, a FIFO (or, as root, a device node) at the path is refused before anything is
 * written, and stays what it was. */
static void a_path_that_is_not_a_regular_file_is_refused_and_kept(void **state)
{
    char dir[256], inside[256], fifo[256];
    in_dir(dir, sizeof dir, state, "r.csv");
    in_dir(inside, sizeof inside, state, "r.csv/keep");
    in_dir(fifo, sizeof fifo, state, "f.csv");
    assert_int_equal(mkdir(dir, 0755), 0);
    spew(inside, "x");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_write(dir, NULL, 0, NULL, 0, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "a directory"));
    assert_int_equal(fb_csv_write(fifo, NULL, 0, NULL, 0, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "a FIFO"));
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_true(exists(inside));
    assert_int_equal(entries(state), 2);
}

/* A symlink is followed: its target is replaced atomically, the link stays a link, and a
 * relative target is taken relative to the link's directory. */
static void a_symlink_is_followed_and_stays_a_link(void **state)
{
    char sub[256], real[256], link[256];
    in_dir(sub, sizeof sub, state, "sub");
    in_dir(real, sizeof real, state, "sub/real.csv");
    in_dir(link, sizeof link, state, "sub/link.csv");
    assert_int_equal(mkdir(sub, 0755), 0);
    spew(real, OLD_CONTENT);
    assert_int_equal(symlink("real.csv", link), 0);
    assert_int_equal(fb_csv_write(link, NULL, 0, NULL, 0, NULL), FB_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    char *text = slurp(real);
    assert_non_null(strstr(text, HEADER));
    free(text);
    char target[FB_CSV_PATH_MAX];
    assert_int_equal(fb_csv_output_target(link, target, sizeof target, NULL), FB_OK);
    assert_string_equal(target, real);
}

static void writing_under_a_regular_file_fails_naming_the_path(void **state)
{
    char file[256], path[256];
    in_dir(file, sizeof file, state, "afile");
    in_dir(path, sizeof path, state, "afile/r.csv");
    spew(file, "not a directory");
    struct fb_error err = {{0}};
    assert_int_not_equal(fb_csv_write(path, NULL, 0, NULL, 0, &err), FB_OK);
    assert_non_null(strstr(err.msg, "afile/r.csv"));
    char *text = slurp(file);
    assert_string_equal(text, "not a directory");
    free(text);
}

static void bad_metadata_key_is_refused_before_writing(void **state)
{
    char path[256], tmp[256];
    in_dir(path, sizeof path, state, "r.csv");
    in_dir(tmp, sizeof tmp, state, "r.csv.tmp");
    const struct fb_csv_meta meta[] = {{"ok", "1"}, {"bad key", "2"}};
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_write(path, meta, 2, NULL, 0, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "bad key"));
    assert_false(exists(path));
    assert_false(exists(tmp));
    assert_int_equal(entries(state), 0);
}

static void make_parent_dirs_creates_every_missing_level(void **state)
{
    char path[256], dir[256];
    in_dir(path, sizeof path, state, "a/b//c/r.csv");
    in_dir(dir, sizeof dir, state, "a/b/c");
    assert_int_equal(fb_csv_make_parent_dirs(path, NULL), FB_OK);
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_false(exists(path));
    /* Again: everything exists already, still fine; and the write then succeeds. */
    assert_int_equal(fb_csv_make_parent_dirs(path, NULL), FB_OK);
    assert_int_equal(fb_csv_write(path, NULL, 0, NULL, 0, NULL), FB_OK);
}

static void make_parent_dirs_needs_nothing_for_a_bare_name(void **state)
{
    (void)state;
    assert_int_equal(fb_csv_make_parent_dirs("results.csv", NULL), FB_OK);
    assert_int_equal(fb_csv_make_parent_dirs("/results.csv", NULL), FB_OK);
}

static void make_parent_dirs_names_the_component_that_is_a_file(void **state)
{
    char file[256], path[256];
    in_dir(file, sizeof file, state, "afile");
    in_dir(path, sizeof path, state, "afile/sub/r.csv");
    spew(file, "x");
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_make_parent_dirs(path, &err), FB_ERR_RUNTIME);
    char expect[300];
    snprintf(expect, sizeof expect, "'%s'", file);
    assert_non_null(strstr(err.msg, expect));
    assert_non_null(strstr(err.msg, "not a directory"));
    assert_non_null(strstr(err.msg, path));
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmpdir_setup, tmpdir_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(header_has_the_schema_columns_in_that_order),
        T(metadata_lines_come_first_in_the_given_order),
        T(not_measured_fields_are_empty_cells),
        T(numbers_use_the_documented_formats),
        T(text_with_comma_or_quote_is_quoted_and_line_breaks_become_spaces),
        T(replaces_an_existing_file_and_leaves_no_tmp),
        T(existing_file_is_untouched_when_writing_fails),
        T(existing_file_is_untouched_when_the_tmp_cannot_be_created),
        T(a_stale_fixed_tmp_name_is_not_in_the_way),
        T(a_path_that_is_not_a_regular_file_is_refused_and_kept),
        T(a_symlink_is_followed_and_stays_a_link),
        T(writing_under_a_regular_file_fails_naming_the_path),
        T(bad_metadata_key_is_refused_before_writing),
        T(make_parent_dirs_creates_every_missing_level),
        T(make_parent_dirs_needs_nothing_for_a_bare_name),
        T(make_parent_dirs_names_the_component_that_is_a_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
