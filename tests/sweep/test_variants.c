/* The variants (src/plan/variants.h): the built-ins' written-out figures agree with the
 * derivation from their steps; a config chain gives eager_NAME (one step per op, the
 * temporaries ping-pong, launches = ops, elements = sum of (arity + 1)) and fused_NAME (one
 * generic step, launches 1, elements = inputs + 1), with pair and role; malformed chains and
 * reserved names are refused with the chain's file and line; the variants key's names are
 * indexed like the set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "plan/plan.h"
#include "plan/select.h"
#include "plan/variants.h"

static struct fb_config cfg;

static void add_chain(const char *name, int line, int n_ops, const enum fb_op_id *ops)
{
    struct fb_config_chain *cc = &cfg.chains[cfg.n_chains++];
    memset(cc, 0, sizeof *cc);
    snprintf(cc->name, sizeof cc->name, "%s", name);
    cc->line = line;
    cc->chain.n_ops = n_ops;
    for (int k = 0; k < n_ops; k++) {
        cc->chain.ops[k].op = ops[k];
        cc->chain.ops[k].params.v[0] = 0.25f * (float)(k + 1);
    }
}

static int setup(void **state)
{
    (void)state;
    fb_config_defaults(&cfg);
    snprintf(cfg.path, sizeof cfg.path, "configs/x.ini");
    return 0;
}

static void builtins_agree_with_the_derivation_from_their_steps(void **state)
{
    (void)state;
    struct fb_variant_set *set = malloc(sizeof *set);
    struct fb_error err;
    assert_int_equal(fb_variant_set_build(&cfg, set, &err), FB_OK);
    assert_int_equal(set->count, fb_variant_count);
    for (size_t i = 0; i < fb_variant_count; i++) {
        assert_string_equal(set->v[i].name, fb_variants[i].name);
        assert_int_equal(set->v[i].elements_moved, fb_variants[i].elements_moved);
        assert_int_equal(set->v[i].launches, fb_variants[i].launches);
        assert_int_equal(set->v[i].host_launches, fb_variants[i].host_launches);
        assert_int_equal(set->v[i].one_launch, fb_variants[i].one_launch);
    }
    /* eager_add_relu's steps as one launch: the same kernels and bytes, 1 host launch */
    const struct fb_variant *graph = fb_variant_find("eager_add_relu_graph");
    const struct fb_variant *eager = fb_variant_find("eager_add_relu");
    assert_non_null(graph);
    assert_true(graph->one_launch);
    assert_false(eager->one_launch);
    assert_int_equal(graph->role, FB_ROLE_EAGER);
    assert_string_equal(graph->pair, "fused_add_relu");
    assert_int_equal(graph->n_steps, eager->n_steps);
    assert_memory_equal(graph->steps, eager->steps, sizeof graph->steps);
    assert_int_equal(graph->launches, 2);
    assert_int_equal(graph->host_launches, 1);
    assert_int_equal(graph->elements_moved, 5);
    assert_int_equal(eager->host_launches, 2);
    assert_int_equal(fb_variant_find("memcpy")->host_launches, 0);
    /* names and behaviour kept; the generic twin of add_relu is paired by role, not place */
    assert_int_equal(fb_variant_find("copy")->role, FB_ROLE_COPY_CEILING);
    assert_int_equal(fb_variant_find("memcpy")->role, FB_ROLE_PLATFORM_REFERENCE);
    assert_string_equal(fb_variant_find("eager_add_relu")->pair, "fused_add_relu");
    assert_string_equal(fb_variant_find("eager_add_threshold")->pair, "fused_add_relu");
    assert_int_equal(fb_variant_find("fused_add_relu")->steps[0].kind, FB_STEP_ADD_RELU);
    const struct fb_variant *generic = fb_variant_find("fused_generic_add_relu");
    assert_non_null(generic);
    assert_int_equal(generic->role, FB_ROLE_FUSED);
    assert_int_equal(generic->steps[0].kind, FB_STEP_CHAIN);
    assert_int_equal(generic->steps[0].chain.n_ops, 2);
    free(set);
}

