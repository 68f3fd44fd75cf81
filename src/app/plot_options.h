/* What the charts draw and how: the [plot] section of the config (config/config.h, struct
 * fb_config_plot) and the command line's --charts, --size, --formats and --set
 * label.<variant>=TEXT, checked against the chart tables (chart/charts.h, chart/page.h,
 * chart/chart_file.h) and the plan's variants, with a chain's ops as the words of its label. */
#ifndef FB_APP_PLOT_OPTIONS_H
#define FB_APP_PLOT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "chart/chart_file.h"
#include "chart/charts.h"
#include "chart/derive.h"
#include "chart/options.h"
#include "chart/page.h"
#include "cli/cli.h"
#include "config/config.h"

/* The options of cfg (its path names the file in messages): every chart name, format and
 * size of [plot] checked against the tables, and, when check_variants, every label's
 * variant against the variants cfg makes (built-ins and its chains: plan/variants.h); a
 * chain's ops become the words of its series' labels. Prints one line per problem on diag,
 * "path:line: [plot] key: message" naming the valid choices (the command line's "--key:
 * ..." for a value it gave). Returns FB_OK, or FB_ERR_USAGE (o then holds the defaults). */
int fb_plot_options_from_config(struct fb_plot_options *o, const struct fb_config *cfg,
                                bool check_variants, FILE *diag);

/* --plot's options: --plot-config's file (checked whole: fb_app_config_load) or the
 * defaults, with the command line's overrides; without a file only [plot] keys (charts,
 * size, formats, label.<variant>) are taken. Prints its own messages. FB_OK, FB_ERR_USAGE or
 * FB_ERR_RUNTIME (out of memory). */
int fb_plot_options_from_cli(const struct fb_cli *cli, struct fb_plot_options *opt);

#endif
