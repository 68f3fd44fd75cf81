/* The derived numbers as JSON (fusebench --derive CSV [MORE.csv ...]), for the tools that
 * show them without computing them: scripts/gpu_check_summary.py, tools/torch_peer.py.
 *
 * Shape (one object and a newline; numbers in JSON notation, null where not measured or not
 * derivable; text as fb_text_escape writes it: valid UTF-8, control bytes as \t, \xNN):
 *   {"files": [{"path": P, "stem": S, "meta": {"key": "value", ...} (the "# key: value"
 *               lines, the first of a repeated key), "rows": N, "noisy": N}, ...],
 *    "sizes": [n, ...]          every distinct n of every row of every file, ascending,
 *    "rows": [{"file": I, every column of the results file by its name (output/csv.h; as
 *              derived: role and pair of older files from the built-ins, speedup and
 *              copy_fraction filled where missing, an overlay's copy_fraction against the
 *              first file's copy ceiling: chart/derive.h), "pair_time_s": the median time of
 *              the row's pair at its size (ok rows), "elements": arrays moved per call
 *              (chart/model.h)}, ...]   in file order,
 *    "pairs": [{"file": I, "eager": KEY, "fused": KEY, "title": T, "launch_limit": X,
 *               "traffic_ratio": X, "traffic_ratio_write_allocate": X or null,
 *               "points": [[n, speedup, lo, hi], ...] (lo, hi: the speedup's 95% interval
 *               from the interleaved rounds, null where the file has none)}, ...],
 *    "fit": {"launch_s": L, "bandwidth_gbps": B, "cache_bandwidth_gbps": B_c},
 *    "regimes": {"n_launch": N, "n_launch_from": "fit" | "data" | "", "n_cache": N}} */
#ifndef FB_CHART_DERIVE_JSON_H
#define FB_CHART_DERIVE_JSON_H

#include <stdio.h>

#include "chart/derive.h"
#include "results/csv.h"

/* Writes the JSON above of tables[0..n-1] (read from paths, derived by fb_chart_derive into
 * d). Returns 0, or -1 when writing failed (ferror after a flush). */
int fb_chart_json_write(FILE *out, const struct fb_csv_table *tables, const char *const *paths,
                        size_t n, const struct fb_chart_derived *d);

#endif
