/* --compare: read, derive each run alone, judge, print, draw (contract in compare.h). */
#define _GNU_SOURCE
#include "app/compare.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/interrupt.h"
#include "results/output_paths.h"
#include "chart/gnuplot.h"
#include "chart/charts.h"
#include "chart/read.h"
#include "common/error.h"
#include "common/text.h"
#include "compare/runs.h"

enum { RENDER_OK = 0, RENDER_FAILED = 1, RENDER_USAGE = 2, RENDER_NO_GNUPLOT = 3 };

struct session {
    struct fb_csv_table tables[FB_CHART_MAX_FILES];
    struct fb_chart_derived *derived[FB_CHART_MAX_FILES];
    size_t n;
    struct fb_compare compare;
};

static int fail(int rc, const struct fb_error *err)
{
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    fb_text_escape_in_place(msg, sizeof msg);
    fprintf(stderr, "--compare: %s\n", msg);
    return rc;
}

/* Reads the files and derives each alone (file 0 of its own derivation). */
static int load(struct session *s, const char *const *files, struct fb_error *err)
{
    int rc = fb_chart_read_tables(files, s->n, s->tables, err);
    for (size_t i = 0; rc == FB_OK && i < s->n; i++) {
        s->derived[i] = malloc(sizeof *s->derived[i]);
        if (!s->derived[i])
            return fb_fail(err, FB_ERR_RUNTIME, "out of memory");
        rc = fb_chart_derive(&s->tables[i], &files[i], 1, s->derived[i], err);
        if (rc == FB_OK && s->derived[i]->n_series == 0) {
            char shown[512];
            rc = fb_fail(err, FB_ERR_USAGE, "%s: no row with status ok and a time (%zu noisy)",
                         fb_text_escape(shown, sizeof shown, files[i]),
                         s->derived[i]->noisy);
        }
    }
    return rc;
}

static void unload(struct session *s)
{
    fb_compare_free(&s->compare);
    for (size_t i = 0; i < s->n; i++) {
        if (s->derived[i]) {
            fb_chart_derived_free(s->derived[i]);
            free(s->derived[i]);
        }
        fb_csv_table_free(&s->tables[i]);
    }
}

/* One line per run on stderr: what the verdict found; and the noisy points left out. */
static void report(const struct fb_compare *c)
{
    for (size_t i = 0; i < c->n_runs; i++)
        if (c->runs[i].d->noisy) {
            char a[512];
            fprintf(stderr, "compare: %s: %zu noisy points (another program disturbed their "
                            "samples) are not compared\n",
                    fb_text_escape(a, sizeof a, c->runs[i].path), c->runs[i].d->noisy);
        }
    for (size_t i = 1; i < c->n_runs; i++) {
        const struct fb_compare_verdict *v = &c->verdicts[i];
        char a[512], b[512];
        fb_text_escape(a, sizeof a, c->runs[i].path);
        fb_text_escape(b, sizeof b, c->runs[0].path);
        fprintf(stderr, "compare: %s against %s: %zu points, %zu regressed beyond %.4g%%, %zu "
                        "faster, ratio %.3g .. %.3g%s\n", a, b, v->n_points, v->regressed,
                c->threshold * 100, v->faster, v->ratio_min, v->ratio_max,
                v->regressed ? ": REGRESSED" : "");
        if (v->only_base || v->only_run)
            fprintf(stderr, "compare: not compared, at a size the other run lacks: %zu "
                            "points of %s, %zu of %s\n", v->only_base, b, v->only_run, a);
    }
}

/* <dir>/<stem>.md, written to a temporary file in dir and renamed into place. */
static int write_markdown(const struct fb_compare *c, const char *dir, const char *stem)
{
    char path[PATH_MAX], tmp[PATH_MAX], shown[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s.md", dir, stem) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/.%s.md.XXXXXX", dir, stem) >= (int)sizeof tmp) {
        fprintf(stderr, "--compare: the table's path is too long\n");
        return FB_ERR_RUNTIME;
    }
    fb_text_escape(shown, sizeof shown, path);
    int fd = mkostemp(tmp, O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "--compare: cannot write %s: %s\n", shown, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return FB_ERR_RUNTIME;
    }
    fchmod(fd, 0644);
    int bad = fb_compare_markdown(f, c) != 0 || fsync(fd) != 0;
    bad |= fclose(f) != 0;
    if (!bad && fb_interrupted) { /* the old table stays */
        unlink(tmp);
        return FB_ERR_INTERRUPTED;
    }
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "--compare: cannot write %s: %s\n", shown, strerror(errno));
        unlink(tmp);
        return FB_ERR_RUNTIME;
    }
    printf("%s\n", shown);
    return FB_OK;
}

/* Where the charts and the table go: their stem and directory. */
struct outputs {
    char stem[NAME_MAX + 1];
    char dir[PATH_MAX];
};

/* Names and judges the outputs before the verdict is printed, as a sweep judges its paths
 * before measuring: a directory that cannot work is a usage error (2) with nothing printed,
 * never a 2 after a verdict that said 1. */
