/* The plan as JSON (--print-plan): string escaping (hostile bytes and a random byte fuzz
 * through a strict JSON string reader written here), a config chain's ops with their
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
#include "plan/plan.h"
#include "results/csv_schema.h"
#include "common/json.h"
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
        {"\xf0\x9f\x98\x80\xe2\x82\xac", "\"\xf0\x9f\x98\x80\xe2\x82\xac\""}, /* 4 and 3 bytes */
        /* not UTF-8: each byte as the text \xNN (issue 19's cases first) */
        {"a\xff\xfe" "b", "\"a\\\\xFF\\\\xFE" "b\""},
        {"\xc0\xaf", "\"\\\\xC0\\\\xAF\""},                 /* overlong '/' */
        {"\xed\xa0\x80", "\"\\\\xED\\\\xA0\\\\x80\""},      /* CESU-8 surrogate */
        {"x\xff.ini", "\"x\\\\xFF.ini\""},
        {"\xe2\x82", "\"\\\\xE2\\\\x82\""},                 /* truncated */
        {"\xe2\x82" "A", "\"\\\\xE2\\\\x82" "A\""},
        {"\x80", "\"\\\\x80\""},                             /* stray continuation */
        {"\xf4\x90\x80\x80", "\"\\\\xF4\\\\x90\\\\x80\\\\x80\""}, /* above U+10FFFF */
        {"\xf8\x88\x80\x80\x80", "\"\\\\xF8\\\\x88\\\\x80\\\\x80\\\\x80\""}, /* 5 bytes */
        {"\xe0\x80\xaf", "\"\\\\xE0\\\\x80\\\\xAF\""},      /* overlong, 3 bytes */
        {"\xc2\x85", "\"\\u0085\""},                          /* C1 NEL: escaped, kept */
        {"\\xFF", "\"\\\\xFF\""},                             /* the text itself */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = escaped(cases[i][0]);
        assert_string_equal(got, cases[i][1]);
        free(got);
    }
}

/* ---- a strict JSON string reader, independent of the code under test ------------------- */

/* The length of the well-formed UTF-8 sequence at s (1-4), or 0: the Unicode standard's
 * table of well-formed byte sequences (Table 3-7), written out as ranges. */
