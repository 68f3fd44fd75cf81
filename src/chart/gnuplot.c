/* --plot and the sweep's chart step: derive, stage, draw with gnuplot, check, publish
 * (contract in gnuplot.h). */
#define _GNU_SOURCE
#include "chart/gnuplot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chart/charts.h"
#include "chart/derive.h"
#include "chart/read.h"
#include "chart/provenance.h"
#include "chart/runner.h"
#include "chart/tables.h"
#include "chart/timeline.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/text.h"
#include "fb_build_config.h"

static void on_signal(int sig)
{
    if (!fb_runner_stop)
        fb_runner_stop = sig;
    fb_interrupt_note(sig); /* for main's exit code, and the sweep drawing its charts */
    pid_t group = (pid_t)fb_runner_child;
    if (group > 0)
        kill(-group, SIGKILL);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define N_CAUGHT (sizeof caught / sizeof caught[0])

/* A drawing in progress: the runner (where it writes, what it runs), its stage, and the
 * handlers the caller had. */
struct render {
    struct fb_runner run;
    char stage_name[32];     /* inside run.out_dir */
    char run_counts[2048];   /* the run's tables' rows_<table> (chart/table.h) */
    struct sigaction saved[N_CAUGHT];
};

static void shown(char *out, size_t size, const char *text)
{
    fb_text_escape(out, size, text);
}

/* --- staging -------------------------------------------------------------------------- */

/* Removes the files of the directory dirfd (a stage holds no subdirectory). */
static void empty_dir(int dirfd)
{
    int fd = dup(dirfd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dir)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, ".."))
            unlinkat(dirfd, e->d_name, 0);
    closedir(dir);
}

static void remove_stage(struct render *r)
{
    if (r->run.stage_fd < 0)
        return;
    empty_dir(r->run.stage_fd);
    close(r->run.stage_fd);
    r->run.stage_fd = -1;
    unlinkat(r->run.out_fd, r->stage_name, AT_REMOVEDIR);
}

/* Staging directories left by a fusebench that was killed with SIGKILL (the one exit it
 * cannot clean up after): ".fb-charts.PID.N" whose PID no longer runs. One of a live
 * process, or of a PID now reused, is left alone. */
