/* Without a GPU, CUPTI reports itself unavailable with the reason, and never crashes
 * (src/cupti/cupti_session.h). Skips, saying so, where a device answers.
 * The trial logic of fb_cupti_session_open runs here too, with the device steps replaced by
 * fakes that answer as a sandbox does (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, a library that did
 * not load): a refused part is off with CUPTI's own text, the other part carries on, each
 * trial runs once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include <cupti.h>

#include "common/cuda_check.h"
#include "cupti/cupti_check.h"
#include "cupti/cupti_internal.h"
#include "cupti/cupti_session.h"
#include "cupti_driverless.h"

static bool device_answers(void)
{
    int count = 0;
    return fb_cuda_device_count(&count, NULL) == FB_OK;
}

static void open_reports_unavailable_because_no_device_answers(void **state)
{
    (void)state;
    if (device_answers()) {
        printf("skip: a CUDA device answers here; this test is for machines without one\n");
        skip();
    }
    struct fb_cupti_session *c = (struct fb_cupti_session *)&c; /* must be overwritten with NULL */
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_session_open(&c, 0, true, true, &err), FB_ERR_UNAVAILABLE);
    assert_null(c);
    assert_non_null(strstr(err.msg, "no CUDA device answers"));
    printf("reason: %s\n", err.msg);
    fb_cupti_session_close(c); /* closing NULL is fine */
}

static void activity_only_is_unavailable_too(void **state)
{
    (void)state;
    if (device_answers()) {
        printf("skip: a CUDA device answers here; this test is for machines without one\n");
        skip();
    }
    struct fb_cupti_session *c = NULL;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_session_open(&c, 0, true, false, &err), FB_ERR_UNAVAILABLE);
    assert_null(c);
    assert_non_null(strstr(err.msg, "no CUDA device answers"));
}

static void chip_name_asks_cuda_before_cupti(void **state)
{
    (void)state;
    if (device_answers()) {
        printf("skip: a CUDA device answers here; this test is for machines without one\n");
        skip();
    }
    /* cuptiDeviceGetChipName would segfault here; reaching the asserts is the test. */
    char chip[64] = "untouched";
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_chip_name(0, chip, sizeof(chip), &err), FB_ERR_UNAVAILABLE);
    assert_string_equal(chip, "");
    assert_non_null(strstr(err.msg, "no CUDA device answers"));
}

static void a_closed_handle_has_no_parts(void **state)
{
    (void)state;
    const char *reason = NULL;
    assert_false(fb_cupti_session_available(NULL, FB_CUPTI_ACTIVITY, &reason));
    assert_non_null(reason);
    assert_true(strlen(reason) > 0);
    assert_false(fb_cupti_session_available(NULL, FB_CUPTI_COUNTERS, NULL));
}

/* Fakes for fb_cupti_session_open_steps: a device that answers, and parts that answer as told. */
static CUptiResult activity_answer, counters_answer;
static int activity_trials, counters_trials;

static int fake_device(int device, struct fb_error *err)
{
    (void)device, (void)err;
    return FB_OK;
}
static int fake_context(struct fb_cupti_session *c, struct fb_error *err)
{
    (void)err;
    c->cu_context = NULL;
    return FB_OK;
}
static int fake_activity(struct fb_cupti_session *c, struct fb_error *err)
{
    (void)c;
    activity_trials++;
    return FB_CUPTI_CALL(activity_answer, err);
}
static int fake_counters(struct fb_cupti_session *c, struct fb_error *err)
{
    (void)c;
    counters_trials++;
    /* the call the real trial makes last */
    return fb_cupti_check(counters_answer, "cuptiRangeProfilerEnable(&en)", "cupti_counters.c",
                          42, err);
}
static const struct fb_cupti_setup_steps fake_steps = {fake_device, fake_context, fake_activity,
                                                       fake_counters};

static const char *result_name(CUptiResult r)
{
    const char *name = NULL;
    assert_int_equal(cuptiGetResultString(r, &name), CUPTI_SUCCESS);
    assert_non_null(name);
    return name;
}

