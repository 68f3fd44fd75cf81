/* fb_config_override: command-line values go through the same parsers as the file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"

static struct fb_config cfg;
static struct fb_error err;

static int setup(void **state)
{
    (void)state;
    fb_config_defaults(&cfg);
    err.msg[0] = '\0';
    return 0;
}

static void test_sizes_override_replaces_the_sizes(void **state)
{
    (void)state;
    cfg.sizes_line = 7;
    assert_int_equal(fb_config_override(&cfg, "sizes", "1K, 8", &err), FB_OK);
    assert_int_equal(cfg.n_sizes, 2);
    assert_int_equal(cfg.sizes[0], 8);
    assert_int_equal(cfg.sizes[1], 1000);
    assert_int_equal(cfg.sizes_line, 0); /* no longer from the file */
}

static void test_points_per_decade_override_re_expands_the_sizes(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "sizes", "1..1000", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "points_per_decade", "1", &err), FB_OK);
    assert_int_equal(cfg.n_sizes, 4);
}

static void test_bad_sizes_override_names_the_option_and_token(void **state)
{
    (void)state;
    size_t before = cfg.n_sizes;
    assert_int_equal(fb_config_override(&cfg, "sizes", "8..1Q", &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--sizes: bad size \"1Q\""));
    assert_int_equal(cfg.n_sizes, before);
    assert_string_equal(cfg.sizes_spec, "8..100M");
}

static void test_output_override_sets_the_csv_path(void **state)
{
    (void)state;
    cfg.csv_line = 30;
    assert_int_equal(fb_config_override(&cfg, "output", "/tmp/out.csv", &err), FB_OK);
    assert_string_equal(cfg.csv_path, "/tmp/out.csv");
    assert_int_equal(cfg.csv_line, 0);
}

static void test_backend_override_suggests_on_a_typo(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "backend", "cuda", &err), FB_OK);
    assert_int_equal(cfg.backend, FB_BACKEND_CUDA);
    assert_int_equal(fb_config_override(&cfg, "backend", "gpu", &err), FB_ERR_USAGE);
    assert_string_equal(err.msg,
                        "--backend: \"gpu\" is not one of auto, cpu, cuda; did you mean \"cpu\"?");
    assert_int_equal(cfg.backend, FB_BACKEND_CUDA);
}

static void test_variants_override_selects_only_those(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "variants", " eager_add_relu ,x", &err), FB_OK);
    assert_false(cfg.variants.all);
    assert_int_equal(cfg.variants.n_names, 2);
    assert_string_equal(cfg.variants.names[0], "eager_add_relu");
    assert_string_equal(cfg.variants.names[1], "x"); /* plan says whether it exists */
    assert_int_equal(cfg.variants.line, 0);          /* set on the command line */
    assert_int_equal(fb_config_override(&cfg, "variants", "copy,,memcpy", &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--variants: empty name in list"));
    assert_int_equal(fb_config_override(&cfg, "variants", "all", &err), FB_OK);
    assert_true(cfg.variants.all);
}

static void test_numeric_overrides_are_applied(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "device", "1", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "cpu_threads", "2", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "max_reps", "50", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "min_reps", "4", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "max_time", "0.3", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "min_time", "0.01", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "target_noise", "0.05", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "cache", "cold", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "label", "tuned", &err), FB_OK);
    assert_int_equal(fb_config_override(&cfg, "plots", "/tmp/plots", &err), FB_OK);
    assert_int_equal(cfg.device, 1);
    assert_int_equal(cfg.cpu_threads, 2);
    assert_int_equal(cfg.max_reps, 50);
    assert_int_equal(cfg.min_reps, 4);
    assert_true(cfg.max_time_s == 0.3);
    assert_true(cfg.min_time_s == 0.01);
    assert_true(cfg.target_noise == 0.05);
    assert_int_equal(cfg.cache, FB_CACHE_COLD);
    assert_string_equal(cfg.label, "tuned");
    assert_string_equal(cfg.plot_dir, "/tmp/plots");
}

/* --set dtype=fp32,fp16,bf16: the list, in order; a bad name names the option. */
static void test_dtype_override_takes_a_list(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "dtype", "fp32,fp16,bf16", &err), FB_OK);
    assert_int_equal(cfg.n_dtypes, 3);
    assert_int_equal(cfg.dtypes[0], FB_DTYPE_FP32);
    assert_int_equal(cfg.dtypes[1], FB_DTYPE_FP16);
    assert_int_equal(cfg.dtypes[2], FB_DTYPE_BF16);
    assert_int_equal(fb_config_override(&cfg, "dtype", "fp8", &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--dtype: \"fp8\" is not one of fp32, fp16, bf16"));
    assert_int_equal(cfg.n_dtypes, 3); /* unchanged */
    assert_int_equal(fb_config_override(&cfg, "dtype", "bf16", &err), FB_OK);
    assert_int_equal(cfg.n_dtypes, 1);
    assert_int_equal(cfg.dtypes[0], FB_DTYPE_BF16);
}

