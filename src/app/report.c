#include "app/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/interrupt.h"
#include "results/output_paths.h"
#include "chart/charts.h"
#include "chart/derive.h"
#include "chart/read.h"
#include "common/error.h"
#include "common/text.h"
#include "report/report.h"

/* STEM: the base name of csv less ".csv"; dir: out_dir, else csv's directory. */
static void names_of(const char *csv, const char *out_dir, char *stem, size_t stem_size,
                     char *dir, size_t dir_size)
{
    const char *slash = strrchr(csv, '/');
    const char *base = slash ? slash + 1 : csv;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".csv") == 0)
        len -= 4;
    snprintf(stem, stem_size, "%.*s", (int)len, base);
    if (out_dir && out_dir[0])
        snprintf(dir, dir_size, "%s", out_dir);
    else if (slash)
        snprintf(dir, dir_size, "%.*s", slash == csv ? 1 : (int)(slash - csv), csv);
    else
        snprintf(dir, dir_size, ".");
}

/* Temporary pages a report killed with SIGKILL left (the one exit it cannot clean up after):
 * ".NAME.tmp.PID.N" whose PID no longer runs. One of a live process, or of a PID now reused,
 * is left alone, as the charts' staging directories are (chart/gnuplot.c). */
static void remove_stale_temporaries(int dirfd, const char *name)
{
    int fd = dup(dirfd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return;
    }
    size_t len = strlen(name);
    for (struct dirent *e; (e = readdir(dir));) {
        long pid;
        int attempt;
        char end;
        struct stat st;
        if (e->d_name[0] != '.' || strncmp(e->d_name + 1, name, len) != 0 ||
            sscanf(e->d_name + 1 + len, ".tmp.%ld.%d%c", &pid, &attempt, &end) != 2 ||
            pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            unlinkat(dirfd, e->d_name, 0);
    }
    closedir(dir);
}

/* Writes the page into a new temporary file in dirfd and renames it over `name`. */
static int publish(int dirfd, const char *name, const struct fb_csv_table *t, const char *stem,
                   const struct fb_chart_derived *d, const char *const *charts, size_t n,
                   struct fb_error *err)
{
    char tmp[FB_CHART_TEXT_MAX + 64];
    remove_stale_temporaries(dirfd, name);
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, sizeof tmp, ".%s.tmp.%ld.%d", name, (long)getpid(), attempt);
        fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        return fb_fail(err, FB_ERR_RUNTIME, "cannot create a file beside the charts: %s",
                       strerror(errno));
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlinkat(dirfd, tmp, 0);
        return fb_fail(err, FB_ERR_RUNTIME, "%s", strerror(errno));
    }
    int bad = fb_report_write(f, t, stem, d, charts, n);
    if (!bad && fsync(fileno(f)) != 0)
        bad = 1;
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && fb_interrupted) { /* the old page stays */
        unlinkat(dirfd, tmp, 0);
        return fb_fail(err, FB_ERR_INTERRUPTED, "interrupted: the report is not written");
    }
    if (bad || renameat(dirfd, tmp, dirfd, name) != 0) {
        if (!bad)
            e = errno;
        unlinkat(dirfd, tmp, 0);
        return fb_fail(err, FB_ERR_RUNTIME, "cannot write %s: %s", name,
                       strerror(e ? e : EIO));
    }
    return FB_OK;
}

int fb_app_report(const char *csv, const char *out_dir, bool force)
{
    fb_interrupt_catch();
    char stem[FB_CHART_TEXT_MAX], dir[4096], name[FB_CHART_TEXT_MAX + 16];
    names_of(csv, out_dir, stem, sizeof stem, dir, sizeof dir);
    snprintf(name, sizeof name, "%s-report.md", stem);
    struct fb_error err = {{0}};
    struct fb_csv_table table;
    const char *paths[1] = {csv};
    int rc = fb_chart_read_tables(paths, 1, &table, &err);
    struct fb_chart_derived *d = rc == FB_OK ? malloc(sizeof *d) : NULL;
    if (rc == FB_OK && !d)
        rc = fb_fail(&err, FB_ERR_RUNTIME, "out of memory");
    if (rc == FB_OK)
        rc = fb_chart_derive(&table, paths, 1, d, &err);
    int dirfd = -1;
    if (rc == FB_OK) {
        dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dirfd < 0)
            rc = fb_fail(&err, FB_ERR_USAGE, "%s: not a directory to write the report in: %s",
                         dir, strerror(errno));
    }
    if (rc == FB_OK) { /* a foreign file of our name is replaced only with --force */
        char joined[4096 + FB_CHART_TEXT_MAX + 32], shown[4 * sizeof joined];
        snprintf(joined, sizeof joined, "%s/%s", dir, name);
        rc = fb_output_replaceable(dirfd, name, FB_REPORT_SIGNATURE, force, "report",
                                   fb_text_escape(shown, sizeof shown, joined), &err);
    }
    char chart_names[32][FB_CHART_TEXT_MAX + FB_CHART_SUFFIX_MAX];
    const char *charts[32];
    size_t n_charts = 0;
    for (size_t i = 0; rc == FB_OK && i < fb_chart_count && n_charts < 32; i++) {
        snprintf(chart_names[n_charts], sizeof chart_names[n_charts], "%s-%s.png", stem,
                 fb_charts[i]->name);
        if (faccessat(dirfd, chart_names[n_charts], F_OK, 0) == 0) {
            charts[n_charts] = chart_names[n_charts];
            n_charts++;
        }
    }
    if (rc == FB_OK && fb_interrupted) /* reading a large file takes a while */
        rc = fb_fail(&err, FB_ERR_INTERRUPTED, "interrupted: the report is not written");
    if (rc == FB_OK)
        rc = publish(dirfd, name, &table, stem, d, charts, n_charts, &err);
    if (dirfd >= 0)
        close(dirfd);
    if (rc == FB_OK) {
        char shown[4 * 4096];
        char joined[4096 + FB_CHART_TEXT_MAX + 32];
        snprintf(joined, sizeof joined, "%s/%s", dir, name);
        printf("%s\n", fb_text_escape(shown, sizeof shown, joined));
    } else {
        fb_text_escape_in_place(err.msg, sizeof err.msg);
        fprintf(stderr, "--report: %s\n", err.msg);
    }
    if (d) {
        fb_chart_derived_free(d);
        free(d);
    }
    fb_csv_table_free(&table);
    return fb_interrupted ? FB_ERR_INTERRUPTED : rc;
}
