/* The command line of fusebench (and of ./sweep, which forwards to it). */
#ifndef FB_CLI_CLI_H
#define FB_CLI_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"

#define FB_CLI_MAX_OVERRIDES 16
#define FB_CLI_MAX_PLOT_FILES 8

struct fb_cli {
    const char *config_path;
    /* --KEY VALUE and --set KEY=VALUE, in order: handed to the config as they are */
    struct fb_config_setting overrides[FB_CLI_MAX_OVERRIDES];
    int n_overrides;
    bool resume, dry_run, no_plot, quiet, help, version;
    bool force;                      /* --force: replace a file that is not a results file */
    bool print_plan;                 /* --print-plan: the plan as JSON, nothing measured */
    bool list_ops;                   /* --list-ops: the op table as markdown, alone */
    const char *profile_size;        /* --profile N: kernel table at N elements (the text,
                                        checked like --sizes by main); NULL = off */
    const char *trace_path;          /* --trace FILE.json (with --profile only); NULL = off */
    const char *plot_files[FB_CLI_MAX_PLOT_FILES]; /* --plot, --derive, --compare: these CSVs */
    bool derive;                     /* --derive: the derived numbers as JSON, nothing drawn */
    bool compare;                    /* --compare: these CSVs side by side, and a verdict */
    const char *threshold;           /* --threshold (with --compare; checked there), NULL */
    bool no_verdict;                 /* --no-verdict (with --compare) */
    int n_plot_files;
    const char *plot_dir;            /* --plot-dir */
    const char *plot_config;         /* --plot-config: the config whose [plot] and chains
                                        --plot draws with */
    bool report;                     /* --report: the markdown report (app/report.h): of the
                                        sweep, of the --plot files' first, or, with one
                                        positional argument ending in .csv, of that file */
    const char *report_file;         /* --report RESULTS.csv: that file, nothing measured */
};

/* The commands main dispatches to (one table, main.c). */
enum fb_command {
    FB_CMD_HELP, FB_CMD_VERSION, FB_CMD_LIST_OPS, FB_CMD_COMPARE, FB_CMD_DERIVE, FB_CMD_REPORT,
    FB_CMD_PLOT,
    FB_CMD_MEASURE, /* a config: the sweep, --dry-run, --print-plan or --profile */
    FB_CMD_COUNT
};

/* The command a parsed command line asks for: --help, then --version, --list-ops,
 * --compare, --derive, --report FILE.csv, --plot, else a config's. */
enum fb_command fb_cli_command(const struct fb_cli *cli);

/* Parses argv. Returns 0, or 2 with a message on `err_out` for a usage error. */
int fb_cli_parse(int argc, char **argv, struct fb_cli *cli, FILE *err_out);

/* The --help text. */
void fb_cli_usage(FILE *out, const char *prog);

#endif