static void test_out_of_range_override_states_the_range(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "points_per_decade", "500", &err), FB_ERR_USAGE);
    assert_string_equal(err.msg, "--points_per_decade: 500 is out of range [1, 100]");
    assert_int_equal(cfg.points_per_decade, 6);
}

static void test_override_breaking_min_max_rules_is_rejected(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "min_reps", "300", &err), FB_ERR_USAGE);
    assert_string_equal(err.msg, "--min_reps: min_reps (300) would be more than max_reps (200)");
    assert_int_equal(cfg.min_reps, 8); /* unchanged */
    assert_int_equal(fb_config_override(&cfg, "max_time", "0.001", &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "--max_time: min_time (0.02 s) would be more than max_time"));
    assert_true(cfg.max_time_s == 1.5);
}

static void test_unknown_override_suggests_the_nearest(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "sizez", "8", &err), FB_ERR_USAGE);
    assert_string_equal(err.msg, "--sizez: unknown option; did you mean --sizes?");
    assert_int_equal(fb_config_override(&cfg, "outptu", "x.csv", &err), FB_ERR_USAGE);
    assert_string_equal(err.msg, "--outptu: unknown option; did you mean --output?");
}

static void test_expand_path_fills_the_placeholders(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(fb_config_expand_path("results/{backend}-{device}.csv", "cuda",
                                           "NVIDIA H200", out, sizeof out, &err),
                     FB_OK);
    assert_string_equal(out, "results/cuda-nvidia-h200.csv");
    assert_int_equal(fb_config_expand_path("r/{nope}.csv", "cpu", "x", out, sizeof out, &err),
                     FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "{nope}"));
    assert_int_equal(fb_config_expand_path("r/{backend", "cpu", "x", out, sizeof out, &err),
                     FB_ERR_USAGE);
    assert_int_equal(fb_config_expand_path("{backend}{backend}", "cpu", "x", out, 6, &err),
                     FB_ERR_USAGE);
}

static void test_slugify_makes_short_lowercase_file_names(void **state)
{
    (void)state;
    char slug[64];
    fb_slugify(slug, sizeof slug, "AMD EPYC 7B13 64-Core Processor");
    assert_string_equal(slug, "amd-epyc-7b13-64-core");
    fb_slugify(slug, sizeof slug, "NVIDIA H200");
    assert_string_equal(slug, "nvidia-h200");
    fb_slugify(slug, sizeof slug, "  ");
    assert_string_equal(slug, "x");
}

static void test_names_round_trip(void **state)
{
    (void)state;
    assert_string_equal(fb_backend_choice_name(FB_BACKEND_AUTO), "auto");
    assert_string_equal(fb_backend_choice_name(FB_BACKEND_CPU), "cpu");
    assert_string_equal(fb_backend_choice_name(FB_BACKEND_CUDA), "cuda");
    assert_string_equal(fb_cache_mode_name(FB_CACHE_WARM), "warm");
    assert_string_equal(fb_cache_mode_name(FB_CACHE_COLD), "cold");
}

/* --set stores=normal,streaming: the list, through the same parser as the file. */
static void test_stores_override_takes_a_list(void **state)
{
    (void)state;
    assert_int_equal(fb_config_override(&cfg, "stores", "normal,streaming", &err), FB_OK);
    assert_int_equal(cfg.n_stores, 2);
    assert_int_equal(cfg.stores[0], FB_STORES_NORMAL);
    assert_int_equal(cfg.stores[1], FB_STORES_STREAMING);
    assert_int_equal(fb_config_override(&cfg, "stores", "normal,nontemporal", &err),
                     FB_ERR_USAGE);
    assert_string_equal(err.msg, "--stores: \"nontemporal\" is not one of normal, streaming");
    assert_int_equal(cfg.n_stores, 2); /* unchanged */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_sizes_override_replaces_the_sizes, setup),
        cmocka_unit_test_setup(test_points_per_decade_override_re_expands_the_sizes, setup),
        cmocka_unit_test_setup(test_bad_sizes_override_names_the_option_and_token, setup),
        cmocka_unit_test_setup(test_output_override_sets_the_csv_path, setup),
        cmocka_unit_test_setup(test_backend_override_suggests_on_a_typo, setup),
        cmocka_unit_test_setup(test_variants_override_selects_only_those, setup),
        cmocka_unit_test_setup(test_numeric_overrides_are_applied, setup),
        cmocka_unit_test_setup(test_out_of_range_override_states_the_range, setup),
        cmocka_unit_test_setup(test_dtype_override_takes_a_list, setup),
        cmocka_unit_test_setup(test_override_breaking_min_max_rules_is_rejected, setup),
        cmocka_unit_test_setup(test_unknown_override_suggests_the_nearest, setup),
        cmocka_unit_test_setup(test_expand_path_fills_the_placeholders, setup),
        cmocka_unit_test(test_slugify_makes_short_lowercase_file_names),
        cmocka_unit_test_setup(test_stores_override_takes_a_list, setup),
        cmocka_unit_test_setup(test_names_round_trip, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
