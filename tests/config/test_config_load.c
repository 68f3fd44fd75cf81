/* fb_config_load: defaults, every kind of error with its exact line, several errors at once,
 * suggestions, ranges, the content hash, and the shipped configs. */
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

static struct fb_config cfg;
static struct fixture_result res;

/* A config with exactly one problem: the text, the problem's line and what the line reads
 * after "<path>:<line>: ". */
struct error_case {
    const char *what;
    const char *text;
    int line;
    const char *rest;
};

/* Loads the case's text and expects exactly its one problem; a failure names the case. */
static void expect_one_error(const struct error_case *c)
{
    fixture_load(c->text, &cfg, &res);
    if (res.rc != FB_ERR_USAGE || res.diag_lines != 1) {
        print_error("%s: rc %d with %d diag lines, expected FB_ERR_USAGE with 1:\n%s", c->what,
                    res.rc, res.diag_lines, res.diag);
        fail();
    }
    if (!fixture_has_line(&res, c->line, c->rest)) {
        print_error("%s: no line %d with the expected words (diag above)\n", c->what, c->line);
        fail();
    }
}

/* The settings outside [sweep] as a case: what a loaded config must hold. */
struct settings {
    const char *what;
    enum fb_backend_choice backend;
    int device, cpu_threads, warmup, min_reps, max_reps;
    double min_time_s, max_time_s, target_noise;
    enum fb_cache_mode cache;
    bool cupti_activity, cupti_counters;
    const char *csv_path, *plot_dir, *label;
};

static void check_int(const char *what, const char *field, long long got, long long want)
{
    if (got != want) {
        print_error("%s: %s = %lld, expected %lld\n", what, field, got, want);
        fail();
    }
}

static void check_number(const char *what, const char *field, double got, double want)
{
    if (!(got == want)) {
        print_error("%s: %s = %.17g, expected %.17g\n", what, field, got, want);
        fail();
    }
}

static void check_string(const char *what, const char *field, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        print_error("%s: %s = \"%s\", expected \"%s\"\n", what, field, got, want);
        fail();
    }
}

/* Each of want's settings against c's; a failure names the case and the setting. */
static void expect_settings(const struct fb_config *c, const struct settings *want)
{
    const char *w = want->what;
    check_int(w, "backend", c->backend, want->backend);
    check_int(w, "device", c->device, want->device);
    check_int(w, "cpu_threads", c->cpu_threads, want->cpu_threads);
    check_int(w, "warmup", c->warmup, want->warmup);
    check_int(w, "min_reps", c->min_reps, want->min_reps);
    check_int(w, "max_reps", c->max_reps, want->max_reps);
    check_number(w, "min_time", c->min_time_s, want->min_time_s);
    check_number(w, "max_time", c->max_time_s, want->max_time_s);
    check_number(w, "target_noise", c->target_noise, want->target_noise);
    check_int(w, "cache", c->cache, want->cache);
    check_int(w, "activity", c->cupti_activity, want->cupti_activity);
    check_int(w, "counters", c->cupti_counters, want->cupti_counters);
    check_string(w, "csv", c->csv_path, want->csv_path);
    check_string(w, "plots", c->plot_dir, want->plot_dir);
    check_string(w, "label", c->label, want->label);
}

static void test_defaults_are_the_documented_values(void **state)
{
    (void)state;
    fb_config_defaults(&cfg);
    assert_string_equal(cfg.sizes_spec, "8..100M");
    assert_int_equal(cfg.points_per_decade, 6);
    assert_int_equal(cfg.sizes[0], 8);
    assert_int_equal(cfg.sizes[cfg.n_sizes - 1], 100000000);
    assert_true(cfg.variants.all);
    assert_int_equal(cfg.n_dtypes, 1);
    assert_int_equal(cfg.dtypes[0], FB_DTYPE_FP32);
    assert_int_equal(cfg.n_stores, 1);
    assert_int_equal(cfg.stores[0], FB_STORES_NORMAL);
    const struct settings documented = {"the defaults", FB_BACKEND_AUTO, 0, 0, 3, 8, 200, 0.02, 1.5,
                                        0.02, FB_CACHE_WARM, true, true,
                                        "out/{backend}-{device}/default.csv",
                                        "" /* beside the results CSV */, ""};
    expect_settings(&cfg, &documented);
}

