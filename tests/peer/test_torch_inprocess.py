#!/usr/bin/env python3
"""tools/torch_inprocess.py with torch on the CPU, at tiny sizes and eager variants only
(torch.compile's first compile takes ~40 s here: the slow suite runs it, with --compile): one
results file with our rows and torch's, each torch row naming the variant of ours it mirrors,
verified by fusebench's reference; ours_ratio derived by fusebench where both rows are ok; a
torch variant that computes something else is failed by that reference and never timed.

Needs torch: meson's python3 without it re-runs this under $FB_PYTHON or .venv/bin/python, and
skips (exit 77, reason printed) when none has torch. FB_BUILD_DIR: the build with
fusebench and libfbpeer.so."""
import csv
import os
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tools"))
sys.path.insert(0, os.path.join(SRC, "tests", "scripts"))
BUILD = os.environ.get("FB_BUILD_DIR", os.path.join(SRC, "build"))
from torch_or_skip import SKIP, import_torch_or_reexec  # noqa: E402

if os.environ.get("FB_SANITIZED"):
    print("SKIP: a -Db_sanitize=%s build: torch is not loaded behind the sanitizers' runtimes "
          "(test_peer and test_peer_ctypes test the library there)" % os.environ["FB_SANITIZED"])
    sys.exit(SKIP)
torch = import_torch_or_reexec(__file__, SRC)
COMPILE = "--compile" in sys.argv
if COMPILE:
    sys.argv.remove("--compile")
import fbpeer  # noqa: E402
import torch_inprocess as ti  # noqa: E402
import torch_peer as tp  # noqa: E402

CONFIG = """[sweep]
sizes = 8, 1000
variants = eager_add_relu, fused_add_relu
[backend]
backend = cpu
cpu_threads = 1
[measure]
warmup = 1
min_reps = 3
max_reps = 10
min_time = 0
max_time = 0.02
target_noise = 0.5
"""
EAGER = "torch_eager_add_relu,torch_eager_add_relu_out"
COMPILED = "torch_compile_add_relu,torch_compile_out"


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


class InProcess(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_torch_inprocess-")
        self.config = os.path.join(self.tmp.name, "t.ini")
        with open(self.config, "w") as f:
            f.write(CONFIG)
        torch.set_num_threads(1)

    def tearDown(self):
        self.tmp.cleanup()

    def test_one_file_holds_ours_and_torch_with_fusebench_ratios(self):
        out = os.path.join(self.tmp.name, "r.csv")
        variants = EAGER + ("," + COMPILED if COMPILE else "")
        rc = ti.main(["--config", self.config, "--build", BUILD, "--variants", variants,
                      "--output", out])
        self.assertIn(rc, (0, 1))
        rows = read_rows(out)
        by = {(r["variant"], r["n"]): r for r in rows}
        for n in ("8", "1000"):
            self.assertEqual(by[("eager_add_relu", n)]["backend"], "cpu")
            for name in variants.split(","):
                r = by[(name, n)]
                self.assertEqual(r["backend"], "torch")
                self.assertEqual(r["mirror"], tp.VARIANTS[name].mirror)
                self.assertEqual((r["verified"], r["status"] in ("ok", "noisy")), ("1", True), r)
                mine = by[(r["mirror"], n)]
                if r["status"] == "ok" and mine["status"] == "ok":
                    ratio = float(mine["time_median_s"]) / float(r["time_median_s"])
                    self.assertAlmostEqual(float(r["ours_ratio"]) / ratio, 1.0, places=6)
                    self.assertLessEqual(float(r["ours_ratio_lo"]), float(r["ours_ratio"]))
                else:
                    self.assertEqual(r["ours_ratio"], "")
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["r.csv", "t.ini"])

    def test_a_torch_variant_with_a_wrong_result_is_failed_by_our_reference(self):
        lib = fbpeer.load(fbpeer.default_path(BUILD))
        with fbpeer.Session(lib, self.config, ()) as s:
            s.size_begin(1000)
            peer = tp.Peer(torch, torch.device("cpu"))
            contest = ti.Contest(torch, s, peer, torch.device("cpu"))
            a, b = contest.inputs(1000)
            # relu(a + b) without the relu: the mirror's reference tells
            wrong = tp.Variant("eager_relu_out", "fused_add_relu", True, None, "fused", "", 1, 3)
            original = peer.fn_for

            def no_relu(variant, a_, reset=True):
                c = torch.empty_like(a_)
                return (lambda x, y: torch.add(x, y, out=c)), None, (c,)
            peer.fn_for = no_relu
            contest.add_torch("torch_no_relu", wrong, a, b)
            peer.fn_for = original
            self.assertEqual(contest.failed, 1)
            self.assertIn("wrong result at element", s.error())
            status, *_ = s.result(0)
            self.assertEqual(status, fbpeer.ERR_VERIFY)
            s.size_end()


if __name__ == "__main__":
    unittest.main()
