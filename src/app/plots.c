#include "app/plots.h"

#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "common/error.h"
#include "fb_build_config.h"

extern char **environ;

int fb_plots_render(const char *const *csv_files, int n, const char *out_dir)
{
    char script[4096];
    snprintf(script, sizeof script, "%s/plots/render.sh", FB_SOURCE_DIR);
    const char *argv[32];
    int argc = 0;
    argv[argc++] = "sh";
    argv[argc++] = script;
    for (int i = 0; i < n && argc < 28; i++)
        argv[argc++] = csv_files[i];
    /* By default the charts go beside the (first) CSV they are drawn from, never into the
     * repository's plots/ (render.sh's own default), wherever the command runs from. */
    char beside[4096];
    if (!out_dir && n > 0) {
        const char *slash = strrchr(csv_files[0], '/');
        snprintf(beside, sizeof beside, "%.*s", slash ? (int)(slash == csv_files[0] ? 1 :
                 slash - csv_files[0]) : 1, slash ? csv_files[0] : ".");
        out_dir = beside;
    }
    if (!out_dir)
        out_dir = ".";
    argv[argc++] = "-o";
    argv[argc++] = out_dir;
    argv[argc] = NULL;
    pid_t pid;
    if (posix_spawnp(&pid, "sh", NULL, NULL, (char *const *)argv, environ) != 0) {
        fprintf(stderr, "cannot start %s\n", script);
        return 1;
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
        return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int fb_app_redraw(const char *const *csv_files, int n, const char *out_dir)
{
    int rc = fb_plots_render(csv_files, n, out_dir);
    switch (rc) {
    case 0: return FB_OK;
    case 130: return FB_ERR_INTERRUPTED;
    case 2:
    case 3: return FB_ERR_USAGE;
    default: return FB_ERR_RUNTIME;
    }
}
