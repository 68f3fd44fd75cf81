/* fusebench: measure what kernel fusion saves. This file parses the command line, dispatches
 * to the command asked for (src/app/: sweep.c, profile.c, plots.c for --plot) and turns the
 * fb_status it returns into the exit code; the commands print their own messages. */
#include <stdio.h>
#include <stdlib.h>

#include "app/config_load.h"
#include "app/plots.h"
#include "app/print_plan.h"
#include "app/report.h"
#include "app/profile.h"
#include "app/sweep.h"
#include "cli/cli.h"
#include "common/error.h"
#include "config/config.h"
#include "fb_build_config.h"
#include "git_version.h"

enum { EXIT_MEASURE_FAILED = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

static int exit_code_for(int rc)
{
    switch (rc) {
    case FB_OK: return 0;
    case FB_ERR_USAGE: return EXIT_USAGE;
    case FB_ERR_INTERRUPTED: return EXIT_INTERRUPTED;
    default: return EXIT_MEASURE_FAILED;
    }
}

/* The config file with the command line's overrides, then --profile or the sweep. */
static int run_command(const struct fb_cli *cli, struct fb_config *cfg)
{
    struct fb_config_setting settings[FB_CLI_MAX_OVERRIDES];
    for (int i = 0; i < cli->n_overrides; i++)
        settings[i] = (struct fb_config_setting){cli->overrides[i].key, cli->overrides[i].value};
    int rc = fb_app_config_load(cfg, cli->config_path, settings, (size_t)cli->n_overrides,
                                cli->plot_dir);
    if (rc != FB_OK)
        return exit_code_for(rc);
    if (cli->print_plan)
        return exit_code_for(fb_app_print_plan(cfg));
    if (cli->profile_size)
        return exit_code_for(fb_app_profile(cfg, cli->profile_size));
    const struct fb_app_sweep_options opt = {.resume = cli->resume, .dry_run = cli->dry_run,
                                             .no_plot = cli->no_plot, .quiet = cli->quiet,
                                             .force = cli->force, .report = cli->report};
    int signal_number = 0;
    rc = fb_app_sweep(&opt, cfg, &signal_number);
    /* A signal exits 128 + its number (130 for SIGINT, 143 for SIGTERM): the shell's
     * convention. */
    if (rc == FB_ERR_INTERRUPTED && signal_number > 0)
        return 128 + signal_number;
    return exit_code_for(rc);
}

int main(int argc, char **argv)
{
    struct fb_cli cli;
    if (fb_cli_parse(argc, argv, &cli, stderr) != 0)
        return EXIT_USAGE;
    if (cli.help) {
        fb_cli_usage(stdout, "sweep");
        return 0;
    }
    if (cli.version) {
        printf("fusebench %s (%s)\n", FB_VERSION, FB_GIT_COMMIT);
        return 0;
    }
    if (cli.derive)
        return exit_code_for(fb_app_derive(cli.plot_files, cli.n_plot_files));
    if (cli.report_file)
        return exit_code_for(fb_app_report(cli.report_file, cli.plot_dir));
    if (cli.n_plot_files > 0) {
        int signal_number = 0;
        int rc = fb_app_redraw(cli.plot_files, cli.n_plot_files, cli.plot_dir, &signal_number);
        if (rc == FB_ERR_INTERRUPTED && signal_number > 0)
            return 128 + signal_number;
        if (rc == FB_OK && cli.report)
            rc = fb_app_report(cli.plot_files[0], cli.plot_dir);
        return exit_code_for(rc);
    }
    struct fb_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return EXIT_MEASURE_FAILED;
    int code = run_command(&cli, cfg);
    free(cfg);
    return code;
}
