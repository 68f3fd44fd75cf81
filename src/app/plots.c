#include "app/plots.h"

#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>

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
    if (out_dir) {
        argv[argc++] = "-o";
        argv[argc++] = out_dir;
    }
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
