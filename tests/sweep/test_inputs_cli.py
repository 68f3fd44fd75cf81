#!/usr/bin/env python3
"""Hostile and careless input, end to end (issue 10): --profile sizes, the memory check under
`ulimit -v`, --resume across cache modes, of an older schema and from another config,
overrides judged as a set, configs that are not files, control bytes, the summary's dashes
and non-finite times in a resumed CSV.

usage: test_inputs_cli.py PATH/TO/fusebench   (meson passes the built binary)
Each test runs the real binary on the CPU backend in a fresh temporary directory."""
import csv
import os
import re
import resource
import subprocess
import sys
import tempfile
import unittest

BINARY = None
ROOT = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SMOKE = os.path.join(ROOT, "configs", "smoke.ini")
OLDER = os.path.join(ROOT, "tests", "plots", "data", "older-run.csv")
FAST = ("--set", "max_time=0.005", "--set", "min_time=0.0005")


def run(*args, timeout=120, preexec_fn=None):
    return subprocess.run([BINARY, *args], capture_output=True, timeout=timeout,
                          preexec_fn=preexec_fn)


def read_csv(path):
    meta, lines = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                meta[key.strip()] = value.strip()
            else:
                lines.append(line)
    return meta, list(csv.DictReader(lines))


def device_name():
    p = run(SMOKE, "--backend", "cpu", "--dry-run")
    m = re.search(rb"points on cpu \((.*)\)\n", p.stdout)
    assert m, p.stdout
    return m.group(1).decode()