static void a_chain_gives_eager_and_fused_variants_with_derived_figures(void **state)
{
    (void)state;
    const enum fb_op_id binary_first[] = {FB_OPID_mul, FB_OPID_bias, FB_OPID_relu,
                                          FB_OPID_scale, FB_OPID_gelu};
    const enum fb_op_id unary_first[] = {FB_OPID_sigmoid};
    add_chain("five", 7, 5, binary_first);
    add_chain("one", 9, 1, unary_first);
    struct fb_variant_set *set = malloc(sizeof *set);
    struct fb_error err;
    assert_int_equal(fb_variant_set_build(&cfg, set, &err), FB_OK);
    assert_int_equal(set->count, fb_variant_count + 4);

    const struct fb_variant *eager = fb_variant_set_find(set, "eager_five");
    const struct fb_variant *fused = fb_variant_set_find(set, "fused_five");
    assert_ptr_equal(eager, &set->v[fb_variant_count]);
    assert_ptr_equal(fused, &set->v[fb_variant_count + 1]);
    assert_int_equal(eager->role, FB_ROLE_EAGER);
    assert_string_equal(eager->pair, "fused_five");
    assert_int_equal(fused->role, FB_ROLE_FUSED);
    assert_int_equal(eager->n_steps, 5);
    assert_int_equal(eager->launches, 5);
    assert_int_equal(eager->host_launches, 5); /* one launch per kernel */
    assert_false(eager->one_launch);
    assert_int_equal(eager->elements_moved, 3 + 2 * 4); /* (2 + 1) + 4 x (1 + 1) */
    assert_int_equal(fused->launches, 1);
    assert_int_equal(fused->elements_moved, 3);         /* a, b, c */
    /* eager: a, b -> tmp -> tmp2 -> tmp -> tmp2 -> c, no step reads what it writes */
    assert_int_equal(eager->steps[0].in0, FB_BUF_A);
    assert_int_equal(eager->steps[0].in1, FB_BUF_B);
    for (int s = 0; s < eager->n_steps; s++) {
        const struct fb_step *st = &eager->steps[s];
        assert_int_equal(st->kind, FB_STEP_OP);
        assert_int_equal(st->chain.n_ops, 1);
        assert_int_equal(st->chain.ops[0].op, binary_first[s]);
        assert_true(st->out != st->in0 && st->out != st->in1);
        if (s > 0) {
            assert_int_equal(st->in0, eager->steps[s - 1].out);
            assert_int_equal(st->in1, FB_BUF_NONE);
        }
    }
    assert_int_equal(eager->steps[4].out, FB_BUF_C);
    assert_true(fb_variant_uses_buffer(eager, FB_BUF_TMP2));
    assert_false(fb_variant_uses_buffer(fused, FB_BUF_TMP));
    assert_int_equal(fused->steps[0].kind, FB_STEP_CHAIN);
    assert_int_equal(fused->steps[0].chain.n_ops, 5);
    assert_int_equal(fb_variant_ulp_bound(fused), fb_op_infos[FB_OPID_gelu].ulp_bound);
    assert_int_equal(fb_variant_ulp_bound(eager), fb_op_infos[FB_OPID_gelu].ulp_bound);

    /* one unary op: eager is one kernel reading a, writing c (2); fused the same traffic */
    const struct fb_variant *e1 = fb_variant_set_find(set, "eager_one");
    const struct fb_variant *f1 = fb_variant_set_find(set, "fused_one");
    assert_int_equal(e1->elements_moved, 2);
    assert_int_equal(f1->elements_moved, 2);
    assert_int_equal(e1->steps[0].out, FB_BUF_C);
    assert_false(fb_variant_uses_buffer(f1, FB_BUF_B));

    /* the variants key's names, indexed as the set */
    char name[FB_VARIANT_NAME_MAX];
    for (size_t i = 0; i < set->count; i++) {
        assert_true(fb_variant_name_at(&cfg, i, name, sizeof name));
        assert_string_equal(name, set->v[i].name);
    }
    assert_false(fb_variant_name_at(&cfg, set->count, name, sizeof name));
    free(set);
}