static int plan_outputs(struct session *s, const struct fb_app_compare_options *opt,
                        struct outputs *o)
{
    char stems[FB_CHART_MAX_FILES][FB_CHART_TEXT_MAX];
    for (size_t i = 0; i < s->n; i++)
        memcpy(stems[i], s->derived[i]->stems[0], sizeof stems[i]);
    /* "<stem>-vs-<stem>...-compare"; with many long names (a cluster's partitions),
     * "<first stem>-vs-<N>-more-compare", which fits where a file name can. */
    size_t joined = strlen("-compare");
    for (size_t i = 0; i < s->n; i++)
        joined += strlen(s->derived[i]->stems[0]) + (i ? 4 : 0);
    char suffix[48];
    size_t n_stems = s->n;
    snprintf(suffix, sizeof suffix, "-compare");
    if (joined + FB_CHART_SUFFIX_MAX + 3 > NAME_MAX) { /* 3: ".md" beside the charts */
        n_stems = 1;
        snprintf(suffix, sizeof suffix, "-vs-%zu-more-compare", s->n - 1);
    }
    if (fb_plots_stem((const char (*)[FB_CHART_TEXT_MAX])stems, n_stems, suffix, o->stem,
                      sizeof o->stem) != 0)
        return FB_ERR_USAGE;
    if (opt->plot_dir && opt->plot_dir[0])
        snprintf(o->dir, sizeof o->dir, "%s", opt->plot_dir);
    else
        fb_plots_dir_of(opt->files[0], o->dir, sizeof o->dir);
    char make_dir[PATH_MAX];
    struct fb_error err;
    if (fb_output_dir_check(o->dir, "--plot-dir", make_dir, sizeof make_dir, &err) != FB_OK)
        return fail(FB_ERR_USAGE, &err);
    char md[PATH_MAX], shown[4 * PATH_MAX];
    if (snprintf(md, sizeof md, "%s/%s.md", o->dir, o->stem) >= (int)sizeof md) {
        fprintf(stderr, "--compare: the table's path is too long\n");
        return FB_ERR_USAGE;
    }
    if (fb_output_replaceable(AT_FDCWD, md, FB_COMPARE_MD_SIGNATURE, opt->force, "table",
                              fb_text_escape(shown, sizeof shown, md), &err) != FB_OK)
        return fail(FB_ERR_USAGE, &err);
    return FB_OK;
}

/* The charts, then the table beside them. */
static int draw(struct session *s, const struct fb_app_compare_options *opt,
                const struct outputs *o)
{
    const struct fb_chart *charts[8];
    size_t n_charts = fb_compare_charts(&s->compare, charts);
    struct fb_chart_provenance source = {{0}};
    fb_chart_provenance_of(s->tables, opt->files, s->n, &source);
    const struct fb_plots_job job = {.d = s->derived[0], .charts = charts,
                                     .n_charts = n_charts, .stem = o->stem,
                                     .out_dir = opt->plot_dir, .first_csv = opt->files[0],
                                     .add_tables = fb_compare_tables_add,
                                     .ctx = &s->compare, .source = &source};
    int rc = fb_plots_draw(&job);
    if (rc > 128) /* the signal is in fb_interrupted */
        return FB_ERR_INTERRUPTED;
    if (rc == RENDER_USAGE || rc == RENDER_NO_GNUPLOT)
        return FB_ERR_USAGE;
    int md = write_markdown(&s->compare, o->dir, o->stem);
    return rc == RENDER_OK ? md : FB_ERR_RUNTIME;
}

int fb_app_compare(const struct fb_app_compare_options *opt)
{
    fb_interrupt_catch(); /* before reading: 8 large files take a while */
    struct fb_error err;
    if (opt->n_files < 2 || opt->n_files > FB_CHART_MAX_FILES) {
        fprintf(stderr, "--compare: give 2 to %d results files (the first is the reference "
                        "run)\n", FB_CHART_MAX_FILES);
        return FB_ERR_USAGE;
    }
    double threshold = FB_COMPARE_THRESHOLD_DEFAULT;
    if (opt->threshold && fb_compare_threshold_parse(opt->threshold, &threshold, &err) != FB_OK)
        return fail(FB_ERR_USAGE, &err);
    struct session *s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "--compare: out of memory\n");
        return FB_ERR_RUNTIME;
    }
    s->n = (size_t)opt->n_files;
    int rc = load(s, opt->files, &err);
    if (rc == FB_OK)
        rc = fb_compare_build(&s->compare, (const struct fb_chart_derived *const *)s->derived,
                              s->tables, opt->files, s->n, threshold, !opt->no_verdict, &err);
    if (rc != FB_OK)
        fail(rc, &err);
    struct outputs o;
    if (rc == FB_OK && !opt->no_plot)
        rc = plan_outputs(s, opt, &o);
    if (rc == FB_OK && !fb_interrupted) {
        if (fb_compare_markdown(stdout, &s->compare) != 0) {
            fprintf(stderr, "--compare: cannot write to stdout\n");
            rc = FB_ERR_RUNTIME;
        }
        printf("\n");
        if (!opt->no_verdict)
            report(&s->compare);
        if (rc == FB_OK && !opt->no_plot && !fb_interrupted)
            rc = draw(s, opt, &o);
        if (rc == FB_OK && fb_compare_regressed_runs(&s->compare))
            rc = FB_ERR_VERIFY;
    }
    unload(s);
    free(s);
    if (fb_interrupted) { /* while reading, printing, drawing or writing the table */
        fprintf(stderr, "--compare: interrupted by signal %d\n", (int)fb_interrupted);
        return FB_ERR_INTERRUPTED;
    }
    return rc;
}
