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
#include "output/trace_read.h"

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
static void scratch_file(char *dir, size_t dir_size, char *path, size_t path_size,
                         const char *text)
{
    fb_test_mkdtemp(dir, dir_size, "trace");
    snprintf(path, path_size, "%s/t.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* --plot FILE.json reads a trace back: every record, its call and its time to the ns, the
 * names (escapes decoded, a non-ASCII name kept) and the run's facts. */
static void test_a_trace_reads_back_as_written(void **state)
{
    (void)state;
    struct fb_kernel_trace a, b;
    fb_kernel_trace_init(&a, FB_STREAM_ANY);
    fb_kernel_trace_init(&b, STREAM);
    add(&a, FB_TRACE_LAUNCH, "launch", 1000, 1000, 0, 0);
    add(&a, FB_TRACE_KERNEL, "add \"q\" \\ \t caf\xc3\xa9", 2001, 3456, 0, 0);
    add(&a, FB_TRACE_PLATFORM, "memcpy", 4000, 4999, 0, 1);
    add(&b, FB_TRACE_KERNEL, "relu", 1000 + 7, 1000 + 1007, STREAM, 3);
    add(&b, FB_TRACE_KERNEL, "other stream", 1, 2, STREAM + 1, 0);
    const struct fb_trace_track tracks[] = {{"eager_x", "d\n1", "q1", &a},
                                            {"fused_x", "d2", "q2", &b}};
    char *text = write_trace(tracks, 2, "dev \"1\"");
    char dir[512], path[600];
    scratch_file(dir, sizeof dir, path, sizeof path, text);
    free(text);
    struct fb_trace_read *t = malloc(sizeof *t);
    assert_non_null(t);
    struct fb_error err;
    assert_int_equal(fb_trace_read(path, t, &err), FB_OK);
    assert_int_equal(t->count, 2);
    assert_string_equal(t->tracks[0].name, "eager_x");
    assert_string_equal(t->tracks[0].description, "d\n1");
    assert_string_equal(t->tracks[1].kernels_name, "q2");
    assert_string_equal(t->info.device, "dev \"1\"");
    assert_string_equal(t->info.backend, "cuda");
    assert_int_equal(t->info.n, 1000);
    assert_int_equal(t->info.calls, 3);
    const struct fb_kernel_trace *ra = t->tracks[0].trace, *rb = t->tracks[1].trace;
    assert_int_equal(ra->count, 3);
    assert_int_equal(rb->count, 1); /* the other stream's kernel was never written */
    /* times from the trace's origin (1 ns: the other stream's record is not shown, so 1000) */
    assert_int_equal(ra->items[0].kind, FB_TRACE_LAUNCH);
    assert_int_equal(ra->items[0].start_ns, 0);
    assert_int_equal(ra->items[1].kind, FB_TRACE_KERNEL);
    assert_string_equal(ra->items[1].name, "add \"q\" \\ \t caf\xc3\xa9");
    assert_int_equal(ra->items[1].start_ns, 1001);
    assert_int_equal(ra->items[1].end_ns, 2456);
    assert_int_equal(ra->items[2].kind, FB_TRACE_PLATFORM);
    assert_int_equal(ra->items[2].correlation_id, 1);
    assert_int_equal(rb->items[0].start_ns, 7);
    assert_int_equal(rb->items[0].end_ns, 1007);
    assert_int_equal(rb->items[0].correlation_id, 3);
    fb_trace_read_free(t);
    free(t);
    fb_test_rmtree(dir);
    fb_kernel_trace_free(&a);
    fb_kernel_trace_free(&b);
}

/* What is not a fusebench trace is refused with the file and line, not misread. */
static void test_foreign_or_broken_traces_are_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"", ":1: an empty file"},
        {"{\"traceEvents\": []}\n", ":1: not a trace fusebench wrote"},
        {FB_TRACE_JSON_SIGNATURE ", \"n\": 8},\n\"traceEvents\": [\n{\"name\": \"x\", "
         "\"ph\": \"X\", \"pid\": 1, \"ts\": 1, \"dur\": 1, \"args\": {\"call\": 0}}\n]}\n",
         ":3: an event of a process not named before it"},
        {FB_TRACE_JSON_SIGNATURE "},\n\"traceEvents\": [\n{\"name\": \"process_name\", "
         "\"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"v\"}},\n{\"name\": \"k\", "
         "\"cat\": \"kernel\", \"ph\": \"X\", \"pid\": 1, \"ts\": 1.5\n]}\n",
         ":4: not a JSON object"},
        {FB_TRACE_JSON_SIGNATURE "},\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, "
         "\"args\": {\"name\": \"v\"}},\n{\"name\": \"k\", \"cat\": \"kernel\", "
         "\"ph\": \"X\", \"pid\": 1, \"ts\": 1.5, \"args\": {\"call\": 0}}\n",
         ":3: an event that is not one of fusebench's"},
        {FB_TRACE_JSON_SIGNATURE "},\n{\"name\": \"bad \\ud800\", \"ph\": \"M\", \"pid\": 1}\n",
         ":2: not a JSON object"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[512], path[600];
        scratch_file(dir, sizeof dir, path, sizeof path, cases[i].text);
        struct fb_trace_read *t = malloc(sizeof *t);
        assert_non_null(t);
        struct fb_error err;
        assert_int_equal(fb_trace_read(path, t, &err), FB_ERR_USAGE);
        if (!strstr(err.msg, cases[i].why))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", i, err.msg, cases[i].why);
        fb_trace_read_free(t);
        free(t);
        fb_test_rmtree(dir);
    }
}

