#!/usr/bin/env python3
"""cluster/fusebench_report.py on made-up plans and derived numbers (the shapes of fusebench
--print-plan and --derive, src/output/plan_json.h and src/chart/derive_json.h): the check
passes a complete verified run and fails, saying why, on a missing point, an unverified or
failed row, launches other than planned, a row the plan does not hold; the numbers are read
from the right rows (the largest size, the launch-bound one, the main pair, the fit), nan
where fusebench derived none; the command's exit status."""
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "cluster"))
import fusebench_report as rep  # noqa: E402

SIZES = [8, 1000, 1000000]
VARIANTS = [("copy", "copy_ceiling", 1), ("eager_add_relu", "eager", 2),
            ("fused_add_relu", "fused", 1)]


def plan():
    return {"sizes": SIZES, "dtype": "fp32", "dtypes": ["fp32"],
            "variants": [{"name": v, "role": r, "launches": k} for v, r, k in VARIANTS]}


def derive():
    rows = []
    for n in SIZES:
        for v, role, k in VARIANTS:
            rows.append({"file": 0, "variant": v, "role": role, "dtype": "fp32", "n": n,
                         "launches": k, "verified": True, "status": "ok", "reason": "",
                         "bandwidth_gbps": 10.0 + n / 1e6 if role == "copy_ceiling" else 5.0,
                         "copy_fraction": 0.75 if role == "fused" else None})
    points = [(8, 1.9, 1.88, 1.92), (1000, 1.8, None, None), (1000000, 1.6, 1.5, 1.7)]
    return {"files": [{"file": 0, "path": "run.csv", "stem": "run", "rows": len(rows),
                       "noisy": 0}],
            "meta": [{"file": 0, "key": "backend", "value": "cpu"},
                     {"file": 0, "key": "device", "value": "Test CPU"}],
            "sizes": [{"n": n} for n in SIZES], "rows": rows,
            "pairs": [{"pair": 0, "file": 0, "eager": "eager_add_relu",
                       "fused": "fused_add_relu"}],
            "points": [{"pair": 0, "n": n, "speedup": s, "lo": lo, "hi": hi}
                       for n, s, lo, hi in points],
            "fit": {"launch_s": 1.5e-6, "bandwidth_gbps": 12.5, "cache_bandwidth_gbps": None},
            "regimes": {"n_launch": 500.0}}


def run(p, d):
    out = io.StringIO()
    passed = rep.report(p, d, out)
    return passed, out.getvalue()


class Check(unittest.TestCase):
    def test_complete_run_passes(self):
        passed, text = run(plan(), derive())
        self.assertTrue(passed, text)
        self.assertIn("fusebench-check: PASS\n", text)
        self.assertIn("rows=9 planned=9 verified=9 failed=0 noisy=0 launch_mismatch=0", text)

    def test_missing_point_fails(self):
        d = derive()
        del d["rows"][4]
        passed, text = run(plan(), d)
        self.assertFalse(passed)
        self.assertIn("1 planned points have no row (first: eager_add_relu n=1000 fp32)", text)

    def test_unverified_row_fails(self):
        d = derive()
        d["rows"][2]["verified"] = False
        passed, text = run(plan(), d)
        self.assertFalse(passed)
        self.assertIn("1 rows not verified", text)

    def test_failed_row_fails_with_its_reason(self):
        d = derive()
        d["rows"][5].update(status="failed", reason="mismatch at element 3")
        passed, text = run(plan(), d)
        self.assertFalse(passed)
        self.assertIn("1 rows failed (first: fused_add_relu n=1000: mismatch at element 3)",
                      text)

    def test_launches_other_than_planned_fail(self):
        d = derive()
        d["rows"][1]["launches"] = 1   # an eager chain of 2 ops counted as one kernel
        passed, text = run(plan(), d)
        self.assertFalse(passed)
        self.assertIn("launch_mismatch=1", text)
        self.assertIn("(first: eager_add_relu n=8: 1, plan 2)", text)

    def test_row_of_another_plan_fails(self):
        d = derive()
        d["rows"].append(dict(d["rows"][0], n=77))
        passed, text = run(plan(), d)
        self.assertFalse(passed)
        self.assertIn("1 rows of points the plan does not hold (first: copy n=77 fp32)", text)

    def test_noisy_rows_pass(self):
        d = derive()
        d["rows"][3].update(status="noisy", reason="disturbed")
        passed, text = run(plan(), d)
        self.assertTrue(passed, text)
        self.assertIn("noisy=1", text)

    def test_empty_results_fail(self):
        d = derive()
        d["rows"] = []
        passed, text = run(plan(), d)
        self.assertFalse(passed)
        self.assertIn("the results file has no rows", text)


class Perf(unittest.TestCase):
    def test_numbers_come_from_the_right_rows(self):
        v = rep.perf(derive())
        self.assertEqual(v["speedup_largest"], (1.6, 1000000))
        self.assertEqual(v["speedup_launch_bound"], (1.9, 8))
        self.assertEqual(v["fused_over_copy"], (0.75, 1000000))
        self.assertEqual(v["copy_bandwidth"], (11.0, 1000000))
        self.assertAlmostEqual(v["fit_launch"][0], 1.5)
        self.assertEqual(v["fit_bandwidth"], (12.5, None))

    def test_not_launch_bound_and_not_fitted_is_nan(self):
        d = derive()
        d["regimes"]["n_launch"] = 4.0        # the smallest size is past the launch-bound range
        d["fit"]["bandwidth_gbps"] = None
        v = rep.perf(d)
        self.assertTrue(math.isnan(v["speedup_launch_bound"][0]))
        self.assertTrue(math.isnan(v["fit_bandwidth"][0]))
        _, text = run(plan(), d)
        self.assertIn("fusebench-perf: fit_bandwidth=nan GB/s\n", text)

    def test_noisy_largest_row_is_skipped(self):
        d = derive()
        for r in d["rows"]:
            if r["n"] == 1000000 and r["role"] == "copy_ceiling":
                r["status"] = "noisy"
        self.assertEqual(rep.perf(d)["copy_bandwidth"], (10.0 + 1000 / 1e6, 1000))

    def test_fused_series_of_a_16_bit_run(self):
        d = derive()
        d["pairs"][0].update(eager="eager_add_relu-fp16", fused="fused_add_relu-fp16")
        self.assertEqual(rep.perf(d)["fused_over_copy"], (0.75, 1000000))

    def test_device_line(self):
        _, text = run(plan(), derive())
        self.assertIn("fusebench-device: cpu Test CPU\n", text)


class Command(unittest.TestCase):
    def call(self, p, d):
        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for name, obj in (("plan.json", p), ("derive.json", d)):
                path = os.path.join(tmp, name)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(obj if isinstance(obj, str) else json.dumps(obj))
                files.append(path)
            return subprocess.run([sys.executable, os.path.join(SRC, "cluster",
                                                                "fusebench_report.py"),
                                   "--plan", files[0], "--derive", files[1]],
                                  capture_output=True, text=True)

    def test_exit_status(self):
        self.assertEqual(self.call(plan(), derive()).returncode, 0)
        d = derive()
        d["rows"][0]["status"] = "failed"
        self.assertEqual(self.call(plan(), d).returncode, 1)
        bad = self.call(plan(), "{not json")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("fusebench_report.py: JSONDecodeError", bad.stderr)


if __name__ == "__main__":
    unittest.main()
