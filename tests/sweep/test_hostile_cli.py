#!/usr/bin/env python3
"""Hostile input, round three (issue 19), end to end: strings that are not UTF-8 in
--print-plan's JSON, output paths judged before anything is measured, results files that are
not fusebench's, paths with control bytes in messages, chains longer than a line.

usage: test_hostile_cli.py PATH/TO/fusebench   (meson passes the built binary)
Each test runs the real binary on the CPU backend in a fresh temporary directory, which it
removes; nothing is written elsewhere."""
import csv
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

BINARY = None
ROOT = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SMOKE = os.path.join(ROOT, "configs", "smoke.ini")
FAST = ("--backend", "cpu", "--sizes", "8", "--variants", "copy", "--set", "max_time=0.005",
        "--set", "min_time=0.0005", "--quiet")


def run(*args, timeout=120, cwd=None):
    return subprocess.run([BINARY, *args], capture_output=True, timeout=timeout, cwd=cwd)


def strict_json(data):
    """The JSON document in data (bytes), read strictly: UTF-8 that Python's codec accepts
    (no overlong forms, surrogates or stray bytes), no raw control characters."""
    return json.loads(data.decode("utf-8", errors="strict"))


def listing(top):
    """Every path under top, relative, sorted: what a run left behind."""
    found = []
    for base, dirs, files in os.walk(top):
        for name in dirs + files:
            found.append(os.path.relpath(os.path.join(base, name), top))
    return sorted(found)


class Scratch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        # a test may have made a directory read-only
        for base, dirs, _ in os.walk(self.dir):
            for d in dirs:
                os.chmod(os.path.join(base, d), 0o755)
        self.tmp.cleanup()

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def config(self, name, text):
        """A config file named name (bytes or str) holding text (bytes)."""
        path = os.path.join(os.fsencode(self.dir), os.fsencode(name))
        with open(path, "wb") as f:
            f.write(text)
        return path


class HostileJson(Scratch):
    """Item 1: every string of --print-plan is valid UTF-8 JSON."""

    CASES = [b"a\xff\xfeb", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82",
             b"\x80", b"\xf8\x88\x80\x80\x80", b"q\"u\\o\x01te\x7f", b"\xc2\x85nel",
             b"caf\xc3\xa9 \xf0\x9f\x98\x80"]

    def test_labels_from_the_file_and_the_command_line(self):
        for label in self.CASES:
            with self.subTest(label=label):
                cfg = self.config("c.ini", b"[sweep]\nsizes = 8\nlabel = " + label + b"\n")
                p = run(cfg, "--print-plan")
                self.assertEqual(p.returncode, 0, p.stderr)
                plan = strict_json(p.stdout)
                self.assertEqual(plan["label"].encode("utf-8"),
                                 self.expected(label.strip()))
                p = run(cfg, "--print-plan", "--label", label)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(strict_json(p.stdout)["label"].encode("utf-8"),
                                 self.expected(label))

    def test_a_config_path_that_is_not_utf8(self):
        for name in (b"x\xff.ini", b"\xc0\xaf.ini", b"\xed\xa0\x80.ini", b"t\tab\n.ini"):
            with self.subTest(name=name):
                cfg = self.config(name, b"[sweep]\nsizes = 8\n")
                p = run(cfg, "--print-plan")
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(strict_json(p.stdout)["config"].encode("utf-8"),
                                 self.expected(cfg))

    def test_random_labels(self):
        rng = random.Random(19)
        cfg = self.config("c.ini", b"[sweep]\nsizes = 8\n")
        for _ in range(80):  # the unit test test_plan_json fuzzes 20,000 more
            label = bytes(rng.choice((rng.randrange(1, 256), rng.choice(b"\x80\xbf\xc0\xc2"
                          b"\xe0\xed\xf0\xf4\xf5\xff\"\\"))) for _ in range(rng.randrange(1, 24)))
            p = run(cfg, "--print-plan", "--label", label)
            self.assertEqual(p.returncode, 0, (label, p.stderr))
            self.assertEqual(strict_json(p.stdout)["label"].encode("utf-8"),
                             self.expected(label), label)

    @staticmethod
    def expected(raw):
        """raw as the plan's string decodes: each byte outside valid UTF-8 as the text
        \\xNN (plan_json.h), everything else as it is."""
        out, i = b"", 0
        while i < len(raw):
            for n in (4, 3, 2, 1):
                try:
                    raw[i:i + n].decode("utf-8")
                    out += raw[i:i + n]
                    i += n
                    break
                except UnicodeDecodeError:
                    continue
            else:
                out += b"\\x%02X" % raw[i]
                i += 1
        return out


