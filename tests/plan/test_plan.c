/* The plan (plan/plan.h): its points in the runner's order (sizes, then dtypes outer and
 * store kinds inner, then the set's order), the enabled variants and their chains, the order
 * the variants list names them in (--profile), the formats flags, and what the stop rule and
 * the origin of the sizes carry over from the config. */
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
#include "plan/plan.h"

static struct fb_config cfg;
static struct fixture_result res;

/* The plan of text (a valid config), built with flags. */
static struct fb_plan *plan_of(const char *text, unsigned flags)
{
    fixture_load(text, &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    struct fb_plan *plan = NULL;
    struct fb_error err = {{0}};
    assert_int_equal(fb_plan_build(&cfg, flags, &plan, &err), FB_OK);
    return plan;
}

static double weight_one(int64_t n)
{
    (void)n;
    return 1.0;
}

static void points_come_in_the_runners_order(void **state)
{
    (void)state;
    struct fb_plan *plan = plan_of("[sweep]\nsizes = 8, 1K, 1M\nvariants = fused_add_relu, copy\n"
                                   "dtype = fp16, fp32\n[measure]\nstores = normal, streaming\n",
                                   0);
    assert_int_equal(plan->n_sizes, 3);
    assert_int_equal(plan->n_formats, 4);
    assert_int_equal(plan->n_enabled, 2);
    assert_int_equal(plan->n_points, 3 * 4 * 2);
    /* dtypes outer, store kinds inner, as listed */
    const struct fb_format want[] = {{FB_DTYPE_FP16, FB_STORES_NORMAL},
                                     {FB_DTYPE_FP16, FB_STORES_STREAMING},
                                     {FB_DTYPE_FP32, FB_STORES_NORMAL},
                                     {FB_DTYPE_FP32, FB_STORES_STREAMING}};
    for (size_t f = 0; f < 4; f++) {
        assert_int_equal(plan->formats[f].dtype, want[f].dtype);
        assert_int_equal(plan->formats[f].stores, want[f].stores);
    }
    size_t i = 0;
    for (uint32_t s = 0; s < 3; s++)
        for (uint32_t f = 0; f < 4; f++)
            for (int v = 0; v < 2; v++, i++) {
                const struct fb_plan_point *p = &plan->points[i];
                assert_int_equal(p->size, s);
                assert_int_equal(p->format, f);
                assert_true(p->todo);
                /* the set's order (copy first), not the list's */
                assert_string_equal(fb_plan_variant(plan, p)->name,
                                    v == 0 ? "copy" : "fused_add_relu");
            }
    assert_int_equal(fb_plan_n(plan, &plan->points[i - 1]), 1000000);
    /* the list's order, for --profile */
    assert_int_equal(plan->n_named, 2);
    assert_string_equal(plan->set.v[plan->named[0]].name, "fused_add_relu");
    assert_string_equal(plan->set.v[plan->named[1]].name, "copy");
    double work = 0.0;
    assert_int_equal(fb_plan_todo(plan, weight_one, &work), 24);
    assert_true(work == 24.0);
    plan->points[0].todo = false;
    assert_int_equal(fb_plan_todo(plan, NULL, NULL), 23);
    fb_plan_free(plan);
}

static void chains_add_their_variants_and_name_them(void **state)
{
    (void)state;
    struct fb_plan *plan = plan_of("[sweep]\nsizes = 8\n[chain mb]\nops = mul, bias(0.5)\n", 0);
    /* "all": every variant, the chain's two after the built-ins */
    assert_int_equal(plan->n_enabled, plan->set.count);
    assert_int_equal(plan->n_named, plan->set.count);
    const size_t eager = plan->set.count - 2, fused = plan->set.count - 1;
    assert_string_equal(plan->set.v[eager].name, "eager_mb");
    assert_string_equal(plan->set.v[fused].name, "fused_mb");
    assert_string_equal(plan->chain[eager], "mb");
    assert_string_equal(plan->chain[fused], "mb");
    assert_string_equal(plan->chain[0], ""); /* copy, a built-in */
    fb_plan_free(plan);
}

static void the_stop_rule_and_the_sizes_origin_come_from_the_config(void **state)
{
    (void)state;
    struct fb_plan *plan = plan_of("[sweep]\nsizes = 8, 80\nlabel = x\n[measure]\nwarmup = 4\n"
                                   "min_reps = 5\nmax_reps = 70\nmin_time = 0.25\n"
                                   "max_time = 1.5\ntarget_noise = 0.03\ncache = cold\n", 0);
    assert_int_equal(plan->measure.warmup, 4);
    assert_int_equal(plan->measure.min_reps, 5);
    assert_int_equal(plan->measure.max_reps, 70);
    assert_true(plan->measure.min_time_s == 0.25 && plan->measure.max_time_s == 1.5);
    assert_true(plan->measure.target_noise == 0.03);
    assert_int_equal(plan->measure.cache, FB_CACHE_COLD);
    assert_string_equal(plan->label, "x");
    char want[FB_PATH_MAX + 64];
    snprintf(want, sizeof want, "%s:2: [sweep] sizes", res.path);
    assert_string_equal(plan->sizes_origin, want);
    fb_plan_free(plan);
}

static void format_flags_keep_one_format(void **state)
{
    (void)state;
    const char *text = "[sweep]\nsizes = 8\nvariants = copy\ndtype = bf16, fp32\n";
    struct fb_plan *plan = plan_of(text, FB_PLAN_FIRST_FORMAT);
    assert_int_equal(plan->n_formats, 1);
    assert_int_equal(plan->formats[0].dtype, FB_DTYPE_BF16);
    assert_int_equal(plan->n_points, 1);
    assert_int_equal(plan->element_bytes, 2);
    fb_plan_free(plan);
    plan = plan_of(text, FB_PLAN_DEFAULT_FORMAT);
    assert_int_equal(plan->n_formats, 1);
    assert_int_equal(plan->formats[0].dtype, FB_DTYPE_FP32);
    assert_int_equal(plan->formats[0].stores, FB_STORES_NORMAL);
    assert_int_equal(plan->element_bytes, 4);
    fb_plan_free(plan);
}

static void a_malformed_chain_is_a_usage_error(void **state)
{
    (void)state;
    fixture_load("[sweep]\nsizes = 8\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    /* config checks a chain when it reads it; one past FB_CHAIN_MAX_OPS made by hand */
    cfg.n_chains = 1;
    snprintf(cfg.chains[0].name, sizeof cfg.chains[0].name, "empty");
    cfg.chains[0].chain.n_ops = 0;
    struct fb_plan *plan = (struct fb_plan *)1;
    struct fb_error err = {{0}};
    assert_int_equal(fb_plan_build(&cfg, 0, &plan, &err), FB_ERR_USAGE);
    assert_null(plan);
    assert_non_null(strstr(err.msg, "empty"));
    fb_plan_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(points_come_in_the_runners_order),
        cmocka_unit_test(chains_add_their_variants_and_name_them),
        cmocka_unit_test(the_stop_rule_and_the_sizes_origin_come_from_the_config),
        cmocka_unit_test(format_flags_keep_one_format),
        cmocka_unit_test(a_malformed_chain_is_a_usage_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
