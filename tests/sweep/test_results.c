/* The results store: copy_fraction filled from the same run's copy row, and the up-front
 * check that the output is writable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/results.h"
#include "measure/pairing.h"

static struct fb_record point(const char *variant, int64_t n, double gbps)
{
    struct fb_record r;
    fb_record_init(&r);
    snprintf(r.backend, sizeof r.backend, "cpu");
    snprintf(r.device, sizeof r.device, "test cpu");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    fb_pairing_fill_builtin_roles(&r, 1); /* role and pair as the runner fills them */
    snprintf(r.dtype, sizeof r.dtype, "fp32");
    r.n = n;
    r.bandwidth_gbps = gbps;
    r.status = FB_POINT_OK;
    snprintf(r.cache, sizeof r.cache, "warm");
    return r;
}

static void copy_fraction_comes_from_the_copy_row_at_the_same_size(void **unused)
{
    (void)unused;
    char dir[] = "/tmp/fb-results-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/r.csv", dir);
    struct fb_config cfg;
    fb_config_defaults(&cfg);
    struct fb_device_info dev = {.name = "test cpu"};
    struct fb_results res;
    fb_results_init(&res, path, &cfg, "cpu", &dev, 1, "n/a");
    struct fb_error err;
    struct fb_record copy = point("copy", 100, 10.0), fused = point("fused_add_relu", 100, 8.0);
    struct fb_record lonely = point("fused_add_relu", 200, 8.0);
    assert_int_equal(fb_results_add(&res, &copy, &err), FB_OK);
    assert_int_equal(fb_results_add(&res, &fused, &err), FB_OK);
    assert_int_equal(fb_results_add(&res, &lonely, &err), FB_OK);
    assert_true(fabs(res.records[1].copy_fraction - 0.8) < 1e-12);
    assert_true(isnan(res.records[2].copy_fraction)); /* no copy row at 200 */
    assert_true(fb_results_has_ok(&res, "cpu", "test cpu", "fused_add_relu", "fp32", 100, "warm"));
    assert_false(fb_results_has_ok(&res, "cpu", "test cpu", "eager_add_relu", "fp32", 100, "warm"));

    /* until the run is finished the rows are in "<path>.partial" only */
    char partial[160];
    snprintf(partial, sizeof partial, "%s.partial", path);
    assert_string_equal(res.partial_path, partial);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(access(partial, F_OK), 0);

    /* what was written reads back the same, --resume reading the unfinished file */
    struct fb_results again;
    fb_results_init(&again, path, &cfg, "cpu", &dev, 1, "n/a");
    assert_string_equal(again.path, partial);
    size_t loaded = 0;
    assert_int_equal(fb_results_load(&again, &loaded, &err), FB_OK);
    assert_int_equal(loaded, 3);
    assert_true(fabs(again.records[1].copy_fraction - 0.8) < 1e-6);
    fb_results_free(&again);

    /* finishing renames it over the results file */
    assert_int_equal(fb_results_finish(&res, &err), FB_OK);
    assert_int_equal(access(path, F_OK), 0);
    assert_int_equal(access(partial, F_OK), -1);
    fb_results_free(&res);
    unlink(path);
    rmdir(dir);
}

static void unwritable_output_is_a_usage_error_naming_the_path(void **unused)
{
    (void)unused;
    char file[] = "/tmp/fb-notadir-XXXXXX";
    int fd = mkstemp(file);
    assert_true(fd >= 0);
    close(fd);
    char path[128];
    snprintf(path, sizeof path, "%s/results.csv", file); /* parent is a regular file */
    struct fb_error err;
    char target[256];
    assert_int_equal(fb_results_check_writable(path, target, sizeof target, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, file));
    unlink(file);
}

/* A second lock on one results file is refused, naming the holder's pid; the holder is
 * another process (POSIX record locks never conflict within one process). */
