#!/usr/bin/env python3
"""Hostile input, round four (issue 34), end to end for --report and --compare: foreign files
at the names they write, signals and file size limits while they draw, and their messages.

usage: test_hostile4_cli.py PATH/TO/fusebench   (meson passes the built binary)
Each test works in a fresh temporary directory (under TMPDIR), which it removes; nothing is
written elsewhere."""
import csv
import io
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

BINARY = None
ROOT = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLE = os.path.join(ROOT, "tests", "plots", "data", "sample-cpu.csv")
SMOKE = os.path.join(ROOT, "configs", "smoke.ini")
FOREIGN = b"my own notes, not fusebench's\n"


def run(*args, timeout=120, **kwargs):
    return subprocess.run([BINARY, *args], capture_output=True, timeout=timeout, **kwargs)


def have_gnuplot():
    return shutil.which(os.environ.get("GNUPLOT", "gnuplot")) is not None


class Scratch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.csv = self.path("run.csv")
        shutil.copyfile(SAMPLE, self.csv)
        self.charts = self.path("charts")
        os.mkdir(self.charts)

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def plant(self, name, text=FOREIGN):
        path = os.path.join(self.charts, name)
        with open(path, "wb") as f:
            f.write(text)
        return path

    def content(self, path):
        with open(path, "rb") as f:
            return f.read()


