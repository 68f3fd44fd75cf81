/* The one-page report (src/report/report.h): link targets from data are inert, hostile
 * metadata never becomes markup on the page (the escaper itself: tests/common/test_text.c),
 * and the page holds the machine, the fit, the headline speedups with their intervals, the
 * noisy count and the figures, on tests/plots/data. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <signal.h>

#include "../common/test_tmpdir.h"
#include "common/interrupt.h"
#include "app/report.h"
#include "chart/derive.h"
#include "report/report.h"

static void link_targets_are_percent_encoded(void **state)
{
    (void)state;
    char buf[512] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    fb_report_md_target(f, "a b)(\"x\"<y>-speedup.png");
    fclose(f);
    assert_string_equal(buf, "a%20b%29%28%22x%22%3Cy%3E-speedup.png");
}

/* The page of a table read from tests/plots/data/NAME, with metadata values replaced as given
 * (key, value pairs; NULL-terminated), derived and written with the charts given. */
static char *page_of(const char *name, const char *stem, const char *const *meta,
                     const char *const *charts, size_t n_charts)
{
    char path[1024];
    const char *src = getenv("FB_SOURCE_DIR") ? getenv("FB_SOURCE_DIR") : ".";
    snprintf(path, sizeof path, "%s/tests/plots/data/%s", src, name);
    struct fb_csv_table t;
    struct fb_error err;
    if (fb_csv_read(path, &t, &err) != FB_OK)
        fail_msg("%s", err.msg);
    for (size_t m = 0; meta && meta[m]; m += 2)
        for (size_t i = 0; i < t.n_meta; i++)
            if (strcmp(t.meta[i].key, meta[m]) == 0)
                snprintf(t.meta[i].value, sizeof t.meta[i].value, "%s", meta[m + 1]);
    struct fb_chart_derived *d = calloc(1, sizeof *d);
    assert_non_null(d);
    const char *paths[1] = {path};
    if (fb_chart_derive(&t, paths, 1, d, &err) != FB_OK)
        fail_msg("%s", err.msg);
    size_t size = 1 << 20;
    char *buf = calloc(1, size);
    assert_non_null(buf);
    FILE *f = fmemopen(buf, size - 1, "w");
    assert_int_equal(fb_report_write(f, &t, stem, d, charts, n_charts), 0);
    fclose(f);
    fb_chart_derived_free(d);
    free(d);
    fb_csv_table_free(&t);
    return buf;
}

static void the_page_holds_the_run_its_fit_headlines_noisy_count_and_figures(void **state)
{
    (void)state;
    const char *charts[] = {"intervals-speedup.png", "intervals-time.png"};
    char *page = page_of("intervals.csv", "intervals", NULL, charts, 2);
    assert_non_null(strstr(page, "# fusebench: intervals\n"));
    assert_non_null(strstr(page, "| device | Test CPU |"));
    assert_non_null(strstr(page, "## The fitted model"));
    /* 100M is the memory-bound headline, with the interval its row holds */
    assert_non_null(strstr(page, "| memory-bound | 100M | 1.69x | 1.680 - 1.710 |"));
    /* 1M: a speedup without an interval */
    assert_non_null(strstr(page, "| 1M | 2.00x | - |"));
    assert_non_null(strstr(page, "1 point was noisy"));
    assert_non_null(strstr(page, "--resume"));
    assert_non_null(strstr(page, "![speedup](intervals-speedup.png)"));
    assert_non_null(strstr(page, "![time](intervals-time.png)"));
    free(page);
}

/* Hostile metadata and file stems (what issue 18 fed the chart scripts) stay text. */
static void hostile_metadata_never_becomes_markup(void **state)
{
    (void)state;
    const char *meta[] = {
        "device", "<script>alert(1)</script> [x](javascript:alert(1))",
        "label", "![i](http://evil.example/i.png) | injected | cell\n## heading",
        "date", "x\"; system(\"touch /tmp/pwned\"); print \"",
        NULL};
    const char *charts[] = {"a](javascript:x)-speedup.png"};
    char *page = page_of("intervals.csv", "<b>stem</b>", meta, charts, 1);
    /* no '<' of the page is unescaped (the page itself writes none: no HTML at all) */
    for (const char *p = page; (p = strchr(p, '<')) != NULL; p++)
        assert_true(p > page && p[-1] == '\\');
    assert_null(strstr(page, "](javascript"));
    assert_null(strstr(page, "](http://"));
    assert_null(strstr(page, "\n## heading"));
    assert_non_null(strstr(page, "| device | \\<script\\>alert\\(1\\)\\<\\/script\\> "
                                 "\\[x\\]\\(javascript\\:alert\\(1\\)\\) |"));
    assert_non_null(strstr(page, "# fusebench: \\<b\\>stem\\<\\/b\\>\n"));
    assert_non_null(strstr(page, "](a%5D%28javascript%3Ax%29-speedup.png)"));
    /* one table row per metadata line: the label's '|' split no cell */
    const char *label = strstr(page, "| label | ");
    assert_non_null(label);
    size_t bars = 0;
    for (const char *p = label; *p && *p != '\n'; p++)
        bars += *p == '|' && (p == label || p[-1] != '\\');
    assert_int_equal(bars, 3);
    free(page);
}

