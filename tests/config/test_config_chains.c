/* [chain NAME] sections: good chains parsed into cfg->chains in file order, and every kind of
 * malformed chain reported as "path:line: [chain NAME] ops: message" (exit 2 in main), all
 * at once with the file's other errors; chains longer than a line, written on over
 * "ops += ..." lines, and a line over the limit reported once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "op_table.h"
#include "config_fixture.h"

static struct fb_config cfg;
static struct fixture_result res;

/* Loads text and expects exactly one problem, on `line`, containing `fragment`. */
static void expect_one_error(const char *text, int line, const char *fragment)
{
    fixture_load(text, &cfg, &res);
    assert_int_equal(res.rc, FB_ERR_USAGE);
    assert_int_equal(res.diag_lines, 1);
    assert_true(fixture_line_contains(&res, line, fragment));
}

static void test_chains_are_parsed_in_file_order(void **state)
{
    (void)state;
    fixture_load("[sweep]\nsizes = 8\n"
                 "[chain mul_bias_relu]\n"        /* 3 */
                 "ops = mul, bias(0.5), relu\n"   /* 4 */
                 "\n"
                 "[chain  add_gelu]\n"            /* 6: blanks after "chain" */
                 "ops=add,gelu ; inline comment\n"/* 7 */
                 "[chain t2 ]\n"                  /* 8: blanks before ']' */
                 "  ops =  threshold( -1.5e0 ,2 ) ,scale(2),sigmoid  \n",
                 &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(res.diag_lines, 0);
    assert_int_equal(cfg.n_chains, 3);

    const struct fb_config_chain *c = &cfg.chains[0];
    assert_string_equal(c->name, "mul_bias_relu");
    assert_int_equal(c->line, 4);
    assert_int_equal(c->chain.n_ops, 3);
    assert_int_equal(c->chain.ops[0].op, FB_OPID_mul);
    assert_int_equal(c->chain.ops[1].op, FB_OPID_bias);
    assert_true(c->chain.ops[1].params.v[0] == 0.5f);
    assert_int_equal(c->chain.ops[2].op, FB_OPID_relu);

    c = &cfg.chains[1];
    assert_string_equal(c->name, "add_gelu");
    assert_int_equal(c->line, 7);
    assert_int_equal(c->chain.n_ops, 2);
    assert_int_equal(c->chain.ops[0].op, FB_OPID_add);
    assert_int_equal(c->chain.ops[1].op, FB_OPID_gelu);

    c = &cfg.chains[2];
    assert_string_equal(c->name, "t2");
    assert_int_equal(c->chain.n_ops, 3);
    assert_int_equal(c->chain.ops[0].op, FB_OPID_threshold);
    assert_true(c->chain.ops[0].params.v[0] == -1.5f);
    assert_true(c->chain.ops[0].params.v[1] == 2.0f);
    assert_int_equal(c->chain.ops[1].op, FB_OPID_scale);
    assert_true(c->chain.ops[1].params.v[0] == 2.0f);
    assert_int_equal(c->chain.ops[2].op, FB_OPID_sigmoid);
}

static void test_a_chain_may_start_unary_and_hold_the_most_ops(void **state)
{
    (void)state;
    char text[400] = "[chain long]\nops = scale(3)";
    for (int i = 1; i < FB_CHAIN_MAX_OPS; i++)
        strcat(text, ", relu");
    strcat(text, "\n");
    fixture_load(text, &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.chains[0].chain.n_ops, FB_CHAIN_MAX_OPS);
    assert_int_equal(cfg.chains[0].chain.ops[0].op, FB_OPID_scale);
}

/* 16 parameterised ops (~300 characters: more than a line may hold) over four lines. */
static void test_a_long_chain_goes_on_in_ops_plus_lines(void **state)
{
    (void)state;
    /* ops 1-5 after add on the "ops =" line, 6-10 and 11-15 on "ops +=" lines */
    char text[1024] = "[chain t]\nops = add";
    const char *starts[] = {", ", "\nops += ", "\n  ops+=\t"};
    for (int op = 1; op < FB_CHAIN_MAX_OPS; op++)
        sprintf(text + strlen(text), "%sthreshold(0.%d, -%d)",
                (op - 1) % 5 ? ", " : starts[(op - 1) / 5], op % 10, op);
    strcat(text, "\n");
    fixture_load(text, &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(res.diag_lines, 0);
    const struct fb_config_chain *c = &cfg.chains[0];
    assert_int_equal(c->line, 2); /* the "ops =" line */
    assert_int_equal(c->chain.n_ops, FB_CHAIN_MAX_OPS);
    assert_int_equal(c->chain.ops[0].op, FB_OPID_add);
    for (int op = 1; op < FB_CHAIN_MAX_OPS; op++) {
        assert_int_equal(c->chain.ops[op].op, FB_OPID_threshold);
        assert_true(c->chain.ops[op].params.v[0] == (float)(op % 10) / 10.0f);
        assert_true(c->chain.ops[op].params.v[1] == (float)-op);
    }
}

/* A line over the limit is one error, naming the line and the limit: not also the chain's
 * "missing ops", nor anything about the "ops +=" lines that continued it. */
static void test_an_over_long_line_is_one_error_naming_line_and_limit(void **state)
{
    (void)state;
    char text[1024] = "[sweep]\nsizes = 8\n[chain t]\nops = add";
    for (int op = 1; op < FB_CHAIN_MAX_OPS; op++)
        strcat(text, ", threshold(0.3, 0)");
    strcat(text, "\nops += relu\n[chain u]\nops = add\n");
    fixture_load(text, &cfg, &res);
    assert_int_equal(res.rc, FB_ERR_USAGE);
    assert_int_equal(res.diag_lines, 1);
    assert_true(fixture_line_contains(&res, 4, "characters long; a line may have at most 198"));
    assert_true(fixture_line_contains(&res, 4, "ops += "));
    assert_null(strstr(res.diag, "missing"));
}

/* The limit itself: 198 characters are read, 199 are not. */
static void test_the_line_limit_is_198_characters(void **state)
{
    (void)state;
    for (size_t len = FB_CONFIG_LINE_MAX - 1; len <= FB_CONFIG_LINE_MAX + 1; len++) {
        char text[512] = "[sweep]\nlabel = ";
        size_t at = strlen(text), body = len - strlen("label = ");
        memset(text + at, 'x', body);
        strcpy(text + at + body, "\n");
        fixture_load(text, &cfg, &res);
        assert_int_equal(res.rc, len <= FB_CONFIG_LINE_MAX ? FB_OK : FB_ERR_USAGE);
        if (len <= FB_CONFIG_LINE_MAX)
            assert_int_equal(strlen(cfg.label), body);
        else
            assert_true(fixture_line_contains(&res, 2, "line is 199 characters long"));
    }
}

static void test_ops_plus_lines_are_checked_as_part_of_the_chain(void **state)
{
    (void)state;
    expect_one_error("[chain t]\nops += relu\n", 2, "[chain t] ops: \"ops +=\" continues a "
                     "list that \"ops = ...\" starts");
    expect_one_error("[chain t]\nops = add\nops += mul\n", 3,
                     "[chain t] ops: op 2, mul: only the first op may be binary");
    expect_one_error("[chain t]\nops = add, relu\nops += relu, bogus\n", 3,
                     "unknown op \"bogus\"");
    expect_one_error("[chain t]\nops = add, relu\nops += relu,\n", 3, "op 4 is empty");
    expect_one_error("[chain t]\nops = add, relu\nops +=\n", 3, "empty list");
    char text[512] = "[chain t]\nops = add, relu, relu, relu, relu, relu, relu, relu\n"
                     "ops += relu, relu, relu, relu, relu, relu, relu, relu\nops += relu\n";
    expect_one_error(text, 4, "more than 16 ops; a chain has at most 16");
    /* a refused list: the lines that continue it say nothing more */
    expect_one_error("[chain t]\nops = add, bogus\nops += relu\nops += relu\n", 2,
                     "unknown op \"bogus\"");
    /* "+=" elsewhere */
    expect_one_error("[sweep]\nsizes += 8\n", 2, "[sweep] sizes: \"+=\" continues only a "
                     "chain's ops");
    expect_one_error("[chain t]\nops = add\nopz += relu\n", 3, "unknown key");
}

static void test_shipped_chains_example_loads(void **state)
{
    (void)state;
    char path[1024];
    if (!fixture_source_path("configs/chains-example.ini", path, sizeof path))
        skip();
    struct fb_error err;
    assert_int_equal(fb_config_load(&cfg, path, stderr, &err), FB_OK);
    assert_true(cfg.n_chains >= 2);
    assert_string_equal(cfg.chains[0].name, "mul_bias_relu");
}

/* The list of ops the "unknown op" message ends with, written from the op table here (as a
 * reader of the table would write it: name, or name(param names)), so that adding an op
 * changes the expectation with the table and not by hand. */
static const char *ops_as_the_table_lists_them(void)
{
    static char list[512];
    size_t n = 0;
    list[0] = '\0';
#define FB_LIST_ONE_OP(name, arity, n_params, param_names, ulp)                                \
    n += (size_t)snprintf(list + n, sizeof list - n, "%s%s%s%s%s", n > 0 ? ", " : "", #name,    \
                          (n_params) > 0 ? "(" : "", param_names, (n_params) > 0 ? ")" : "");   \
    assert_true(n < sizeof list);
    FB_OP_TABLE(FB_LIST_ONE_OP)
#undef FB_LIST_ONE_OP
    return list;
}

static void test_unknown_op_suggests_the_nearest_and_lists_the_ops(void **state)
{
    (void)state;
    char expected[640];
    snprintf(expected, sizeof expected,
             "[chain c] ops: unknown op \"mull\" (did you mean \"mul\"?); ops: %s",
             ops_as_the_table_lists_them());
    expect_one_error("[chain c]\nops = mull, relu\n", 2, expected);
}

static void test_wrong_parameter_count_says_what_the_op_takes(void **state)
{
    (void)state;
    expect_one_error("[chain c]\nops = add, bias\n", 2,
                     "[chain c] ops: bias takes 1 parameter (offset), got 0: write bias(offset)");
    expect_one_error("[chain c]\nops = add, threshold(1)\n", 2,
                     "threshold takes 2 parameters (threshold, value), got 1");
    expect_one_error("[chain c]\nops = add, relu(1)\n", 2, "relu takes no parameters, got 1");
    expect_one_error("[chain c]\nops = add, scale(1, 2, 3)\n", 2,
                     "scale takes 1 parameter (factor), got 3");
}

static void test_binary_op_after_the_first_is_refused(void **state)
{
    (void)state;
    expect_one_error("[chain c]\nops = relu, mul\n", 2,
                     "[chain c] ops: op 2, mul: only the first op may be binary (it reads a "
                     "and b)");
}

static void test_empty_lists_and_items_are_refused(void **state)
{
    (void)state;
    expect_one_error("[chain c]\nops =\n", 2, "[chain c] ops: empty list");
    expect_one_error("[chain c]\nops = add,,relu\n", 2, "[chain c] ops: op 2 is empty");
    expect_one_error("[chain c]\nops = add, relu,\n", 2, "op 3 is empty");
    expect_one_error("[chain c]\nops = add, (1)\n", 2, "op 2: \"(1)\" has no op name");
}

static void test_too_many_ops_are_refused(void **state)
{
    (void)state;
    char text[400] = "[chain c]\nops = add";
    for (int i = 0; i < FB_CHAIN_MAX_OPS; i++)
        strcat(text, ", relu");
    strcat(text, "\n");
    expect_one_error(text, 2, "more than 16 ops; a chain has at most 16");
}

static void test_bad_parameters_are_refused_like_other_reals(void **state)
{
    (void)state;
    expect_one_error("[chain c]\nops = bias(x)\n", 2, "[chain c] ops: bias: \"x\" is not a number");
    expect_one_error("[chain c]\nops = bias(1e39)\n", 2, "bias: 1e+39 is out of range");
    expect_one_error("[chain c]\nops = scale(nan)\n", 2, "\"nan\" is not a number");
    expect_one_error("[chain c]\nops = scale(inf)\n", 2, "is out of range");
    expect_one_error("[chain c]\nops = threshold(1,)\n", 2, "empty parameter");
    expect_one_error("[chain c]\nops = bias(0.5\n", 2, "has no closing ')'");
    expect_one_error("[chain c]\nops = bias(0.5)x\n", 2, "has no closing ')' (or text after it)");
}

static void test_unknown_and_duplicate_keys_in_a_chain(void **state)
{
    (void)state;
    expect_one_error("[chain c]\nop = add\nops = add\n", 2,
                     "[chain c] op: unknown key; did you mean \"ops\"?");
    expect_one_error("[chain c]\nops = add\nsizes = 8\n", 3,
                     "[chain c] sizes: unknown key; a chain section has only \"ops\"");
    expect_one_error("[chain c]\nops = add\nops = mul\n", 3,
                     "[chain c] ops: duplicate key (first set on line 2)");
}

static void test_chain_names_are_checked(void **state)
{
    (void)state;
    expect_one_error("[chain c]\nops = add\n[chain c]\nops = mul\n", 3,
                     "[chain c] duplicate chain name (first defined on line 1)");
    expect_one_error("[chain Mul]\nops = mul\n", 1,
                     "[chain Mul] the name may hold lower-case letters, digits and '_' only");
    expect_one_error("[chain a-b]\nops = mul\n", 1, "lower-case letters, digits and '_' only");
    expect_one_error("[chain]\nops = mul\n", 1, "[chain] a chain needs a name: [chain NAME]");
    expect_one_error("[chain abcdefghijabcdefghijabcdefghij12]\nops = mul\n", 1,
                     "the name is 32 characters long; at most 31");
}

static void test_names_that_clash_with_built_in_variants_are_refused(void **state)
{
    (void)state;
    expect_one_error("[chain add_relu]\nops = add, relu\n", 1,
                     "[chain add_relu] the name is taken: its variant would be the built-in "
                     "eager_add_relu");
    expect_one_error("[chain add_threshold]\nops = add, relu\n", 1, "eager_add_threshold");
    expect_one_error("[chain generic_add_relu]\nops = add, relu\n", 1,
                     "fused_generic_add_relu");
    expect_one_error("[chain add_relu_graph]\nops = add, relu\n", 1, "eager_add_relu_graph");
    /* copy and memcpy have no eager_/fused_ prefix: a chain named copy is fine */
    fixture_load("[chain copy]\nops = copy\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
}

static void test_chain_section_without_ops_is_an_error(void **state)
{
    (void)state;
    expect_one_error("[chain c]\n; nothing\n[sweep]\nsizes = 8\n", 1,
                     "[chain c] ops: missing: a chain section needs \"ops = op, op, ...\"");
    expect_one_error("[sweep]\nsizes = 8\n[chain last]\n", 3, "[chain last] ops: missing");
}

static void test_more_chains_than_the_limit_are_refused(void **state)
{
    (void)state;
    char text[2000] = "";
    for (int i = 0; i <= FB_MAX_CHAINS; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "[chain c%d]\nops = relu\n",
                 i);
    expect_one_error(text, 2 * FB_MAX_CHAINS + 1,
                     "[chain c16] too many chains: at most 16");
}

static void test_misspelt_chain_section_gets_a_suggestion(void **state)
{
    (void)state;
    expect_one_error("[chian c]\nops = add\n", 1, "unknown section; did you mean [chain c]?");
}

static void test_chain_errors_come_with_the_other_errors_in_line_order(void **state)
{
    (void)state;
    fixture_load("[sweep]\n"
                 "sizes = 8..1X\n"            /* 2 */
                 "[chain a]\n"
                 "ops = add, mull\n"          /* 4 */
                 "[measure]\n"
                 "warmup = -1\n"              /* 6 */
                 "[chain b]\n"
                 "ops = relu, add\n",         /* 8 */
                 &cfg, &res);
    assert_int_equal(res.rc, FB_ERR_USAGE);
    assert_int_equal(res.diag_lines, 4);
    assert_true(fixture_line_contains(&res, 2, "[sweep] sizes:"));
    assert_true(fixture_line_contains(&res, 4, "[chain a] ops: unknown op \"mull\""));
    assert_true(fixture_line_contains(&res, 6, "[measure] warmup:"));
    assert_true(fixture_line_contains(&res, 8, "[chain b] ops: op 2, add: only the first"));
    const char *at4 = strstr(res.diag, ":4: "), *at6 = strstr(res.diag, ":6: ");
    assert_non_null(at4);
    assert_non_null(at6);
    assert_true(at4 < at6);
}

static void test_chains_cannot_be_set_on_the_command_line(void **state)
{
    (void)state;
    struct fb_error err;
    fb_config_defaults(&cfg);
    assert_int_equal(fb_config_override(&cfg, "ops", "add, relu", &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--ops: unknown option"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chains_are_parsed_in_file_order),
        cmocka_unit_test(test_a_chain_may_start_unary_and_hold_the_most_ops),
        cmocka_unit_test(test_shipped_chains_example_loads),
        cmocka_unit_test(test_unknown_op_suggests_the_nearest_and_lists_the_ops),
        cmocka_unit_test(test_wrong_parameter_count_says_what_the_op_takes),
        cmocka_unit_test(test_binary_op_after_the_first_is_refused),
        cmocka_unit_test(test_empty_lists_and_items_are_refused),
        cmocka_unit_test(test_too_many_ops_are_refused),
        cmocka_unit_test(test_bad_parameters_are_refused_like_other_reals),
        cmocka_unit_test(test_unknown_and_duplicate_keys_in_a_chain),
        cmocka_unit_test(test_chain_names_are_checked),
        cmocka_unit_test(test_names_that_clash_with_built_in_variants_are_refused),
        cmocka_unit_test(test_chain_section_without_ops_is_an_error),
        cmocka_unit_test(test_more_chains_than_the_limit_are_refused),
        cmocka_unit_test(test_misspelt_chain_section_gets_a_suggestion),
        cmocka_unit_test(test_chain_errors_come_with_the_other_errors_in_line_order),
        cmocka_unit_test(test_chains_cannot_be_set_on_the_command_line),
        cmocka_unit_test(test_a_long_chain_goes_on_in_ops_plus_lines),
        cmocka_unit_test(test_an_over_long_line_is_one_error_naming_line_and_limit),
        cmocka_unit_test(test_the_line_limit_is_198_characters),
        cmocka_unit_test(test_ops_plus_lines_are_checked_as_part_of_the_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
