/* What a sweep records and prints about CUPTI (src/measure/probe.h): counters that cannot be had are
 * a normal state, reported by ONE warning with CUPTI's own text and by the `counters` metadata
 * line "unavailable (REASON)"; counters that work say which cache state their DRAM bytes come
 * from. Runs in every build: the setup outcomes are built by hand (as fb_cupti_session_open would
 * report them), and the no-device path goes through fb_cupti_probe_open itself. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/probe.h"

#define PRIVILEGES                                                                           \
    "cuptiRangeProfilerEnable(&en) (src/cupti/cupti_counters.c:233): "                       \
    "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35); GPU performance counters are restricted to "  \
    "administrators: run as root or load the nvidia module with "                            \
    "NVreg_RestrictProfilingToAdminUsers=0"

static char status[1024], warning[1200];

static void describe(struct fb_probe_setup s)
{
    memset(status, 'x', sizeof status);
    memset(warning, 'x', sizeof warning);
    fb_cupti_probe_describe(&s, status, sizeof status, warning, sizeof warning);
}

/* The counters part of the status: everything before the last "; activity ". */
static void counters_part(char *out, size_t size)
{
    const char *cut = NULL;
    for (const char *p = strstr(status, "; activity "); p; p = strstr(p + 1, "; activity "))
        cut = p;
    assert_non_null(cut);
    snprintf(out, size, "%.*s", (int)(cut - status), status);
}

static void refused_counters_read_unavailable_with_the_reason(void **state)
{
    (void)state;
    describe((struct fb_probe_setup){true, true, true, false, "", PRIVILEGES, FB_CACHE_COLD});
    char counters[1024];
    counters_part(counters, sizeof counters);
    assert_string_equal(counters, "unavailable (" PRIVILEGES ")");
    assert_string_equal(status + strlen(counters), "; activity on");
    /* one warning, one line, with CUPTI's text */
    assert_null(strchr(warning, '\n'));
    assert_non_null(strstr(warning, "warning: CUPTI counters unavailable"));
    assert_non_null(strstr(warning, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"));
    assert_non_null(strstr(warning, "the sweep goes on"));
}

static void working_counters_say_which_cache_state_they_measure(void **state)
{
    (void)state;
    describe((struct fb_probe_setup){true, true, true, true, "", "", FB_CACHE_COLD});
    assert_string_equal(status, "on (cache cold: an L2 flush before each profiled call); "
                                "activity on");
    assert_string_equal(warning, "");
    describe((struct fb_probe_setup){true, true, true, true, "", "", FB_CACHE_WARM});
    assert_string_equal(status, "on (cache warm: each profiled call follows a warm call); "
                                "activity on");
    assert_string_equal(warning, "");
}

static void working_counters_name_the_dram_metrics_of_the_chip(void **state)
{
    (void)state;
    describe((struct fb_probe_setup){true, true, true, true, "", "", FB_CACHE_WARM,
                                     "DRAM bytes from dram__bytes_op_read.sum + "
                                     "dram__bytes_op_write.sum"});
    assert_string_equal(status, "on (cache warm: each profiled call follows a warm call; DRAM "
                                "bytes from dram__bytes_op_read.sum + "
                                "dram__bytes_op_write.sum); activity on");
    assert_string_equal(warning, "");
}

static void one_reason_for_both_parts_is_written_once(void **state)
{
    (void)state;
    const char *why = "no CUDA device answers: cudaGetDeviceCount: cudaErrorNoDevice";
    describe((struct fb_probe_setup){true, true, false, false, why, why, FB_CACHE_WARM});
    assert_string_equal(status, "unavailable (no CUDA device answers: cudaGetDeviceCount: "
                                "cudaErrorNoDevice); activity unavailable (the same reason)");
    assert_non_null(strstr(warning, "warning: CUPTI unavailable"));
    assert_non_null(strstr(warning, why));
}

static void two_reasons_are_both_in_the_one_warning(void **state)
{
    (void)state;
    describe((struct fb_probe_setup){true, true, false, false, "ACTIVITY_WHY", "COUNTERS_WHY",
                                     FB_CACHE_WARM});
    assert_string_equal(status, "unavailable (COUNTERS_WHY); activity unavailable "
                                "(ACTIVITY_WHY)");
    assert_non_null(strstr(warning, "counters: COUNTERS_WHY; activity: ACTIVITY_WHY"));
    assert_null(strchr(warning, '\n'));
}

static void parts_switched_off_by_the_config_warn_nothing(void **state)
{
    (void)state;
    describe((struct fb_probe_setup){true, false, true, false, "", "not requested",
                                     FB_CACHE_WARM});
    assert_string_equal(status, "off ([cupti] counters = false); activity on");
    assert_string_equal(warning, "");
}

static void refused_activity_alone_warns_about_kernel_time(void **state)
{
    (void)state;
    describe((struct fb_probe_setup){true, true, false, true, "CUPTI_ERROR_NOT_SUPPORTED", "",
                                     FB_CACHE_WARM});
    assert_string_equal(status, "on (cache warm: each profiled call follows a warm call); "
                                "activity unavailable (CUPTI_ERROR_NOT_SUPPORTED)");
    assert_non_null(strstr(warning, "kernel_time_s stays empty"));
}

/* A backend with a queue but no GPU behind it: fb_cupti_probe_open must find no CUPTI (no device
 * here, or a build without CUPTI), say so once, and leave the probe off. */
static void *fake_stream(void *state)
{
    (void)state;
    return NULL;
}

static void without_a_device_the_probe_is_off_and_the_metadata_says_why(void **state)
{
    (void)state;
    struct fb_backend_ops ops = fb_cpu_backend;
    ops.name = "gpu-without-a-device";
    ops.stream = fake_stream;
    struct fb_plan *plan = calloc(1, sizeof *plan); /* what the probe reads of it */
    assert_non_null(plan);
    plan->cupti_activity = plan->cupti_counters = true;
    struct fb_device_info dev;
    memset(&dev, 0, sizeof dev);
    struct fb_cupti_probe *p = (struct fb_cupti_probe *)&p;
    struct fb_probe probe;
    struct fb_error err = {{0}};
    char meta[1024];
    assert_int_equal(fb_cupti_probe_open(&p, &probe, &ops, NULL, plan, &dev, meta, sizeof meta,
                                         &err),
                     FB_OK);
    free(plan);
    if (p) {
        printf("skip: CUPTI opened here (a GPU answers): this test is for machines without one\n");
        fb_cupti_probe_close(p);
        skip();
    }
    printf("counters: %s\n", meta);
    assert_true(strncmp(meta, "unavailable (", 13) == 0);
    assert_true(strstr(meta, "no CUDA device answers") || strstr(meta, "built without CUPTI"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_counters_read_unavailable_with_the_reason),
        cmocka_unit_test(working_counters_say_which_cache_state_they_measure),
        cmocka_unit_test(working_counters_name_the_dram_metrics_of_the_chip),
        cmocka_unit_test(one_reason_for_both_parts_is_written_once),
        cmocka_unit_test(two_reasons_are_both_in_the_one_warning),
        cmocka_unit_test(parts_switched_off_by_the_config_warn_nothing),
        cmocka_unit_test(refused_activity_alone_warns_about_kernel_time),
        cmocka_unit_test(without_a_device_the_probe_is_off_and_the_metadata_says_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
