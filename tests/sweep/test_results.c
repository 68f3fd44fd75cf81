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
#include <unistd.h>

#include "app/results.h"

static struct fb_record point(const char *variant, int64_t n, double gbps)
{
    struct fb_record r;
    fb_record_init(&r);
    snprintf(r.backend, sizeof r.backend, "cpu");
    snprintf(r.device, sizeof r.device, "test cpu");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
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

    /* what was written reads back the same */
    struct fb_results again;
    fb_results_init(&again, path, &cfg, "cpu", &dev, 1, "n/a");
    size_t loaded = 0;
    assert_int_equal(fb_results_load(&again, &loaded, &err), FB_OK);
    assert_int_equal(loaded, 3);
    assert_true(fabs(again.records[1].copy_fraction - 0.8) < 1e-6);
    fb_results_free(&again);
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
    assert_int_equal(fb_results_check_writable(path, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, file));
    unlink(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copy_fraction_comes_from_the_copy_row_at_the_same_size),
        cmocka_unit_test(unwritable_output_is_a_usage_error_naming_the_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
