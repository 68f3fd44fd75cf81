/* The confidence interval of a speedup, from the interleaved rounds of the runner
 * (measure/runner.h, step 3): in round k the runner took one sample of each point of a size,
 * so x[k] (the eager variant's time per call) and y[k] (its pair's) were taken within the same
 * stretch of a shared machine, and whatever slowed that round (a neighbour's memory traffic, a
 * clock change) slowed both.
 *
 * Method: a bootstrap over whole rounds of the ratio of medians, the speedup's own estimator
 * (measure/pairing.h: speedup = median time / the pair's median time, each over all of its
 * clean samples). The units resampled are the rounds where either side has a clean sample:
 * FB_INTERVAL_RESAMPLES resamples of that many rounds are drawn with replacement, each giving
 * median(x*) / median(y*) over the clean samples the drawn rounds hold (x[k] and y[k] come
 * together, so the drift both sides shared in a round stays shared and cancels in the ratio);
 * the interval is the 2.5th and 97.5th percentiles of those ratios (stats.h's percentile).
 * The draws come from a fixed seed: the same rounds always give the same interval.
 *
 * Why the rounds of one side only are in: a point keeps sampling until its own caps, so at a
 * large size the eager variant (slower a call) reaches max_time rounds before its fused pair,
 * which samples on; a disturbed sample leaves its round to one side as well. The speedup
 * counts those samples, so its interval must too: drawn from the paired rounds alone it was
 * the interval of another number, and the point fell outside its own bar (AMD EPYC, 100M:
 * 1.66 against 1.67-2.35). With every round paired this is the paired bootstrap.
 *
 * Why this and not the alternatives:
 *   - the old band, eager p10 / pair p90 .. eager p90 / pair p10, describes the spread of one
 *     sample, not the uncertainty of the ratio, and pairs the two sides' extremes as if the
 *     rounds were unrelated: where the medians agree within 2% it ran from 1 to far above the
 *     speedup although the ratio is known to a percent;
 *   - the order statistics of the per-round ratios give an exact interval of the median of
 *     the ratios, which is another estimator: under drift (a loaded machine) the speedup, a
 *     ratio of medians, fell outside it (1K-10K on a shared 2-core VM), and a bar that misses
 *     its own point reads as an error. The bootstrap is about the number that is drawn.
 * Fewer than FB_INTERVAL_MIN_ROUNDS paired rounds (both sides clean) give no interval: a
 * median of fewer takes only a handful of values, stats.h's noise asks for 8 as well, and
 * without pairs no drift cancels. */
#ifndef FB_MEASURE_INTERVAL_H
#define FB_MEASURE_INTERVAL_H

#include <stddef.h>

#define FB_INTERVAL_MIN_ROUNDS 8
/* The interval's level, in percent: the percentiles (100 - 95) / 2 and 100 - that of the
 * resampled ratios. */
#define FB_INTERVAL_PERCENT 95
/* 2000: the percentiles at 2.5% and 97.5% then rest on 50 resamples each side. */
#define FB_INTERVAL_RESAMPLES 2000
/* The bootstrap's seed (any fixed value; this one is "speedup" in ASCII). */
#define FB_INTERVAL_SEED 0x73706565647570ull

struct fb_ratio_interval {
    double lo, hi;  /* the ratio's 95% interval (dimensionless); NaN when none */
    double ratio;   /* median(x) / median(y), each over all its clean samples: the speedup
                       the interval is drawn around; NaN when a side has none */
    size_t rounds;  /* paired rounds: where both sides have a clean sample */
};

/* The interval of median(x) / median(y) over the rounds k in [0, rounds), a sample clean
 * where it is finite and positive (a NaN marks a round without a clean sample of that side:
 * dropped as disturbed, or the point had stopped). Allocates its scratch (5 u + resamples
 * doubles, u the rounds with a clean sample of either side); out of memory gives lo = hi =
 * NaN with rounds set. Never fails otherwise. O(resamples * u). */
struct fb_ratio_interval fb_interval_paired(const double *x, const double *y, size_t rounds);

#endif
