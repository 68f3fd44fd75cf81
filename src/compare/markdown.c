/* The comparison as markdown: the headline table and the verdict (contract in runs.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "common/text.h"
#include "compare/runs.h"

/* Every text from a results file goes through fb_text_markdown (common/text.h): it cannot
 * open a cell, a tag, a link or a new row. */

/* A number with three significant digits, "-" when unknown. */
static const char *num(char *out, size_t size, double x, const char *unit)
{
    if (isfinite(x))
        snprintf(out, size, "%.3g%s", x, unit);
    else
        snprintf(out, size, "-");
    return out;
}

/* "1.95 (n = 8)" */
static const char *at_n(char *out, size_t size, double x, double n)
{
    if (isfinite(x))
        snprintf(out, size, "%.3g (n = %.6g)", x, n);
    else
        snprintf(out, size, "-");
    return out;
}

static void headline_table(FILE *out, const struct fb_compare *c)
{
    char pair[FB_CHART_TEXT_MAX * 8], copy[FB_CHART_KEY_MAX * 8];
    /* The copy key ends in the file's dtype (and stores): text from the file, like the pair. */
    fprintf(out, FB_COMPARE_MD_SIGNATURE "\n\nPair: %s; copy ceiling: %s.\n\n",
            fb_text_markdown(pair, sizeof pair, c->pair_title),
            fb_text_markdown(copy, sizeof copy, c->copy_key));
    fprintf(out, "| # | device | date (UTC) | file | backend | cache | speedup, smallest n "
                 "| speedup, largest n | fused / copy, largest n | copy GB/s (max) "
                 "| launch µs (fit) | GB/s (fit) |\n");
    fprintf(out, "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < c->n_runs; i++) {
        const struct fb_compare_run *r = &c->runs[i];
        char dev[1024], date[256], file[1024], backend[256], cache[1024];
        char a[64], b[64], f[64], g[64], l[64], bw[64];
        fprintf(out, "| %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", i + 1,
                fb_text_markdown(dev, sizeof dev, r->d->device),
                fb_text_markdown(date, sizeof date, r->date),
                fb_text_markdown(file, sizeof file, r->d->stems[0]),
                fb_text_markdown(backend, sizeof backend, r->d->backend),
                fb_text_markdown(cache, sizeof cache, r->d->cache_text[0] ? r->d->cache_text : "-"),
                at_n(a, sizeof a, r->speedup_small, r->n_small),
                at_n(b, sizeof b, r->speedup_large, r->n_large),
                num(f, sizeof f, r->copy_fraction_large, ""),
                num(g, sizeof g, r->copy_gbps_max, ""),
                num(l, sizeof l, r->fit_launch_s * 1e6, ""), num(bw, sizeof bw, r->fit_gbps, ""));
    }
}

static void verdict_table(FILE *out, const struct fb_compare *c)
{
    fprintf(out, "\n## Regression verdict\n\nEach run against run 1, per point (variant, dtype, "
                 "stores, cache, n) measured in both: ratio = median time per call of the run / "
                 "of run 1; interval = run p10 / run-1 p90 .. run p90 / run-1 p10; regressed "
                 "when the whole interval lies above %.4g (threshold %.4g%%), faster when it "
                 "lies below %.4g.\n\n",
            1 + c->threshold, c->threshold * 100, 1 / (1 + c->threshold));
    fprintf(out, "| # | points | regressed | faster | ratio min | ratio max | worst point "
                 "| verdict |\n|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 1; i < c->n_runs; i++) {
        const struct fb_compare_verdict *v = &c->verdicts[i];
        char lo[64], hi[64], worst[FB_CHART_KEY_MAX * 8 + 128] = "-";
        if (v->worst != SIZE_MAX) {
            const struct fb_compare_point *p = &v->points[v->worst];
            char key[FB_CHART_KEY_MAX * 8];
            snprintf(worst, sizeof worst, "%s n = %.6g: %.3g [%.3g, %.3g]",
                     fb_text_markdown(key, sizeof key, p->key), p->n, p->ratio, p->lo, p->hi);
        }
        fprintf(out, "| %zu | %zu | %zu | %zu | %s | %s | %s | %s |\n", i + 1, v->n_points,
                v->regressed, v->faster, num(lo, sizeof lo, v->ratio_min, ""),
                num(hi, sizeof hi, v->ratio_max, ""), worst,
                v->regressed ? "**regressed**" : "no regression");
    }
    if (!fb_compare_regressed_runs(c))
        return;
    fprintf(out, "\n### Regressed points\n\n| # | series | n | ratio | interval |\n"
                 "|---|---|---|---|---|\n");
    for (size_t i = 1; i < c->n_runs; i++)
        for (size_t k = 0; k < c->verdicts[i].n_points; k++) {
            const struct fb_compare_point *p = &c->verdicts[i].points[k];
            char key[FB_CHART_KEY_MAX * 8];
            if (p->state == FB_COMPARE_REGRESSED)
                fprintf(out, "| %zu | %s | %.6g | %.3g | %.3g .. %.3g |\n", i + 1,
                        fb_text_markdown(key, sizeof key, p->key), p->n, p->ratio, p->lo, p->hi);
        }
}

int fb_compare_markdown(FILE *out, const struct fb_compare *c)
{
    headline_table(out, c);
    if (c->verdict)
        verdict_table(out, c);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
