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

/* The table plots/audit.gp reads: kp and kc, the predicted and counted kernels, per mode. */
static void the_table_holds_predicted_beside_counted_kernels(void **state)
{
    (void)state;
    struct loaded l;
    load(&l, "audit-add-relu.csv");
    char dir[] = "/tmp/fb-test-audit.XXXXXX";
    assert_non_null(mkdtemp(dir));
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(dirfd >= 0);
    struct fb_error err;
    assert_int_equal(fb_audit_tables_write(dirfd, &l.d, &err), FB_OK);
    char path[1100], line[512];
    snprintf(path, sizeof path, "%s/audit.tsv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "i\tname\tcolour\tkp\tkc\tbp\tbm\tta\tt\ttlo\tthi\n");
    const char *starts[4] = {"1\ttorch eager\t", "2\ttorch.compile\t", "3\tfusebench eager\t",
                             "4\tfusebench fused\t"};
    const char *counts[4] = {"\t2\t2\t81.92\tNaN\t5\t", "\t1\t1\t49.152\tNaN\t3\t",
                             "\t2\t2\t81.92\tNaN\t5\t", "\t1\t1\t49.152\tNaN\t3\t"};
    for (int i = 0; i < 4; i++) {
        assert_non_null(fgets(line, sizeof line, f));
        assert_true(strncmp(line, starts[i], strlen(starts[i])) == 0);
        if (!strstr(line, counts[i]))
            fail_msg("row %d: no \"%s\" in \"%s\"", i + 1, counts[i], line);
    }
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    unlinkat(dirfd, "audit.tsv", 0);
    unlinkat(dirfd, "audit_labels.tsv", 0);
    close(dirfd);
    rmdir(dir);
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
    struct fb_error err;
    assert_int_equal(fb_audit_tables_write(-1, &l.d, &err), FB_OK); /* writes nothing */
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