static void test_empty_file_loads_the_defaults(void **state)
{
    (void)state;
    struct fb_config defaults;
    fb_config_defaults(&defaults);
    fixture_load("", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(res.diag_lines, 0);
    assert_int_equal(cfg.n_sizes, defaults.n_sizes);
    assert_int_equal(cfg.max_reps, defaults.max_reps);
    assert_string_equal(cfg.path, res.path);
    /* FNV-1a 64 of no bytes is its offset basis. */
    assert_true(cfg.content_hash == 0xcbf29ce484222325ULL);
}

static void test_every_key_is_applied(void **state)
{
    (void)state;
    fixture_load("; all keys\n"
                 "[sweep]\n"
                 "sizes = 10, 1K\n"
                 "points_per_decade = 3\n"
                 "variants = copy, fused_add_relu\n"
                 "dtype = fp32\n"
                 "label = run 7 ; inline comment\n"
                 "[backend]\n"
                 "backend = cpu\n"
                 "device = 2\n"
                 "cpu_threads = 1\n"
                 "[measure]\n"
                 "warmup = 0\n"
                 "min_reps = 2\n"
                 "max_reps = 9\n"
                 "min_time = 0.001\n"
                 "max_time = 0.25\n"
                 "target_noise = 0.05\n"
                 "cache = cold\n"
                 "[cupti]\n"
                 "activity = off\n"
                 "counters = No\n"
                 "[output]\n"
                 "csv = /tmp/x-{backend}.csv\n"
                 "plots = /tmp/p\n",
                 &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.n_sizes, 2);
    assert_int_equal(cfg.sizes[0], 10);
    assert_int_equal(cfg.sizes[1], 1000);
    assert_int_equal(cfg.sizes_line, 3);
    assert_int_equal(cfg.points_per_decade, 3);
    assert_false(cfg.variants.all);
    assert_int_equal(cfg.variants.n_names, 2);
    assert_string_equal(cfg.variants.names[0], "copy");
    assert_string_equal(cfg.variants.names[1], "fused_add_relu");
    assert_int_equal(cfg.variants.line, 5);
    const struct settings written = {"every key", FB_BACKEND_CPU, 2, 1, 0, 2, 9, 0.001, 0.25, 0.05,
                                     FB_CACHE_COLD, false, false, "/tmp/x-{backend}.csv", "/tmp/p",
                                     "run 7"};
    expect_settings(&cfg, &written);
    assert_int_equal(cfg.csv_line, 24);
}

/* Each a config with one problem, reported on its line with its exact words. */
static const struct error_case error_cases[] = {
    {"unknown section suggests the nearest",
     "[sweep]\nsizes = 8\n[mesure]\nwarmup = 1\n", 3,
     "[mesure] unknown section; did you mean [measure]?"},
    {"unknown key suggests the nearest",
     "\n[measure]\nwarmup = 1\nmax_rep = 5\n", 4,
     "[measure] max_rep: unknown key; did you mean \"max_reps\"?"},
    {"key in the wrong section names its section",
     "[backend]\nsizes = 8\n", 2,
     "[backend] sizes: unknown key; it belongs in [sweep]"},
    {"unrelated unknown key lists the valid keys",
     "[cupti]\nzzzzzzzzzz = 1\n", 2,
     "[cupti] zzzzzzzzzz: unknown key; valid keys in [cupti]: activity counters"},
    {"key outside any section is an error",
     "warmup = 1\n[measure]\n", 1,
     "warmup: key outside any section; it belongs in [measure]"},
    {"integer out of range states the range: points_per_decade = 0",
     "[sweep]\npoints_per_decade = 0\n", 2,
     "[sweep] points_per_decade: 0 is out of range [1, 100]"},
    {"integer out of range states the range: device = -1",
     "[backend]\ndevice = -1\n", 2,
     "[backend] device: -1 is out of range [0, 1023]"},
    {"number out of range states the range: max_time = 0",
     "[measure]\nmax_time = 0\n", 2,
     "[measure] max_time: 0 is out of range (0, 3600]"},
    {"number out of range states the range: target_noise = 1.5",
     "[measure]\ntarget_noise = 1.5\n", 2,
     "[measure] target_noise: 1.5 is out of range [0, 1]"},
    {"non numbers are rejected: warmup = three",
     "[measure]\nwarmup = three\n", 2,
     "[measure] warmup: \"three\" is not an integer"},
    {"non numbers are rejected: min_reps = 2.5",
     "[measure]\nmin_reps = 2.5\n", 2,
     "[measure] min_reps: \"2.5\" is not an integer"},
    {"non numbers are rejected: min_time = fast",
     "[measure]\nmin_time = fast\n", 2,
     "[measure] min_time: \"fast\" is not a number"},
    {"non numbers are rejected: max_time = nan",
     "[measure]\nmax_time = nan\n", 2,
     "[measure] max_time: \"nan\" is not a number"},
    {"bad boolean is rejected",
     "[cupti]\ncounters = maybe\n", 2,
     "[cupti] counters: \"maybe\" is not a boolean (use true/false, yes/no, on/off or 1/0)"},
    {"bad choices list the valid ones: backend = gpu",
     "[backend]\nbackend = gpu\n", 2,
     "[backend] backend: \"gpu\" is not one of auto, cpu, cuda; did you mean \"cpu\"?"},
    {"bad choices list the valid ones: cache = hot",
     "[measure]\ncache = hot\n", 2,
     "[measure] cache: \"hot\" is not one of warm, cold"},
    {"bad choices list the valid ones: dtype = half",
     "[sweep]\ndtype = half\n", 2,
     "[sweep] dtype: \"half\" is not one of fp32, fp16, bf16"},
    {"bad choices list the valid ones: dtype = fp32, bf61",
     "[sweep]\ndtype = fp32, bf61\n", 2,
     "[sweep] dtype: \"bf61\" is not one of fp32, fp16, bf16; did you mean \"bf16\"?"},
    {"bad choices list the valid ones: stores = nt",
     "[measure]\nstores = nt\n", 2,
     "[measure] stores: \"nt\" is not one of normal, streaming"},
    {"bad choices list the valid ones: stores = streeming",
     "[measure]\nstores = streeming\n", 2,
     "[measure] stores: \"streeming\" is not one of normal, streaming; did you mean "
     "\"streaming\"?"},
    {"line without equals is a parse error",
     "[sweep]\nsizes 8..100\n", 2,
     "[sweep] expected \"key = value\", got \"sizes 8..100\""},
    {"unclosed section header is a parse error",
     "[sweep]\nsizes = 8\n[measure\nwarmup = 1\n", 3,
     "section header \"[measure\" has no closing ']'"},
    {"min reps above max reps is reported on the later line: min_reps = 20",
     "[measure]\nmax_reps = 10\nmin_reps = 20\n", 3,
     "[measure] min_reps: min_reps (20) is more than max_reps (10)"},
    {"min reps above max reps is reported on the later line: max_reps = 2",
     "[measure]\nmax_reps = 2\n", 2,
     "[measure] max_reps: min_reps (8) is more than max_reps (2)"},
    {"min time above max time is reported",
     "[measure]\nmin_time = 2\nmax_time = 1.5\n", 3,
     "[measure] max_time: min_time (2 s) is more than max_time (1.5 s)"},
    {"unknown csv placeholder is rejected",
     "[output]\ncsv = results/{host}.csv\n", 2,
     "[output] csv: unknown placeholder {host} (known: {backend}, {device})"},
    {"stores list: stores = streaming, normal, streaming",
     "[sweep]\nsizes = 8\n\n[measure]\nstores = streaming, normal, streaming\n", 5,
     "[measure] stores: \"streaming\" is listed twice"},
    {"stores list: stores =",
     "[measure]\nstores =\n", 2,
     "[measure] stores: empty name in list \"\" (give names separated by commas)"},
    {"stores list: stores = streaming in [sweep]",
     "[sweep]\nstores = streaming\n", 2,
     "[sweep] stores: unknown key; it belongs in [measure]"},
    {"format lists: dtype = fp16, bf16, fp16",
     "[sweep]\ndtype = fp16, bf16, fp16\n", 2,
     "[sweep] dtype: \"fp16\" is listed twice"},
    {"format lists: dtype = fp32, fp32",
     "[sweep]\ndtype = fp32, fp32\n", 2,
     "[sweep] dtype: \"fp32\" is listed twice"},
    {"format lists: stores = normal,",
     "[measure]\nstores = normal,\n", 2,
     "[measure] stores: empty name in list \"normal,\" (give names separated by commas)"},
};

static void test_each_bad_config_reports_its_one_problem(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++)
        expect_one_error(&error_cases[i]);
}

