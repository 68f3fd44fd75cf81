#!/usr/bin/env python3
"""Hostile input, round three (issue 19), end to end: strings that are not UTF-8 in
--print-plan's JSON, output paths judged before anything is measured, results files that are
not fusebench's, paths with control bytes in messages, chains longer than a line.

usage: test_hostile_cli.py PATH/TO/fusebench   (meson passes the built binary)
Each test runs the real binary on the CPU backend in a fresh temporary directory, which it
removes; nothing is written elsewhere."""
import json
import os
import random
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


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