static void remove_stale_stages(int out_fd)
{
    int fd = dup(out_fd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dir))) {
        long pid;
        int attempt;
        char end;
        if (sscanf(e->d_name, ".fb-charts.%ld.%d%c", &pid, &attempt, &end) != 2 || pid <= 0 ||
            kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        int stage = openat(out_fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (stage < 0)
            continue;
        empty_dir(stage);
        close(stage);
        unlinkat(out_fd, e->d_name, AT_REMOVEDIR);
    }
    closedir(dir);
}

/* The output directory (made when missing) and a staging directory in it, on the same file
 * system so that publishing is a rename. */
static int open_dirs(struct render *r)
{
    char dir[512];
    shown(dir, sizeof dir, r->run.out_dir);
    char probe[PATH_MAX];
    struct fb_error err;
    if (snprintf(probe, sizeof probe, "%s/x", r->run.out_dir) >= (int)sizeof probe) {
        fprintf(stderr, "charts: the chart directory '%s' is too long a path\n", dir);
        return FB_PLOTS_USAGE;
    }
    if (fb_csv_make_parent_dirs(probe, &err) != FB_OK) {
        fb_text_escape_in_place(err.msg, sizeof err.msg);
        fprintf(stderr, "charts: %s\n", err.msg);
        return FB_PLOTS_USAGE;
    }
    r->run.out_fd = open(r->run.out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (r->run.out_fd < 0) {
        fprintf(stderr, "charts: cannot open the chart directory '%s': %s\n", dir,
                strerror(errno));
        return FB_PLOTS_USAGE;
    }
    remove_stale_stages(r->run.out_fd);
    for (int attempt = 0; attempt < 100; attempt++) {
        snprintf(r->stage_name, sizeof r->stage_name, ".fb-charts.%ld.%d", (long)getpid(),
                 attempt);
        if (mkdirat(r->run.out_fd, r->stage_name, 0700) == 0)
            break;
        if (errno != EEXIST) {
            fprintf(stderr, "charts: cannot write in the chart directory '%s': %s\n", dir,
                    strerror(errno));
            return FB_PLOTS_USAGE;
        }
        r->stage_name[0] = '\0';
    }
    r->run.stage_fd = r->stage_name[0] ? openat(r->run.out_fd, r->stage_name,
                                            O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (r->run.stage_fd < 0) {
        fprintf(stderr, "charts: cannot make a staging directory in '%s'\n", dir);
        if (r->stage_name[0])
            unlinkat(r->run.out_fd, r->stage_name, AT_REMOVEDIR);
        return FB_PLOTS_USAGE;
    }
    return FB_PLOTS_OK;
}

/* Whether job's chart i is asked for: every chart of another set than fb_charts (--compare's,
 * the timeline), those of fb_charts that [plot] charts names (all by default). */
static bool chosen(const struct render *r, const struct fb_plots_job *job, size_t i)
{
    return job->charts != fb_charts || (i < FB_PLOT_MAX_CHARTS && r->run.opt->chart_on[i]);
}

/* Why chart i is not drawn, or NULL. */
static const char *left_out(const struct render *r, const struct fb_plots_job *job, size_t i)
{
    if (!chosen(r, job, i))
        return "not in [plot] charts";
    return job->charts[i]->skip ? job->charts[i]->skip(job->d) : NULL;
}

/* Writes chart c's own tables beside the run's, and the row counts of both. */
static int chart_tables(struct render *r, const struct fb_plots_job *job, const struct fb_chart *c)
{
    struct fb_tables own = {0};
    struct fb_error err;
    if (c->tables)
        c->tables(job->d, &own);
    const struct fb_table *rows = c->text_rows_table ? fb_tables_find(&own, c->text_rows_table)
                                                     : NULL;
    r->run.text_rows = rows ? fb_table_rows(rows) : 0;
    size_t len = (size_t)snprintf(r->run.counts, sizeof r->run.counts, "%s", r->run_counts);
    int rc = fb_tables_write_tsv(r->run.stage_fd, &own, &err);
    if (rc == FB_OK && fb_tables_row_counts(&own, r->run.counts + len, sizeof r->run.counts - len) != 0)
        rc = fb_fail(&err, FB_ERR_RUNTIME, "charts: too many tables for %s", c->name);
    fb_tables_free(&own);
    if (rc != FB_OK)
        fprintf(stderr, "%s\n", err.msg);
    return rc;
}

static int draw_all(struct render *r, const struct fb_plots_job *job)
{
    size_t wanted = 0, done = 0;
    for (size_t i = 0; i < job->n_charts; i++)
        wanted += left_out(r, job, i) == NULL;
    int result = FB_PLOTS_OK;
    char shown_csv[512];
    shown(shown_csv, sizeof shown_csv, job->first_csv);
    /* One line for the charts left out, with the reason of each (not those [plot] charts
     * did not ask for). */
    bool any = false;
    for (size_t i = 0; i < job->n_charts; i++) {
        const char *why = chosen(r, job, i) ? left_out(r, job, i) : NULL;
        if (why)
            fprintf(stderr, "%s%s (%s)", any ? ", " : "charts: left out: ", job->charts[i]->name,
                    why);
        any |= why != NULL;
    }
    if (any)
        fprintf(stderr, " in %s\n", shown_csv);
    for (size_t i = 0; i < job->n_charts; i++) {
        const struct fb_chart *c = job->charts[i];
        if (left_out(r, job, i))
            continue;
        fprintf(stderr, "charts: %zu/%zu %s\n", ++done, wanted, c->name);
        if (chart_tables(r, job, c) != FB_OK) {
            result = FB_PLOTS_FAILED;
            continue;
        }
        for (size_t f = 0; f < fb_chart_format_count; f++) {
            if (f >= FB_PLOT_MAX_FORMATS || !r->run.opt->format_on[f])
                continue;
            int rc = fb_runner_draw(&r->run, c, &fb_chart_formats[f]);
            if (rc > FB_PLOTS_NO_GNUPLOT)
                return rc; /* a signal */
            if (rc != FB_PLOTS_OK)
                result = FB_PLOTS_FAILED;
        }
    }
    return result;
}

int fb_plots_stem(const char (*stems)[FB_CHART_TEXT_MAX], size_t n, const char *suffix,
                  char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t f = 0; f <= n; f++) {
        int w = f < n ? snprintf(out + len, size - len, "%s%s", f ? "-vs-" : "", stems[f])
                               : snprintf(out + len, size - len, "%s", suffix ? suffix : "");
        if (w < 0 || (size_t)w >= size - len ||
            len + (size_t)w + FB_CHART_SUFFIX_MAX > NAME_MAX) {
            char name[512];
            shown(name, sizeof name, f < n ? stems[f] : suffix);
            fprintf(stderr, "charts: the results file names are too long for chart file names "
                            "(%d bytes at most, with -<chart>.<format>): '%s'\n", NAME_MAX, name);
            return FB_PLOTS_USAGE;
        }
        len += (size_t)w;
    }
    if (!n || !stems[0][0]) {
        fprintf(stderr, "charts: the results file has no name to make chart names of\n");
        return FB_PLOTS_USAGE;
    }
    return FB_PLOTS_OK;
}

void fb_plots_dir_of(const char *csv, char *out, size_t size)
{
    const char *slash = strrchr(csv, '/');
    snprintf(out, size, "%.*s", slash ? (int)(slash == csv ? 1 : slash - csv) : 1,
             slash ? csv : ".");
}

static void catch_signals(struct render *r)
{
    fb_runner_stop = 0;
    fb_runner_child = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: waits return at once */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_CAUGHT; i++)
        sigaction(caught[i], &sa, &r->saved[i]);
}

/* Restores the handlers the caller had (the sweep's, --compare's): the signal that stopped
 * the drawing is already in fb_interrupted for them to see. */
static void release_signals(struct render *r)
{
    for (size_t i = 0; i < N_CAUGHT; i++)
        sigaction(caught[i], &r->saved[i], NULL);
}

/* The end of a drawing, whatever its result rc: the stage removed, the directory closed, the
 * caller's signal handlers back. Returns rc, or 128 + the signal that stopped it. */
static int finish(struct render *r, int rc)
{
    remove_stage(r);
    if (r->run.out_fd >= 0)
        close(r->run.out_fd);
    r->run.out_fd = -1;
    if (fb_runner_stop)
        rc = 128 + fb_runner_stop;
    release_signals(r);
    return rc;
}

/* A label ([plot] label.NAME, --set label.NAME=...) for a variant no results file holds is
 * said, not dropped in silence: a typo in NAME would otherwise look like a label that did
 * not work. A chain's own ops (whole == false) are not labels anyone typed. */
static void warn_unused_labels(const struct fb_chart_derived *d,
                               const struct fb_plot_options *opt)
{
    for (size_t i = 0; i < opt->n_names; i++) {
        if (!opt->names[i].whole)
            continue;
        bool used = false;
        for (size_t k = 0; k < d->n_series && !used; k++)
            used = strcmp(d->series[k].variant, opt->names[i].variant) == 0;
        if (!used) {
            char name[256];
            shown(name, sizeof name, opt->names[i].variant);
            fprintf(stderr, "charts: label.%s: no series of variant \"%s\" in the results "
                            "drawn; the label is not used\n", name, name);
        }
    }
}

int fb_plots_render(const char *const *csv_files, int n, const char *out_dir,
                    const struct fb_plot_options *opt)
{
    struct fb_plot_options defaults;
    if (!opt) {
        fb_plot_options_defaults(&defaults);
        opt = &defaults;
    }
    if (n < 1 || n > FB_CHART_MAX_FILES) {
        fprintf(stderr, "charts: give 1 to %d results files\n", FB_CHART_MAX_FILES);
        return FB_PLOTS_USAGE;
    }
    struct fb_csv_table tables[FB_CHART_MAX_FILES];
    struct fb_error err;
    if (fb_chart_read_tables(csv_files, (size_t)n, tables, &err) != FB_OK) {
        fb_text_escape_in_place(err.msg, sizeof err.msg);
        fprintf(stderr, "charts: %s\n", err.msg);
        return FB_PLOTS_USAGE;
    }
    struct fb_chart_provenance source = {{0}};
    fb_chart_provenance_of(tables, csv_files, (size_t)n, &source);
    struct fb_chart_derived *d = malloc(sizeof *d);
    int rc = d ? fb_chart_derive(tables, csv_files, (size_t)n, d, &err)
               : fb_fail(&err, FB_ERR_RUNTIME, "charts: out of memory");
    for (int i = 0; i < n; i++)
        fb_csv_table_free(&tables[i]);
    if (rc != FB_OK) {
        fb_text_escape_in_place(err.msg, sizeof err.msg);
        fprintf(stderr, "charts: %s\n", err.msg);
        if (d)
            fb_chart_derived_free(d);
        free(d);
        return rc == FB_ERR_USAGE ? FB_PLOTS_USAGE : FB_PLOTS_FAILED;
    }
    if (d->n_series == 0 || d->series[0].file != 0) {
        char name[512];
        shown(name, sizeof name, csv_files[0]);
        if (d->noisy)
            fprintf(stderr, "charts: %s: no row with status ok and a time to plot (%zu noisy "
                            "rows: another program disturbed the run)\n", name, d->noisy);
        else
            fprintf(stderr, "charts: %s: no row with status ok and a time to plot\n", name);
        fb_chart_derived_free(d);
        free(d);
        return FB_PLOTS_USAGE;
    }
    warn_unused_labels(d, opt);
    fb_chart_derive_titles(d, opt->names, opt->n_names);
    char stem[NAME_MAX + 1];
    rc = fb_plots_stem(d->stems, d->n_files, "", stem, sizeof stem);
    if (rc == FB_PLOTS_OK) {
        const struct fb_plots_job job = {.d = d, .charts = fb_charts, .n_charts = fb_chart_count,
                                         .stem = stem, .out_dir = out_dir,
                                         .first_csv = csv_files[0], .opt = opt,
                                         .source = &source};
        rc = fb_plots_draw(&job);
    }
    fb_chart_derived_free(d);
    free(d);
    return rc;
}

int fb_plots_draw(const struct fb_plots_job *job)
{
    /* By default the charts go beside the (first) CSV they are drawn from. */
    char beside[PATH_MAX];
    const char *out_dir = job->out_dir;
    if (!out_dir || !out_dir[0]) {
        fb_plots_dir_of(job->first_csv, beside, sizeof beside);
        out_dir = beside;
    }
    struct fb_plot_options defaults;
    const struct fb_plot_options *opt = job->opt;
    if (!opt) {
        fb_plot_options_defaults(&defaults);
        opt = &defaults;
    }
    struct render r = {.run = {.out_dir = out_dir, .out_fd = -1, .stage_fd = -1, .opt = opt,
                               .source = job->source}};
    if (snprintf(r.run.stem, sizeof r.run.stem, "%s", job->stem) >= (int)sizeof r.run.stem ||
        strlen(job->stem) + FB_CHART_SUFFIX_MAX > NAME_MAX) {
        fprintf(stderr, "charts: the chart file name stem is too long\n");
        return FB_PLOTS_USAGE;
    }
    r.run.gnuplot = getenv("GNUPLOT") && getenv("GNUPLOT")[0] ? getenv("GNUPLOT") : "gnuplot";
    snprintf(r.run.scripts, sizeof r.run.scripts, "%s/plots", FB_SOURCE_DIR);
    struct fb_error err;
    catch_signals(&r);
    int rc = open_dirs(&r);
    if (rc == FB_PLOTS_OK)
        rc = fb_runner_check(&r.run);
    struct fb_tables ts = {0};
    fb_chart_tables_fill(job->d, &ts);
    if (job->add_tables)
        job->add_tables(&ts, job->ctx);
    if (rc == FB_PLOTS_OK && (fb_tables_write_tsv(r.run.stage_fd, &ts, &err) != FB_OK ||
                              (fb_tables_row_counts(&ts, r.run_counts, sizeof r.run_counts) != 0 &&
                               fb_fail(&err, FB_ERR_RUNTIME, "charts: too many tables")) ||
                              (job->write_extra &&
                               job->write_extra(r.run.stage_fd, job->ctx, &err) != FB_OK))) {
        fprintf(stderr, "%s\n", err.msg);
        rc = FB_PLOTS_FAILED;
    }
    fb_tables_free(&ts);
    if (rc == FB_PLOTS_OK)
        rc = draw_all(&r, job);
    return finish(&r, rc);
}

/* The timeline: drawn from --profile's records, not from a results CSV. */
static const struct fb_chart timeline_chart = {"timeline", {"timeline.gp"}, 1600, 900, 20, NULL,
                                               NULL};
static const struct fb_chart *const timeline_charts[] = {&timeline_chart};

/* The timeline's table, opened and judged before anything is staged: only a regular file
 * (never a FIFO waited on), at most FB_TIMELINE_MAX_BYTES, that starts with
 * FB_TIMELINE_SIGNATURE. Returns its descriptor at offset 0, or -1 having said why. gnuplot
 * reads its cells as data (strcol), never as code. */
static int open_timeline_table(const char *path)
{
    char shown_path[512];
    shown(shown_path, sizeof shown_path, path);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "charts: %s: %s\n", shown_path, strerror(errno));
        return -1;
    }
    struct stat st;
    const size_t sig = strlen(FB_TIMELINE_SIGNATURE);
    char head[sizeof FB_TIMELINE_SIGNATURE];
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        fprintf(stderr, "charts: %s: not a regular file\n", shown_path);
    else if (st.st_size > FB_TIMELINE_MAX_BYTES)
        fprintf(stderr, "charts: %s: is %lld bytes; a timeline table has at most %lld\n",
                shown_path, (long long)st.st_size, FB_TIMELINE_MAX_BYTES);
    else if (read(fd, head, sig + 1) != (ssize_t)sig + 1 ||
             memcmp(head, FB_TIMELINE_SIGNATURE, sig) != 0 || head[sig] != '\n')
        fprintf(stderr, "charts: %s: not a timeline table fusebench wrote (--profile N --trace "
                        "FILE.json writes FILE%s)\n", shown_path, FB_TIMELINE_TABLE_SUFFIX);
    else if (lseek(fd, 0, SEEK_SET) == 0)
        return fd;
    else
        fprintf(stderr, "charts: %s: %s\n", shown_path, strerror(errno));
    close(fd);
    return -1;
}

