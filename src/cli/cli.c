#include "cli/cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

void fb_cli_usage(FILE *out, const char *prog)
{
    fprintf(out,
"usage: %s CONFIG.ini [options]          measure, write the CSV, draw the charts\n"
"       %s --plot RESULTS.csv [MORE.csv ...] [--plot-dir DIR]   redraw charts only\n"
"       %s --derive RESULTS.csv [MORE.csv ...]    the charts' numbers as JSON\n"
"       %s --compare A.csv B.csv [C.csv ...] [--threshold 5%%] [--no-verdict] [--no-plot]\n"
"                                     runs side by side, and a regression verdict\n"
"       %s --list-ops                the ops a [chain] can use, as a markdown table\n"
"\n"
"Measures what kernel fusion saves: c = relu(a + b) as two kernels (eager) and as one\n"
"(fused), with a copy kernel as the bandwidth ceiling, at every size of the config.\n"
"\n"
"Options (each overrides the config key of the same name):\n"
"  --backend auto|cpu|cuda   where to run (auto: cuda when a GPU answers, else cpu)\n"
"  --output CSV              results file; {backend} and {device} are filled in. A\n"
"                            symlink is followed (its target is written, the link\n"
"                            stays); refused (exit 2, before measuring): anything but a\n"
"                            regular file (a directory, FIFO, socket, device such as\n"
"                            /dev/null), a path ending in '/', '.' or '..', a directory\n"
"                            where no file can be created, and a file that is not a\n"
"                            fusebench results file (no '# fusebench:' line, no\n"
"                            'backend,...' header) and not empty, unless --force\n"
"  --sizes LIST              e.g. 8..100M, or 1K,1M,100M (K M G = 1e3.., Ki Mi Gi = 2^10..)\n"
"  --variants LIST           comma list of copy, eager_add_relu, eager_add_threshold,\n"
"                            fused_add_relu, memcpy, eager_NAME and fused_NAME of each\n"
"                            [chain NAME] of the config, or all\n"
"  --cache warm|cold         cold: evict the cache before every timed call\n"
"  --label TEXT              free text stored in the results' metadata\n"
"  --charts LIST             the charts to draw ([plot] charts; e.g. speedup,time,glance)\n"
"  --size column|double|slide  a page for a paper column, a two-column figure or a 16:9\n"
"                            slide ([plot] size; default: each chart's own 1600x1000 px)\n"
"  --formats LIST            png, svg, pdf ([plot] formats; default: all three)\n"
"  --set KEY=VALUE           any other config key (e.g. --set max_time=0.2,\n"
"                            --set label.eager_add_relu='two kernels')\n""                            ([chain NAME] sections are only read from the file)\n"
"Modes:\n"
"  --resume                  keep the rows already measured, measure the rest: from\n"
"                            CSV.partial (an unfinished run) when there is one, else CSV\n"
"  --dry-run                 print the plan, the memory it needs and what it would write\n"
"                            (results, charts), all checked as for a run; measure and\n"
"                            write nothing\n"
"  --force                   replace a results file, trace, report or --compare table\n"
"                            that fusebench did not write\n"
"  --print-plan              print the plan as JSON on stdout (sizes, enabled variants with\n"
"                            their ops, the stop rule, dtype, cache, the CSV columns) and\n"
"                            exit 0; opens no backend, measures nothing. Valid UTF-8:\n"
"                            a byte outside UTF-8 reads as the text \\xNN\n"
"  --profile N               print a kernel table (name, calls, time) per variant at N\n"
"                            elements (same syntax, limits and memory check as --sizes),\n"
"                            variants in the order --variants gives; a call another\n"
"                            program disturbed is retaken, as in a sweep\n"
"  --trace FILE.json         with --profile: also write the calls as a Chrome trace\n"
"                            (open it in https://ui.perfetto.dev or chrome://tracing),\n"
"                            the timeline's table FILE-timeline.tsv beside it, and draw\n"
"                            FILE-timeline.png|svg|pdf beside it (or in --plot-dir; not\n"
"                            with --no-plot); judged before measuring like --output\n"
"  --no-plot                 do not draw the charts after the sweep\n"
"  --plot CSV [CSV ...]      redraw the charts of existing results (no measuring)\n"
"                            (the first is charted, the others overlaid: the PyTorch\n"
"                            peer's); charts are named <stem>-<chart>.png|svg|pdf, <stem>\n"
"                            the first CSV's name less .csv, -vs-<stem> per overlay;\n"
"                            --plot TRACE.json (or its TRACE-timeline.tsv) redraws the\n"
"                            timeline of --trace from the table\n"
"  --plot-config INI         --plot: draw with this config's [plot] section and its\n"
"                            chains' ops as their labels (the config is checked whole)\n"
"  --plot-dir DIR            where charts go (default: the config's [output] plots for\n"
"                            a sweep, else beside the results CSV); a sweep checks\n"
"                            before measuring that it is a directory, or can be made,\n"
"                            and that files can be created in it (exit 2 if not)\n"
"  --derive CSV [CSV ...]    print what the charts and summaries show (pairs, speedups,\n"
"                            copy fractions, model lines, fit, regimes) as JSON on stdout;\n"
"                            draws and writes nothing\n"
"  --compare CSV CSV [...]   2 to 8 results files (runs, devices) side by side: per run,\n"
"                            the main pair's speedup against n and against the working\n"
"                            set over the last-level cache (when every run has\n"
"                            cache_bytes), fused / copy, bandwidth, each run's fused time\n"
"                            over the first's; a markdown table of the headline numbers\n"
"                            on stdout and in <stems>-compare.md beside the charts\n"
"                            (<stems>-compare-<chart>.png|svg; --plot-dir as for --plot).\n"
"                            Verdict: every point of both runs (variant, dtype, stores,\n"
"                            cache, n), ratio of median times with the interval\n"
"                            run p10 / first p90 .. run p90 / first p10; regressed when\n"
"                            the interval lies above 1 + threshold. Exit 1 when a point\n"
"                            regressed, 0 when none, 2 unusable input (different\n"
"                            variants, no common size: the message says what is missing)\n"
"  --threshold T             the verdict's threshold: 5%% (default) or a fraction, 0.05\n"
"  --no-verdict              --compare draws and tabulates only (devices, not a\n"
"                            regression check): exit 0 whatever the times\n"
"                            (--no-plot with --compare: the table and verdict only)\n"
"  --report                  write a one-page markdown report, STEM-report.md, beside the\n"
"                            charts: machine and build, the fit (L, B, B_c), headline\n"
"                            speedups with their intervals, the noisy count, the charts;\n"
"                            after a sweep (also [output] report = yes), after --plot,\n"
"                            or alone: --report RESULTS.csv [--plot-dir DIR]\n"
"  --list-ops                print the op table (op, arity, parameters, ULP bound,\n"
"                            exact) as markdown, as docs/ops.md holds it; alone\n"
"  --quiet                   no progress on stderr\n"
"  -h, --help                this text;  --version  the version\n"
"\n"
"Results: every finished point is written (atomically) to CSV.partial beside CSV, which\n"
"replaces CSV only when the run completes: until then CSV keeps the earlier results.\n"
"A lock (CSV.lock) keeps a second run off the same CSV: it is refused at once (exit 2),\n"
"naming the running one's pid.\n"
"Messages show control bytes and bytes outside UTF-8 in paths and names as \\xNN\n"
"(\\n, \\t, \\r for those).\n"
"Signals: the first Ctrl-C (SIGINT) or SIGTERM stops after the sample in progress, keeps\n"
"every finished point in CSV.partial (--resume continues) and exits 130 (SIGTERM: 143);\n"
"a second one exits at once (_exit), with 128 + its number; the files stay whole.\n"
"\n"
"Exit status: 0 success, 1 a measurement or verification failed, 2 usage or config\n"
"error, 130 interrupted by SIGINT, 143 by SIGTERM.\n",
            prog, prog, prog, prog, prog);
}

