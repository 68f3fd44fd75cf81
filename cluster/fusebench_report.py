#!/usr/bin/env python3
"""The sanity verdict and the performance numbers of one fusebench sweep, as lines that the
ReFrame test (cluster/fusebench_checks.py) and a plain sbatch job's reader match.

    fusebench_report.py --plan PLAN.json --derive DERIVE.json

PLAN.json is `fusebench CONFIG --print-plan` (with the sweep's overrides), DERIVE.json is
`fusebench --derive RESULTS.csv`. Every number printed is fusebench's: read from those two
files, never recomputed here (issue 21: each number has one home, the C core). Printed on
stdout, one per line:

    fusebench-check: rows=R planned=P verified=V failed=F noisy=N launch_mismatch=M
    fusebench-check: PASS                         (or FAIL: the reasons, '; '-separated)
    fusebench-perf: NAME=VALUE UNIT [at n=N]      one per name in PERF (nan: not derivable)
    fusebench-device: BACKEND DEVICE

The check passes when every planned point (variant x size x dtype of the plan) has a row,
every row is verified and none failed, and every row's counted launches equal the plan's
for its variant (eager chains one kernel per op, fused variants 1). Noisy rows (disturbed by
other programs) pass the check; they have no speedup, so a number taken at one may be nan.
Exit status: 0 the check passed, 1 it failed, 2 unreadable input.
"""
import argparse
import json
import math
import sys

# name, unit, what it is (docs/cluster.md lists the same)
PERF = (
    ("speedup_largest", "x", "the main pair's speedup (eager / fused) at the largest size that has one"),
    ("speedup_launch_bound", "x", "the main pair's speedup at the smallest size, when it is launch-bound (n <= n_launch)"),
    ("fused_over_copy", "fraction", "the main fused variant's copy_fraction at the largest size"),
    ("copy_bandwidth", "GB/s", "the copy ceiling's bandwidth_gbps at the largest size"),
    ("fit_launch", "us", "the fitted launch cost L (# fit_launch_s)"),
    ("fit_bandwidth", "GB/s", "the fitted memory bandwidth B (# fit_bandwidth_gbps)"),
)


def _num(value):
    """A JSON number or null as a float (nan for null)."""
    return float("nan") if value is None else float(value)


def check(plan, derive):
    """(counts, reasons): the counts printed and why the check fails (empty: it passes)."""
    planned_launches = {v["name"]: v["launches"] for v in plan["variants"]}
    dtypes = plan.get("dtypes") or [plan["dtype"]]
    planned = {(v, int(n), d) for v in planned_launches for n in plan["sizes"] for d in dtypes}
    rows = [r for r in derive["rows"] if r["file"] == 0]
    seen = {(r["variant"], int(r["n"]), r["dtype"]) for r in rows}
    counts = {
        "rows": len(rows),
        "planned": len(planned),
        "verified": sum(1 for r in rows if r["verified"]),
        "failed": sum(1 for r in rows if r["status"] == "failed"),
        "noisy": sum(1 for r in rows if r["status"] == "noisy"),
        "launch_mismatch": sum(1 for r in rows if r["variant"] in planned_launches
                               and r["launches"] is not None
                               and r["launches"] != planned_launches[r["variant"]]),
    }
    reasons = []
    missing = sorted(planned - seen)
    if missing:
        v, n, d = missing[0]
        reasons.append(f"{len(missing)} planned points have no row (first: {v} n={n} {d})")
    if counts["verified"] != len(rows):
        reasons.append(f"{len(rows) - counts['verified']} rows not verified")
    if counts["failed"]:
        first = next(r for r in rows if r["status"] == "failed")
        reasons.append(f"{counts['failed']} rows failed (first: {first['variant']} "
                       f"n={first['n']}: {first['reason']})")
    if counts["launch_mismatch"]:
        r = next(r for r in rows if r["variant"] in planned_launches
                 and r["launches"] is not None
                 and r["launches"] != planned_launches[r["variant"]])
        reasons.append(f"{counts['launch_mismatch']} rows launched other than planned (first: "
                       f"{r['variant']} n={r['n']}: {r['launches']}, plan "
                       f"{planned_launches[r['variant']]})")
    unplanned = sorted(seen - planned)
    if unplanned:
        v, n, d = unplanned[0]
        reasons.append(f"{len(unplanned)} rows of points the plan does not hold (first: {v} "
                       f"n={n} {d}): another run's file?")
    if not rows:
        reasons.append("the results file has no rows")
    return counts, reasons


