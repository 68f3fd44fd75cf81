/* The gnuplot runner (contract in runner.h): spawn, one timeout, check, rename. */
#define _GNU_SOURCE
#include "chart/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "chart/chart_file.h"
#include "chart/page.h"
#include "chart/tables.h"
#include "common/text.h"

/* A chart file larger than this is not one of ours (a 1600x1000 PNG is ~100 KB, the SVG of
 * the largest accepted input some MB). */
#define CHART_MAX_BYTES ((size_t)256 << 20)

volatile sig_atomic_t fb_runner_stop, fb_runner_child;

static void shown(char *out, size_t size, const char *text)
{
    fb_text_escape(out, size, text);
}

/* Runs argv (argv[0] = the program, looked up on PATH) in the staging directory, in a new
 * process group that dies with this process; stderr into the stage's gnuplot.err, stdin and
 * stdout /dev/null. Returns its exit status (0-255), 127 when it could not be started, 128 +
 * N when it died of signal N or was killed by the hang guard (*hung then set), or -1 with
 * errno when it could not be set up here: its /dev/null and gnuplot.err are opened before
 * the fork, so that a failure there (EMFILE under `ulimit -n`) is said as what it is, not
 * taken for a gnuplot that is not installed. */
static int run_child(const struct fb_runner *r, char *const argv[], bool *hung)
{
    *hung = false;
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    int err = devnull < 0 ? -1
                          : openat(r->stage_fd, "gnuplot.err",
                                   O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (err < 0) {
        int e = errno;
        if (devnull >= 0)
            close(devnull);
        errno = e;
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        /* never outlive fusebench (a SIGKILL to it included) */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (fchdir(r->stage_fd) != 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 ||
            dup2(err, 2) < 0)
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    if (pid > 0) {
        setpgid(pid, pid); /* also here: no window in which the group does not exist */
        fb_runner_child = pid;
    }
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(devnull);
    close(err);
    if (pid < 0) {
        errno = fork_errno;
        return -1;
    }
    int status = 0;
    struct timespec start, now, pause = {0, 10 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            status = 0x7f00;
            break;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (!*hung && now.tv_sec - start.tv_sec > FB_PLOTS_HANG_S) {
            *hung = true;
            kill(-pid, SIGKILL);
        }
        nanosleep(&pause, NULL);
    }
    fb_runner_child = 0;
    kill(-pid, SIGKILL); /* anything it left behind in its group */
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* gnuplot's messages of the last run, printed with a prefix (control bytes escaped): a line
 * repeated right after itself is said once with its count, and past 20 lines only a count is
 * printed, that says how many warnings it holds (the tests fail on any gnuplot warning, so a
 * warning is never dropped in silence). True when they say a data file could not be opened
 * (a chart missing a series is a failure). */
static bool pass_on_messages(const struct fb_runner *r, const char *script)
{
    bool missing = false;
    int fd = openat(r->stage_fd, "gnuplot.err", O_RDONLY | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    char line[1024], last[1024] = "", text[1024];
    int lines = 0, repeats = 0, more = 0, more_warnings = 0;
    for (bool end = false; !end;) {
        end = !fgets(line, sizeof line, f);
        line[end ? 0 : strcspn(line, "\n")] = '\0';
        missing |= strstr(line, "Cannot find or open file") != NULL;
        if (!end && strcmp(line, last) == 0) {
            repeats++;
            continue;
        }
        if (last[0] && lines++ < 20)
            fprintf(stderr, "charts: %s: %s%s\n", script, fb_text_escape(text, sizeof text, last),
                    repeats ? " (repeated)" : "");
        else if (last[0]) {
            more += 1 + repeats;
            more_warnings += strstr(last, "warning") ? 1 + repeats : 0;
        }
        snprintf(last, sizeof last, "%s", line);
        repeats = 0;
    }
    if (more)
        fprintf(stderr, "charts: %s: %d more lines from gnuplot (%d of them a warning)\n",
                script, more, more_warnings);
    fclose(f);
    return missing;
}

/* Whether gnuplot runs and has the terminals of every format. */
int fb_runner_check(const struct fb_runner *r)
{
    char *argv[] = {(char *)r->gnuplot, "-e",
                    "set terminal pngcairo; set terminal svg; set terminal pdfcairo", NULL};
    bool hung;
    int rc = run_child(r, argv, &hung);
    if (rc == 0)
        return FB_PLOTS_OK;
    if (fb_runner_stop)
        return 128 + fb_runner_stop;
    char name[256];
    shown(name, sizeof name, r->gnuplot);
    if (rc < 0)
        fprintf(stderr, "charts: cannot start '%s': %s%s\n", name, strerror(errno),
                errno == EMFILE || errno == ENFILE ? " (the limit on open files: ulimit -n)"
                                                   : "");
    else if (rc == 127)
        fprintf(stderr, "charts: gnuplot not found ('%s'); install it (Debian/Ubuntu: "
                        "apt-get install gnuplot-nox)\n", name);
    else
        fprintf(stderr, "charts: '%s' has no pngcairo, svg or pdfcairo terminal; install "
                        "gnuplot-nox (apt-get install gnuplot-nox)\n", name);
    return FB_PLOTS_NO_GNUPLOT;
}

/* Draws one chart in one format into the stage, checks it, renames it into place. */
int fb_runner_draw(const struct fb_runner *r, const struct fb_chart *c,
                   const struct fb_chart_format *fmt)
{
    struct fb_error err;
    const struct fb_chart_page page = fb_chart_page_of(c, fmt->name, r->opt->size,
                                                       r->text_rows);
    struct fb_tables page_table = {0};
    fb_chart_page_table(&page_table, fmt->name, &page);
    int written = fb_tables_write_tsv(r->stage_fd, &page_table, &err);
    fb_tables_free(&page_table);
    if (written != FB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return FB_PLOTS_FAILED;
    }
    char output[32], final[NAME_MAX + 1], shown_path[PATH_MAX];
    /* the names and paths are checked whole: a cut one would name another file */
    if (snprintf(output, sizeof output, "chart.%s", fmt->name) >= (int)sizeof output ||
        snprintf(final, sizeof final, "%s-%s.%s", r->stem, c->name, fmt->name) >=
            (int)sizeof final) {
        fprintf(stderr, "charts: the name of chart %s (%s) is too long\n", c->name, fmt->name);
        return FB_PLOTS_USAGE; /* the stems are checked shorter (make_stem) */
    }
    unlinkat(r->stage_fd, output, 0);
    char paths[4][PATH_MAX + 32];
    char *argv[8] = {(char *)r->gnuplot, "-e", (char *)r->counts};
    int argc = 3;
    for (int i = 0; i < 4 && (i == 0 || c->scripts[i - 1]); i++) {
        const char *name = i == 0 ? "style.gp" : c->scripts[i - 1];
        if (snprintf(paths[i], sizeof paths[i], "%s/%s", r->scripts, name) >=
            (int)sizeof paths[i]) {
            fprintf(stderr, "charts: the path of plots/%s is too long\n", name);
            return FB_PLOTS_USAGE;
        }
        argv[argc++] = paths[i];
    }
    argv[argc] = NULL;
    bool hung;
    int rc = run_child(r, argv, &hung);
    if (fb_runner_stop)
        return 128 + fb_runner_stop;
    const char *script = c->scripts[0];
    for (int i = 0; i < 3 && c->scripts[i]; i++)
        script = c->scripts[i];
    bool missing = pass_on_messages(r, script);
    char shown_final[NAME_MAX * 4 + 1];
    shown(shown_final, sizeof shown_final, final);
    char why[256] = "";
    if (hung)
        snprintf(why, sizeof why, "gnuplot ran past the hang guard (%d s) and was killed",
                 FB_PLOTS_HANG_S);
    else if (rc < 0)
        snprintf(why, sizeof why, "gnuplot could not be started: %s", strerror(errno));
    else if (rc != 0)
        snprintf(why, sizeof why, "gnuplot exited %d", rc);
    else if (missing)
        snprintf(why, sizeof why, "gnuplot could not open one of its tables");
    else if (!fb_chart_check_file(r->stage_fd, output, fmt, CHART_MAX_BYTES, why, sizeof why)) {
        /* provenance only on a whole file, then checked whole again as it is published */
        struct fb_chart_provenance p = {{0}};
        if (r->source)
            p = *r->source;
        snprintf(p.title, sizeof p.title, "fusebench chart %s%s%.200s%s", c->name,
                 p.source[0] ? " (" : "", p.source, p.source[0] ? ")" : "");
        if (fb_chart_stamp(r->stage_fd, output, fmt->name, &p, CHART_MAX_BYTES, why,
                           sizeof why) == 0)
            fb_chart_check_file(r->stage_fd, output, fmt, CHART_MAX_BYTES, why, sizeof why);
    }
    if (why[0]) {
        fprintf(stderr, "charts: plots/%s (%s) failed: %s; %s is left as it was\n", script,
                fmt->name, why, shown_final);
        return FB_PLOTS_FAILED;
    }
    if (renameat(r->stage_fd, output, r->out_fd, final) != 0) {
        fprintf(stderr, "charts: cannot publish %s: %s\n", shown_final, strerror(errno));
        return FB_PLOTS_FAILED;
    }
    char full[PATH_MAX + sizeof final]; /* out_dir opened, so shorter than PATH_MAX */
    if (snprintf(full, sizeof full, "%s/%s", r->out_dir, final) >= (int)sizeof full) {
        fprintf(stderr, "charts: %s is published, its directory's name too long to show\n",
                shown_final);
        return FB_PLOTS_FAILED;
    }
    printf("%s\n", fb_text_escape(shown_path, sizeof shown_path, full));
    fflush(stdout);
    return FB_PLOTS_OK;
}

