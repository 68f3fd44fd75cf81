/* fusebench: measure what kernel fusion saves. This file parses the command line, picks the
 * command from one table, runs it, and makes the exit code: the one place that does, signals
 * included (128 + the signal's number that stopped the command: 130 for SIGINT, 143 for
 * SIGTERM, the shell's convention). The commands (src/app/) print their own messages. */
#include <stdio.h>
#include <stdlib.h>

#include "app/compare.h"
#include "app/config_load.h"
#include "app/plot_options.h"
#include "app/redraw.h"
#include "app/print_plan.h"
#include "app/profile.h"
#include "app/report.h"
#include "app/sweep.h"
#include "cli/cli.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "config/config.h"
#include "fb_build_config.h"
#include "git_version.h"
#include "output/op_list.h"

enum { EXIT_MEASURE_FAILED = 1, EXIT_USAGE = 2 };

static int exit_code(int rc)
{
    if (fb_interrupted) /* whatever handler caught it (common/interrupt.h) */
        return 128 + fb_interrupted;
    switch (rc) {
    case FB_OK: return 0;
    case FB_ERR_USAGE: return EXIT_USAGE;
    case FB_ERR_INTERRUPTED: return 128 + 2; /* stopped before a handler recorded it */
    default: return EXIT_MEASURE_FAILED;
    }
}

static int run_help(const struct fb_cli *cli)
{
    (void)cli;
    fb_cli_usage(stdout, "sweep");
    return FB_OK;
}

static int run_version(const struct fb_cli *cli)
{
    (void)cli;
    printf("fusebench %s (%s)\n", FB_VERSION, FB_GIT_COMMIT);
    return FB_OK;
}

static int run_list_ops(const struct fb_cli *cli)
{
    (void)cli;
    return fb_op_list_markdown(stdout) == 0 ? FB_OK : FB_ERR_RUNTIME;
}

static int run_compare(const struct fb_cli *cli)
{
    const struct fb_app_compare_options opt = {
        .files = cli->plot_files, .n_files = cli->n_plot_files, .plot_dir = cli->plot_dir,
        .threshold = cli->threshold, .no_verdict = cli->no_verdict, .no_plot = cli->no_plot,
        .force = cli->force};
    return fb_app_compare(&opt);
}

static int run_derive(const struct fb_cli *cli)
{
    return fb_app_derive(cli->plot_files, cli->n_plot_files);
}

static int run_report(const struct fb_cli *cli)
{
    return fb_app_report(cli->report_file, cli->plot_dir, cli->force);
}

/* --plot FILES: the charts, then with --report the report of the first file. */
static int run_plot(const struct fb_cli *cli)
{
    struct fb_plot_options *opt = malloc(sizeof *opt);
    int rc = opt ? fb_plot_options_from_cli(cli, opt) : FB_ERR_RUNTIME;
    if (rc == FB_OK)
        rc = fb_app_redraw(cli->plot_files, cli->n_plot_files, cli->plot_dir, opt);
    free(opt);
    if (rc == FB_OK && cli->report)
        rc = fb_app_report(cli->plot_files[0], cli->plot_dir, cli->force);
    return rc;
}

/* The commands that measure: the config file with the command line's overrides, then the
 * plan's printer, --profile or the sweep (each builds its plan from the config). */
static int run_measuring(const struct fb_cli *cli)
{
    struct fb_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return FB_ERR_RUNTIME;
    int rc = fb_app_config_load(cfg, cli->config_path, cli->overrides, (size_t)cli->n_overrides,
                                cli->plot_dir);
    if (rc == FB_OK && cli->print_plan) {
        rc = fb_app_print_plan(cfg);
    } else if (rc == FB_OK && cli->profile_size) {
        const struct fb_app_profile_options opt = {cli->profile_size, cli->trace_path,
                                                   cli->force, cli->no_plot, cli->plot_dir};
        rc = fb_app_profile(cfg, &opt);
    } else if (rc == FB_OK) {
        const struct fb_app_sweep_options opt = {.resume = cli->resume, .dry_run = cli->dry_run,
                                                 .no_plot = cli->no_plot, .quiet = cli->quiet,
                                                 .force = cli->force, .report = cli->report};
        rc = fb_app_sweep(&opt, cfg);
    }
    free(cfg);
    return rc;
}

/* One entry per command (cli.h, enum fb_command). */
static int (*const commands[FB_CMD_COUNT])(const struct fb_cli *cli) = {
    [FB_CMD_HELP] = run_help,       [FB_CMD_VERSION] = run_version,
    [FB_CMD_LIST_OPS] = run_list_ops, [FB_CMD_COMPARE] = run_compare,
    [FB_CMD_DERIVE] = run_derive,   [FB_CMD_REPORT] = run_report,
    [FB_CMD_PLOT] = run_plot,       [FB_CMD_MEASURE] = run_measuring,
};

int main(int argc, char **argv)
{
    fb_file_limit_as_error(); /* `ulimit -f`: an error that says so, not a silent 153 */
    struct fb_cli cli;
    if (fb_cli_parse(argc, argv, &cli, stderr) != 0)
        return EXIT_USAGE;
    return exit_code(commands[fb_cli_command(&cli)](&cli));
}