static void refused_counters_leave_activity_on_with_cuptis_own_text(void **state)
{
    (void)state;
    if (!fb_test_cupti_answers())
        skip();
    activity_answer = CUPTI_SUCCESS;
    counters_answer = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    activity_trials = counters_trials = 0;
    struct fb_cupti_session *c = NULL;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_session_open_steps(&c, 0, true, true, &fake_steps, &err), FB_OK);
    assert_non_null(c);
    assert_int_equal(activity_trials, 1);
    assert_int_equal(counters_trials, 1);
    const char *why = NULL;
    assert_true(fb_cupti_session_available(c, FB_CUPTI_ACTIVITY, &why));
    assert_string_equal(why, "");
    assert_false(fb_cupti_session_available(c, FB_CUPTI_COUNTERS, &why));
    printf("counters reason: %s\n", why);
    assert_non_null(strstr(why, result_name(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)));
    assert_non_null(strstr(why, "cuptiRangeProfilerEnable"));
    assert_non_null(strstr(why, "administrators")); /* the hint: what to do about it */
    fb_cupti_session_close(c);
}

static void a_part_that_fails_any_other_way_is_off_too(void **state)
{
    (void)state;
    if (!fb_test_cupti_answers())
        skip();
    /* A profiler library that did not load surfaces as a CUPTI error that is not one of the
     * "not supported" family: still a part that is off, not an open that fails. */
    activity_answer = CUPTI_SUCCESS;
    counters_answer = CUPTI_ERROR_UNKNOWN;
    struct fb_cupti_session *c = NULL;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_session_open_steps(&c, 0, true, true, &fake_steps, &err), FB_OK);
    const char *why = NULL;
    assert_false(fb_cupti_session_available(c, FB_CUPTI_COUNTERS, &why));
    assert_non_null(strstr(why, result_name(CUPTI_ERROR_UNKNOWN)));
    fb_cupti_session_close(c);
}

static void both_parts_refused_is_unavailable_with_both_reasons(void **state)
{
    (void)state;
    if (!fb_test_cupti_answers())
        skip();
    activity_answer = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    counters_answer = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    struct fb_cupti_session *c = (struct fb_cupti_session *)&c;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_session_open_steps(&c, 0, true, true, &fake_steps, &err),
                     FB_ERR_UNAVAILABLE);
    assert_null(c);
    printf("reason: %s\n", err.msg);
    assert_non_null(strstr(err.msg, result_name(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)));
    assert_non_null(strstr(err.msg, result_name(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)));
}

static void a_part_not_requested_is_never_tried(void **state)
{
    (void)state;
    activity_answer = CUPTI_SUCCESS;
    counters_answer = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    activity_trials = counters_trials = 0;
    struct fb_cupti_session *c = NULL;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_session_open_steps(&c, 0, true, false, &fake_steps, &err), FB_OK);
    assert_int_equal(counters_trials, 0);
    const char *why = NULL;
    assert_false(fb_cupti_session_available(c, FB_CUPTI_COUNTERS, &why));
    assert_string_equal(why, "counters were not requested");
    fb_cupti_session_close(c);
}

static void refusals_map_to_unavailable_and_the_rest_to_runtime(void **state)
{
    (void)state;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_check(CUPTI_SUCCESS, "x", "f.c", 1, &err), FB_OK);
    assert_int_equal(fb_cupti_check(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "x", "f.c", 1, &err),
                     FB_ERR_UNAVAILABLE);
    assert_int_equal(fb_cupti_check(CUPTI_ERROR_NOT_SUPPORTED, "x", "f.c", 1, &err),
                     FB_ERR_UNAVAILABLE);
    assert_int_equal(fb_cupti_check(CUPTI_ERROR_UNKNOWN, "cuptiX(&p)", "f.c", 7, &err),
                     FB_ERR_RUNTIME);
    assert_non_null(strstr(err.msg, "cuptiX(&p) (f.c:7): "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(open_reports_unavailable_because_no_device_answers),
        cmocka_unit_test(activity_only_is_unavailable_too),
        cmocka_unit_test(chip_name_asks_cuda_before_cupti),
        cmocka_unit_test(a_closed_handle_has_no_parts),
        cmocka_unit_test(refused_counters_leave_activity_on_with_cuptis_own_text),
        cmocka_unit_test(a_part_that_fails_any_other_way_is_off_too),
        cmocka_unit_test(both_parts_refused_is_unavailable_with_both_reasons),
        cmocka_unit_test(a_part_not_requested_is_never_tried),
        cmocka_unit_test(refusals_map_to_unavailable_and_the_rest_to_runtime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
