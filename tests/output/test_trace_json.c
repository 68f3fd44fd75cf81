/* The Chrome trace writer (output/trace_json.h) on constructed records: CUPTI-like kernel
 * records of a GPU (19-digit timestamps, several streams, a cache flush, a memcpy record),
 * host-timed records of the CPU, and hostile names. Nothing runs on a GPU here: the CUPTI side
 * is what its collector hands over (cupti/kernel_trace.h), built by hand. The command line
 * test (tests/sweep/test_trace_cli.py) parses real traces with Python's json. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../common/test_tmpdir.h"
#include "common/text.h"
#include "common/json.h"
#include "output/trace_json.h"

#define STREAM 7u

static void add(struct fb_kernel_trace *t, enum fb_trace_kind kind, const char *name,
                uint64_t start, uint64_t end, uint32_t stream, uint32_t call)
{
    struct fb_kernel_record r = {.kind = kind, .start_ns = start, .end_ns = end,
                                 .stream_id = stream, .correlation_id = call};
    snprintf(r.name, sizeof r.name, "%s", name);
    struct fb_error err;
    assert_int_equal(fb_kernel_trace_append(t, &r, &err), FB_OK);
}

/* The trace of tracks as text (NUL-terminated, to be freed). */
static char *write_trace(const struct fb_trace_track *tracks, size_t count, const char *device)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    const struct fb_trace_info info = {"0.test", "cuda", device, 1000, 3, "CUPTI"};
    assert_int_equal(fb_trace_json_write(f, &info, tracks, count), 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static size_t count_of(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* What a strict JSON parser needs of the bytes: valid UTF-8, no raw control byte but the line
 * feeds between events, and brackets that balance outside strings. */
static void assert_json_shaped(const char *text)
{
    int depth = 0;
    bool in_string = false;
    for (const char *p = text; *p;) {
        const size_t len = fb_text_utf8_char(p);
        assert_true(len > 0);
        const unsigned char c = (unsigned char)*p;
        assert_true(c >= 0x20 || (c == '\n' && !in_string));
        if (in_string && c == '\\') {
            assert_non_null(strchr("\"\\/bfnrtu", p[1]));
            p += 2;
            continue;
        }
        if (c == '"')
            in_string = !in_string;
        else if (!in_string && (c == '{' || c == '['))
            depth++;
        else if (!in_string && (c == '}' || c == ']'))
            assert_true(--depth >= 0);
        p += len;
    }
    assert_false(in_string);
    assert_int_equal(depth, 0);
}

/* A GPU window as CUPTI hands it over, 3 calls of eager add -> relu on stream 7, with a cache
 * flush, another stream's kernel and a memcpy record in between: only the 6 kernels of the
 * measured stream become complete events, timestamps exact to the ns from the earliest one. */
static void test_cupti_like_records_become_complete_events(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    const uint64_t base = 1764643200123456789ull; /* a CUPTI timestamp: 19 digits */
    for (uint32_t c = 0; c < 3; c++) {
        const uint64_t at = base + 10000u * c;
        add(&t, FB_TRACE_OTHER, "fb_cache_flush_read", at - 5000, at - 100, STREAM, c);
        add(&t, FB_TRACE_KERNEL, "fb_add_kernel<float>", at, at + 2345, STREAM, c);
        add(&t, FB_TRACE_KERNEL, "fb_relu_kernel<float>", at + 3000, at + 4001, STREAM, c);
    }
    add(&t, FB_TRACE_KERNEL, "helper", base + 1, base + 2, STREAM + 1, 0);
    add(&t, FB_TRACE_OTHER, "memcpy", base + 50000, base + 60000, STREAM, 0);
    const struct fb_trace_track track = {"eager_add_relu", "tmp = a + b; c = relu(tmp)",
                                         "GPU stream (CUPTI activity)", &t};
    char *text = write_trace(&track, 1, "NVIDIA H200");
    assert_json_shaped(text);
    assert_int_equal(strncmp(text, FB_TRACE_JSON_SIGNATURE, strlen(FB_TRACE_JSON_SIGNATURE)), 0);
    assert_int_equal(count_of(text, "\"ph\": \"X\""), 6);
    assert_int_equal(count_of(text, "\"ph\": \"i\""), 0); /* CUPTI gives no launch records */
    assert_null(strstr(text, "helper"));
    assert_null(strstr(text, "fb_cache_flush"));
    assert_null(strstr(text, "\"memcpy\""));
    /* the first kernel at 0, its 2345 ns as 2.345 us; call 2's relu at 23 us */
    assert_non_null(strstr(text, "{\"name\": \"fb_add_kernel<float>\", \"cat\": \"kernel\", "
                                 "\"ph\": \"X\", \"pid\": 1, \"tid\": 2, \"ts\": 0.000, "
                                 "\"dur\": 2.345, \"args\": {\"call\": 0}}"));
    assert_non_null(strstr(text, "\"ts\": 23.000, \"dur\": 1.001, \"args\": {\"call\": 2}}"));
    assert_non_null(strstr(text, "\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, "
                                 "\"tid\": 0, \"args\": {\"name\": \"eager_add_relu\"}}"));
    assert_non_null(strstr(text, "\"tid\": 2, \"args\": {\"name\": \"GPU stream (CUPTI "
                                 "activity)\"}}"));
    free(text);
    fb_kernel_trace_free(&t);
}

/* The graph variant on a GPU: 2 kernels per call under one cudaGraphLaunch; CUPTI's records
 * are the kernels, each a complete event of its call. And the host-timed CPU form: one
 * launch instant, then the two passes. */
static void test_host_launches_are_instant_events(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, FB_STREAM_ANY);
    for (uint32_t c = 0; c < 2; c++) {
        const uint64_t at = 5000000u + 100000u * c;
        add(&t, FB_TRACE_LAUNCH, "launch", at, at, 0, c);
        add(&t, FB_TRACE_KERNEL, "add", at + 4000, at + 5000, 0, c);
        add(&t, FB_TRACE_KERNEL, "relu", at + 5000, at + 5900, 0, c);
    }
    add(&t, FB_TRACE_PLATFORM, "memcpy", 5300000, 5300100, 0, 2);
    const struct fb_trace_track track = {"eager_add_relu_graph", "one launch", "CPU passes", &t};
    char *text = write_trace(&track, 1, "cpu");
    assert_json_shaped(text);
    assert_int_equal(count_of(text, "\"ph\": \"i\", \"s\": \"t\""), 2);
    assert_int_equal(count_of(text, "\"cat\": \"kernel\""), 4);
    assert_int_equal(count_of(text, "\"cat\": \"platform\""), 1);
    assert_non_null(strstr(text, "{\"name\": \"launch\", \"cat\": \"launch\", \"ph\": \"i\", "
                                 "\"s\": \"t\", \"pid\": 1, \"tid\": 1, \"ts\": 100.000, "
                                 "\"args\": {\"call\": 1}}"));
    assert_non_null(strstr(text, "\"name\": \"relu\", \"cat\": \"kernel\", \"ph\": \"X\", "
                                 "\"pid\": 1, \"tid\": 2, \"ts\": 105.000, \"dur\": 0.900"));
    free(text);
    fb_kernel_trace_free(&t);
}

/* One process per track, in the order given, each named and sorted by its position. */
static void test_a_process_per_variant_in_the_order_given(void **state)
{
    (void)state;
    struct fb_kernel_trace a, b;
    fb_kernel_trace_init(&a, FB_STREAM_ANY);
    fb_kernel_trace_init(&b, FB_STREAM_ANY);
    add(&a, FB_TRACE_KERNEL, "add_relu", 900, 1000, 0, 0);
    add(&b, FB_TRACE_KERNEL, "add", 100, 200, 0, 0);
    const struct fb_trace_track tracks[] = {{"fused_add_relu", "f", "q", &a},
                                            {"eager_add_relu", "e", "q", &b}};
    char *text = write_trace(tracks, 2, "cpu");
    assert_json_shaped(text);
    const char *fused = strstr(text, "{\"name\": \"fused_add_relu\"}");
    const char *eager = strstr(text, "{\"name\": \"eager_add_relu\"}");
    assert_non_null(fused);
    assert_non_null(eager);
    assert_true(fused < eager);
    assert_non_null(strstr(text, "\"pid\": 2, \"tid\": 0, \"args\": {\"sort_index\": 1}}"));
    /* the origin is the earliest record of the whole trace: eager's, at 100 ns */
    assert_non_null(strstr(text, "\"pid\": 1, \"tid\": 2, \"ts\": 0.800, \"dur\": 0.100"));
    assert_non_null(strstr(text, "\"pid\": 2, \"tid\": 2, \"ts\": 0.000, \"dur\": 0.100"));
    free(text);
    fb_kernel_trace_free(&a);
    fb_kernel_trace_free(&b);
}

/* Names are data: quotes, backslashes, control bytes, C1 controls, bytes outside UTF-8 and
 * markup come out as JSON string escapes (the one routine, fb_json_write_string), never
 * closing a string or an object. */
static void test_hostile_names_stay_data(void **state)
{
    (void)state;
    const char *hostile = "x\", \"ph\": \"X\"}, {\"evil\\\n\t\x01\x7f\xc2\x85\xff\xc0\xaf</script>";
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, FB_STREAM_ANY);
    add(&t, FB_TRACE_KERNEL, hostile, 10, 20, 0, 0);
    const struct fb_trace_track track = {hostile, hostile, hostile, &t};
    char *text = write_trace(&track, 1, hostile);
    assert_json_shaped(text);
    assert_int_equal(count_of(text, "\"ph\": \"X\""), 1); /* the hostile one is escaped */
    assert_non_null(strstr(text, "x\\\", \\\"ph\\\": \\\"X\\\"}, {\\\"evil\\\\\\n\\t\\u0001"
                                 "\\u007f\\u0085\\\\xFF\\\\xC0\\\\xAF</script>"));
    free(text);
    fb_kernel_trace_free(&t);
}

/* No track: still a whole trace (the list holds its opening metadata event). */
static void test_an_empty_trace_is_valid(void **state)
{
    (void)state;
    char *text = write_trace(NULL, 0, "cpu");
    assert_json_shaped(text);
    assert_non_null(strstr(text, "\"traceEvents\": [\n{\"name\": \"process_name\""));
    assert_non_null(strstr(text, "}\n]}\n"));
    free(text);
}

/* Writes text as the file NAME in a new scratch directory (into dir, path). */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cupti_like_records_become_complete_events),
        cmocka_unit_test(test_host_launches_are_instant_events),
        cmocka_unit_test(test_a_process_per_variant_in_the_order_given),
        cmocka_unit_test(test_hostile_names_stay_data),
        cmocka_unit_test(test_an_empty_trace_is_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