class OutputPaths(Scratch):
    """Item 2: every output path judged before anything is measured, creating nothing."""

    def sweep(self, *args, cwd=None):
        return run(SMOKE, *FAST, *args, cwd=cwd or self.dir)

    def assert_refused_before_measuring(self, p, *words):
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(p.stdout, b"")  # no summary: nothing measured
        for word in words:
            self.assertIn(word, p.stderr)

    def test_a_results_path_naming_no_file_is_refused_and_nothing_made(self):
        for out in ("newdir/", "newdir/.", "newdir/..", "a/b//", "."):
            with self.subTest(out=out):
                for mode in ((), ("--dry-run",)):
                    p = self.sweep("--output", out, "--no-plot", *mode)
                    self.assert_refused_before_measuring(p, b"--output", b"file")
                    self.assertEqual(listing(self.dir), [])
        cfg = self.config("c.ini", b"[output]\ncsv = newdir/\n")
        p = run(cfg, *FAST, "--no-plot", cwd=self.dir)
        self.assert_refused_before_measuring(p, b"c.ini:2: [output] csv")
        self.assertEqual(listing(self.dir), ["c.ini"])

    def test_a_symlink_to_a_directory_name_is_refused(self):
        os.symlink("gone/", self.path("link.csv"))
        p = self.sweep("--output", self.path("link.csv"), "--no-plot")
        self.assert_refused_before_measuring(p, b"symlink")
        self.assertEqual(listing(self.dir), ["link.csv"])

    def test_a_charts_directory_that_cannot_work_is_refused_before_measuring(self):
        with open(self.path("file"), "w") as f:
            f.write("x")
        os.symlink("loop", self.path("loop"))
        for plots, why in (("file", b"is a regular file"), ("file/sub", b"Not a directory"),
                           ("loop", b"symbolic links"), ("/proc/self", b"cannot create"),
                           ("/proc/self/new", b"cannot create anything in /proc/self")):
            with self.subTest(plots=plots):
                for mode in ((), ("--dry-run",)):
                    p = self.sweep("--output", "r.csv", "--plot-dir", plots, *mode)
                    self.assert_refused_before_measuring(p, b"charts directory", why,
                                                         b"--no-plot")
                    self.assertEqual(listing(self.dir), ["file", "loop"])
        cfg = self.config("c.ini", b"[output]\nplots = file\n")
        p = run(cfg, *FAST, "--output", "r.csv", cwd=self.dir)
        self.assert_refused_before_measuring(p, b"charts directory file")
        # An empty charts directory means beside the results file, in the directory the run
        # makes for it: judged (and said by --dry-run) as that directory.
        p = self.sweep("--output", "sub/r.csv", "--plot-dir", "", "--dry-run")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"charts: into sub (beside the results), making the directory sub",
                      p.stdout)
        self.assertEqual(listing(self.dir), ["c.ini", "file", "loop"])
        # --no-plot: no charts, so no check of their directory
        p = self.sweep("--output", "r.csv", "--plot-dir", "file", "--no-plot")
        self.assertEqual(p.returncode, 0, p.stderr)

    def in_mount_namespace(self, setup, *args):
        """Runs fusebench with args in a private mount namespace (unshare -m) after the shell
        commands setup (mounts, with the scratch directory as $1); None where this machine
        allows no such namespace."""
        if subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
            return None
        script = f'cd "$1" && {setup} && shift && exec "$@"'
        return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", self.dir, BINARY,
                               SMOKE, *FAST, *args], capture_output=True, timeout=120)

    def test_read_only_and_full_file_systems_are_refused_before_measuring(self):
        mounts = {"ro": "mkdir ro && mount --bind ro ro && mount -o remount,bind,ro ro",
                  "full": "mkdir full && mount -t tmpfs -o size=64k tmpfs full && "
                          "{ dd if=/dev/zero of=full/fill bs=4k 2>/dev/null; true; }"}
        for fs, setup in mounts.items():
            for args, what, why in (
                    (("--output", f"{fs}/r.csv", "--no-plot"), b"results directory",
                     b"Read-only" if fs == "ro" else b"No space left"),
                    (("--output", "r.csv", "--plot-dir", f"{fs}/charts"), b"charts directory",
                     b"Read-only" if fs == "ro" else b"No space left")):
                with self.subTest(fs=fs, args=args):
                    p = self.in_mount_namespace(setup, *args)
                    if p is None:
                        print("skip: unshare -m is not allowed here (no private mounts)")
                        return
                    self.assert_refused_before_measuring(p, what, why)
                    self.assertFalse(os.path.exists(self.path("r.csv")))
                    shutil.rmtree(self.path(fs))

    def test_dry_run_says_what_it_would_write_and_makes_nothing(self):
        p = self.sweep("--output", "runs/today/r.csv", "--plot-dir", "charts/new", "--dry-run")
        self.assertEqual(p.returncode, 0, p.stderr)
        out = p.stdout.decode()
        self.assertIn("results: runs/today/r.csv (warm cache): a new file, making the "
                      "directory runs\n", out)
        self.assertIn("writes: runs/today/r.csv.partial after every point, renamed to "
                      "runs/today/r.csv when the run completes; lock: runs/today/r.csv.lock",
                      out)
        self.assertIn("charts: into charts/new, making the directory charts\n", out)
        self.assertEqual(listing(self.dir), [])
        p = self.sweep("--output", "r.csv", "--no-plot", "--dry-run")
        self.assertIn(b"charts: none (--no-plot)", p.stdout)


