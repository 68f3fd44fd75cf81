/* chart/identity.h: one style per variant, from one table, in words. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart/identity.h"
#include "plan/variants.h"

/* Okabe-Ito, written here apart from the code under test (yellow left out there). */
static bool okabe_ito(unsigned c)
{
    static const unsigned colours[] = {0x000000, 0xE69F00, 0x56B4E9, 0x009E73, 0x0072B2,
                                       0xD55E00, 0xCC79A7, 0x999999};
    for (size_t i = 0; i < sizeof colours / sizeof colours[0]; i++)
        if (colours[i] == c)
            return true;
    return false;
}

static const char *const builtins_and_peer[] = {
    "copy", "memcpy", "eager_add_relu", "eager_add_threshold", "eager_add_relu_graph",
    "fused_add_relu", "fused_generic_add_relu", "torch_eager_add_relu",
    "torch_eager_add_relu_out", "torch_eager_threshold", "torch_compile_add_relu",
    "torch_compile_out"};
#define N_NAMED (sizeof builtins_and_peer / sizeof builtins_and_peer[0])

static void test_every_builtin_variant_has_an_entry_of_its_own(void **state)
{
    (void)state;
    /* the plan's built-ins all have a fixed entry (a new built-in must get one) */
    for (size_t i = 0; i < fb_variant_count; i++) {
        bool listed = false;
        for (size_t k = 0; k < N_NAMED; k++)
            listed |= strcmp(fb_variants[i].name, builtins_and_peer[k]) == 0;
        if (!listed)
            fail_msg("built-in %s has no entry in this test's list", fb_variants[i].name);
    }
    /* no two drawn alike: colour, marker and dash together differ; ours differ in colour
     * and marker alone, since they share charts without overlays */
    for (size_t i = 0; i < N_NAMED; i++) {
        struct fb_chart_identity a = fb_chart_identity_of(builtins_and_peer[i]);
        assert_true(okabe_ito(a.colour));
        assert_true(a.point_type >= 5 && a.point_type <= 15 && a.point_type % 2 == 1);
        for (size_t k = 0; k < i; k++) {
            struct fb_chart_identity b = fb_chart_identity_of(builtins_and_peer[k]);
            if (a.colour == b.colour && a.point_type == b.point_type && a.dash == b.dash)
                fail_msg("%s and %s are drawn alike", builtins_and_peer[i],
                         builtins_and_peer[k]);
            if (i < 7 && k < 7 && a.colour == b.colour && a.point_type == b.point_type)
                fail_msg("%s and %s share colour and marker", builtins_and_peer[i],
                         builtins_and_peer[k]);
        }
    }
}

static void test_a_chain_keeps_its_style_whatever_else_there_is(void **state)
{
    (void)state;
    /* a pure function of the name: asked in any order, twice, the same */
    struct fb_chart_identity e1 = fb_chart_identity_of("eager_my_chain");
    (void)fb_chart_identity_of("eager_other");
    (void)fb_chart_identity_of("fused_add_relu");
    struct fb_chart_identity e2 = fb_chart_identity_of("eager_my_chain");
    assert_memory_equal(&e1, &e2, sizeof e1);
    /* its two sides: one colour, two markers, two dashes */
    struct fb_chart_identity f = fb_chart_identity_of("fused_my_chain");
    assert_int_equal(e1.colour, f.colour);
    assert_int_not_equal(e1.point_type, f.point_type);
    assert_int_not_equal(e1.dash, f.dash);
    assert_true(okabe_ito(e1.colour));
    assert_int_not_equal(e1.colour, 0x000000); /* black and grey are the references' */
    assert_int_not_equal(e1.colour, 0x999999);
    /* names spread over the entries: 40 chains take more than 6 styles */
    unsigned seen[64];
    size_t n_seen = 0;
    for (int i = 0; i < 40; i++) {
        char name[32];
        snprintf(name, sizeof name, "eager_c%d", i);
        struct fb_chart_identity id = fb_chart_identity_of(name);
        unsigned key = id.colour ^ (unsigned)id.point_type << 24;
        bool known = false;
        for (size_t k = 0; k < n_seen; k++)
            known |= seen[k] == key;
        if (!known)
            seen[n_seen++] = key;
    }
    assert_true(n_seen > 6);
}

