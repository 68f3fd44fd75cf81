/* Edit distance and the nearest-name rule behind every "did you mean" message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "config/suggest.h"

static void test_edit_distance_counts_single_edits(void **state)
{
    (void)state;
    assert_int_equal(cfg_edit_distance("max_reps", "max_reps"), 0);
    assert_int_equal(cfg_edit_distance("max_rep", "max_reps"), 1);    /* insertion */
    assert_int_equal(cfg_edit_distance("max_repss", "max_reps"), 1);  /* deletion */
    assert_int_equal(cfg_edit_distance("max_teps", "max_reps"), 1);   /* substitution */
    assert_int_equal(cfg_edit_distance("", "abc"), 3);
    assert_int_equal(cfg_edit_distance("kitten", "sitting"), 3);
}

static void test_edit_distance_ignores_case(void **state)
{
    (void)state;
    assert_int_equal(cfg_edit_distance("Sizes", "sizes"), 0);
}

static void test_suggest_picks_the_nearest_candidate(void **state)
{
    (void)state;
    const char *const names[] = {"min_reps", "max_reps", "min_time", "max_time"};
    assert_string_equal(cfg_suggest("max_time_s", names, 4), "max_time");
    assert_string_equal(cfg_suggest("minreps", names, 4), "min_reps");
}

static void test_suggest_offers_nothing_for_unrelated_words(void **state)
{
    (void)state;
    const char *const names[] = {"sweep", "backend", "measure", "cupti", "output"};
    assert_null(cfg_suggest("plotting", names, 5));
    assert_null(cfg_suggest("zzzzzzzzzz", names, 5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edit_distance_counts_single_edits),
        cmocka_unit_test(test_edit_distance_ignores_case),
        cmocka_unit_test(test_suggest_picks_the_nearest_candidate),
        cmocka_unit_test(test_suggest_offers_nothing_for_unrelated_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
