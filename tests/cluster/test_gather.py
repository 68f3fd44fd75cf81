#!/usr/bin/env python3
"""cluster/gather on hostile results trees (issue 34), each built from one real tiny sweep of
FB_FUSEBENCH and its plan: a link planted at a copy name is replaced, its target outside the
tree untouched; runs at a-b/c and a/b-c both compared; a .csv that is a directory or a FIFO
skipped saying so (no hang: each run has a hang guard), a plan that is not JSON or lacks
`variants` a failed check, --out naming a file exit 2, none with a traceback; one partition
exits 0; names with a newline, quotes, `$(touch ...)`, invalid UTF-8 or '..' stay inside the
comparison's directory and run nothing."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

# gather draws its comparison with gnuplot and fails without it (an offline GPU node's
# rehearsal hides gnuplot): the tests that expect a comparison drawn need it.
needs_gnuplot = unittest.skipUnless(shutil.which("gnuplot"),
                                    "skipped: no gnuplot here, so gather draws no comparison")

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
GATHER = os.path.join(SRC, "cluster", "gather")
FUSEBENCH = os.path.abspath(os.environ.get("FB_FUSEBENCH", ""))
HANG = 120  # seconds: a run takes a few (the comparison's charts); a FIFO read never ends
STEM = "tiny-fp32"
TINY = """[sweep]
sizes = 8, 1K
variants = copy, eager_add_relu, fused_add_relu
dtype = fp32
[backend]
cpu_threads = 1
[measure]
warmup = 1
min_reps = 3
max_reps = 5
min_time = 0.001
max_time = 0.02
"""


def setUpModule():
    global SWEEP, TMP
    if not os.access(FUSEBENCH, os.X_OK):
        raise unittest.SkipTest(f"FB_FUSEBENCH names no fusebench ({FUSEBENCH!r})")
    TMP = tempfile.mkdtemp(prefix="test-gather.")
    SWEEP = os.path.join(TMP, "sweep")
    os.mkdir(SWEEP)
    ini = os.path.join(SWEEP, "tiny.ini")
    with open(ini, "w") as f:
        f.write(TINY)
    subprocess.run([FUSEBENCH, ini, "--backend", "cpu", "--output",
                    os.path.join(SWEEP, "r.csv"), "--no-plot", "--quiet"], check=True,
                   stdout=subprocess.DEVNULL, timeout=HANG)
    with open(os.path.join(SWEEP, "r.plan.json"), "w") as f:
        subprocess.run([FUSEBENCH, ini, "--backend", "cpu", "--print-plan"], check=True,
                       stdout=f, timeout=HANG)


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


class Gather(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(dir=TMP, prefix="root.")

    def add_run(self, system, part, device="cpu-dev", stem=STEM):
        """A passing run at root/system/part/device/stem.csv with its plan; its path."""
        d = os.path.join(self.root, system, part, device)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, stem + ".csv")
        shutil.copyfile(os.path.join(SWEEP, "r.csv"), path)
        shutil.copyfile(os.path.join(SWEEP, "r.plan.json"), path[:-4] + ".plan.json")
        return path

    def gather(self, *extra, cwd=None):
        run = subprocess.run([sys.executable, GATHER, self.root, "--fusebench", FUSEBENCH,
                              *extra], capture_output=True, text=True, errors="replace",
                             timeout=HANG, cwd=cwd)
        self.assertNotIn("Traceback", run.stderr, run.stderr)
        return run

    def copies(self, stem=STEM):
        d = os.path.join(self.root, "compare", stem)
        return sorted(n for n in os.listdir(d) if n.endswith(".csv"))

    @needs_gnuplot
    def test_link_at_copy_name_is_replaced_not_written_through(self):
        self.add_run("s", "p1")
        self.add_run("s", "p2")
        victim = os.path.join(TMP, "victim-" + os.path.basename(self.root))
        with open(victim, "w") as f:
            f.write("outside the results tree\n")
        sdir = os.path.join(self.root, "compare", STEM)
        os.makedirs(sdir)
        # Today's copy name and the one before it (s-p1-cpu-dev.csv).
        for name in ("s+p1+cpu-dev.csv", "s-p1-cpu-dev.csv"):
            os.symlink(victim, os.path.join(sdir, name))
        run = self.gather()
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        with open(victim) as f:
            self.assertEqual(f.read(), "outside the results tree\n")
        copy = os.path.join(sdir, "s+p1+cpu-dev.csv")
        self.assertFalse(os.path.islink(copy))
        with open(copy, "rb") as a, open(os.path.join(SWEEP, "r.csv"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.assertEqual([n for n in os.listdir(sdir) if n.endswith(".tmp")], [])

    @needs_gnuplot
    def test_separator_in_names_keeps_runs_apart(self):
        self.add_run("a-b", "c")
        self.add_run("a", "b-c")
        run = self.gather()
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(len(self.copies()), 2, self.copies())
        self.assertIn(f"gather: {STEM}: 2 runs compared", run.stdout)

    @needs_gnuplot
    def test_csv_that_is_a_directory_or_fifo_is_skipped(self):
        self.add_run("s", "p1")
        self.add_run("s", "p2")
        ddir = os.path.join(self.root, "s", "p1", "cpu-dev")
        os.mkdir(os.path.join(ddir, "dir-fp32.csv"))
        os.mkfifo(os.path.join(ddir, "fifo-fp32.csv"))
        run = self.gather()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("dir-fp32: skipped: a directory", run.stdout)
        self.assertIn("fifo-fp32: skipped: a FIFO", run.stdout)
        self.assertIn(f"gather: {STEM}: 2 runs compared", run.stdout)

    def test_plan_not_json_or_without_variants_fails_its_check(self):
        bad = self.add_run("s", "p1")
        nov = self.add_run("s", "p2")
        self.add_run("s", "p3")
        with open(bad[:-4] + ".plan.json", "w") as f:
            f.write("{not json")
        with open(nov[:-4] + ".plan.json", "w") as f:
            f.write('{"sizes": [8]}')
        run = self.gather()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn(f"s/p1 cpu-dev {STEM}: FAILED its plan {STEM}.plan.json is not JSON",
                      run.stdout)
        self.assertIn(f"s/p2 cpu-dev {STEM}: FAILED its plan {STEM}.plan.json has no list of "
                      "variants", run.stdout)
        self.assertIn(f"s/p3 cpu-dev {STEM}: ok", run.stdout)

    def test_plan_that_is_a_fifo_fails_its_check(self):
        fifo = self.add_run("s", "p1")
        self.add_run("s", "p2")
        os.unlink(fifo[:-4] + ".plan.json")
        os.mkfifo(fifo[:-4] + ".plan.json")
        run = self.gather()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn(f"s/p1 cpu-dev {STEM}: FAILED its plan {STEM}.plan.json: a FIFO",
                      run.stdout)

    def test_out_naming_a_file_is_a_usage_error(self):
        self.add_run("s", "p1")
        out = os.path.join(self.root, "a-file")
        with open(out, "w") as f:
            f.write("keep\n")
        run = self.gather("--out", out)
        self.assertEqual(run.returncode, 2, run.stdout + run.stderr)
        self.assertIn("not a directory", run.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), "keep\n")

    def test_one_partition_passes(self):
        self.add_run("laptop", "default")
        run = self.gather("--expect", "laptop/default")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn(f"gather: {STEM}: 1 run (laptop/default), nothing to compare", run.stdout)

    @needs_gnuplot
    def test_hostile_names_stay_inside_and_run_nothing(self):
        canary = "q'\"$(touch pwned)`touch pwned`"
        self.add_run("sys\n" + canary, "p\udcff")   # a newline; a byte outside UTF-8
        self.add_run("sys", "p2", stem="..")          # ../.csv: a stem of '..'
        self.add_run("sys", "p3", stem="..")
        cwd = tempfile.mkdtemp(dir=TMP, prefix="cwd.")
        run = self.gather(cwd=cwd)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertNotIn("\n" + canary, run.stdout)       # the newline is shown escaped
        self.assertIn("sys\\n", run.stdout)
        self.assertEqual(os.listdir(cwd), [])
        self.assertFalse(os.path.exists(os.path.join(self.root, "pwned")))
        # The '..' group's copies lie in a directory of compare/, not beside it.
        self.assertEqual(sorted(n for n in os.listdir(self.root) if n.endswith(".csv")), [])
        self.assertEqual(len(self.copies("%2E.")), 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