static void test_an_overlay_or_another_format_opens_the_marker(void **state)
{
    (void)state;
    struct fb_chart_identity own = fb_chart_identity_form("eager_add_relu", false, "");
    struct fb_chart_identity plain = fb_chart_identity_of("eager_add_relu");
    assert_memory_equal(&own, &plain, sizeof own);
    struct fb_chart_identity over = fb_chart_identity_form("eager_add_relu", true, "");
    assert_int_equal(over.colour, plain.colour);
    assert_int_equal(over.point_type, plain.point_type - 1);
    assert_int_equal(over.dash, 2);
    struct fb_chart_identity streaming = fb_chart_identity_form("eager_add_relu", false,
                                                                "-streaming");
    struct fb_chart_identity half = fb_chart_identity_form("eager_add_relu", false, "-fp16");
    struct fb_chart_identity cold = fb_chart_identity_form("eager_add_relu", false, "-cold");
    assert_int_not_equal(streaming.dash, plain.dash);
    assert_int_not_equal(streaming.dash, half.dash);
    assert_int_not_equal(half.dash, cold.dash);
    assert_int_not_equal(streaming.dash, cold.dash);
}

/* issue 33: a dtype run's summary drew fp32, fp16 and bf16 of one variant in one colour,
 * told apart by dash alone */
static void test_dtypes_differ_in_colour_and_marker(void **state)
{
    (void)state;
    const char *variants[] = {"eager_add_relu", "fused_add_relu"};
    unsigned colours[6];
    for (size_t v = 0; v < 2; v++) {
        struct fb_chart_identity fp32 = fb_chart_identity_form(variants[v], false, "");
        struct fb_chart_identity fp16 = fb_chart_identity_form(variants[v], false, "-fp16");
        struct fb_chart_identity bf16 = fb_chart_identity_form(variants[v], false, "-bf16");
        assert_int_not_equal(fp16.point_type, fp32.point_type);
        assert_int_not_equal(bf16.point_type, fp32.point_type);
        assert_int_not_equal(bf16.point_type, fp16.point_type);
        colours[3 * v] = fp32.colour;
        colours[3 * v + 1] = fp16.colour;
        colours[3 * v + 2] = bf16.colour;
    }
    /* eager and fused in three dtypes: six colours */
    for (size_t i = 0; i < 6; i++)
        for (size_t k = i + 1; k < 6; k++)
            assert_int_not_equal(colours[i], colours[k]);
}

static const char *words(const char *variant, const char *role, const char *ops,
                         const char *form, double launches, double host)
{
    static char out[256];
    return fb_chart_identity_words(out, sizeof out, variant, role, ops, form, launches, host);
}

static void test_labels_are_words_with_the_counted_kernels(void **state)
{
    (void)state;
    assert_string_equal(words("eager_add_relu", "eager", NULL, "", 2, 2),
                        "eager: add, relu (2 kernels)");
    assert_string_equal(words("fused_add_relu", "fused", NULL, "", 1, 1),
                        "fused: add+relu (1 kernel)");
    assert_string_equal(words("eager_add_relu_graph", "eager", NULL, "", 2, 1),
                        "eager graph: add, relu (2 kernels, 1 launch)");
    assert_string_equal(words("memcpy", "platform_reference", NULL, "", 0, 0),
                        "memcpy: the platform's copy (no kernel of ours)");
    /* the count is the file's, not the table's: a kernel that ran 3 times says 3 */
    assert_string_equal(words("eager_add_relu", "eager", NULL, "", 3, 3),
                        "eager: add, relu (3 kernels)");
    /* a chain: its ops when known, else its name; the form in words */
    assert_string_equal(words("eager_k4", "eager", "add, relu, scale(0.5), bias(0.25)",
                              "-fp16-streaming", 4, 4),
                        "eager k4: add, relu, scale(0.5), bias(0.25) (4 kernels), fp16, "
                        "streaming stores");
    assert_string_equal(words("fused_k4", "fused", NULL, "-cold", 1, 1),
                        "fused k4 (1 kernel), cold cache");
    /* a long chain's ops are cut after an op; its kernels say how many */
    assert_string_equal(words("eager_k8", "eager", "add, relu, scale(0.5), bias(0.25), "
                              "threshold(0.3, 0), relu, scale(2)", "", 7, 7),
                        "eager k8: add, relu, scale(0.5), bias(0.25), \xE2\x80\xA6 (7 kernels)");
    /* unknown counts are left out, not guessed */
    assert_string_equal(words("torch_compile_add_relu", "fused", NULL, "", NAN, NAN),
                        "torch.compile: add+relu");
    assert_string_equal(words("mystery", "", NULL, "", NAN, NAN), "mystery");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_builtin_variant_has_an_entry_of_its_own),
        cmocka_unit_test(test_a_chain_keeps_its_style_whatever_else_there_is),
        cmocka_unit_test(test_an_overlay_or_another_format_opens_the_marker),
        cmocka_unit_test(test_dtypes_differ_in_colour_and_marker),
        cmocka_unit_test(test_labels_are_words_with_the_counted_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