/* A trace with bytes changed at random (a fixed seed: the same cases every run) is read or
 * refused, never misread past its buffers (ASan and UBSan in CI watch this one). */
static void test_mutated_traces_are_read_or_refused(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, FB_STREAM_ANY);
    for (uint32_t c = 0; c < 3; c++) {
        add(&t, FB_TRACE_LAUNCH, "launch", 100u * c, 100u * c, 0, c);
        add(&t, FB_TRACE_KERNEL, "k\\\"\xc3\xa9", 100u * c + 5, 100u * c + 50, 0, c);
    }
    const struct fb_trace_track track = {"v", "d", "q", &t};
    char *good = write_trace(&track, 1, "dev");
    const size_t len = strlen(good);
    char *bad = malloc(len + 1);
    struct fb_trace_read *r = malloc(sizeof *r);
    assert_non_null(bad);
    assert_non_null(r);
    char dir[512], path[600];
    fb_test_mkdtemp(dir, sizeof dir, "trace");
    snprintf(path, sizeof path, "%s/t.json", dir);
    uint32_t x = 2463534242u; /* xorshift32 */
    static const char pick[] = "\"\\{}[],:0123456789.-eu\n\x01\x80\xff ";
    for (int i = 0; i < 1500; i++) {
        memcpy(bad, good, len + 1);
        size_t n = len;
        for (int m = 0; m < 1 + i % 4; m++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            const size_t at = x % n;
            bad[at] = pick[(x >> 16) % (sizeof pick - 1)];
        }
        if (i % 7 == 0)
            n = x % (n + 1);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(bad, 1, n, f), n);
        assert_int_equal(fclose(f), 0);
        struct fb_error err;
        const int rc = fb_trace_read(path, r, &err);
        assert_true(rc == FB_OK || rc == FB_ERR_USAGE);
        for (size_t k = 0; rc == FB_OK && k < r->count; k++) {
            assert_non_null(memchr(r->names[k], '\0', sizeof r->names[k]));
            for (size_t j = 0; j < r->traces[k].count; j++)
                assert_true(r->traces[k].items[j].end_ns >= r->traces[k].items[j].start_ns);
        }
        fb_trace_read_free(r);
    }
    fb_test_rmtree(dir);
    free(r);
    free(bad);
    free(good);
    fb_kernel_trace_free(&t);
}


/* Reads path, expecting FB_ERR_USAGE with a message that says why. */
static void assert_refused(const char *path, const char *why)
{
    struct fb_trace_read *t = malloc(sizeof *t);
    assert_non_null(t);
    struct fb_error err;
    assert_int_equal(fb_trace_read(path, t, &err), FB_ERR_USAGE);
    if (!strstr(err.msg, why))
        fail_msg("\"%s\" does not say \"%s\"", err.msg, why);
    fb_trace_read_free(t);
    free(t);
}

/* 50,000 nested objects on one line are refused, not recursed into (the parser's stack
 * overflowed: SIGSEGV). */
static void test_deeply_nested_objects_are_refused(void **state)
{
    (void)state;
    enum { DEPTH = 50000 };
    const char *head = FB_TRACE_JSON_SIGNATURE "},\n";
    char *text = malloc(strlen(head) + DEPTH * 7 + 3);
    assert_non_null(text);
    char *p = text + sprintf(text, "%s", head);
    for (int i = 0; i < DEPTH; i++)
        p += sprintf(p, "{\"a\": ");
    p += sprintf(p, "1");
    for (int i = 0; i < DEPTH; i++)
        *p++ = '}';
    strcpy(p, "\n");
    char dir[512], path[600];
    scratch_file(dir, sizeof dir, path, sizeof path, text);
    free(text);
    assert_refused(path, ":2: objects nested deeper than a fusebench trace nests them");
    fb_test_rmtree(dir);
}