class ForeignFiles(Scratch):
    """Item 3: a file that is not a fusebench results file is replaced only with --force."""

    def sweep(self, out, *args):
        return run(SMOKE, *FAST, "--output", out, "--no-plot", *args, cwd=self.dir)

    def test_a_foreign_file_is_kept_unless_forced(self):
        for text in (b"root:x:0:0:root:/root:/bin/bash\n", b"\x00\x01binary", b" \n",
                     b"# just a comment\n", b"n,variant\n8,copy\n"):
            with self.subTest(text=text):
                target = self.path("passwd")
                with open(target, "wb") as f:
                    f.write(text)
                p = self.sweep(target)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(target.encode(), p.stderr)
                self.assertIn(b"--force", p.stderr)
                self.assertEqual(p.stdout, b"")
                with open(target, "rb") as f:
                    self.assertEqual(f.read(), text)
                self.assertEqual(listing(self.dir), ["passwd"])
        p = self.sweep(target, "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(target, "rb") as f:
            self.assertTrue(f.read().startswith(b"# fusebench: "))

    def test_empty_and_own_files_are_replaced_as_before(self):
        target = self.path("r.csv")
        open(target, "w").close()
        p = self.sweep(target)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.sweep(target)  # its own results, a second time
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.sweep(target, "--resume")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_a_foreign_partial_is_kept_unless_forced(self):
        with open(self.path("r.csv.partial"), "w") as f:
            f.write("notes\n")
        p = self.sweep(self.path("r.csv"))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(b"r.csv.partial", p.stderr)
        with open(self.path("r.csv.partial")) as f:
            self.assertEqual(f.read(), "notes\n")


class Messages(Scratch):
    """Item 6: paths printed escaped; errors name the file that really failed."""

    def test_a_newline_in_output_and_plot_dir_is_escaped(self):
        out = os.path.join("a\nb", "x\x1b[2J.csv")
        p = run(SMOKE, *FAST[:-1], "--output", out, "--no-plot", cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"results: a\\nb/x\\x1B[2J.csv\n", p.stdout)
        self.assertIn(b"-> a\\nb/x\\x1B[2J.csv\n", p.stderr)  # the start line
        self.assertNotIn(b"\x1b", p.stdout + p.stderr)
        p = run(SMOKE, *FAST, "--output", out, "--plot-dir", "p\nq/r", "--dry-run",
                cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"charts: into p\\nq/r, making the directory p\\nq\n", p.stdout)
        self.assertIn(b"results: a\\nb/x\\x1B[2J.csv (warm cache): replaces the results there",
                      p.stdout)

    def test_an_error_names_the_directory_that_really_failed(self):
        p = run(SMOKE, *FAST, "--output", "/proc/self/status", "--no-plot")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(b"/proc/self/status: is not a fusebench results file", p.stderr)
        p = run(SMOKE, *FAST, "--output", "/proc/self/status", "--no-plot", "--force")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(b"results directory /proc/self: cannot create files in it", p.stderr)
        self.assertNotIn(b"/proc/self/status: cannot write", p.stderr)

    def test_a_refused_path_with_control_bytes_is_escaped(self):
        p = run(SMOKE, *FAST, "--output", "d\x1b]0;x\x07/", "--no-plot", cwd=self.dir)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertNotIn(b"\x1b", p.stderr)
        self.assertNotIn(b"\x07", p.stderr)
        self.assertIn(b"d\\x1B]0;x\\x07/", p.stderr)


    def test_a_config_path_quoted_in_a_later_error_is_escaped(self):
        cfg = self.config(b"c\x1b[2J\n.ini", b"[sweep]\nsizes = 8, 50G\n")
        for mode in ((), ("--dry-run",)):
            with self.subTest(mode=mode):
                p = run(cfg, "--backend", "cpu", "--output", self.path("r.csv"), *mode)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(b"c\\x1B[2J\\n.ini", p.stderr)  # the memory check names it
                self.assertNotIn(b"\x1b", p.stderr)


    def test_the_redraw_hint_quotes_its_paths_for_a_shell(self):
        """Without gnuplot the charts are not drawn, and the hint says how to redraw them:
        a command line that a shell reads back as the same two paths."""
        bin_dir = self.path("bin")
        os.mkdir(bin_dir)
        for d in os.environ.get("PATH", "").split(os.pathsep):
            if os.path.isdir(d):
                for name in os.listdir(d):
                    link = os.path.join(bin_dir, name)
                    if not name.startswith("gnuplot") and not os.path.lexists(link):
                        os.symlink(os.path.join(d, name), link)
        env = dict(os.environ, PATH=bin_dir)
        p = subprocess.run([BINARY, SMOKE, *FAST, "--output", "a b/it's.csv", "--plot-dir",
                            "p q"], capture_output=True, timeout=120, cwd=self.dir, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        hint = p.stderr.decode().split("redraw with: ")[-1].strip()
        self.assertEqual(hint, "./sweep --plot 'a b/it'\\''s.csv' --plot-dir 'p q'")
        # a shell splits it back into the very arguments (printf only: nothing else runs)
        echoed = subprocess.run(["sh", "-c", "printf '%s\\n' " + hint.split(" ", 1)[1]],
                                capture_output=True, text=True)
        self.assertEqual(echoed.stdout.splitlines(), ["--plot", "a b/it's.csv", "--plot-dir",
                                                      "p q"])


class LongChains(Scratch):
    """Item 7: a chain over several lines ("ops += ..."), and one error for a line too long."""

    OPS = ["add"] + [f"threshold(0.{i % 10}, {i})" for i in range(1, 16)]  # ~300 characters

    def test_sixteen_parameterised_ops_over_three_lines_plan_and_run(self):
        lines = ["ops = " + ", ".join(self.OPS[:6]), "ops += " + ", ".join(self.OPS[6:11]),
                 "ops += " + ", ".join(self.OPS[11:])]
        self.assertGreater(len(", ".join(self.OPS)), 198)
        cfg = self.config("long.ini", ("[sweep]\nsizes = 8\nvariants = eager_t, fused_t\n"
                                       "[chain t]\n" + "\n".join(lines) + "\n").encode())
        p = run(cfg, "--print-plan")
        self.assertEqual(p.returncode, 0, p.stderr)
        plan = strict_json(p.stdout)
        for v in plan["variants"]:
            self.assertEqual([o["op"] for o in v["ops"]], ["add"] + ["threshold"] * 15)
            self.assertEqual([o["params"][1] for o in v["ops"][1:]], list(range(1, 16)))
        self.assertEqual(plan["variants"][0]["launches"], 16)
        p = run(cfg, *FAST[:2], "--set", "max_time=0.005", "--set", "min_time=0.0005",
                "--quiet", "--output", self.path("r.csv"), "--no-plot")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(self.path("r.csv")) as f:
            rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
        self.assertEqual(sorted(r["variant"] for r in rows), ["eager_t", "fused_t"])
        for r in rows:  # noisy: measured and verified on a busy machine, times not trusted
            self.assertIn(r["status"], ("ok", "noisy"), r)
            self.assertEqual(r["verified"], "1", r)

    def test_an_over_long_line_is_one_error_naming_line_and_limit(self):
        cfg = self.config("long.ini", ("[sweep]\nsizes = 8\n[chain t]\nops = " +
                                       ", ".join(self.OPS) + "\n").encode())
        p = run(cfg, "--dry-run")
        self.assertEqual(p.returncode, 2, p.stderr)
        lines = p.stderr.decode().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r"long\.ini:4: line is \d+ characters long; a line may "
                                   r"have at most 198 .*ops \+= ")


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
