/* The numbers that come from a pair of rows, computed here and nowhere else: the terminal
 * summary, the chart scripts and the Python tools only read them from the records / the CSV.
 *
 * A group is the rows of one size of one run: same backend, device, dtype, n and cache.
 * Within a group (when it holds two rows of one variant, as a resumed sweep may, the later
 * one counts):
 *
 *   copy_fraction = bandwidth_gbps / bandwidth_gbps of the group's copy ceiling, each
 *                   bandwidth taken as bytes_model / time_median_s / 1e9 when both are known
 *                   (the row whose role is "copy_ceiling": found by role, never by name;
 *                   1 for that row itself)
 *   speedup       = time_median_s / time_median_s of the group's row whose variant is this
 *                   row's `pair`: how many times faster the pair runs than this row.
 *                     eager row, pair = its fused variant:   t_eager / t_fused
 *                       = what fusing saves (> 1: fusion wins)
 *                     fused_generic_add_relu, pair = fused_add_relu (the handwritten kernel):
 *                       t_generic / t_handwritten = what the handwritten kernel still has
 *                       over the generic one (issue 11's target: <= 1.05 at 100M)
 *                   Rows without a pair (copy, memcpy, the fused rows of chains) have none.
 *
 *
 * A peer measured in the same process as ours (src/peer/peer.h: PyTorch through
 * tools/torch_inprocess.py) writes rows of its own backend that name in `mirror` the variant of
 * ours they do the same work as. Against the row of that variant in the row's group less the
 * backend (same device, dtype, n, cache, stores; another backend, the latest such row):
 *   ours_ratio    = t_mirror / t_row: our time over the peer's (< 1: ours is faster)
 *   ours_ratio_lo = t_mirror (1 - e_mirror) / (t_row (1 + e_row))
 *   ours_ratio_hi = t_mirror (1 + e_mirror) / (t_row (1 - e_row))
 * with e the rows' noise (the relative half-width of the median's 95% confidence interval,
 * measure/stats.h): where both medians lie in their intervals, which happens with probability
 * >= 90% (Bonferroni: 1 - 0.05 - 0.05; FB_PAIRING_OURS_PERCENT), the ratio of the medians
 * lies in [lo, hi]. hi is empty where e_row >= 1. Rows measured apart (another file) get
 * none: the ratio is only taken within one run.
 *
 * Each is empty (NaN) when a row it needs is missing, is not status ok (failed, skipped,
 * or any other status such as noisy), or has no positive time (bandwidth). The derivation is
 * a pure function of the group's rows: rerun after every row added, it leaves each row as
 * if computed once with all the group's rows in, whatever their order. */
#ifndef FB_MEASURE_PAIRING_H
#define FB_MEASURE_PAIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/record.h"
#include "measure/stats.h"

/* The level of [ours_ratio_lo, ours_ratio_hi], in percent (at least: Bonferroni over the
 * two medians' intervals, above). */
#define FB_PAIRING_OURS_PERCENT (100 - 2 * (100 - FB_STATS_CI_PERCENT))

/* Each returns false, changing nothing, only when out of memory (they sort an array of
 * pointers to the rows: O(n log n) for n rows, so a file of any size loads in good time). */

/* Recomputes copy_fraction and speedup of every row in the group of records[member]. */
bool fb_pairing_derive_group(struct fb_record *records, size_t count, size_t member);

/* Recomputes copy_fraction and speedup of every row. */
bool fb_pairing_derive_all(struct fb_record *records, size_t count);

/* Fills copy_fraction and speedup where a row has none (NaN), leaving every value a row
 * already holds as it is: for rows read back from a file (--resume keeps them verbatim). */
bool fb_pairing_derive_missing(struct fb_record *records, size_t count);

/* Fills copy_fraction where a row of `rows` has none (NaN), against the copy ceiling of
 * `reference` (another run: fusebench's own, measured on the same device) in the row's
 * group less the backend: same device, dtype, n, cache and stores. For a peer's rows (the
 * PyTorch peer writes its own backend and has no copy kernel), so that they are set against
 * the same ceiling as ours. The formula and the conditions are copy_fraction's above. */
bool fb_pairing_copy_fraction_against(struct fb_record *rows, size_t count,
                                      const struct fb_record *reference, size_t ref_count);

/* Rows read from a file written before the role and pair columns existed have an empty
 * role: they take role and pair from the built-in variant of the same name (plan/variants.h;
 * such files hold only built-in variants: chains came with the columns). Rows of another
 * name, and rows that have a role, are left as they are. */
void fb_pairing_fill_builtin_roles(struct fb_record *records, size_t count);

#endif
