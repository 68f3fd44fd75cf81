/* The one-page markdown report (contract in report.h). */
#include "report/report.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "common/text.h"

/* Text from data as literal markdown text (common/text.h). */
static void md_text(FILE *out, const char *text)
{
    char md[FB_TEXT_MARKDOWN_MAX];
    fputs(fb_text_markdown(md, sizeof md, text), out);
}

void fb_report_md_target(FILE *out, const char *path)
{
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '.' || *p == '_' || *p == '-')
            fputc(*p, out);
        else
            fprintf(out, "%%%02X", *p);
    }
}

/* "1.2K", "3.16M": a size, as --sizes reads it. */
static void print_n(FILE *out, double n)
{
    if (n >= 1e9)
        fprintf(out, "%.3gG", n / 1e9);
    else if (n >= 1e6)
        fprintf(out, "%.3gM", n / 1e6);
    else if (n >= 1e3)
        fprintf(out, "%.3gK", n / 1e3);
    else
        fprintf(out, "%.0f", n);
}

static void print_seconds(FILE *out, double t)
{
    if (t < 1e-6)
        fprintf(out, "%.1f ns", t * 1e9);
    else if (t < 1e-3)
        fprintf(out, "%.2f us", t * 1e6);
    else
        fprintf(out, "%.2f ms", t * 1e3);
}

static void machine(FILE *out, const struct fb_csv_table *t)
{
    static const struct {
        const char *key, *title;
    } rows[] = {
        {"device", "device"}, {"backend", "backend"}, {"host", "host"},
        {"runtime_version", "runtime"}, {"compute_units", "compute units"},
        {"memory_bytes", "memory (bytes)"}, {"cache_name", "cache"},
        {"cache_bytes", "cache (bytes)"}, {"peak_bandwidth_gbps", "peak bandwidth (GB/s)"},
        {"fusebench", "fusebench"}, {"git_commit", "commit"}, {"date", "date"},
        {"config", "config"}, {"config_hash", "config hash"}, {"label", "label"},
        {"cache_mode", "cache mode"}, {"counters", "counters"},
    };
    fputs("## Machine and build\n\n| | |\n|---|---|\n", out);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *v = fb_csv_meta_get(t, rows[i].key);
        if (!v || !v[0])
            continue;
        fprintf(out, "| %s | ", rows[i].title);
        md_text(out, v);
        fputs(" |\n", out);
    }
    fputc('\n', out);
}

static void fit(FILE *out, const struct fb_csv_table *t, const struct fb_chart_derived *d)
{
    const char *cache = d->cache_name[0] ? d->cache_name : "cache";
    fputs("## The fitted model\n\n`t(n) = launches * L + bytes / B`, launches being the "
          "host's, fitted to every variant of the run (the medians of per-point estimates):\n\n",
          out);
    fputs("- L = ", out);
    if (isfinite(d->fit_launch_s) && d->fit_launch_s > 0) {
        print_seconds(out, d->fit_launch_s);
        fputs(" per launch\n", out);
    } else {
        fputs("? (not fitted)\n", out);
    }
    fputs("- B = ", out);
    if (isfinite(d->fit_gbps) && d->fit_gbps > 0)
        fprintf(out, "%.1f GB/s beyond the ", d->fit_gbps);
    else
        fputs("? (not fitted) beyond the ", out);
    md_text(out, cache);
    fputs("\n- B_c = ", out);
    if (isfinite(d->fit_cache_gbps) && d->fit_cache_gbps > 0)
        fprintf(out, "%.1f GB/s within the ", d->fit_cache_gbps);
    else
        fputs("? (not fitted) within the ", out);
    md_text(out, cache);
    fputc('\n', out);
    const char *points = fb_csv_meta_get(t, "fit_points");
    if (points && points[0]) {
        fputs("\nPoints: ", out);
        md_text(out, points);
        fputc('\n', out);
    }
    fputc('\n', out);
}

/* The index of p's point for each regime, or SIZE_MAX: (see report.h). */
static void headline_points(const struct fb_chart_derived *d, const struct fb_chart_pair *p,
                            size_t at[3])
{
    at[0] = at[1] = at[2] = SIZE_MAX;
    if (p->n_points == 0)
        return;
    bool has_launch = isfinite(d->n_launch) && d->n_launch > 0;
    bool has_cache = isfinite(d->n_cache) && d->n_cache > 0;
    at[0] = 0;
    for (size_t i = 0; has_launch && i < p->n_points; i++)
        if (p->points[i].n <= d->n_launch)
            at[0] = i;
    double lo = has_launch ? d->n_launch : p->points[0].n;
    if (has_cache && d->n_cache > lo) {
        double mid = 0.5 * (log(lo) + log(d->n_cache)), best = INFINITY;
        for (size_t i = 0; i < p->n_points; i++) {
            double n = p->points[i].n;
            if (n > lo && n <= d->n_cache && fabs(log(n) - mid) < best) {
                best = fabs(log(n) - mid);
                at[1] = i;
            }
        }
    }
    if (has_cache && p->points[p->n_points - 1].n > d->n_cache)
        at[2] = p->n_points - 1;
}