class InputsCli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.out = os.path.join(self.dir, "results.csv")

    def tearDown(self):
        self.tmp.cleanup()

    def sweep(self, *extra, config=SMOKE):
        return run(config, "--backend", "cpu", "--output", self.out, "--no-plot", "--quiet",
                   *FAST, *extra)

    # item 2
    def test_profile_of_a_huge_size_is_refused_not_a_crash(self):
        for n in ("4611686018427387904", "18446744073709551615", "1e15", "-5", "8..16", "x"):
            p = run(SMOKE, "--backend", "cpu", "--profile", n)
            self.assertEqual(p.returncode, 2, (n, p.stderr))
            self.assertIn(b"--profile", p.stderr)
        p = run(SMOKE, "--backend", "cpu", "--profile", "200G")  # under the limit, not in RAM
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(b"memory", p.stderr)
        p = run(SMOKE, "--backend", "cpu", "--profile", "1K", "--variants", "copy")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"n = 1000", p.stdout)

    # item 10: the memory check consults RLIMIT_AS
    def test_memory_check_counts_the_address_space_limit(self):
        limit = 1 << 30
        lim = lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        probe = run("--version", preexec_fn=lim)
        if probe.returncode != 0:  # ASan reserves terabytes of address space up front
            print("skip: the binary cannot start under a 1 GiB RLIMIT_AS (sanitizer build?)")
            return
        p = run(SMOKE, "--backend", "cpu", "--sizes", "100M", "--dry-run", preexec_fn=lim)
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn(b"RLIMIT_AS", p.stderr)

    # item 5
    def test_resume_across_cache_modes_keeps_one_row_per_point(self):
        counts = []
        for cache in ("warm", "cold", "warm", "cold"):
            p = self.sweep("--resume", "--sizes", "8,16,32", "--variants", "copy",
                           "--cache", cache)
            self.assertEqual(p.returncode, 0, p.stderr)
            counts.append(len(read_csv(self.out)[1]))
        self.assertEqual(counts, [3, 6, 6, 6])

    # item 7
    def older_file(self, drop=()):
        """older-run.csv as if measured here (its device replaced by this machine's), without
        the columns in drop."""
        with open(OLDER) as f:
            text = f.read().replace("Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz",
                                    device_name())
        meta = [l for l in text.splitlines() if l.startswith("#")]
        rows = list(csv.reader(l for l in text.splitlines() if not l.startswith("#")))
        keep = [i for i, name in enumerate(rows[0]) if name not in drop]
        with open(self.out, "w", newline="") as f:
            f.write("\n".join(meta) + "\n")
            w = csv.writer(f, lineterminator="\n")
            for r in rows:
                w.writerow([r[i] for i in keep])
        return len(rows) - 1

    def test_resume_of_an_older_schema_keeps_its_rows(self):
        for drop in ((), ("status", "verified")):
            with self.subTest(drop=drop):
                count = self.older_file(drop)
                # 8 and 32 are in the file, 16 is not: one point measured, the file rewritten
                p = self.sweep("--resume", "--sizes", "8,16,32", "--variants", "copy")
                self.assertEqual(p.returncode, 0, p.stderr)
                _, rows = read_csv(self.out)
                self.assertEqual(len(rows), count + 1)  # 8 and 32 not measured again
                for r in rows:
                    # the one measured now may be noisy on a shared machine (issue 12)
                    status = "noisy" if r["n"] == "16" and r["status"] == "noisy" else "ok"
                    self.assertEqual((r["status"], r["verified"], r["cache"]),
                                     (status, "1", "warm"), r)

    def test_resume_from_another_config_warns_and_records_both_hashes(self):
        p = self.sweep("--sizes", "8", "--variants", "copy")
        self.assertEqual(p.returncode, 0, p.stderr)
        other = os.path.join(self.dir, "other.ini")
        with open(SMOKE) as f, open(other, "w") as g:
            g.write(f.read().replace("label = smoke", "label = other"))
        p = self.sweep("--resume", "--sizes", "8,16", "--variants", "copy", config=other)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"another config", p.stderr)
        meta, rows = read_csv(self.out)
        self.assertEqual(len(rows), 2)
        self.assertIn("resumed_config_hash", meta)
        self.assertNotEqual(meta["resumed_config_hash"], meta["config_hash"])

    # item 10: overrides as a set, numbers beyond a double
    def test_overrides_are_judged_as_a_set(self):
        p = run(SMOKE, "--backend", "cpu", "--dry-run", "--set", "max_reps=2",
                "--set", "min_reps=1")
        self.assertEqual(p.returncode, 0, p.stderr)
        p = run(SMOKE, "--backend", "cpu", "--dry-run", "--set", "max_reps=2",
                "--set", "min_reps=3")
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"--min_reps", p.stderr)

    def test_target_noise_underflow_is_out_of_range(self):
        p = run(SMOKE, "--backend", "cpu", "--dry-run", "--set", "target_noise=1e-400")
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"out of range", p.stderr)
        self.assertNotIn(b"not a number", p.stderr)

    # item 10: configs that are not files
    def test_a_fifo_or_huge_config_is_refused_with_exit_2(self):
        fifo = os.path.join(self.dir, "cfg.ini")
        os.mkfifo(fifo)
        p = run(fifo, "--dry-run", timeout=20)  # used to block forever
        self.assertEqual(p.returncode, 2)
        self.assertIn(fifo.encode() + b": is a FIFO", p.stderr)
        big = os.path.join(self.dir, "big.ini")
        with open(big, "w") as f:
            f.write("; padding\n" * 600000)
        p = run(big, "--dry-run")
        self.assertEqual(p.returncode, 2)
        self.assertIn(big.encode(), p.stderr)

    def test_control_bytes_from_the_config_are_escaped(self):
        bad = os.path.join(self.dir, "bad.ini")
        with open(bad, "wb") as f:
            f.write(b"[sweep]\nsizes = 8\x1b[2J\nvariants = co\x1b]0;x\x07py\n")
        p = run(bad, "--dry-run")
        self.assertEqual(p.returncode, 2)
        self.assertNotIn(b"\x1b", p.stderr)
        self.assertNotIn(b"\x07", p.stderr)
        self.assertIn(b"\\x1B[2J", p.stderr)

    # item 10: the summary
    def test_summary_prints_a_dash_for_launches_not_measured(self):
        p = run(SMOKE, "--backend", "cpu", "--output", self.out, "--no-plot", *FAST,
                "--sizes", "8", "--variants", "eager_add_relu")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b" 2/- ", p.stdout)  # its pair, fused_add_relu, was not run
        self.assertNotIn(b"/-1", p.stdout)

    # item 10: the CSV reader
    def test_resume_refuses_a_nan_time_naming_file_and_line(self):
        p = self.sweep("--sizes", "8,16", "--variants", "copy")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(self.out) as f:
            lines = f.read().splitlines()
        last = len(lines)
        fields = lines[-1].split(",")
        fields[9] = "nan"  # time_median_s
        lines[-1] = ",".join(fields)
        with open(self.out, "w") as f:
            f.write("\n".join(lines) + "\n")
        p = self.sweep("--resume", "--sizes", "8,16", "--variants", "copy")
        self.assertEqual(p.returncode, 2)
        self.assertIn(f"{self.out}:{last}:".encode(), p.stderr)
        self.assertIn(b"time_median_s", p.stderr)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