static void malformed_chains_and_reserved_names_are_refused_with_file_and_line(void **state)
{
    (void)state;
    const enum fb_op_id late_binary[] = {FB_OPID_relu, FB_OPID_add};
    add_chain("late", 12, 2, late_binary);
    struct fb_variant_set *set = malloc(sizeof *set);
    struct fb_error err;
    assert_int_equal(fb_variant_set_build(&cfg, set, &err), FB_ERR_USAGE);
    assert_string_equal(err.msg, "configs/x.ini:12: [chain late] ops: op 2: add is binary; "
                                 "only the first op may be");
    cfg.n_chains = 0;
    const enum fb_op_id ok[] = {FB_OPID_add, FB_OPID_relu};
    add_chain("generic_add_relu", 3, 2, ok);
    assert_int_equal(fb_variant_set_build(&cfg, set, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "configs/x.ini:3: [chain generic_add_relu]"));
    cfg.n_chains = 0;
    add_chain("empty", 4, 0, ok);
    assert_int_equal(fb_variant_set_build(&cfg, set, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "configs/x.ini:4: [chain empty] ops: a chain has 1 to 16"));
    free(set);
}

/* The backend bytes the plan of cfg needs at its largest size, built with `flags`. */
static uint64_t backend_bytes_of(unsigned flags)
{
    struct fb_plan *plan = NULL;
    struct fb_error err;
    assert_int_equal(fb_plan_build(&cfg, flags, &plan, &err), FB_OK);
    const uint64_t bytes = plan->backend_bytes;
    assert_int_equal(plan->memory_bytes, bytes + 4 * 1000 * plan->element_bytes);
    fb_plan_free(plan);
    return bytes;
}

/* The runner allocates only the arrays the enabled variants use: a fused chain a, b and c;
 * its eager twin of 3 ops adds the two temporaries. */
static void the_runner_allocates_only_the_buffers_enabled_variants_use(void **state)
{
    (void)state;
    const enum fb_op_id ops[] = {FB_OPID_add, FB_OPID_relu, FB_OPID_relu};
    add_chain("three", 5, 3, ops);
    cfg.n_sizes = 1;
    cfg.sizes[0] = 1000;
    struct fb_error err;
    assert_int_equal(fb_config_override(&cfg, "variants", "fused_three", &err), FB_OK);
    assert_int_equal(backend_bytes_of(0), 3 * 1000 * sizeof(float));
    assert_int_equal(fb_config_override(&cfg, "variants", "eager_three", &err), FB_OK);
    assert_int_equal(backend_bytes_of(0), 5 * 1000 * sizeof(float));
    assert_int_equal(fb_config_override(&cfg, "variants", "copy", &err), FB_OK);
    assert_int_equal(backend_bytes_of(0), 2 * 1000 * sizeof(float));
    /* arrays of the widest dtype: 2 bytes an element without fp32, 4 with it */
    assert_int_equal(fb_config_override(&cfg, "dtype", "fp16,bf16", &err), FB_OK);
    assert_int_equal(backend_bytes_of(0), 2 * 1000 * 2);
    /* the peer library computes fp32 whatever the config lists: its arrays hold fp32 */
    assert_int_equal(backend_bytes_of(FB_PLAN_DEFAULT_FORMAT), 2 * 1000 * 4);
    /* --profile: the first format's */
    assert_int_equal(fb_config_override(&cfg, "dtype", "fp16,fp32", &err), FB_OK);
    assert_int_equal(backend_bytes_of(FB_PLAN_FIRST_FORMAT), 2 * 1000 * 2);
    assert_int_equal(fb_config_override(&cfg, "dtype", "bf16,fp32", &err), FB_OK);
    assert_int_equal(backend_bytes_of(0), 2 * 1000 * 4);
    assert_int_equal(fb_config_override(&cfg, "dtype", "fp32", &err), FB_OK);
    /* config keeps names; plan refuses an unknown one with the key's message, chain variants
     * among the known names */
    assert_int_equal(fb_config_override(&cfg, "variants", "fused_thre", &err), FB_OK);
    assert_int_equal(fb_plan_check_variants(&cfg, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "unknown variant \"fused_thre\" (did you mean \"fused_three\"?)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(builtins_agree_with_the_derivation_from_their_steps, setup),
        cmocka_unit_test_setup(a_chain_gives_eager_and_fused_variants_with_derived_figures,
                               setup),
        cmocka_unit_test_setup(malformed_chains_and_reserved_names_are_refused_with_file_and_line,
                               setup),
        cmocka_unit_test_setup(the_runner_allocates_only_the_buffers_enabled_variants_use, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