static void test_duplicate_key_names_the_first_line(void **state)
{
    (void)state;
    const struct error_case dup = {"duplicate key", "[measure]\nwarmup = 1\n\nwarmup = 2\n", 4,
                                   "[measure] warmup: duplicate key (first set on line 2)"};
    expect_one_error(&dup);
    assert_int_equal(cfg.warmup, 1); /* the first value stands */
}

/* [measure] stores is a list: normal, streaming, in the order given (the run measures them
 * in that order; the fit takes the first), each once (the errors are in error_cases). */
static void test_stores_list(void **state)
{
    (void)state;
    fixture_load("[measure]\nstores = streaming , normal\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.n_stores, 2);
    assert_int_equal(cfg.stores[0], FB_STORES_STREAMING);
    assert_int_equal(cfg.stores[1], FB_STORES_NORMAL);
    assert_true(fb_config_has_stores(&cfg, FB_STORES_STREAMING));
    assert_int_equal(fb_config_format_count(&cfg), 2);
    assert_int_equal(fb_config_format(&cfg, 0).stores, FB_STORES_STREAMING);
    fixture_load("[measure]\nstores = streaming\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.n_stores, 1);
    assert_false(fb_config_has_stores(&cfg, FB_STORES_NORMAL));
}

/* The format axes are lists, like sizes: each name once, none empty. */
static void test_format_lists(void **state)
{
    (void)state;
    fixture_load("[sweep]\ndtype = bf16, fp32 ,fp16\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.n_dtypes, 3);
    assert_int_equal(cfg.dtypes[0], FB_DTYPE_BF16);
    assert_int_equal(cfg.dtypes[1], FB_DTYPE_FP32);
    assert_int_equal(cfg.dtypes[2], FB_DTYPE_FP16);
    assert_int_equal(fb_config_format_count(&cfg), 3);
    assert_int_equal(fb_config_format(&cfg, 2).dtype, FB_DTYPE_FP16);
    fb_config_defaults(&cfg);
    assert_int_equal(fb_config_format_count(&cfg), 1);
    struct fb_format f = fb_config_format(&cfg, 0);
    assert_int_equal(f.dtype, FB_DTYPE_FP32);
    assert_int_equal(f.stores, FB_STORES_NORMAL);
    /* dtypes outer, store kinds inner (set by hand: this build parses one of each) */
    cfg.dtypes[1] = FB_DTYPE_BF16;
    cfg.n_dtypes = 2;
    cfg.stores[1] = FB_STORES_STREAMING;
    cfg.n_stores = 2;
    assert_int_equal(fb_config_format_count(&cfg), 4);
    f = fb_config_format(&cfg, 1);
    assert_int_equal(f.dtype, FB_DTYPE_FP32);
    assert_int_equal(f.stores, FB_STORES_STREAMING);
    f = fb_config_format(&cfg, 2);
    assert_int_equal(f.dtype, FB_DTYPE_BF16);
    assert_int_equal(f.stores, FB_STORES_NORMAL);
    f = fb_config_format(&cfg, 4); /* past the end: the default */
    assert_int_equal(f.dtype, FB_DTYPE_FP32);
}

static void test_too_long_line_is_reported_with_its_number(void **state)
{
    (void)state;
    char text[512];
    char label[260];
    memset(label, 'x', 250);
    label[250] = '\0';
    snprintf(text, sizeof text, "[sweep]\nlabel = %s\nwarmup = 1\n", label);
    fixture_load(text, &cfg, &res);
    assert_int_equal(res.rc, FB_ERR_USAGE);
    assert_true(fixture_has_line(&res, 2, "line is 258 characters long; a line may have at "
                                          "most 198 (FB_CONFIG_LINE_MAX)"));
    /* The next line is still read: warmup is in the wrong section, and says so. */
    assert_true(fixture_line_contains(&res, 3, "it belongs in [measure]"));
    assert_int_equal(res.diag_lines, 2);
}

static void test_indented_line_is_a_key_not_a_continuation(void **state)
{
    (void)state;
    fixture_load("[measure]\nwarmup = 1\n    min_reps = 2\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.min_reps, 2);
}

static void test_crlf_line_ends_and_byte_order_mark_are_accepted(void **state)
{
    (void)state;
    fixture_load("\xEF\xBB\xBF[measure]\r\nwarmup = 4\r\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.warmup, 4);
}

static void test_many_errors_are_reported_at_once(void **state)
{
    (void)state;
    fixture_load("[sweep]\n"                   /* 1 */
                 "sizes = 8..1X\n"             /* 2: bad size (found after the file) */
                 "variants = all\n"            /* 3 */
                 "[measure]\n"                 /* 4 */
                 "warmup = -1\n"               /* 5: range */
                 "min_rep = 3\n"               /* 6: unknown key */
                 "target_noise = lots\n"       /* 7: not a number */
                 "[cupti]\n"                   /* 8 */
                 "activity = perhaps\n"        /* 9: not a boolean */
                 "garbage line\n"              /* 10: parse error */
                 "[outptu]\n"                  /* 11: unknown section */
                 "csv = x.csv\n",              /* 12: skipped: section already reported */
                 &cfg, &res);
    assert_int_equal(res.rc, FB_ERR_USAGE);
    assert_int_equal(res.diag_lines, 7);
    assert_true(fixture_line_contains(&res, 2, "[sweep] sizes: bad size \"1X\""));
    assert_true(fixture_line_contains(&res, 5, "[measure] warmup: -1 is out of range"));
    assert_true(fixture_line_contains(&res, 6, "did you mean \"min_reps\"?"));
    assert_true(fixture_line_contains(&res, 7, "[measure] target_noise: \"lots\""));
    assert_true(fixture_line_contains(&res, 9, "[cupti] activity: \"perhaps\""));
    assert_true(fixture_line_contains(&res, 10, "expected \"key = value\""));
    assert_true(fixture_line_contains(&res, 11, "did you mean [output]?"));
    assert_non_null(strstr(res.err.msg, "7 errors"));
    /* In line order, although sizes is only checked after the last line. */
    const char *at2 = strstr(res.diag, ":2: "), *at5 = strstr(res.diag, ":5: ");
    assert_non_null(at2);
    assert_non_null(at5);
    assert_true(at2 < at5);
}

static void test_sizes_expand_with_a_later_points_per_decade(void **state)
{
    (void)state;
    fixture_load("[sweep]\nsizes = 1..1000\npoints_per_decade = 1\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.n_sizes, 4);
    assert_int_equal(cfg.sizes[3], 1000);
}

static void test_points_per_decade_alone_re_expands_the_default_sizes(void **state)
{
    (void)state;
    fixture_load("[sweep]\npoints_per_decade = 1\n", &cfg, &res);
    assert_int_equal(res.rc, FB_OK);
    assert_int_equal(cfg.n_sizes, 9); /* 8, 10, 100, ..., 1e8 */
}

static void test_content_hash_follows_the_bytes(void **state)
{
    (void)state;
    fixture_load("[measure]\nwarmup = 1\n", &cfg, &res);
    uint64_t a = cfg.content_hash;
    fixture_load("[measure]\nwarmup = 1\n", &cfg, &res);
    assert_true(cfg.content_hash == a);
    fixture_load("[measure]\nwarmup = 2\n", &cfg, &res);
    assert_true(cfg.content_hash != a);
    fixture_load("[measure]\nwarmup = 1\n; a comment changes the file too\n", &cfg, &res);
    assert_true(cfg.content_hash != a);
}

static void test_missing_file_is_a_runtime_error(void **state)
{
    (void)state;
    struct fb_error err;
    assert_int_equal(fb_config_load(&cfg, "/nonexistent/fusebench.ini", NULL, &err),
                     FB_ERR_RUNTIME);
    assert_non_null(strstr(err.msg, "/nonexistent/fusebench.ini: cannot open"));
}

static void load_shipped(const char *rel)
{
    char path[2048];
    if (!fixture_source_path(rel, path, sizeof path)) {
        skip();
        return;
    }
    char *buf = NULL;
    size_t size = 0;
    FILE *diag = open_memstream(&buf, &size);
    struct fb_error err = {{0}};
    int rc = fb_config_load(&cfg, path, diag, &err);
    fclose(diag);
    if (rc != FB_OK)
        print_message("%s: %s\n%s", path, err.msg, buf ? buf : "");
    assert_int_equal(rc, FB_OK);
    assert_int_equal(size, 0);
    free(buf);
    assert_true(cfg.n_sizes > 0);
}

static void test_shipped_default_config_loads_as_the_defaults(void **state)
{
    (void)state;
    load_shipped("configs/default.ini");
    struct fb_config defaults;
    fb_config_defaults(&defaults);
    assert_int_equal(cfg.n_sizes, defaults.n_sizes);
    assert_memory_equal(cfg.sizes, defaults.sizes, cfg.n_sizes * sizeof cfg.sizes[0]);
    assert_int_equal(cfg.points_per_decade, defaults.points_per_decade);
    assert_int_equal(cfg.n_dtypes, 1);
    assert_int_equal(cfg.dtypes[0], FB_DTYPE_FP32);
    assert_int_equal(cfg.n_stores, 1);
    assert_int_equal(cfg.stores[0], FB_STORES_NORMAL);
    assert_true(cfg.variants.all);
    /* The file documents the built-in defaults: every value must agree with them (the backend
     * among them is auto). */
    assert_int_equal(defaults.backend, FB_BACKEND_AUTO);
    const struct settings built_in = {
        "configs/default.ini", defaults.backend, defaults.device, defaults.cpu_threads,
        defaults.warmup, defaults.min_reps, defaults.max_reps, defaults.min_time_s,
        defaults.max_time_s, defaults.target_noise, defaults.cache, defaults.cupti_activity,
        defaults.cupti_counters, defaults.csv_path, defaults.plot_dir, defaults.label};
    expect_settings(&cfg, &built_in);
}

static void test_shipped_smoke_config_loads(void **state)
{
    (void)state;
    load_shipped("configs/smoke.ini");
    assert_true(cfg.sizes[cfg.n_sizes - 1] <= 100000);
    assert_non_null(strstr(cfg.csv_path, "build/"));
}

static void test_shipped_cpu_cache_zoom_config_loads(void **state)
{
    (void)state;
    load_shipped("configs/cache-zoom-cpu.ini");
    assert_int_equal(cfg.backend, FB_BACKEND_CPU);
}

static void test_shipped_h200_cache_zoom_config_loads(void **state)
{
    (void)state;
    load_shipped("configs/cache-zoom-h200.ini");
    assert_int_equal(cfg.backend, FB_BACKEND_CUDA);
    /* The L2 edge of eager's 16 B/element working set: 60 MB / 16 B. */
    int found = 0;
    for (size_t i = 0; i < cfg.n_sizes; i++)
        found |= cfg.sizes[i] == 3750000;
    assert_true(found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_the_documented_values),
        cmocka_unit_test(test_empty_file_loads_the_defaults),
        cmocka_unit_test(test_every_key_is_applied),
        cmocka_unit_test(test_each_bad_config_reports_its_one_problem),
        cmocka_unit_test(test_format_lists),
        cmocka_unit_test(test_stores_list),
        cmocka_unit_test(test_duplicate_key_names_the_first_line),
        cmocka_unit_test(test_too_long_line_is_reported_with_its_number),
        cmocka_unit_test(test_indented_line_is_a_key_not_a_continuation),
        cmocka_unit_test(test_crlf_line_ends_and_byte_order_mark_are_accepted),
        cmocka_unit_test(test_many_errors_are_reported_at_once),
        cmocka_unit_test(test_sizes_expand_with_a_later_points_per_decade),
        cmocka_unit_test(test_points_per_decade_alone_re_expands_the_default_sizes),
        cmocka_unit_test(test_content_hash_follows_the_bytes),
        cmocka_unit_test(test_missing_file_is_a_runtime_error),
        cmocka_unit_test(test_shipped_default_config_loads_as_the_defaults),
        cmocka_unit_test(test_shipped_smoke_config_loads),
        cmocka_unit_test(test_shipped_cpu_cache_zoom_config_loads),
        cmocka_unit_test(test_shipped_h200_cache_zoom_config_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
