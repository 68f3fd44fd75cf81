/* The timeline chart's table (chart/timeline.h) from constructed tracks: each lane draws its
 * median call from that call's launch, counts per call over all calls, names as data. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../common/test_tmpdir.h"
#include "chart/timeline.h"

static void add(struct fb_kernel_trace *t, enum fb_trace_kind kind, const char *name,
                uint64_t start, uint64_t end, uint32_t call)
{
    struct fb_kernel_record r = {.kind = kind, .start_ns = start, .end_ns = end,
                                 .correlation_id = call};
    snprintf(r.name, sizeof r.name, "%s", name);
    assert_int_equal(fb_kernel_trace_append(t, &r, NULL), FB_OK);
}

/* The text of table `name` in dir. */
static char *slurp(const char *dir, const char *name)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_each_lane_draws_its_median_call(void **state)
{
    (void)state;
    /* eager: 3 calls whose spans are 9, 3 and 5 us (a launch, add, a launch, relu each): the
     * median is call 2 (5 us), drawn from its own launch at 0. fused: one call. */
    struct fb_kernel_trace eager, fused;
    fb_kernel_trace_init(&eager, FB_STREAM_ANY);
    fb_kernel_trace_init(&fused, FB_STREAM_ANY);
    const uint64_t start[3] = {1000000, 2000000, 3000000}, span[3] = {9000, 3000, 5000};
    for (uint32_t c = 0; c < 3; c++) {
        add(&eager, FB_TRACE_LAUNCH, "launch", start[c], start[c], c);
        add(&eager, FB_TRACE_KERNEL, "add", start[c], start[c] + 1000, c);
        add(&eager, FB_TRACE_LAUNCH, "launch", start[c] + 1500, start[c] + 1500, c);
        add(&eager, FB_TRACE_KERNEL, "relu", start[c] + 1500, start[c] + span[c], c);
    }
    add(&fused, FB_TRACE_LAUNCH, "launch", 7000000, 7000000, 0);
    add(&fused, FB_TRACE_KERNEL, "add_relu", 7000200, 7001700, 0);
    const struct fb_trace_track tracks[] = {{"eager \"x\"\t", "", "", &eager},
                                            {"fused", "", "", &fused}};
    const struct fb_trace_info info = {"v", "cpu", "dev", 1000, 3, "host"};
    char dir[512];
    fb_test_mkdtemp(dir, sizeof dir, "timeline");
    char path[700];
    snprintf(path, sizeof path, "%s/t-timeline.tsv", dir);
    struct fb_error err;
    assert_int_equal(fb_chart_timeline_save(path, tracks, 2, &info, &err), FB_OK);
    const char *text = slurp(dir, "t-timeline.tsv");
    /* the signature, then gnuplot's index blocks in order, each after two blank lines */
    assert_string_equal(
        text,
        FB_TIMELINE_SIGNATURE "\n"
        /* every field followed by a TAB, the last too (chart/table.h) */
        "\n\n# index 0: a kernel or platform record drawn (\xC2\xB5s)\nx0\tx1\ty\tk\t\n"
        "0\t1\t2\t1\t\n1.5\t5\t2\t2\t\n0.2\t1.7\t1\t3\t\n"
        "\n\n# index 1: a host launch drawn (\xC2\xB5s)\nx\ty\t\n0\t2\t\n1.5\t2\t\n0\t1\t\n"
        "\n\n# index 2: the kernel names, in order of first appearance\nk\tname\tcolour\t\n"
        "1\tadd\t#0072B2\t\n2\trelu\t#E69F00\t\n3\tadd_relu\t#009E73\t\n"
        /* the lane's name as data (the quote and the TAB escaped), counts over all 3 calls */
        "\n\n# index 3: the lanes, the first at the top\ni\ty\tname\tnote\t\n"
        "1\t2\teager ''x''\\\\t\t2 kernels, 2 host launches per call\t\n"
        "2\t1\tfused\t1 kernel, 1 host launch per call\t\n"
        "\n\n# index 4: the chart\n"
        "ntracks\tnkinds\tnbars\tnlaunches\txmax\tdevice\ttitle\ttiming\t\n"
        "2\t3\t3\t3\t5\tdev\tn = 1000 elements, the median call of 3 per variant\thost\t\n");
    /* written whole: nothing but the table is left in the directory */
    DIR *d = opendir(dir);
    assert_non_null(d);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 1);
    fb_test_rmtree(dir);
    fb_kernel_trace_free(&eager);
    fb_kernel_trace_free(&fused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_lane_draws_its_median_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