/* Issue 33: under each figure, the results file, commit and config hash it was drawn from;
 * from the metadata as text (a hostile commit stays text), "unknown" when a file has none. */
static void each_figure_names_its_source(void **state)
{
    (void)state;
    const char *charts[] = {"sample-cpu-speedup.png", "sample-cpu-time.png"};
    char *page = page_of("sample-cpu.csv", "sample-cpu", NULL, charts, 2);
    const char *source = "Source: sample\\-cpu.csv, commit 77e4d4d5a1b2, config hash 9f3c2a1b.\n";
    const char *figure[] = {"![speedup](sample-cpu-speedup.png)\n\n",
                            "![time](sample-cpu-time.png)\n\n"};
    for (size_t i = 0; i < 2; i++) {
        const char *at = strstr(page, figure[i]);
        assert_non_null(at);
        assert_true(strncmp(at + strlen(figure[i]), source, strlen(source)) == 0);
    }
    free(page);
    const char *meta[] = {"git_commit", "x](javascript:alert(1))\n## heading <b>", NULL};
    page = page_of("sample-cpu.csv", "sample-cpu", meta, charts, 1);
    assert_non_null(strstr(page, "commit x\\]\\(javascript\\:alert\\(1\\)\\)\\\\n\\#\\# "
                                 "heading \\<b\\>, config hash 9f3c2a1b.\n"));
    free(page);
    page = page_of("intervals.csv", "intervals", NULL, charts, 1);
    assert_non_null(strstr(page, "Source: intervals.csv, commit unknown, config hash unknown.\n"));
    free(page);
}

/* Item 17 of issue 34: a SIGINT while --report works leaves the old page and no temporary
 * file (a killed report left ".STEM-report.md.tmp.PID.N"), and says which signal. */
static void an_interrupted_report_keeps_the_old_page_and_leaves_no_temporary(void **state)
{
    (void)state;
    char dir[512], csv[600], page[600], line[256];
    fb_test_mkdtemp(dir, sizeof dir, "fb-report");
    snprintf(csv, sizeof csv, "%s/run.csv", dir);
    snprintf(page, sizeof page, "%s/run-report.md", dir);
    const char *src = getenv("FB_SOURCE_DIR") ? getenv("FB_SOURCE_DIR") : ".";
    char sample[600];
    snprintf(sample, sizeof sample, "%s/tests/plots/data/sample-cpu.csv", src);
    FILE *in = fopen(sample, "r"), *out = fopen(csv, "w");
    assert_non_null(in);
    assert_non_null(out);
    while (fgets(line, sizeof line, in))
        fputs(line, out);
    fclose(in);
    fclose(out);
    out = fopen(page, "w");
    assert_non_null(out);
    fputs("# fusebench: the old page\n", out);
    fclose(out);

    fb_interrupt_catch();
    raise(SIGINT); /* caught: the report stops at its next safe point */
    assert_int_equal(fb_app_report(csv, dir, false), FB_ERR_INTERRUPTED);
    assert_int_equal(fb_interrupted, SIGINT); /* what main makes the exit code of */
    in = fopen(page, "r");
    assert_non_null(in);
    assert_non_null(fgets(line, sizeof line, in));
    fclose(in);
    assert_string_equal(line, "# fusebench: the old page\n");
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    assert_int_equal(entries, 2); /* run.csv and run-report.md: no temporary */
    fb_test_rmtree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(link_targets_are_percent_encoded),
        cmocka_unit_test(the_page_holds_the_run_its_fit_headlines_noisy_count_and_figures),
        cmocka_unit_test(each_figure_names_its_source),
        cmocka_unit_test(hostile_metadata_never_becomes_markup),
        cmocka_unit_test(an_interrupted_report_keeps_the_old_page_and_leaves_no_temporary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
