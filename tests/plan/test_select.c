/* The [sweep] variants list resolved by plan: names checked against the built-ins and the
 * chains' variants, today's message for an unknown one (file line or --variants), and the
 * built-in names config protects kept equal to plan's table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "config_fixture.h"
#include "plan/select.h"
#include "plan/variants.h"

static struct fb_config cfg;
static struct fixture_result res;
static struct fb_error err;

/* Loads text (which must be a valid config) and checks its variants list. */
static int load_and_check(const char *text)
{
    fixture_load(text, &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    return fb_plan_check_variants(&cfg, &err);
}

static void test_unknown_variant_in_the_file_names_line_and_nearest(void **state)
{
    (void)state;
    assert_int_equal(load_and_check("[sweep]\nvariants = copy, fused_add_rel\n"), FB_ERR_USAGE);
    /* today's message: every built-in variant, in the plan's order */
    char want[1200];
    int len = snprintf(want, sizeof want, "%s:2: [sweep] variants: unknown variant "
                       "\"fused_add_rel\" (did you mean \"fused_add_relu\"?); known:", res.path);
    for (size_t i = 0; i < fb_variant_count; i++)
        len += snprintf(want + len, sizeof want - (size_t)len, " %s", fb_variants[i].name);
    snprintf(want + len, sizeof want - (size_t)len, ", or all");
    assert_string_equal(err.msg, want);
    assert_non_null(strstr(err.msg, "known: copy eager_add_relu eager_add_threshold "
                                    "fused_add_relu memcpy"));
}

static void test_every_unknown_variant_is_named(void **state)
{
    (void)state;
    assert_int_equal(load_and_check("[sweep]\nvariants = cpy, eagr_add_relu\n"), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "unknown variant \"cpy\" (did you mean \"copy\"?); "
                                    "unknown variant \"eagr_add_relu\""));
}

static void test_clipped_variant_name_gets_a_suggestion(void **state)
{
    (void)state;
    assert_int_equal(load_and_check("[sweep]\nvariants = fused\n"), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "unknown variant \"fused\" (did you mean \"fused_add_relu\"?)"));
}

static void test_chain_variants_can_be_selected(void **state)
{
    (void)state;
    assert_int_equal(load_and_check("[sweep]\nvariants = copy, fused_mbr, eager_mbr\n"
                                    "[chain mbr]\nops = mul, bias(0.5), relu\n"),
                     FB_OK);
    const char *names[64];
    char storage[64][FB_VARIANT_NAME_CHARS];
    size_t n = fb_plan_variant_names(&cfg, names, storage, 64);
    assert_int_equal(n, fb_variant_count + 2);
    assert_string_equal(names[fb_variant_count], "eager_mbr");
    assert_string_equal(names[fb_variant_count + 1], "fused_mbr");
    bool enabled[64];
    assert_int_equal(fb_plan_select_variants(&cfg, names, n, enabled, &err), FB_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(enabled[i], strcmp(names[i], "copy") == 0 ||
                                     strcmp(names[i], "eager_mbr") == 0 ||
                                     strcmp(names[i], "fused_mbr") == 0);
}

static void test_unknown_chain_variant_lists_the_chain_variants(void **state)
{
    (void)state;
    assert_int_equal(load_and_check("[chain mbr]\nops = mul, relu\n"
                                    "[sweep]\nvariants = fused_mrb\n"),
                     FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, ":4: [sweep] variants: unknown variant \"fused_mrb\" "
                                    "(did you mean \"fused_mbr\"?)"));
    assert_non_null(strstr(err.msg, " eager_mbr fused_mbr, or all")); /* after the built-ins */
}

static void test_all_selects_every_variant(void **state)
{
    (void)state;
    assert_int_equal(load_and_check("[chain c]\nops = relu\n"), FB_OK);
    const char *names[] = {"copy", "eager_c", "fused_c"};
    bool enabled[3] = {false, false, false};
    assert_int_equal(fb_plan_select_variants(&cfg, names, 3, enabled, &err), FB_OK);
    assert_true(enabled[0] && enabled[1] && enabled[2]);
    assert_true(fb_plan_variant_selected(&cfg, "anything"));
}

static void test_override_errors_name_the_option(void **state)
{
    (void)state;
    fb_config_defaults(&cfg);
    assert_int_equal(fb_config_override(&cfg, "variants", "fused_add_rleu", &err), FB_OK);
    assert_int_equal(fb_plan_check_variants(&cfg, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--variants: unknown variant \"fused_add_rleu\" (did you "
                                    "mean \"fused_add_relu\"?)"));
}

static void test_control_bytes_in_names_are_escaped(void **state)
{
    (void)state;
    fb_config_defaults(&cfg);
    assert_int_equal(fb_config_override(&cfg, "variants", "co\x1b]0;x\x07py", &err), FB_OK);
    assert_int_equal(fb_plan_check_variants(&cfg, &err), FB_ERR_USAGE);
    assert_null(strchr(err.msg, '\x1b'));
    assert_null(strchr(err.msg, '\x07'));
    assert_non_null(strstr(err.msg, "\\x1B"));
}

static void test_built_in_names_config_protects_match_plans_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < fb_variant_count; i++) {
        size_t k = 0;
        while (k < fb_builtin_variant_name_count &&
               strcmp(fb_builtin_variant_names[k], fb_variants[i].name) != 0)
            k++;
        if (k == fb_builtin_variant_name_count)
            fail_msg("plan's built-in variant %s is not in fb_builtin_variant_names "
                     "(src/config/chain.c)", fb_variants[i].name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_variant_in_the_file_names_line_and_nearest),
        cmocka_unit_test(test_every_unknown_variant_is_named),
        cmocka_unit_test(test_clipped_variant_name_gets_a_suggestion),
        cmocka_unit_test(test_chain_variants_can_be_selected),
        cmocka_unit_test(test_unknown_chain_variant_lists_the_chain_variants),
        cmocka_unit_test(test_all_selects_every_variant),
        cmocka_unit_test(test_override_errors_name_the_option),
        cmocka_unit_test(test_control_bytes_in_names_are_escaped),
        cmocka_unit_test(test_built_in_names_config_protects_match_plans_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
