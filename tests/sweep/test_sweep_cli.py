#!/usr/bin/env python3
"""The sweep command end to end on the CPU backend: what a user sees and keeps.

usage: test_sweep_cli.py PATH/TO/fusebench   (meson passes the built binary)
Each test runs the real binary on configs/smoke.ini (or a broken copy of it) in a fresh
temporary directory and checks the exit code, the CSV and what was (not) written."""
import csv
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

BINARY = None
ROOT = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SMOKE = os.path.join(ROOT, "configs", "smoke.ini")
COLUMNS = ("backend,device,variant,dtype,n,launches,bytes_model,reps,batch,time_median_s,"
           "time_min_s,time_max_s,time_p10_s,time_p90_s,noise,bandwidth_gbps,copy_fraction,"
           "kernel_time_s,launch_overhead_s,dram_read_bytes,dram_write_bytes,l2_bytes,"
           "dram_bytes_per_element,cache,verified,status,reason").split(",")


def run(*args, timeout=300):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout)


def read_csv(path):
    with open(path) as f:
        meta = {}
        lines = []
        for line in f:
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                meta[key.strip()] = value.strip()
            else:
                lines.append(line)
    return meta, list(csv.DictReader(lines))


class SweepCli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.out = os.path.join(self.dir, "results.csv")

    def tearDown(self):
        self.tmp.cleanup()

    def sweep(self, *extra, config=SMOKE):
        return run(config, "--backend", "cpu", "--output", self.out, "--no-plot", *extra)

    def test_smoke_sweep_writes_every_point_with_counted_launches(self):
        p = self.sweep()
        self.assertEqual(p.returncode, 0, p.stderr)
        meta, rows = read_csv(self.out)
        with open(self.out) as f:
            header = next(line for line in f if not line.startswith("#")).strip().split(",")
        self.assertEqual(header, COLUMNS)
        self.assertEqual(meta["backend"], "cpu")
        for key in ("fusebench", "git_commit", "date", "host", "device", "cache_bytes",
                    "config", "config_hash"):
            self.assertIn(key, meta)
        self.assertEqual(len(rows), 6 * 10)  # 6 variants x 8, 10, 32, 100, ... 100K
        launches = {"copy": "1", "eager_add_relu": "2", "eager_add_threshold": "2",
                    "fused_add_relu": "1", "memcpy": "0", "fused_generic_add_relu": "1"}
        for row in rows:
            self.assertEqual(row["status"], "ok", row)
            self.assertEqual(row["verified"], "1")
            self.assertEqual(row["launches"], launches[row["variant"]], row)
            n = int(row["n"])
            moved = {"copy": 2, "memcpy": 2, "fused_add_relu": 3,
                     "fused_generic_add_relu": 3}.get(row["variant"], 5)
            self.assertEqual(int(row["bytes_model"]), moved * 4 * n)
            bw = moved * 4 * n / float(row["time_median_s"]) / 1e9
            self.assertAlmostEqual(float(row["bandwidth_gbps"]), bw, delta=1e-3 + bw * 1e-6)
            self.assertEqual(row["dram_read_bytes"], "")  # never a made-up number
            if row["variant"] == "copy":
                self.assertEqual(float(row["copy_fraction"]), 1.0)
        self.assertIn("speedup", p.stdout)  # the terminal summary
        self.assertFalse(os.path.exists(self.out + ".tmp"))

    def test_auto_backend_without_gpu_runs_on_cpu_with_empty_counter_columns(self):
        # smoke.ini: backend auto, [cupti] activity and counters on
        p = run(SMOKE, "--output", self.out, "--no-plot", "--sizes", "1K")
        self.assertEqual(p.returncode, 0, p.stderr)
        meta, rows = read_csv(self.out)
        if meta["backend"] == "cuda":
            self.skipTest("a GPU answers here: auto chose cuda")
        self.assertIn("using cpu", p.stderr)  # says why it fell back
        self.assertIn("not applicable", meta["counters"])
        for row in rows:
            for column in ("kernel_time_s", "launch_overhead_s", "dram_read_bytes",
                           "dram_write_bytes", "l2_bytes", "dram_bytes_per_element"):
                self.assertEqual(row[column], "", (column, row))

    def test_profile_prints_a_kernel_table_per_variant(self):
        p = run(SMOKE, "--backend", "cpu", "--profile", "4099")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("n = 4099, 20 calls per variant", p.stdout)
        self.assertRegex(p.stdout, r"eager_add_relu: .*\n  40 records in 20 calls = 2 per call")
        self.assertRegex(p.stdout, r"fused_add_relu: .*\n  20 records in 20 calls = 1 per call")
        self.assertRegex(p.stdout, r"\nadd_relu +20 ")
        self.assertRegex(p.stdout, r"\nrelu +20 ")
        self.assertFalse(os.path.exists(self.out))  # measures nothing into results

    def broken_config(self, text):
        path = os.path.join(self.dir, "broken.ini")
        with open(SMOKE) as f:
            good = f.read()
        with open(path, "w") as f:
            f.write(good.replace("warmup = 1", text))
        return path

    def test_config_error_exits_2_and_leaves_existing_results_untouched(self):
        with open(self.out, "w") as f:
            f.write("precious\n")
        bad = self.broken_config("warmpu = 1")
        p = self.sweep(config=bad)
        self.assertEqual(p.returncode, 2)
        self.assertIn("warmpu", p.stderr)
        self.assertIn("warmup", p.stderr)  # the suggestion
        self.assertRegex(p.stderr, r"broken\.ini:\d+: \[measure\] warmpu")
        with open(self.out) as f:
            self.assertEqual(f.read(), "precious\n")

    def test_unwritable_output_exits_2_before_measuring(self):
        blocker = os.path.join(self.dir, "file")
        with open(blocker, "w") as f:
            f.write("x")
        p = run(SMOKE, "--backend", "cpu", "--output", os.path.join(blocker, "r.csv"),
                "--no-plot")
        self.assertEqual(p.returncode, 2)
        self.assertIn(blocker, p.stderr)

    def test_sizes_that_do_not_fit_in_memory_exit_2_naming_the_key(self):
        p = self.sweep("--sizes", "1G..100G")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--sizes", p.stderr)
        self.assertIn("GiB of host memory", p.stderr)
        self.assertIn("available", p.stderr)
        self.assertFalse(os.path.exists(self.out))
        with open(SMOKE) as f:
            good = f.read()
        self.assertIn("sizes = 8..100K", good)
        huge = self.broken_config("warmup = 1")
        with open(huge, "w") as f:
            f.write(good.replace("sizes = 8..100K", "sizes = 8, 50G"))
        p = self.sweep(config=huge)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertRegex(p.stderr, r"broken\.ini:\d+: \[sweep\] sizes: the largest size "
                                   r"\(50000000000 elements\) needs")
        self.assertFalse(os.path.exists(self.out))

    def test_dry_run_prints_the_plan_and_writes_nothing(self):
        p = self.sweep("--dry-run")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("60 points", p.stdout)
        self.assertIn("memory", p.stdout)
        self.assertFalse(os.path.exists(self.out))

    def test_resume_keeps_finished_rows_and_measures_only_the_rest(self):
        p = self.sweep("--sizes", "8,100")
        self.assertEqual(p.returncode, 0, p.stderr)
        _, first = read_csv(self.out)
        self.assertEqual(len(first), 12)
        p = self.sweep("--sizes", "8,100,1000", "--resume")
        self.assertEqual(p.returncode, 0, p.stderr)
        _, second = read_csv(self.out)
        self.assertEqual(len(second), 18)
        self.assertEqual(second[:12], first)  # kept verbatim, not re-measured
        self.assertEqual({r["n"] for r in second[12:]}, {"1000"})
        self.assertIn("6 points", p.stderr)

    def test_ctrl_c_keeps_finished_points_and_exits_130(self):
        proc = subprocess.Popen([BINARY, SMOKE, "--backend", "cpu", "--output", self.out,
                                 "--no-plot", "--sizes", "8..1M", "--set", "points_per_decade=8",
                                 "--set", "max_time=0.2", "--set", "min_time=0.1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while time.time() < deadline and not os.path.exists(self.out):
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("interrupted", err)
        _, rows = read_csv(self.out)
        self.assertGreater(len(rows), 0)
        self.assertLess(len(rows), 6 * 49)
        self.assertTrue(all(r["status"] == "ok" for r in rows))

    def test_usage_errors_exit_2_and_help_exits_0(self):
        self.assertEqual(run("--bogus").returncode, 2)
        self.assertEqual(run().returncode, 2)
        h = run("--help")
        self.assertEqual(h.returncode, 0)
        for option in ("--backend", "--output", "--sizes", "--variants", "--resume",
                       "--dry-run", "--plot"):
            self.assertIn(option, h.stdout)
        p = self.sweep("--variants", "fused_add_rleu")
        self.assertEqual(p.returncode, 2)
        self.assertIn("fused_add_relu", p.stderr)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
