#!/usr/bin/env python3
"""`fusebench --compare` end to end on results files made from tests/plots/data/sample-cpu.csv
with known shifts: the exit status of the verdict (1 for a 10% slowdown, 0 for 2%, 0 for a
speedup, 2 for disjoint sizes naming them, 2 for usage errors, nothing written then), the
markdown table on stdout and beside the charts, both runs named in the charts' SVG and PDF
metadata, and a device name made to run gnuplot code
(nothing runs; the charts are drawn when gnuplot is installed).

usage: test_compare_cli.py PATH/TO/fusebench   (meson passes the built binary)"""
import csv
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

BINARY = None
ROOT = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLE = os.path.join(ROOT, "tests", "plots", "data", "sample-cpu.csv")


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, timeout=300)


def make(path, factor=1.0, keep=lambda n: True, device=None, seed=1, median_only=False):
    """sample-cpu.csv with every time x factor (a random 0.2% jitter, never zero), p10 / p90
    at 1% of the median, only the rows whose n keep() accepts, derived columns left empty.
    median_only: only the median x factor, the other times as at factor 1."""
    rng = random.Random(seed)
    meta, body = [], []
    with open(SAMPLE) as f:
        for line in f:
            (meta if line.startswith("#") else body).append(line)
    if device is not None:
        meta = [f"# device: {device}\n" if m.startswith("# device:") else m for m in meta]
    reader = csv.reader(body)
    header = next(reader)
    col = {name: i for i, name in enumerate(header) if name}
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    for r in reader:
        if not keep(int(r[col["n"]])) or r[col["status"]] != "ok":
            continue
        median = float(r[col["time_median_s"]]) * factor * rng.uniform(0.999, 1.001)
        for name, x in (("time_median_s", 1), ("time_p10_s", 0.99), ("time_p90_s", 1.01),
                        ("time_min_s", 0.98), ("time_max_s", 1.05)):
            scale = factor if name == "time_median_s" or not median_only else 1.0
            r[col[name]] = f"{median / factor * scale * x:.9g}"
        for name in ("speedup", "copy_fraction", "bandwidth_gbps"):
            if name in col:
                r[col[name]] = ""
        w.writerow(r)
    with open(path, "w") as f:
        f.write("".join(meta) + out.getvalue())
    return path


