#!/usr/bin/env python3
"""Hostile input, round four (issue 34), end to end for --report and --compare: foreign files
at the names they write, signals and file size limits while they draw, and their messages.

usage: test_hostile4_cli.py PATH/TO/fusebench   (meson passes the built binary)
Each test works in a fresh temporary directory (under TMPDIR), which it removes; nothing is
written elsewhere."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BINARY = None
ROOT = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLE = os.path.join(ROOT, "tests", "plots", "data", "sample-cpu.csv")
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


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