def _row_at_largest(rows, predicate):
    """The ok row of the largest n among rows matching predicate, or None."""
    ok = [r for r in rows if predicate(r) and r["status"] == "ok"]
    return max(ok, key=lambda r: r["n"]) if ok else None


def _variant_of_key(key, rows):
    """The variant of a series key (variant, plus "-fp16", "-streaming", "-cold" suffixes:
    chart/derive.h): the longest variant name of the rows that is the key or starts it."""
    names = {r["variant"] for r in rows}
    hits = [v for v in names if key == v or key.startswith(v + "-")]
    return max(hits, key=len) if hits else None


def perf(derive):
    """{name: (value, n or None)} for every name of PERF."""
    rows = [r for r in derive["rows"] if r["file"] == 0]
    pairs = [p for p in derive["pairs"] if p["file"] == 0]
    out = {name: (float("nan"), None) for name, _, _ in PERF}
    if pairs:
        main = pairs[0]   # fusebench's main pair (chart/derive.h): the first of the run
        points = [p for p in derive["points"] if p["pair"] == main["pair"]]  # sorted by n
        if points:
            n, s = points[-1]["n"], points[-1]["speedup"]
            out["speedup_largest"] = (_num(s), n)
            n, s = points[0]["n"], points[0]["speedup"]
            n_launch = derive["regimes"].get("n_launch")
            if n_launch is not None and n <= n_launch:
                out["speedup_launch_bound"] = (_num(s), n)
        fused = _variant_of_key(main["fused"], rows)
        row = _row_at_largest(rows, lambda r: r["variant"] == fused)
        if row is not None:
            out["fused_over_copy"] = (_num(row["copy_fraction"]), row["n"])
    row = _row_at_largest(rows, lambda r: r["role"] == "copy_ceiling")
    if row is not None:
        out["copy_bandwidth"] = (_num(row["bandwidth_gbps"]), row["n"])
    fit = derive.get("fit", {})
    out["fit_launch"] = (_num(fit.get("launch_s")) * 1e6, None)
    out["fit_bandwidth"] = (_num(fit.get("bandwidth_gbps")), None)
    return out


def _fmt(value):
    return "nan" if math.isnan(value) else f"{value:.6g}"


def report(plan, derive, out=sys.stdout):
    """Prints the lines of the module's docstring; returns True when the check passed."""
    counts, reasons = check(plan, derive)
    print("fusebench-check: " + " ".join(f"{k}={v}" for k, v in counts.items()), file=out)
    print("fusebench-check: " + ("PASS" if not reasons else "FAIL: " + "; ".join(reasons)),
          file=out)
    values = perf(derive)
    for name, unit, _ in PERF:
        value, n = values[name]
        where = "" if n is None else f" at n={int(n)}"
        print(f"fusebench-perf: {name}={_fmt(value)} {unit}{where}", file=out)
    meta = {m["key"]: m["value"] for m in derive.get("meta", []) if m["file"] == 0}
    print(f"fusebench-device: {meta.get('backend', '?')} {meta.get('device', '?')}", file=out)
    return not reasons


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plan", required=True, help="fusebench CONFIG --print-plan's output")
    ap.add_argument("--derive", required=True, help="fusebench --derive RESULTS.csv's output")
    args = ap.parse_args(argv)
    try:
        with open(args.plan, encoding="utf-8") as f:
            plan = json.load(f)
        with open(args.derive, encoding="utf-8") as f:
            derive = json.load(f)
        return 0 if report(plan, derive) else 1
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"fusebench_report.py: {e.__class__.__name__}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
