/* The plan as JSON (--print-plan): string escaping, a config chain's ops with their
 * parameters, only enabled variants, and the column list equal to the CSV schema table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "measure/runner.h"
#include "output/csv_schema.h"
#include "output/plan_json.h"

/* s as fb_json_write_string writes it, as a malloc'd string. */
static char *escaped(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    fb_json_write_string(f, s);
    fclose(f);
    return buf;
}

static void test_string_escaping(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"plain", "\"plain\""},
        {"", "\"\""},
        {"a\"b", "\"a\\\"b\""},
        {"back\\slash", "\"back\\\\slash\""},
        {"line\nbreak\ttab\r", "\"line\\nbreak\\ttab\\r\""},
        {"\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\""},
        {"\b\f", "\"\\b\\f\""},
        {"caf\xc3\xa9", "\"caf\xc3\xa9\""}, /* UTF-8 passes through */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = escaped(cases[i][0]);
        assert_string_equal(got, cases[i][1]);
        free(got);
    }
}

/* The plan of a config written to a temp file, as a string. */
static char *plan_of(const char *ini)
{
    char path[] = "/tmp/fb_plan_json_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, ini, strlen(ini)), (ssize_t)strlen(ini));
    close(fd);
    struct fb_config *cfg = malloc(sizeof *cfg);
    assert_non_null(cfg);
    struct fb_error err = {{0}};
    int rc = fb_config_load(cfg, path, stderr, &err);
    unlink(path);
    if (rc != FB_OK)
        fail_msg("config: %s", err.msg);
    struct fb_variant_set *set = NULL;
    assert_int_equal(fb_variant_set_new(cfg, &set, &err), FB_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(fb_plan_json_write(f, cfg, set), 0);
    fclose(f);
    free(set);
    free(cfg);
    return buf;
}

static void test_chain_with_params(void **state)
{
    (void)state;
    char *json = plan_of("[sweep]\nsizes = 8, 1K\nvariants = eager_tb, fused_tb, copy\n"
                         "label = say \"hi\"\\\n[backend]\ncpu_threads = 3\n"
                         "[measure]\nwarmup = 4\nmin_reps = 5\nmax_reps = 70\n"
                         "min_time = 0.25\nmax_time = 1.5\ntarget_noise = 0.03\ncache = cold\n"
                         "[chain tb]\nops = add, threshold(0.25, -1), bias(0.5), gelu\n");
    assert_non_null(strstr(json, "\"sizes\": [8, 1000]"));
    assert_non_null(strstr(json, "\"dtype\": \"fp32\""));
    assert_non_null(strstr(json, "\"cache\": \"cold\""));
    assert_non_null(strstr(json, "\"label\": \"say \\\"hi\\\"\\\\\""));
    assert_non_null(strstr(json, "\"cpu_threads\": 3"));
    assert_non_null(strstr(json, "\"measure\": {\"warmup\": 4, \"min_reps\": 5, "
                                 "\"max_reps\": 70, \"min_time\": 0.25, \"max_time\": 1.5, "
                                 "\"target_noise\": 0.029999999999999999}"));
    const char *ops =
        "\"ops\": [{\"op\": \"add\", \"arity\": 2, \"ulp_bound\": 0, \"params\": [], "
        "\"param_names\": []}, "
        "{\"op\": \"threshold\", \"arity\": 1, \"ulp_bound\": 0, \"params\": [0.25, -1], "
        "\"param_names\": [\"threshold\", \"value\"]}, "
        "{\"op\": \"bias\", \"arity\": 1, \"ulp_bound\": 0, \"params\": [0.5], "
        "\"param_names\": [\"offset\"]}, "
        "{\"op\": \"gelu\", \"arity\": 1, \"ulp_bound\": 256, \"params\": [], "
        "\"param_names\": []}]";
    assert_non_null(strstr(json, "{\"name\": \"eager_tb\", \"role\": \"eager\", \"pair\": "
                                 "\"fused_tb\", \"launches\": 4, \"host_launches\": 4, "
                                 "\"one_launch\": false, \"elements_moved\": 9, "
                                 "\"chain\": \"tb\", "));
    assert_non_null(strstr(json, "{\"name\": \"fused_tb\", \"role\": \"fused\", \"pair\": \"\", "
                                 "\"launches\": 1, \"host_launches\": 1, \"one_launch\": false, "
                                 "\"elements_moved\": 3, \"chain\": \"tb\", "));
    /* Both variants list the same ops. */
    char *first = strstr(json, ops);
    assert_non_null(first);
    assert_non_null(strstr(first + 1, ops));
    /* Only the enabled variants. */
    assert_non_null(strstr(json, "{\"name\": \"copy\", \"role\": \"copy_ceiling\""));
    assert_null(strstr(json, "eager_add_relu"));
    assert_null(strstr(json, "memcpy"));
    free(json);
}

/* The one-launch variant: eager's two kernels (launches 2, 5 elements) in one launch of the
 * host, paired with the handwritten fused kernel like eager_add_relu. */
static void test_one_launch_variant(void **state)
{
    (void)state;
    char *json = plan_of("[sweep]\nsizes = 8\nvariants = eager_add_relu_graph\n");
    assert_non_null(strstr(json, "{\"name\": \"eager_add_relu_graph\", \"role\": \"eager\", "
                                 "\"pair\": \"fused_add_relu\", \"launches\": 2, "
                                 "\"host_launches\": 1, \"one_launch\": true, "
                                 "\"elements_moved\": 5, \"chain\": \"\", "
                                 "\"ops\": [{\"op\": \"add\""));
    assert_non_null(strstr(json, "{\"op\": \"relu\""));
    assert_null(strstr(json, "\"name\": \"eager_add_relu\""));
    free(json);
}

static void test_columns_are_the_schema(void **state)
{
    (void)state;
    char *json = plan_of("[sweep]\nsizes = 8\n");
    char expected[4096] = "\"columns\": [";
    for (size_t i = 0; i < fb_csv_schema_count; i++) {
        if (i)
            strcat(expected, ", ");
        strcat(expected, "\"");
        strcat(expected, fb_csv_schema[i].name);
        strcat(expected, "\"");
    }
    strcat(expected, "]}\n");
    const char *at = strstr(json, "\"columns\": [");
    assert_non_null(at);
    assert_string_equal(at, expected); /* the end of the object: nothing after the list */
    assert_true(fb_csv_schema_count >= 27);
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_string_escaping),
        cmocka_unit_test(test_chain_with_params),
        cmocka_unit_test(test_one_launch_variant),
        cmocka_unit_test(test_columns_are_the_schema),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