/* A directory, a FIFO (no writer: reading it waited forever) and a device are refused for
 * what they are before a byte is read, not reported as "an empty file". */
static void test_what_is_not_a_regular_file_is_refused(void **state)
{
    (void)state;
    char dir[512], path[600];
    fb_test_mkdtemp(dir, sizeof dir, "trace");
    snprintf(path, sizeof path, "%s/d.json", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_refused(path, "d.json: is a directory, not a trace");
    snprintf(path, sizeof path, "%s/f.json", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_refused(path, "f.json: is a FIFO, not a trace");
    snprintf(path, sizeof path, "%s/null.json", dir);
    assert_int_equal(symlink("/dev/null", path), 0);
    assert_refused(path, "null.json: is a character device, not a trace");
    fb_test_rmtree(dir);
}

/* A file larger than any trace is refused by its size (a sparse file: no disk is used). */
static void test_a_file_past_the_size_of_a_trace_is_refused(void **state)
{
    (void)state;
    char dir[512], path[600];
    scratch_file(dir, sizeof dir, path, sizeof path, FB_TRACE_JSON_SIGNATURE "},\n");
    assert_int_equal(truncate(path, (off_t)FB_TRACE_READ_MAX_BYTES + 1), 0);
    assert_refused(path, "bytes; a fusebench trace has at most");
    fb_test_rmtree(dir);
}

/* Numbers that no long long holds (1e300: converting it is undefined, which clang's
 * -fsanitize=float-cast-overflow reports) and what JSON does not call a number are refused. */
static void test_numbers_out_of_range_are_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *why;
    } cases[] = {
        {FB_TRACE_JSON_SIGNATURE ", \"n\": 1e300},\n", ":1: a number out of the range"},
        {FB_TRACE_JSON_SIGNATURE ", \"calls\": -1e300},\n", ":1: a number out of the range"},
        {FB_TRACE_JSON_SIGNATURE "},\n{\"name\": \"x\", \"ph\": \"M\", \"pid\": 1e300}\n",
         ":2: a number out of the range"},
        {FB_TRACE_JSON_SIGNATURE "},\n{\"name\": \"x\", \"ph\": \"M\", \"pid\": 1, "
         "\"tid\": 9.3e18}\n", ":2: a number out of the range"},
        {FB_TRACE_JSON_SIGNATURE "},\n{\"name\": \"x\", \"ph\": \"M\", \"pid\": 1, "
         "\"args\": {\"call\": -9.3e18}}\n", ":2: a number out of the range"},
        {FB_TRACE_JSON_SIGNATURE "},\n{\"name\": \"x\", \"ph\": \"M\", \"pid\": nan}\n",
         ":2: not a JSON object"},
        {FB_TRACE_JSON_SIGNATURE "},\n{\"name\": \"x\", \"ph\": \"M\", \"pid\": -inf}\n",
         ":2: not a JSON object"},
        {FB_TRACE_JSON_SIGNATURE "},\n{\"name\": \"x\", \"ph\": \"M\", \"pid\": 0x1p70}\n",
         ":2: not a JSON object"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[512], path[600];
        scratch_file(dir, sizeof dir, path, sizeof path, cases[i].text);
        print_message("case %zu\n", i);
        assert_refused(path, cases[i].why);
        fb_test_rmtree(dir);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cupti_like_records_become_complete_events),
        cmocka_unit_test(test_host_launches_are_instant_events),
        cmocka_unit_test(test_a_process_per_variant_in_the_order_given),
        cmocka_unit_test(test_hostile_names_stay_data),
        cmocka_unit_test(test_an_empty_trace_is_valid),
        cmocka_unit_test(test_a_trace_reads_back_as_written),
        cmocka_unit_test(test_foreign_or_broken_traces_are_refused),
        cmocka_unit_test(test_mutated_traces_are_read_or_refused),
        cmocka_unit_test(test_deeply_nested_objects_are_refused),
        cmocka_unit_test(test_what_is_not_a_regular_file_is_refused),
        cmocka_unit_test(test_a_file_past_the_size_of_a_trace_is_refused),
        cmocka_unit_test(test_numbers_out_of_range_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