class ForeignPages(Scratch):
    """Item 16: a foreign file at the report's or the table's name is replaced only with
    --force, as the results file and the trace are."""

    def report(self, *extra):
        return run("--report", self.csv, "--plot-dir", self.charts, *extra)

    def test_a_foreign_report_is_kept_unless_forced(self):
        page = self.plant("run-report.md")
        p = self.report()
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(page.encode(), p.stderr)
        self.assertIn(b"--force", p.stderr)
        self.assertEqual(self.content(page), FOREIGN)
        self.assertEqual(sorted(os.listdir(self.charts)), ["run-report.md"])
        p = self.report("--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(self.content(page).startswith(b"# fusebench: "))
        p = self.report()  # its own page now: replaced without --force
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_an_empty_report_is_replaced_and_a_link_is_not_followed(self):
        page = self.plant("run-report.md", b"")
        self.assertEqual(self.report().returncode, 0)
        os.unlink(page)
        target = self.path("elsewhere.md")
        with open(target, "wb") as f:
            f.write(FOREIGN)
        os.symlink(target, page)
        p = self.report()
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(b"symlink", p.stderr)
        self.assertEqual(self.content(target), FOREIGN)

    def test_a_foreign_compare_table_is_kept_unless_forced(self):
        other = self.path("other.csv")
        shutil.copyfile(SAMPLE, other)
        table = self.plant("run-vs-other-compare.md")
        p = run("--compare", self.csv, other, "--plot-dir", self.charts)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(table.encode(), p.stderr)
        self.assertIn(b"--force", p.stderr)
        self.assertEqual(p.stdout, b"")  # refused before the verdict
        self.assertEqual(self.content(table), FOREIGN)
        if not have_gnuplot():
            self.skipTest("no gnuplot: the forced table is written after the charts")
        p = run("--compare", self.csv, other, "--plot-dir", self.charts, "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(self.content(table).startswith(b"## Headline numbers per run"))


def many_points(path, copies=40):
    """sample-cpu.csv with every ok row repeated at n, n + 1, ... n + copies - 1: ~2,000
    points, whose --compare table (each regressed point a line) is larger than a pipe holds."""
    with open(SAMPLE) as f:
        lines = f.readlines()
    meta = [line for line in lines if line.startswith("#")]
    rows = list(csv.reader(line for line in lines if not line.startswith("#")))
    col = {name: i for i, name in enumerate(rows[0])}
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(rows[0])
    for r in rows[1:]:
        if r[col["status"]] != "ok":
            continue
        for k in range(copies):
            r2 = list(r)
            r2[col["n"]] = str(int(r[col["n"]]) + k)
            w.writerow(r2)
    with open(path, "w") as f:
        f.write("".join(meta) + out.getvalue())
    return path


def slower(src, dst, factor):
    """src with every time x factor: each point regressed."""
    with open(src) as f:
        lines = f.readlines()
    meta = [line for line in lines if line.startswith("#")]
    rows = list(csv.reader(line for line in lines if not line.startswith("#")))
    timed = [i for i, name in enumerate(rows[0]) if name.startswith("time_")]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(rows[0])
    for r in rows[1:]:
        for i in timed:
            if r[i]:
                r[i] = repr(float(r[i]) * factor)
        w.writerow(r)
    with open(dst, "w") as f:
        f.write("".join(meta) + out.getvalue())
    return dst


class Signals(Scratch):
    """Item 17: SIGINT / SIGTERM stop --compare with 130 / 143 and nothing half written
    (--report's stop: tests/report/test_report.c); a report killed with SIGKILL leaves a
    temporary the next removes; a file size limit is an error that says so, not death by
    SIGXFSZ (153)."""

    def test_compare_stops_with_130_and_143(self):
        base = many_points(self.path("base.csv"))
        slow = slower(base, self.path("slow.csv"), 1.5)
        for sig in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(sig=sig):
                p = subprocess.Popen([BINARY, "--compare", base, slow, "--plot-dir",
                                      self.charts], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
                # Its first byte on stdout comes after the handlers are in place (before the
                # files are read); the table is larger than the pipe, so it cannot have
                # finished before the signal: it waits for us to read.
                first = os.read(p.stdout.fileno(), 1)
                self.assertEqual(first, b"#")
                p.send_signal(sig)
                out, err = p.communicate(timeout=120)
                self.assertEqual(p.returncode, 128 + sig, err)
                self.assertGreater(len(out), 65536)
                self.assertIn(b"interrupted", err)
                self.assertEqual(os.listdir(self.charts), [])

    def test_a_stale_report_temporary_of_a_dead_process_is_removed(self):
        dead = subprocess.Popen(["true"])
        dead.wait()
        stale = self.plant(f".run-report.md.tmp.{dead.pid}.0", b"# fusebench: trunc")
        live = self.plant(f".run-report.md.tmp.{os.getpid()}.0", b"# fusebench: mine")
        p = run("--report", self.csv, "--plot-dir", self.charts)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertFalse(os.path.exists(stale))
        self.assertTrue(os.path.exists(live))

    def limited(self, *args, limit=1024):
        def limit_files():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        return run(*args, preexec_fn=limit_files)

    def test_a_file_size_limit_is_an_error_that_says_so(self):
        other = self.path("other.csv")
        shutil.copyfile(SAMPLE, other)
        for args in (("--report", self.csv, "--plot-dir", self.charts),
                     ("--compare", self.csv, other, "--plot-dir", self.charts),
                     (SMOKE, "--backend", "cpu", "--sizes", "8", "--variants", "copy",
                      "--quiet", "--no-plot", "--output", self.path("out.csv"))):
            with self.subTest(command=args[0]):
                p = self.limited(*args)
                self.assertIn(p.returncode, (1, 2), p.stderr)  # not -SIGXFSZ (153 in a shell)
                self.assertIn(b"File too large", p.stderr)
                self.assertEqual(os.listdir(self.charts), [])
                self.assertFalse(os.path.exists(self.path("out.csv")))


class Messages(Scratch):
    """Item 20: messages that said something else than what was wrong."""

    def test_too_few_file_descriptors_is_not_gnuplot_not_found(self):
        def few_files():
            resource.setrlimit(resource.RLIMIT_NOFILE, (6, 6))
        if run("--version", preexec_fn=few_files).returncode != 0:
            self.skipTest("the binary cannot start with 6 descriptors (a sanitizer build?)")
        p = run("--plot", self.csv, "--plot-dir", self.charts, preexec_fn=few_files)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertNotIn(b"not found", p.stderr)
        self.assertIn(b"Too many open files", p.stderr)

    def test_the_memory_check_names_its_headroom(self):
        p = run(SMOKE, "--backend", "cpu", "--sizes", "100G", "--dry-run")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(b"at most 90%", p.stderr)

    def test_a_label_for_no_variant_is_said(self):
        p = run("--plot", self.csv, "--plot-dir", self.charts, "--set", "label.typo=x",
                "--set", "label.copy=memory copy", "--charts", "speedup", "--formats", "svg")
        self.assertIn(b'label.typo: no series of variant "typo"', p.stderr)
        self.assertNotIn(b"label.copy", p.stderr)  # a variant the file has: used

    def test_a_report_write_error_says_report_once(self):
        def tiny_files():
            resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
        p = run("--report", self.csv, "--plot-dir", self.charts, preexec_fn=tiny_files)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertNotIn(b"--report: --report:", p.stderr)
        self.assertRegex(p.stderr, rb"^--report: cannot write \S*run-report\.md: File too large")


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
