/* The derived numbers as JSON (fusebench --derive CSV [MORE.csv ...]), for the tools that
 * show them without computing them: scripts/gpu_check_summary.py, tools/torch_peer.py,
 * tools/torch_audit.py, cluster/fusebench_report.py.
 *
 * One object of flat tables and a newline, each table printed by the table model's JSON
 * printer (chart/table.h: an array of objects keyed by column, a record table one object;
 * numbers in JSON notation, a count as an integer, null where not measured or not derivable;
 * text as fb_text_escape writes it: valid UTF-8, control bytes as \t, \xNN):
 *   {"files":   [{"file": I (from 0, in argument order), "path": P, "stem": S, "rows": N,
 *                 "noisy": N}, ...],
 *    "meta":    [{"file": I, "key": K, "value": V}, ...]  the "# key: value" lines of each
 *                 file in order, the first of a repeated key,
 *    "sizes":   [{"n": N}, ...]  every distinct n of every row of every file, ascending,
 *    "rows":    [{"file": I, every column of the results file by its name (output/csv.h; as
 *                 derived: role and pair of older files from the built-ins, speedup and
 *                 copy_fraction filled where missing, an overlay's copy_fraction against the
 *                 first file's copy ceiling: chart/derive.h; counts null where empty,
 *                 "verified" true | false), "pair_time_s": the median time of the row's
 *                 pair at its size (ok rows), "elements": arrays moved per call
 *                 (chart/model.h)}, ...]   in file order,
 *    "pairs":   [{"pair": J (from 0), "file": I, "eager": KEY, "fused": KEY, "title": T,
 *                 "launch_limit": X, "traffic_ratio": X,
 *                 "traffic_ratio_write_allocate": X or null}, ...],
 *    "points":  [{"pair": J, "n": N, "speedup": X, "lo": X, "hi": X}, ...]  each pair's
 *                 points by n (lo, hi: the speedup's 95% interval from the interleaved
 *                 rounds, null where the file has none),
 *    "fit":     {"launch_s": L, "bandwidth_gbps": B, "cache_bandwidth_gbps": B_c},
 *    "regimes": {"n_launch": N, "n_launch_from": "fit" | "data" | "", "n_cache": N}}
 * In Python: the meta of file 0 as a dict is {m["key"]: m["value"] for m in d["meta"] if
 * m["file"] == 0}; pair j's points are [p for p in d["points"] if p["pair"] == j]. */
#ifndef FB_CHART_DERIVE_JSON_H
#define FB_CHART_DERIVE_JSON_H

#include <stdio.h>

#include "chart/derive.h"
#include "results/csv.h"

/* Writes the JSON above of tables[0..n-1] (read from paths, derived by fb_chart_derive into
 * d). Returns 0, or -1 when writing failed (ferror after a flush) or memory ran out (then
 * nothing is written). */
int fb_chart_json_write(FILE *out, const struct fb_csv_table *tables, const char *const *paths,
                        size_t n, const struct fb_chart_derived *d);

#endif