static int add_override(struct fb_cli *cli, const char *key, const char *value, FILE *err_out)
{
    if (cli->n_overrides >= FB_CLI_MAX_OVERRIDES) {
        fprintf(err_out, "too many overrides (at most %d)\n", FB_CLI_MAX_OVERRIDES);
        return 2;
    }
    cli->overrides[cli->n_overrides].key = key;
    cli->overrides[cli->n_overrides].value = value;
    cli->n_overrides++;
    return 0;
}

enum { OPT_BACKEND = 256, OPT_OUTPUT, OPT_SIZES, OPT_VARIANTS, OPT_CACHE, OPT_LABEL, OPT_SET,
       OPT_RESUME, OPT_DRY_RUN, OPT_PROFILE, OPT_NO_PLOT, OPT_PLOT, OPT_PLOT_DIR, OPT_QUIET,
       OPT_VERSION, OPT_PRINT_PLAN, OPT_DERIVE, OPT_FORCE, OPT_COMPARE, OPT_THRESHOLD,
       OPT_NO_VERDICT, OPT_TRACE, OPT_CHARTS, OPT_SIZE, OPT_FORMATS, OPT_PLOT_CONFIG, OPT_REPORT,
       OPT_LIST_OPS };

int fb_cli_parse(int argc, char **argv, struct fb_cli *cli, FILE *err_out)
{
    static const struct option options[] = {
        {"backend", required_argument, NULL, OPT_BACKEND},
        {"output", required_argument, NULL, OPT_OUTPUT},
        {"sizes", required_argument, NULL, OPT_SIZES},
        {"variants", required_argument, NULL, OPT_VARIANTS},
        {"cache", required_argument, NULL, OPT_CACHE},
        {"label", required_argument, NULL, OPT_LABEL},
        {"set", required_argument, NULL, OPT_SET},
        {"resume", no_argument, NULL, OPT_RESUME},
        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
        {"print-plan", no_argument, NULL, OPT_PRINT_PLAN},
        {"profile", required_argument, NULL, OPT_PROFILE},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"no-plot", no_argument, NULL, OPT_NO_PLOT},
        {"plot", no_argument, NULL, OPT_PLOT},
        {"plot-dir", required_argument, NULL, OPT_PLOT_DIR},
        {"plot-config", required_argument, NULL, OPT_PLOT_CONFIG},
        {"charts", required_argument, NULL, OPT_CHARTS},
        {"size", required_argument, NULL, OPT_SIZE},
        {"formats", required_argument, NULL, OPT_FORMATS},
        {"derive", no_argument, NULL, OPT_DERIVE},
        {"compare", no_argument, NULL, OPT_COMPARE},
        {"threshold", required_argument, NULL, OPT_THRESHOLD},
        {"no-verdict", no_argument, NULL, OPT_NO_VERDICT},
        {"report", no_argument, NULL, OPT_REPORT},
        {"list-ops", no_argument, NULL, OPT_LIST_OPS},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"force", no_argument, NULL, OPT_FORCE},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    memset(cli, 0, sizeof *cli);
    bool plot_mode = false;
    opterr = 0;
    /* 0, not 1: glibc's full reset. With 1 a second parse (tests, the fuzz target) resumes
     * inside a "-hh" cluster of the previous argv, which may be freed by then. */
    optind = 0;
    int c, rc = 0;
    char shown_arg[256]; /* an argument quoted in a message, control bytes escaped */
    while (rc == 0 && (c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        switch (c) {
        case OPT_BACKEND: rc = add_override(cli, "backend", optarg, err_out); break;
        /* "output", which the config takes as csv: a message about the value says --output */
        case OPT_OUTPUT: rc = add_override(cli, "output", optarg, err_out); break;
        case OPT_SIZES: rc = add_override(cli, "sizes", optarg, err_out); break;
        case OPT_VARIANTS: rc = add_override(cli, "variants", optarg, err_out); break;
        case OPT_CACHE: rc = add_override(cli, "cache", optarg, err_out); break;
        case OPT_LABEL: rc = add_override(cli, "label", optarg, err_out); break;
        case OPT_SET: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg) {
                char shown[256];
                fprintf(err_out, "--set %s: expected KEY=VALUE\n",
                        fb_text_escape(shown, sizeof shown, optarg));
                return 2;
            }
            *eq = '\0';
            rc = add_override(cli, optarg, eq + 1, err_out);
            break;
        }
        case OPT_RESUME: cli->resume = true; break;
        case OPT_DRY_RUN: cli->dry_run = true; break;
        case OPT_PRINT_PLAN: cli->print_plan = true; break;
        case OPT_PROFILE:
            /* Checked later, by the same parser, limits and memory check as --sizes. */
            cli->profile_size = optarg;
            break;
        case OPT_TRACE: cli->trace_path = optarg; break;
        case OPT_NO_PLOT: cli->no_plot = true; break;
        case OPT_PLOT: plot_mode = true; break;
        case OPT_DERIVE: plot_mode = cli->derive = true; break;
        case OPT_COMPARE: plot_mode = cli->compare = true; break;
        case OPT_THRESHOLD: cli->threshold = optarg; break;
        case OPT_NO_VERDICT: cli->no_verdict = true; break;
        case OPT_REPORT: cli->report = true; break;
        case OPT_PLOT_DIR: cli->plot_dir = optarg; break;
        case OPT_PLOT_CONFIG: cli->plot_config = optarg; break;
        case OPT_CHARTS: rc = add_override(cli, "charts", optarg, err_out); break;
        case OPT_SIZE: rc = add_override(cli, "size", optarg, err_out); break;
        case OPT_FORMATS: rc = add_override(cli, "formats", optarg, err_out); break;
        case OPT_LIST_OPS: cli->list_ops = true; break;
        case OPT_QUIET: cli->quiet = true; break;
        case OPT_FORCE: cli->force = true; break;
        case 'h': cli->help = true; return 0;
        case OPT_VERSION: cli->version = true; return 0;
        case ':':
            fprintf(err_out, "%s: needs a value (see --help)\n",
                    fb_text_escape(shown_arg, sizeof shown_arg, argv[optind - 1]));
            return 2;
        default:
            fprintf(err_out, "%s: unknown option (see --help)\n",
                    fb_text_escape(shown_arg, sizeof shown_arg, argv[optind - 1]));
            return 2;
        }
    }
    if (rc)
        return rc;
    /* --list-ops describes the build's op table, nothing else: an option or a file beside
     * it would be silently ignored, so it is refused (--help and --version, parsed above,
     * still win). */
    if (cli->list_ops) {
        if (argc != 2) {
            fprintf(err_out, "--list-ops: takes no other option or argument (see --help)\n");
            return 2;
        }
        return 0;
    }
    const char *mode = cli->compare ? "--compare" : cli->derive ? "--derive" : "--plot";
    if (cli->compare && cli->derive) {
        fprintf(err_out, "--compare and --derive: give one of them\n");
        return 2;
    }
    if (!cli->compare && (cli->threshold || cli->no_verdict)) {
        fprintf(err_out, "%s: only with --compare (see --help)\n",
                cli->threshold ? "--threshold" : "--no-verdict");
        return 2;
    }
    for (int i = optind; i < argc; i++) {
        if (plot_mode) {
            if (cli->n_plot_files >= FB_CLI_MAX_PLOT_FILES) {
                fprintf(err_out, "%s: at most %d files\n", mode, FB_CLI_MAX_PLOT_FILES);
                return 2;
            }
            cli->plot_files[cli->n_plot_files++] = argv[i];
        } else if (!cli->config_path) {
            cli->config_path = argv[i];
        } else {
            fprintf(err_out, "%s: unexpected argument (one config file only; see --help)\n",
                    fb_text_escape(shown_arg, sizeof shown_arg, argv[i]));
            return 2;
        }
    }
    /* --report RESULTS.csv: a results file, not a config, by its name */
    if (cli->report && !plot_mode && cli->config_path) {
        size_t len = strlen(cli->config_path);
        if (len >= 4 && strcmp(cli->config_path + len - 4, ".csv") == 0) {
            cli->report_file = cli->config_path;
            cli->config_path = NULL;
            return 0;
        }
    }
    if (plot_mode && cli->n_plot_files < (cli->compare ? 2 : 1)) {
        fprintf(err_out, "%s: give at least %s results CSV\n", mode,
                cli->compare ? "two" : "one");
        return 2;
    }
    if (cli->trace_path && !cli->profile_size) {
        fprintf(err_out, "--trace: only with --profile N (the trace is of its calls)\n");
        return 2;
    }
    if (cli->plot_config && !plot_mode) {
        fprintf(err_out, "--plot-config: only with --plot (a sweep draws with its own "
                         "config)\n");
        return 2;
    }
    if (!plot_mode && !cli->config_path) {
        fprintf(err_out, "missing CONFIG.ini (try configs/default.ini; see --help)\n");
        return 2;
    }
    return 0;
}

enum fb_command fb_cli_command(const struct fb_cli *cli)
{
    return cli->help           ? FB_CMD_HELP
           : cli->version      ? FB_CMD_VERSION
           : cli->list_ops     ? FB_CMD_LIST_OPS
           : cli->compare      ? FB_CMD_COMPARE
           : cli->derive       ? FB_CMD_DERIVE
           : cli->report_file  ? FB_CMD_REPORT
           : cli->n_plot_files ? FB_CMD_PLOT
                               : FB_CMD_MEASURE;
}