class CompareCli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.base = make(os.path.join(self.dir, "base.csv"))
        self.charts = os.path.join(self.dir, "charts")

    def tearDown(self):
        self.tmp.cleanup()

    def compare(self, run_csv, *extra):
        return run("--compare", self.base, run_csv, "--no-plot", *extra)

    def test_slowdown_of_10_percent_exits_1(self):
        p = self.compare(make(os.path.join(self.dir, "slow.csv"), 1.10, seed=2))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(b"**regressed**", p.stdout)
        self.assertIn(b"### Regressed points", p.stdout)
        self.assertIn(b"REGRESSED", p.stderr)

    def test_slowdown_of_2_percent_exits_0(self):
        p = self.compare(make(os.path.join(self.dir, "two.csv"), 1.02, seed=3))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"no regression", p.stdout)
        self.assertIn(b" 0 regressed beyond 5%", p.stderr)

    def test_speedup_exits_0(self):
        p = self.compare(make(os.path.join(self.dir, "fast.csv"), 0.8, seed=4))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn(b"**regressed**", p.stdout)

    def test_threshold_decides(self):
        slow = make(os.path.join(self.dir, "slow.csv"), 1.10, seed=5)
        self.assertEqual(self.compare(slow, "--threshold", "15%").returncode, 0)
        self.assertEqual(self.compare(slow, "--threshold", "0.05").returncode, 1)

    def test_median_outside_its_own_interval_is_refused_naming_the_row(self):
        # The verdict read such a row (median 1,000x, p10 / p90 unchanged) as "0 regressed".
        slow = make(os.path.join(self.dir, "slow.csv"), 1000, seed=2, median_only=True)
        p = self.compare(slow)
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertNotIn(b"0 regressed", p.stdout + p.stderr)
        self.assertRegex(p.stderr.decode(), r"slow\.csv:\d+: time_median_s .* exceeds")

    def test_unusable_plot_dir_exits_2_before_the_verdict(self):
        # It was judged after the verdict: a regressed run printed REGRESSED, then exited 2.
        blocker = os.path.join(self.dir, "blocker")
        with open(blocker, "w"):
            pass
        slow = make(os.path.join(self.dir, "slow.csv"), 1.10, seed=2)
        p = run("--compare", self.base, slow, "--plot-dir", os.path.join(blocker, "charts"))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertNotIn(b"Regression verdict", p.stdout)
        self.assertNotIn(b"REGRESSED", p.stderr)
        self.assertIn(b"--plot-dir", p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), ["base.csv", "blocker", "slow.csv"])

    def test_disjoint_sizes_exit_2_naming_them(self):
        base = make(os.path.join(self.dir, "small.csv"), keep=lambda n: n <= 2048)
        other = make(os.path.join(self.dir, "large.csv"), keep=lambda n: n > 2048)
        p = run("--compare", base, other, "--plot-dir", self.charts)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(b"no common sizes", p.stderr)
        self.assertIn(b"small.csv has n = 8 .. 2048", p.stderr)
        self.assertIn(b"large.csv has n = 8192 .. 1e+08", p.stderr)
        self.assertFalse(os.path.exists(self.charts), "nothing is written on exit 2")

    def test_usage_errors_exit_2(self):
        for args in (["--compare", self.base], ["--compare", self.base, self.base,
                                                "--threshold", "5"],
                     ["--plot", self.base, "--threshold", "5%"],
                     ["--compare", self.base, os.path.join(self.dir, "missing.csv")]):
            p = run(*args)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertTrue(p.stderr, args)

    def test_no_verdict_draws_devices_whatever_the_times(self):
        p = self.compare(make(os.path.join(self.dir, "slow.csv"), 1.5, seed=6), "--no-verdict")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"## Headline numbers per run", p.stdout)
        self.assertNotIn(b"Regression verdict", p.stdout)

    def test_hostile_device_draws_and_runs_nothing(self):
        if not shutil.which(os.environ.get("GNUPLOT", "gnuplot")):
            self.skipTest("no gnuplot")
        pwned = os.path.join(self.dir, "pwned")
        device = f'x"; system("touch {pwned}"); print "|<b>'
        other = make(os.path.join(self.dir, "other.csv"), 1.10, device=device, seed=7)
        p = run("--compare", self.base, other, "--plot-dir", self.charts)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertFalse(os.path.exists(pwned))
        names = sorted(os.listdir(self.charts))
        for chart in ("speedup", "speedup-cache", "copy_fraction", "bandwidth", "ratio"):
            for fmt in ("png", "svg"):
                self.assertIn(f"base-vs-other-compare-{chart}.{fmt}", names)
        with open(os.path.join(self.charts, "base-vs-other-compare.md"), "rb") as f:
            table = f.read()
        self.assertEqual(table + b"\n", p.stdout[:len(table) + 1])
        self.assertIn(b"\\|\\<b\\>", table)
        self.assertFalse([n for n in names if n.startswith(".")], names)

    def test_hostile_dtype_is_escaped_in_the_copy_ceiling_line(self):
        # The copy ceiling's key ends in the dtype: it reached stdout and -compare.md raw.
        def with_dtype(path):
            with open(path) as f:
                text = f.read()
            # Each float32 row gets a hostile twin before it: the first pair is the hostile one.
            out = []
            for line in text.split("\n"):
                if ",float32," in line and not line.startswith("#"):
                    out.append(line.replace(",float32,", ',"<b>\x1b[31mfp32",'))
                out.append(line)
            with open(path, "w") as f:
                f.write("\n".join(out))
            return path
        with_dtype(self.base)
        p = self.compare(with_dtype(make(os.path.join(self.dir, "other.csv"), seed=8)))
        self.assertEqual(p.returncode, 0, p.stderr)
        ceiling = [line for line in p.stdout.split(b"\n") if b"copy ceiling" in line]
        self.assertTrue(ceiling, p.stdout)
        self.assertNotIn(b"\x1b", p.stdout)
        self.assertNotIn(b"<b>", p.stdout)
        self.assertIn(b"\\<b\\>", ceiling[0])

    def test_many_long_names_fit_a_file_name(self):
        if not shutil.which(os.environ.get("GNUPLOT", "gnuplot")):
            self.skipTest("no gnuplot")
        files = [make(os.path.join(self.dir, "p" * 60 + str(i) + ".csv"), seed=10 + i)
                 for i in range(5)]
        p = run("--compare", *files, "--no-verdict", "--plot-dir", self.charts)
        self.assertEqual(p.returncode, 0, p.stderr)
        names = os.listdir(self.charts)
        self.assertIn("p" * 60 + "0-vs-4-more-compare.md", names)
        self.assertIn("p" * 60 + "0-vs-4-more-compare-ratio.svg", names)

    def test_charts_carry_both_runs_provenance(self):
        if not shutil.which(os.environ.get("GNUPLOT", "gnuplot")):
            self.skipTest("no gnuplot")
        other = make(os.path.join(self.dir, "other.csv"), 1.0, device="Other CPU", seed=8)
        p = run("--compare", self.base, other, "--no-verdict", "--plot-dir", self.charts)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.charts, "base-vs-other-compare-ratio.svg"), "rb") as f:
            svg = f.read().split(b"<g id=", 1)[0]  # up to the drawing: its metadata
        self.assertIn(b"<title>fusebench chart ratio (base.csv vs other.csv)</title>", svg)
        for line in (b"source: base.csv vs other.csv", b"commit: 77e4d4d5a1b2 vs 77e4d4d5a1b2",
                     b"config_hash: 9f3c2a1b vs 9f3c2a1b",
                     b"device: AMD EPYC 9B14 96-Core Processor vs Other CPU",
                     b"date: 2025-11-30T03:41:07Z vs 2025-11-30T03:41:07Z",
                     b"producer: fusebench "):
            self.assertIn(line, svg)
        with open(os.path.join(self.charts, "base-vs-other-compare-ratio.pdf"), "rb") as f:
            pdf = f.read()
        pdf = pdf[pdf.rindex(b"%%EOF", 0, len(pdf) - 6):]  # the update after cairo's end
        for key in (b"/Source (base.csv vs other.csv)",
                    b"/Device (AMD EPYC 9B14 96-Core Processor vs Other CPU)",
                    b"/Commit (77e4d4d5a1b2 vs 77e4d4d5a1b2)", b"/ConfigHash (9f3c2a1b vs"):
            self.assertIn(key, pdf)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main()