static void headlines(FILE *out, const struct fb_chart_derived *d)
{
    static const char *const regime[3] = {"launch-bound", "in-cache", "memory-bound"};
    fputs("## Headline speedups\n\nEager over fused: the ratio of median times at one size, "
          "with its 95% interval from the interleaved rounds (a bootstrap over whole rounds "
          "of the ratio of medians; \"-\": none, such as for rows of an older file). Sizes "
          "from the regime bounds of the derivation: launch-bound up to n = ",
          out);
    if (isfinite(d->n_launch))
        print_n(out, d->n_launch);
    else
        fputs("?", out);
    fputs(", memory-bound beyond n = ", out);
    if (isfinite(d->n_cache))
        print_n(out, d->n_cache);
    else
        fputs("? (no cache size)", out);
    fputs(".\n\n| pair | regime | n | speedup | 95% interval |\n|---|---|---|---|---|\n", out);
    size_t rows = 0;
    for (size_t i = 0; i < d->n_pairs; i++) {
        const struct fb_chart_pair *p = &d->pairs[i];
        if (!p->primary)
            continue;
        size_t at[3];
        headline_points(d, p, at);
        for (int r = 0; r < 3; r++) {
            if (at[r] == SIZE_MAX)
                continue;
            const struct fb_chart_speedup *s = &p->points[at[r]];
            fputs("| ", out);
            md_text(out, p->title);
            fprintf(out, " | %s | ", regime[r]);
            print_n(out, s->n);
            fprintf(out, " | %.2fx | ", s->speedup);
            if (isfinite(s->lo) && isfinite(s->hi))
                fprintf(out, "%.3f - %.3f", s->lo, s->hi);
            else
                fputs("-", out);
            fputs(" |\n", out);
            rows++;
        }
    }
    if (rows == 0)
        fputs("| - | - | - | - | - |\n", out);
    fputc('\n', out);
}

static void noisy(FILE *out, const struct fb_chart_derived *d)
{
    fputs("## Noisy points\n\n", out);
    if (d->noisy == 0) {
        fputs("None: every point had enough undisturbed samples.\n\n", out);
        return;
    }
    fprintf(out, "%zu point%s noisy: another program disturbed too many of %s samples, so %s "
                 "times are not the kernels' own. The charts draw them hollow. To retake "
                 "them, run the same command again with `--resume`: their sizes are measured "
                 "again, every other row is kept.\n\n",
            d->noisy, d->noisy == 1 ? " was" : "s were", d->noisy == 1 ? "its" : "their",
            d->noisy == 1 ? "its" : "their");
}

/* A figure's caption source: the results file, commit and config hash it was drawn from (the
 * chart's SVG and PDF carry the same, chart/provenance.h), so a figure copied into a paper
 * can be traced to its CSV. */
static void caption_source(FILE *out, const struct fb_csv_table *t, const char *stem)
{
    const char *commit = fb_csv_meta_get(t, "git_commit");
    const char *hash = fb_csv_meta_get(t, "config_hash");
    fputs("Source: ", out);
    md_text(out, stem);
    fputs(".csv, commit ", out);
    md_text(out, commit && commit[0] ? commit : "unknown");
    fputs(", config hash ", out);
    md_text(out, hash && hash[0] ? hash : "unknown");
    fputs(".\n\n", out);
}

static void figures(FILE *out, const struct fb_csv_table *t, const char *stem,
                    const char *const *charts, size_t n)
{
    fputs("## Figures\n\n", out);
    if (n == 0)
        fputs("None drawn yet: `fusebench --plot` draws them beside the results.\n", out);
    size_t skip = strlen(stem) + 1;
    for (size_t i = 0; i < n; i++) {
        /* the title: the chart's name, between "STEM-" and the format's ".png" */
        char title[FB_CHART_TEXT_MAX];
        const char *from = strlen(charts[i]) > skip && strncmp(charts[i], stem, skip - 1) == 0 &&
                                   charts[i][skip - 1] == '-'
                               ? charts[i] + skip
                               : charts[i];
        const char *dot = strrchr(from, '.');
        snprintf(title, sizeof title, "%.*s", (int)(dot ? dot - from : (ptrdiff_t)strlen(from)),
                 from);
        fputs("![", out);
        md_text(out, title);
        fputs("](", out);
        fb_report_md_target(out, charts[i]);
        fputs(")\n\n", out);
        caption_source(out, t, stem);
    }
}

int fb_report_write(FILE *out, const struct fb_csv_table *t, const char *stem,
                    const struct fb_chart_derived *d, const char *const *charts,
                    size_t n_charts)
{
    fputs(FB_REPORT_SIGNATURE, out);
    md_text(out, stem);
    fputs("\n\nWritten by `fusebench --report` from the results file and its metadata; every "
          "number is fusebench's own derivation (`fusebench --derive`).\n\n",
          out);
    machine(out, t);
    fit(out, t, d);
    headlines(out, d);
    noisy(out, d);
    figures(out, t, stem, charts, n_charts);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