static size_t well_formed(const unsigned char *s)
{
    static const struct { unsigned char lead_lo, lead_hi, lo2, hi2; size_t len; } rows[] = {
        {0x01, 0x7F, 0, 0, 1},       {0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3},
        {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3}, {0xEE, 0xEF, 0x80, 0xBF, 3},
        {0xF0, 0xF0, 0x90, 0xBF, 4}, {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (s[0] < rows[r].lead_lo || s[0] > rows[r].lead_hi)
            continue;
        if (rows[r].len == 1)
            return 1;
        if (s[1] < rows[r].lo2 || s[1] > rows[r].hi2)
            return 0;
        for (size_t i = 2; i < rows[r].len; i++)
            if (s[i] < 0x80 || s[i] > 0xBF)
                return 0;
        return rows[r].len;
    }
    return 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static size_t put_utf8(unsigned cp, char *out)
{
    if (cp < 0x80)
        return out[0] = (char)cp, 1;
    if (cp < 0x800)
        return out[0] = (char)(0xC0 | cp >> 6), out[1] = (char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000)
        return out[0] = (char)(0xE0 | cp >> 12), out[1] = (char)(0x80 | (cp >> 6 & 0x3F)),
               out[2] = (char)(0x80 | (cp & 0x3F)), 3;
    return out[0] = (char)(0xF0 | cp >> 18), out[1] = (char)(0x80 | (cp >> 12 & 0x3F)),
           out[2] = (char)(0x80 | (cp >> 6 & 0x3F)), out[3] = (char)(0x80 | (cp & 0x3F)), 4;
}

/* Decodes the JSON text `json`, which must be exactly one string (RFC 8259: no raw control
 * character, only the escapes of section 7, surrogates only in pairs) in well-formed UTF-8,
 * into out (its bytes, NUL-terminated; room for strlen(json) + 1). Returns 0, or -1 with the
 * offset of the fault in *at. */
static int json_string_read(const char *json, char *out, size_t *at)
{
    const unsigned char *p = (const unsigned char *)json;
    size_t o = 0;
    if (*p++ != '"')
        return *at = 0, -1;
    for (;;) {
        *at = (size_t)((const char *)p - json);
        if (*p == '"') {
            out[o] = '\0';
            return p[1] == '\0' ? 0 : -1;
        }
        if (*p < 0x20) /* NUL (the end) too */
            return -1;
        if (*p != '\\') {
            size_t len = well_formed(p);
            if (len == 0)
                return -1;
            memcpy(out + o, p, len);
            o += len, p += len;
            continue;
        }
        const char *e = strchr("\"\\/bfnrt", p[1]);
        if (p[1] && e) {
            out[o++] = "\"\\/\b\f\n\r\t"[e - "\"\\/bfnrt"];
            p += 2;
            continue;
        }
        if (p[1] != 'u')
            return -1;
        unsigned cp = 0;
        for (int i = 2; i < 6; i++) {
            int d = hex_digit((char)p[i]);
            if (d < 0)
                return -1;
            cp = cp << 4 | (unsigned)d;
        }
        p += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return -1;
        if (cp >= 0xD800 && cp <= 0xDBFF) { /* a pair, or nothing */
            unsigned low = 0;
            if (p[0] != '\\' || p[1] != 'u')
                return -1;
            for (int i = 2; i < 6; i++) {
                int d = hex_digit((char)p[i]);
                if (d < 0)
                    return -1;
                low = low << 4 | (unsigned)d;
            }
            if (low < 0xDC00 || low > 0xDFFF)
                return -1;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            p += 6;
        }
        if (cp == 0)
            return -1; /* a NUL would end the C string the writer was given: cannot be */
        o += put_utf8(cp, out + o);
    }
}

/* What the decoded string must be: the input with each byte outside a well-formed sequence
 * as the four characters \xNN (plan_json.h's one stated way). */
static void expected_text(const char *in, char *out)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t o = 0;
    while (*s) {
        size_t len = well_formed(s);
        if (len) {
            memcpy(out + o, s, len);
            o += len, s += len;
        } else {
            o += (size_t)sprintf(out + o, "\\x%02X", *s++);
        }
    }
    out[o] = '\0';
}

/* Writes in, reads it back strictly, and checks it decodes to expected_text(in). */
static void check_round_trip(const char *in)
{
    char *json = escaped(in);
    size_t cap = 4 * strlen(in) + 1, at = 0;
    char *decoded = malloc(strlen(json) + 1), *want = malloc(cap);
    assert_non_null(decoded);
    assert_non_null(want);
    if (json_string_read(json, decoded, &at) != 0) {
        char shown[512] = "";
        for (size_t i = 0; in[i] && i < 100; i++)
            sprintf(shown + strlen(shown), "%02x ", (unsigned char)in[i]);
        fail_msg("invalid JSON string at offset %zu for the input bytes %s", at, shown);
    }
    expected_text(in, want);
    assert_string_equal(decoded, want);
    free(json);
    free(decoded);
    free(want);
}

static void test_hostile_strings_are_valid_json(void **state)
{
    (void)state;
    const char *cases[] = {
        "a\xff\xfe" "b", "\xc0\xaf", "\xed\xa0\x80", "x\xff.ini", "\xed\xbf\xbf\xed\xa0\x80",
        "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf", "\xc1\xbf",
        "\xe2\x82", "\xf0\x9f\x98", "\x80\xbf", "\xfe\xff", "\"\\\x01\x1f\x7f\xc2\x80\xc2\x9f",
        "\xef\xbf\xbf\xf4\x8f\xbf\xbf", "ok \xe2\x82\xac \xf0\x9f\x98\x80", "\\u0000", "\\",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_round_trip(cases[i]);
}

/* xorshift64*: a fixed seed, so a failure can be replayed; FB_FUZZ_SEED picks another. */
static uint64_t fuzz_next(uint64_t *x)
{
    *x ^= *x >> 12, *x ^= *x << 25, *x ^= *x >> 27;
    return *x * 2685821657736338717ULL;
}

/* Random byte strings, half of their bytes from the ones UTF-8 decoders get wrong (leads,
 * continuation ends, surrogate and overlong starts, quotes, backslashes). */
static void test_random_bytes_are_valid_json(void **state)
{
    (void)state;
    static const unsigned char edgy[] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
                                         0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, '"',
                                         '\\', 0x01, 0x1F, 0x7F, 'u'};
    const char *env = getenv("FB_FUZZ_SEED");
    uint64_t x = env ? strtoull(env, NULL, 0) | 1 : 0x9E3779B97F4A7C15ULL;
    const int cases = 20000;
    for (int c = 0; c < cases; c++) {
        char in[65];
        size_t len = fuzz_next(&x) % sizeof in;
        for (size_t i = 0; i < len; i++) {
            uint64_t r = fuzz_next(&x);
            in[i] = (char)(r & 1 ? edgy[(r >> 8) % sizeof edgy] : 1 + (r >> 8) % 255);
        }
        in[len] = '\0';
        check_round_trip(in);
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
    struct fb_plan *plan = NULL;
    assert_int_equal(fb_plan_build(cfg, 0, &plan, &err), FB_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(fb_plan_json_write(f, plan), 0);
    fclose(f);
    fb_plan_free(plan);
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
        cmocka_unit_test(test_hostile_strings_are_valid_json),
        cmocka_unit_test(test_random_bytes_are_valid_json),
        cmocka_unit_test(test_chain_with_params),
        cmocka_unit_test(test_one_launch_variant),
        cmocka_unit_test(test_columns_are_the_schema),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