/* Copies the judged table into the staging directory as the name timeline.gp reads. */
static int copy_timeline_table(int dirfd, const void *ctx, struct fb_error *err)
{
    const int in = *(const int *)ctx;
    int out = openat(dirfd, "timeline.tsv", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (out < 0)
        return fb_fail(err, FB_ERR_RUNTIME, "charts: cannot create the table timeline.tsv: %s",
                       strerror(errno));
    char buf[1 << 16];
    long long total = 0;
    ssize_t n;
    int rc = FB_OK;
    while (rc == FB_OK && (n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0 || write(out, buf, (size_t)n) != n)
            rc = fb_fail(err, FB_ERR_RUNTIME, "charts: cannot copy the timeline's table: %s",
                         strerror(errno ? errno : EIO));
        else if ((total += n) > FB_TIMELINE_MAX_BYTES) /* it grew while read */
            rc = fb_fail(err, FB_ERR_RUNTIME, "charts: the timeline's table grew past %lld "
                         "bytes while read", FB_TIMELINE_MAX_BYTES);
    }
    if (close(out) != 0 && rc == FB_OK)
        rc = fb_fail(err, FB_ERR_RUNTIME, "charts: cannot write the table timeline.tsv: %s",
                     strerror(errno));
    return rc;
}

int fb_plots_render_timeline(const char *table_path, const char *out_dir,
                             const struct fb_plot_options *opt)
{
    const char *slash = strrchr(table_path, '/');
    const char *name = slash ? slash + 1 : table_path;
    size_t len = strlen(name);
    const size_t suffix = strlen(FB_TIMELINE_TABLE_SUFFIX);
    if (len > suffix && strcmp(name + len - suffix, FB_TIMELINE_TABLE_SUFFIX) == 0)
        len -= suffix;
    if (len == 0 || len + FB_CHART_SUFFIX_MAX > NAME_MAX) {
        char shown_name[512];
        shown(shown_name, sizeof shown_name, name);
        fprintf(stderr, "charts: the table's file name '%s' makes no chart file name\n",
                shown_name);
        return FB_PLOTS_USAGE;
    }
    char stem[NAME_MAX + 1];
    snprintf(stem, sizeof stem, "%.*s", (int)len, name);
    const int fd = open_timeline_table(table_path);
    if (fd < 0)
        return FB_PLOTS_USAGE;
    /* The tables style.gp reads of every chart, of a derivation with no series (timeline.gp
     * sets the device from its own table). */
    struct fb_chart_derived *d = calloc(1, sizeof *d);
    if (!d) {
        fprintf(stderr, "charts: out of memory\n");
        close(fd);
        return FB_PLOTS_FAILED;
    }
    d->nmin = 1;
    d->nmax = 10;
    const struct fb_plots_job job = {.d = d, .charts = timeline_charts, .n_charts = 1,
                                     .stem = stem, .out_dir = out_dir, .first_csv = table_path,
                                     .write_extra = copy_timeline_table, .ctx = &fd,
                                     .opt = opt};
    int rc = fb_plots_draw(&job);
    close(fd);
    fb_chart_derived_free(d);
    free(d);
    return rc;
}
