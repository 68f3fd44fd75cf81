/* The per-kernel table (src/cupti/kernel_table.h) and its text (kernel_table_print.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti/kernel_table.h"
#include "cupti/kernel_table_print.h"
#include "cupti_test_util.h"

#define STREAM 7

static void add(struct fb_kernel_trace *t, const char *name, uint64_t start, uint64_t dur,
                uint32_t stream, enum fb_trace_kind kind)
{
    struct fb_kernel_record r;
    memset(&r, 0, sizeof(r));
    r.kind = kind;
    strcpy(r.name, name);
    r.start_ns = start;
    r.end_ns = start + dur;
    r.stream_id = stream;
    r.correlation_id = (uint32_t)t->count + 1;
    assert_int_equal(fb_kernel_trace_append(t, &r, NULL), FB_OK);
}

/* Three eager calls (add 2000/3000/4000 ns, relu 1000 ns each) plus noise that must not show:
 * a kernel on another stream and a non-kernel record. */
static void eager_trace(struct fb_kernel_trace *t)
{
    fb_kernel_trace_init(t, STREAM);
    uint64_t now = 0;
    for (int c = 0; c < 3; c++) {
        add(t, "add", now, 2000 + 1000 * (uint64_t)c, STREAM, FB_TRACE_KERNEL);
        now += 10000;
        add(t, "relu", now, 1000, STREAM, FB_TRACE_KERNEL);
        now += 10000;
    }
    add(t, "helper", 5, 99999, STREAM + 1, FB_TRACE_KERNEL);
    add(t, "memcpy", 6, 99999, STREAM, FB_TRACE_OTHER);
}

static void kernels_are_grouped_by_name_with_their_statistics(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    eager_trace(&t);
    struct fb_kernel_table tab;
    assert_int_equal(fb_kernel_table_build(&t, &tab, NULL), FB_OK);
    assert_int_equal(tab.count, 2);
    /* largest total first */
    assert_string_equal(tab.rows[0].name, "add");
    assert_int_equal(tab.rows[0].calls, 3);
    assert_close(tab.rows[0].total_s, 9000e-9, 1e-15);
    assert_close(tab.rows[0].avg_s, 3000e-9, 1e-15);
    assert_close(tab.rows[0].min_s, 2000e-9, 1e-15);
    assert_close(tab.rows[0].max_s, 4000e-9, 1e-15);
    assert_close(tab.rows[0].percent, 75.0, 1e-9);
    assert_string_equal(tab.rows[1].name, "relu");
    assert_int_equal(tab.rows[1].calls, 3);
    assert_close(tab.rows[1].total_s, 3000e-9, 1e-15);
    assert_close(tab.rows[1].percent, 25.0, 1e-9);
    assert_close(tab.total_s, 12000e-9, 1e-15);
    fb_kernel_table_free(&tab);
    assert_null(tab.rows);
    fb_kernel_trace_free(&t);
}

/* --profile's host records: a platform call (the memcpy step, on any stream) is a row of its
 * own; host launches (instants) are not rows. */
static void platform_calls_are_rows_and_launches_are_not(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    eager_trace(&t);
    add(&t, "memcpy", 100, 500, 0, FB_TRACE_PLATFORM);
    add(&t, "memcpy", 900, 700, 0, FB_TRACE_PLATFORM);
    add(&t, "launch", 50, 0, 0, FB_TRACE_LAUNCH);
    struct fb_kernel_table tab;
    assert_int_equal(fb_kernel_table_build(&t, &tab, NULL), FB_OK);
    assert_int_equal(tab.count, 3);
    assert_string_equal(tab.rows[2].name, "memcpy");
    assert_int_equal(tab.rows[2].calls, 2);
    assert_close(tab.rows[2].total_s, 1200e-9, 1e-15);
    for (size_t i = 0; i < tab.count; i++)
        assert_string_not_equal(tab.rows[i].name, "launch");
    fb_kernel_table_free(&tab);
    fb_kernel_trace_free(&t);
}

static void an_empty_trace_gives_an_empty_table(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    struct fb_kernel_table tab;
    assert_int_equal(fb_kernel_table_build(&t, &tab, NULL), FB_OK);
    assert_int_equal(tab.count, 0);
    assert_close(tab.total_s, 0.0, 0.0);
    fb_kernel_table_free(&tab);
}

static char *print_to_string(const struct fb_kernel_table *tab, int width)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    assert_int_equal(fb_kernel_table_print(f, tab, width), 0);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void the_printed_table_has_units_percentages_and_a_total(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    eager_trace(&t);
    struct fb_kernel_table tab;
    assert_int_equal(fb_kernel_table_build(&t, &tab, NULL), FB_OK);
    char *text = print_to_string(&tab, 10);
    const char *expected =
        "Kernel        Calls        Total          Avg          Min          Max  % total\n"
        "add               3     9.000 us     3.000 us     2.000 us     4.000 us    75.0%\n"
        "relu              3     3.000 us     1.000 us     1.000 us     1.000 us    25.0%\n"
        "--------------------------------------------------------------------------------\n"
        "Total             6    12.000 us\n";
    assert_string_equal(text, expected);
    free(text);
    fb_kernel_table_free(&tab);
    fb_kernel_trace_free(&t);
}

static void long_kernel_names_are_cut_with_an_ellipsis(void **state)
{
    (void)state;
    struct fb_kernel_trace t;
    fb_kernel_trace_init(&t, STREAM);
    add(&t, "void fb_binary_vector_kernel<AddOp>(float const*, float const*, float*, long)", 0,
        1500000, STREAM, FB_TRACE_KERNEL);
    struct fb_kernel_table tab;
    assert_int_equal(fb_kernel_table_build(&t, &tab, NULL), FB_OK);
    char *text = print_to_string(&tab, 12);
    assert_non_null(strstr(text, "\nvoid fb_b...        1     1.500 ms"));
    free(text);
    fb_kernel_table_free(&tab);
    fb_kernel_trace_free(&t);
}

static void durations_pick_a_readable_unit(void **state)
{
    (void)state;
    char buf[32];
    fb_format_duration(buf, sizeof(buf), 2.5);
    assert_string_equal(buf, "2.500 s");
    fb_format_duration(buf, sizeof(buf), 0.0125);
    assert_string_equal(buf, "12.500 ms");
    fb_format_duration(buf, sizeof(buf), 3.25e-6);
    assert_string_equal(buf, "3.250 us");
    fb_format_duration(buf, sizeof(buf), 800e-9);
    assert_string_equal(buf, "800.000 ns");
    fb_format_duration(buf, sizeof(buf), 0.0);
    assert_string_equal(buf, "0.000 ns");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_are_grouped_by_name_with_their_statistics),
        cmocka_unit_test(platform_calls_are_rows_and_launches_are_not),
        cmocka_unit_test(an_empty_trace_gives_an_empty_table),
        cmocka_unit_test(the_printed_table_has_units_percentages_and_a_total),
        cmocka_unit_test(long_kernel_names_are_cut_with_an_ellipsis),
        cmocka_unit_test(durations_pick_a_readable_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