static void a_second_lock_is_refused_naming_the_holder(void **unused)
{
    (void)unused;
    char dir[] = "/tmp/fb-lock-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], lockfile[160];
    snprintf(path, sizeof path, "%s/r.csv", dir);
    snprintf(lockfile, sizeof lockfile, "%s.lock", path);
    int ready[2], done[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(done), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) { /* holds the lock until the parent has tried */
        struct fb_results_lock held;
        char c = fb_results_lock(&held, path, NULL) == FB_OK ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
            _exit(1);
        fb_results_unlock(&held);
        _exit(0);
    }
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    struct fb_results_lock mine;
    struct fb_error err = {{0}};
    assert_int_equal(fb_results_lock(&mine, path, &err), FB_ERR_USAGE);
    char pid[32];
    snprintf(pid, sizeof pid, "pid %ld", (long)child);
    assert_non_null(strstr(err.msg, pid));
    assert_int_equal(write(done[1], "x", 1), 1);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* released (and its file removed): now it is ours */
    assert_int_equal(access(lockfile, F_OK), -1);
    assert_int_equal(fb_results_lock(&mine, path, &err), FB_OK);
    assert_int_equal(access(lockfile, F_OK), 0);
    fb_results_unlock(&mine);
    assert_int_equal(access(lockfile, F_OK), -1);
    for (int i = 0; i < 2; i++) {
        close(ready[i]);
        close(done[i]);
    }
    rmdir(dir);
}

/* The speedup is filled once both rows of a pair are in, whichever came first; a file written
 * before the role, pair and speedup columns gets them on --resume (from the built-ins). */
static void speedup_is_derived_as_rows_arrive_and_for_older_files_on_load(void **unused)
{
    (void)unused;
    char dir[] = "/tmp/fb-results-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/r.csv", dir);
    struct fb_config cfg;
    fb_config_defaults(&cfg);
    struct fb_device_info dev = {.name = "test cpu"};
    struct fb_results res;
    fb_results_init(&res, path, &cfg, "cpu", &dev, 1, "n/a");
    struct fb_error err;
    struct fb_record eager = point("eager_add_relu", 100, 5.0);
    struct fb_record fused = point("fused_add_relu", 100, 6.0);
    eager.time_median_s = 3e-6;
    fused.time_median_s = 2e-6;
    assert_int_equal(fb_results_add(&res, &eager, &err), FB_OK);
    assert_true(isnan(res.records[0].speedup)); /* its pair is not measured yet */
    assert_int_equal(fb_results_add(&res, &fused, &err), FB_OK);
    assert_true(fabs(res.records[0].speedup - 1.5) < 1e-12);
    fb_results_free(&res);
    unlink(res.partial_path);

    /* an older file: no role, pair or speedup column */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# fusebench: 0.0.9\n"
          "backend,device,variant,dtype,n,time_median_s,bandwidth_gbps,cache,verified,status\n"
          "cpu,test cpu,copy,fp32,100,1e-6,10,warm,1,ok\n"
          "cpu,test cpu,fused_add_relu,fp32,100,2e-6,8,warm,1,ok\n"
          "cpu,test cpu,eager_add_threshold,fp32,100,5e-6,4,warm,1,ok\n", f);
    fclose(f);
    fb_results_init(&res, path, &cfg, "cpu", &dev, 1, "n/a");
    size_t loaded = 0;
    assert_int_equal(fb_results_load(&res, &loaded, &err), FB_OK);
    assert_int_equal(loaded, 3);
    assert_string_equal(res.records[0].role, "copy_ceiling");
    assert_string_equal(res.records[2].role, "eager");
    assert_string_equal(res.records[2].pair, "fused_add_relu");
    assert_true(fabs(res.records[2].speedup - 2.5) < 1e-12);
    assert_true(fabs(res.records[1].copy_fraction - 0.8) < 1e-12);
    fb_results_free(&res);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copy_fraction_comes_from_the_copy_row_at_the_same_size),
        cmocka_unit_test(speedup_is_derived_as_rows_arrive_and_for_older_files_on_load),
        cmocka_unit_test(unwritable_output_is_a_usage_error_naming_the_path),
        cmocka_unit_test(a_second_lock_is_refused_naming_the_holder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
