/* fusebench: measure what kernel fusion saves. This file parses the command line, dispatches
 * to the command asked for (src/app/: sweep.c, profile.c, plots.c for --plot, compare.c for
 * --compare) and turns the fb_status it returns into the exit code; the commands print their
 * own messages. */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "app/compare.h"
#include "common/interrupt.h"
#include "app/config_load.h"
#include "app/plots.h"
#include "app/print_plan.h"
#include "app/report.h"
#include "app/profile.h"
#include "app/sweep.h"
#include "cli/cli.h"
#include "common/error.h"
#include "common/text.h"
#include "config/config.h"
#include "output/op_list.h"
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
    if (cli->profile_size) {
        const struct fb_app_profile_options opt = {cli->profile_size, cli->trace_path,
                                                   cli->force, cli->no_plot, cli->plot_dir};
        return exit_code_for(fb_app_profile(cfg, &opt));
    }
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

/* --plot's options: --plot-config's file (checked whole) or the defaults, with the command
 * line's overrides; without a file only [plot] keys mean anything. */
static int plot_options(const struct fb_cli *cli, struct fb_plot_options *opt)
{
    struct fb_config_setting settings[FB_CLI_MAX_OVERRIDES];
    for (int i = 0; i < cli->n_overrides; i++)
        settings[i] = (struct fb_config_setting){cli->overrides[i].key, cli->overrides[i].value};
    struct fb_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return FB_ERR_RUNTIME;
    int rc = FB_OK;
    if (cli->plot_config) {
        rc = fb_app_config_load(cfg, cli->plot_config, settings, (size_t)cli->n_overrides,
                                NULL);
        if (rc == FB_OK)
            rc = fb_plot_options_from_config(opt, cfg, true, stderr);
    } else {
        fb_config_defaults(cfg);
        static const char *const plot_keys[] = {"charts", "size", "formats"};
        for (int i = 0; i < cli->n_overrides && rc == FB_OK; i++) {
            bool plot_key = strncmp(settings[i].key, "label.", 6) == 0;
            for (size_t k = 0; k < 3; k++)
                plot_key |= strcmp(settings[i].key, plot_keys[k]) == 0;
            if (!plot_key) {
                char shown[256];
                fprintf(stderr, "--%s: --plot takes only [plot] keys (charts, size, formats, "
                                "label.<variant>), or a config's with --plot-config\n",
                        fb_text_escape(shown, sizeof shown, settings[i].key));
                rc = FB_ERR_USAGE;
            }
        }
        struct fb_error err;
        if (rc == FB_OK &&
            fb_config_override_all(cfg, settings, (size_t)cli->n_overrides, &err) != FB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            rc = FB_ERR_USAGE;
        }
        if (rc == FB_OK)
            rc = fb_plot_options_from_config(opt, cfg, false, stderr);
    }
    free(cfg);
    return rc;
}

int main(int argc, char **argv)
{
    fb_file_limit_as_error(); /* `ulimit -f`: an error that says so, not a silent 153 */
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
    if (cli.list_ops)
        return fb_op_list_markdown(stdout) == 0 ? 0 : EXIT_MEASURE_FAILED;
    if (cli.compare) {
        const struct fb_app_compare_options opt = {
            .files = cli.plot_files, .n_files = cli.n_plot_files, .plot_dir = cli.plot_dir,
            .threshold = cli.threshold, .no_verdict = cli.no_verdict, .no_plot = cli.no_plot,
            .force = cli.force};
        int signal_number = 0;
        int rc = fb_app_compare(&opt, &signal_number);
        if (rc == FB_ERR_INTERRUPTED && signal_number > 0)
            return 128 + signal_number;
        return exit_code_for(rc);
    }
    if (cli.derive)
        return exit_code_for(fb_app_derive(cli.plot_files, cli.n_plot_files));
    if (cli.report_file) {
        int signal_number = 0;
        int rc = fb_app_report(cli.report_file, cli.plot_dir, cli.force, &signal_number);
        return signal_number > 0 ? 128 + signal_number : exit_code_for(rc);
    }
    if (cli.n_plot_files > 0) {
        struct fb_plot_options *opt = malloc(sizeof *opt);
        int rc = opt ? plot_options(&cli, opt) : FB_ERR_RUNTIME;
        int signal_number = 0;
        if (rc == FB_OK)
            rc = fb_app_redraw(cli.plot_files, cli.n_plot_files, cli.plot_dir, opt,
                               &signal_number);
        free(opt);
        if (rc == FB_ERR_INTERRUPTED && signal_number > 0)
            return 128 + signal_number;
        if (rc == FB_OK && cli.report) {
            rc = fb_app_report(cli.plot_files[0], cli.plot_dir, cli.force, &signal_number);
            if (signal_number > 0)
                return 128 + signal_number;
        }
        return exit_code_for(rc);
    }
    struct fb_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return EXIT_MEASURE_FAILED;
    int code = run_command(&cli, cfg);
    free(cfg);
    return code;
}
