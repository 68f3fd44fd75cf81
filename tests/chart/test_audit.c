/* The audit chart's numbers and table (src/chart/audit.h) from the checked-in audit of add,
 * relu at n = 4096 on a CPU (tests/plots/data/audit-add-relu.csv, tools/torch_audit.py
 * --output): kernels predicted and counted per mode, bytes predicted and none measured (and
 * why), the table gnuplot reads; a file that is not an audit is skipped, saying why. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/audit.h"
#include "chart/charts.h"
#include "chart/derive.h"

struct loaded {
    struct fb_csv_table table;
    struct fb_chart_derived d;
};

static void load(struct loaded *l, const char *name)
{
    static char path[1024];
    const char *src = getenv("FB_SOURCE_DIR") ? getenv("FB_SOURCE_DIR") : ".";
    snprintf(path, sizeof path, "%s/tests/plots/data/%s", src, name);
    const char *paths[1] = {path};
    struct fb_error err;
    if (fb_csv_read(path, &l->table, &err) != FB_OK ||
        fb_chart_derive(&l->table, paths, 1, &l->d, &err) != FB_OK)
        fail_msg("%s", err.msg);
}

static void unload(struct loaded *l)
{
    fb_chart_derived_free(&l->d);
    fb_csv_table_free(&l->table);
}

static void add_relu_is_2_and_2_kernels_eager_1_and_1_compiled(void **state)
{
    (void)state;
    struct loaded l;
    load(&l, "audit-add-relu.csv");
    assert_null(fb_audit_skip(&l.d));
    const struct fb_audit *a = l.d.audit;
    assert_int_equal(a->n_modes, 4);
    const char *names[4] = {"torch eager", "torch.compile", "fusebench eager",
                            "fusebench fused"};
    const double predicted[4] = {2, 1, 2, 1}, counted[4] = {2, 1, 2, 1};
    const double bytes[4] = {5 * 4096 * 4, 3 * 4096 * 4, 5 * 4096 * 4, 3 * 4096 * 4};
    for (int i = 0; i < 4; i++) {
        assert_string_equal(a->modes[i].name, names[i]);
        assert_true(a->modes[i].kernels_predicted == predicted[i]);
        assert_true(a->modes[i].kernels_counted == counted[i]);
        assert_true(a->modes[i].bytes_predicted == bytes[i]);
        assert_true(isnan(a->modes[i].bytes_measured)); /* a CPU: no DRAM counters */
        assert_true(a->modes[i].time_s > 0);
        assert_true(a->modes[i].time_lo_s < a->modes[i].time_s &&
                    a->modes[i].time_s < a->modes[i].time_hi_s);
    }
    assert_string_equal(a->bytes_unit, "kB");
    assert_string_equal(a->bytes_note, "measured: none (the CPU backend has no DRAM counters)");
    assert_string_equal(a->title, "Audit of add_relu: a=4096 b=4096, fp32");
    unload(&l);
}

/* The table plots/audit.gp reads: kp and kc, the predicted and counted kernels, per mode,
 * and the predicted bytes (in kB) and transfers; no measured bytes on a CPU. */
static void the_table_holds_predicted_beside_counted_kernels(void **state)
{
    (void)state;
    struct loaded l;
    load(&l, "audit-add-relu.csv");
    struct fb_tables ts = {0};
    fb_chart_audit.tables(&l.d, &ts);
    const struct fb_table *t = fb_tables_find(&ts, "audit.tsv");
    assert_non_null(t);
    assert_int_equal(fb_table_rows(t), 4);
    const char *names[4] = {"torch eager", "torch.compile", "fusebench eager", "fusebench fused"};
    const double want[4][4] = {{2, 2, 81.92, 5}, {1, 1, 49.152, 3}, {2, 2, 81.92, 5},
                               {1, 1, 49.152, 3}};
    const char *cols[4] = {"kp", "kc", "bp", "ta"};
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(fb_table_cell(t, i, "name")->text, names[i]);
        for (size_t c = 0; c < 4; c++)
            if (fabs(fb_table_cell(t, i, cols[c])->number - want[i][c]) > 1e-9)
                fail_msg("row %zu, %s: %g, expected %g", i + 1, cols[c],
                         fb_table_cell(t, i, cols[c])->number, want[i][c]);
        assert_true(isnan(fb_table_cell(t, i, "bm")->number));
    }
    fb_tables_free(&ts);
    unload(&l);
}

static void a_sweep_is_not_an_audit_and_says_so(void **state)
{
    (void)state;
    struct loaded l;
    load(&l, "sample-cpu.csv");
    const char *why = fb_audit_skip(&l.d);
    assert_non_null(why);
    assert_non_null(strstr(why, "not an audit"));
    struct fb_tables ts = {0};
    fb_chart_audit.tables(&l.d, &ts);
    assert_int_equal(fb_table_rows(fb_tables_find(&ts, "audit.tsv")), 0);
    fb_tables_free(&ts);
    unload(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(add_relu_is_2_and_2_kernels_eager_1_and_1_compiled),
        cmocka_unit_test(the_table_holds_predicted_beside_counted_kernels),
        cmocka_unit_test(a_sweep_is_not_an_audit_and_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
