#!/usr/bin/env python3
"""tools/torch_audit.py on the CPU with torch: the functions of audit_examples.py with their
known answers, checked exactly (kernels predicted and counted, arrays and bytes per mode, the
mapping onto fusebench's chain), the mapped add+relu timed in one session with fusebench's own
eager_audit and fused_audit (four rows, intervals present, the results file fusebench's), and
the bad inputs refused with exit 2 and nothing written.

Without arguments: the refusals (no compile; seconds: unit suite). --table: the table, which
compiles each function once with inductor (a minute or two on a busy 2-core machine: slow
suite). Needs torch: re-runs under $FB_PYTHON or .venv/bin/python, else skips (torch_or_skip)."""
import csv
import io
import os
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(SRC, "tools"))
sys.path.insert(0, HERE)
from torch_or_skip import SKIP, import_torch_or_reexec  # noqa: E402

torch = import_torch_or_reexec(__file__, SRC)
TABLE = "--table" in sys.argv
if TABLE:
    sys.argv.remove("--table")
if os.environ.get("FB_SANITIZED"):
    print("SKIP: a -Db_sanitize=%s build: torch is not loaded behind the sanitizers' runtimes"
          % os.environ["FB_SANITIZED"])
    sys.exit(SKIP)
FUSEBENCH = os.environ.get("FB_FUSEBENCH") or os.path.join(SRC, "build", "fusebench")
if not os.access(FUSEBENCH, os.X_OK):
    print("SKIP: no fusebench binary at %s (build it, or set FB_FUSEBENCH)" % FUSEBENCH)
    sys.exit(SKIP)
BUILD = os.path.dirname(FUSEBENCH)
TOOL = os.path.join(SRC, "tools", "torch_audit.py")
EXAMPLES = os.path.join(HERE, "audit_examples.py")
import torch_audit  # noqa: E402

# Small and short: the test checks what is predicted, counted and written, not the times.
COMMON = ["--size", "4096", "--max-time", "0.02", "--threads", "1", "--build", BUILD]


def audit(function, *extra):
    """The audit's JSON of an example, run in this process (inductor compiles once per
    function; its machinery stays loaded between functions)."""
    import json
    args = torch_audit.parse_args(["%s:%s" % (EXAMPLES, function), "--json"] + COMMON +
                                  list(extra))
    out = io.StringIO()
    rc = torch_audit.audit(args, out)
    return rc, json.loads(out.getvalue())


def counts(result, mode):
    m = result["modes"][mode]
    return (m["kernels_predicted"], m["kernels_counted"], m["transfers_predicted"],
            m["bytes_predicted"])


class Refusals(unittest.TestCase):
    """Bad input: exit 2, one clear line, nothing written (the --output file is not made)."""

    def run_tool(self, target, *extra, env=None):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "audit.csv")
            p = subprocess.run([sys.executable, TOOL, target, "--output", out] + COMMON +
                               list(extra), capture_output=True, text=True, timeout=300,
                               env=env)
            self.assertEqual(os.listdir(tmp), [], "something written: %s" % p.stderr)
        return p

    def refused(self, target, want, *extra, env=None):
        p = self.run_tool(target, *extra, env=env)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn(want, p.stderr)
        self.assertEqual(p.stdout, "")
        return p

    def test_no_file(self):
        self.refused("/nonexistent/f.py:g", "/nonexistent/f.py: no such file")

    def test_file_does_not_import(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.py")
            with open(bad, "w") as f:
                f.write("import torch\nraise ValueError('boom at import')\n")
            self.refused(bad + ":f", "does not import: ValueError: boom at import")

    def test_no_function(self):
        self.refused(EXAMPLES + ":nope", "no function nope")

    def test_not_callable(self):
        self.refused(EXAMPLES + ":NOT_A_FUNCTION", "is not callable")

    def test_reduction(self):
        self.refused(EXAMPLES + ":reduction", "reduction: aten.sum is not elementwise: "
                     "fusebench audits elementwise chains")

    def test_matmul(self):
        self.refused(EXAMPLES + ":matmul", "aten.mm is not elementwise", "--shape", "x=64x64",
                     "--shape", "y=64x64")

    def test_shapes_do_not_broadcast(self):
        self.refused(EXAMPLES + ":broadcast_bias", "shapes do not broadcast (x (4096,), "
                     "bias (3,))", "--shape", "bias=3")

    def test_shape_of_no_parameter(self):
        self.refused(EXAMPLES + ":add_relu", "has no tensor parameter c", "--shape", "c=3")

    def test_dtype_refused(self):
        self.refused(EXAMPLES + ":zeta", "torch refuses this dtype for an op: \"zeta_cpu\" "
                     "not implemented for 'Half'", "--dtype", "fp16")

    def test_model_without_a_fit(self):
        """--model names a results file fusebench fitted no model to (one size per variant)."""
        csv_path = os.path.join(SRC, "tests", "plots", "data", "sample-inprocess.csv")
        self.refused(EXAMPLES + ":add_relu", "--model %s: fusebench fitted no model to it"
                     % csv_path, "--model", csv_path)

    def test_no_compiler(self):
        env = dict(os.environ, CXX="/nonexistent/g++")
        self.refused(EXAMPLES + ":add_relu", "no C++ compiler for inductor on the CPU", env=env)

    def test_no_torch(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "torch"))
            with open(os.path.join(tmp, "torch", "__init__.py"), "w") as f:
                f.write("raise ImportError('no torch in this test')\n")
            env = dict(os.environ, PYTHONPATH=tmp)
            self.refused(EXAMPLES + ":add_relu", "install requirements-torch.txt into .venv",
                         env=env)


@unittest.skipUnless(TABLE, "the table compiles: --table (slow suite)")
class Table(unittest.TestCase):
    """The known answers on the CPU, exact."""

    def test_add_relu(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "audit.csv")
            model = os.path.join(SRC, "results", "cpu-intel-xeon", "default.csv")
            rc, r = audit("add_relu", "--output", out, "--model", model)
            self.assertEqual(rc, 0)
            # the launch share of the model fitted to the checked-in sweep: 2 launches x L
            # against 2 L + the predicted bytes / B_c (80 KB: cache-resident)
            fit = r["fit"]
            self.assertEqual(fit["source"], model)
            self.assertEqual(fit["eager"]["regime"], "cache-resident")
            self.assertEqual(fit["eager"]["bandwidth_gbps"], fit["cache_bandwidth_gbps"])
            launch = 2 * fit["launch_s"]
            traffic = 5 * 4096 * 4 / (fit["cache_bandwidth_gbps"] * 1e9)
            self.assertAlmostEqual(fit["eager"]["launch_share"], launch / (launch + traffic))
            self.assertAlmostEqual(fit["compiled"]["traffic_share"] + fit["compiled"][
                "launch_share"], 1.0)
            self.assertEqual(r["chain"], ["add", "relu"])
            self.assertEqual(counts(r, "eager"), (2, 2, 5, 5 * 4096 * 4))
            self.assertEqual(counts(r, "compiled"), (1, 1, 3, 3 * 4096 * 4))
            self.assertEqual(r["modes"]["compiled"]["kernels"][0]["ops"], ["add", "relu"])
            for mode in ("eager", "compiled"):
                self.assertIn("= counted", r["modes"][mode]["verdict"])
                self.assertEqual(r["modes"][mode]["measured_dram"],
                                 {"na": "the CPU backend has no DRAM counters"})
            times = [r["modes"]["eager"]["time"], r["modes"]["compiled"]["time"],
                     r["fusebench"]["eager"], r["fusebench"]["fused"]]
            for t in times:
                self.assertEqual(t["status"], "ok")
                self.assertGreater(t["median_s"], 0)
                self.assertGreater(t["noise"], 0)
            for ratio in (r["ratio"], r["fusebench"]["speedup"]):
                self.assertTrue(ratio[1] <= ratio[0] <= ratio[2], ratio)
            with open(out) as f:
                rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
            self.assertEqual(sorted(row["variant"] for row in rows),
                             ["eager_audit", "fused_audit", "torch_compile_audit",
                              "torch_eager_audit"])
            self.assertTrue(all(row["status"] == "ok" for row in rows))
            by = {row["variant"]: row for row in rows}
            self.assertEqual(by["torch_eager_audit"]["mirror"], "eager_audit")
            self.assertEqual(by["torch_eager_audit"]["pair"], "torch_compile_audit")
            self.assertEqual(by["torch_compile_audit"]["launches"], "1")
            self.assertEqual(sorted(os.listdir(tmp)), ["audit.csv"])

    def test_scale_bias_sigmoid_relu(self):
        """x * 2 + b: scale(2) of x, then a binary add of b: not a chain of fusebench's, so
        the torch rows are timed unmirrored: their bytes model the predicted bytes, their
        launches the counted kernels, their check the audit's."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "audit.csv")
            rc, r = audit("scale_bias_sigmoid_relu", "--output", out)
            self.assertEqual(rc, 0)
            self.assertIsNone(r["chain"])
            self.assertIn("first op, aten.mul, reads 1", r["unmapped"])
            self.assertIn("torch.compile's output = eager's", r["check"])
            with open(out) as f:
                rows = {row["variant"]: row for row in
                        csv.DictReader(line for line in f if not line.startswith("#"))}
            self.assertEqual(sorted(rows), ["torch_compile_audit", "torch_eager_audit"])
            self.assertEqual(rows["torch_eager_audit"]["bytes_model"], str(9 * 4096 * 4))
            self.assertEqual(rows["torch_compile_audit"]["bytes_model"], str(3 * 4096 * 4))
            self.assertEqual(rows["torch_eager_audit"]["launches"], "4")
            self.assertEqual(rows["torch_eager_audit"]["pair"], "torch_compile_audit")
            for mode in ("eager", "compiled"):
                self.assertGreater(r["modes"][mode]["time"]["median_s"], 0)
            self.assertTrue(r["ratio"][1] <= r["ratio"][0] <= r["ratio"][2], r["ratio"])
        self.assertEqual(counts(r, "eager"), (4, 4, 2 + 3 + 2 + 2, 9 * 4096 * 4))
        self.assertEqual(counts(r, "compiled"), (1, 1, 3, 3 * 4096 * 4))
        self.assertEqual(r["modes"]["compiled"]["kernels"][0]["ops"],
                         ["add", "mul", "relu", "sigmoid"])

    def test_longer_chain_maps(self):
        rc, r = audit("mul_bias_gelu_sigmoid")
        self.assertEqual(rc, 0)
        self.assertEqual(r["chain"], ["mul", "bias(0.5)", "gelu", "sigmoid"])
        self.assertEqual(counts(r, "eager"), (4, 4, 9, 9 * 4096 * 4))
        self.assertEqual(counts(r, "compiled"), (1, 1, 3, 3 * 4096 * 4))
        self.assertEqual(r["fusebench"]["fused"]["status"], "ok")

    def test_split(self):
        """aten.gcd has no inductor lowering: two generated kernels around ATen's gcd."""
        rc, r = audit("gcd_split")
        self.assertEqual(rc, 0)
        self.assertEqual(counts(r, "eager"), (7, 7, 15, 15 * 4096 * 4))
        self.assertEqual(counts(r, "compiled"), (3, 3, 9, 9 * 4096 * 4))
        ks = r["modes"]["compiled"]["kernels"]
        self.assertEqual([(k["kind"], k["ops"]) for k in ks],
                         [("generated", ["_to_copy", "mul"]), ("extern", ["gcd"]),
                          ("generated", ["_to_copy", "relu"])])
        v = r["modes"]["compiled"]["verdict"]
        self.assertIn("predicted 3 kernels = counted 3: not fused:", v)
        self.assertIn("why: aten.gcd: inductor has no lowering for it", v)

    def test_broadcast_bias(self):
        """bias of one element (fp32 and bf16: 2 bytes an element), and of N/4 (x of 4 x
        1024, bias a row of 1024): read at its own size."""
        rc, r = audit("broadcast_bias", "--shape", "bias=1")
        self.assertEqual(rc, 0)
        self.assertIsNone(r["chain"])
        self.assertEqual(counts(r, "eager"), (2, 2, 5, (4 * 4096 + 1) * 4))
        self.assertEqual(counts(r, "compiled"), (1, 1, 3, (2 * 4096 + 1) * 4))
        rc, r = audit("broadcast_bias", "--shape", "bias=1", "--dtype", "bf16")
        self.assertEqual(rc, 0)
        self.assertEqual(counts(r, "eager"), (2, 2, 5, (4 * 4096 + 1) * 2))
        self.assertEqual(counts(r, "compiled"), (1, 1, 3, (2 * 4096 + 1) * 2))
        rc, r = audit("broadcast_bias", "--shape", "x=4x1024", "--shape", "bias=1024")
        self.assertEqual(rc, 0)
        self.assertEqual(counts(r, "eager"), (2, 2, 5, (4 * 4096 + 1024) * 4))
        self.assertEqual(counts(r, "compiled"), (1, 1, 3, (2 * 4096 + 1024) * 4))

    def test_view_in_middle(self):
        rc, r = audit("view_in_middle")
        self.assertEqual(rc, 0)
        self.assertEqual(counts(r, "eager"), (2, 2, 5, 5 * 4096 * 4))
        self.assertEqual(counts(r, "compiled"), (1, 1, 3, 3 * 4096 * 4))

    def test_interrupt(self):
        """Ctrl-C once the results file is open (its lock is there): exit 130, and neither
        the file, its .partial nor its lock is left."""
        import signal
        import time
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "audit.csv")
            # SIGINT as a terminal sends it (a shell's background job would have it ignored)
            p = subprocess.Popen([sys.executable, TOOL, EXAMPLES + ":add_relu", "--size", "4M",
                                  "--max-time", "30", "--threads", "1", "--build", BUILD,
                                  "--output", out], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            lock = out + ".lock"
            while p.poll() is None and not os.path.exists(lock):
                time.sleep(0.05)
            p.send_signal(signal.SIGINT)
            stdout, stderr = p.communicate(timeout=300)
            self.assertEqual(p.returncode, 130, stderr)
            self.assertIn("interrupted; nothing written", stderr)
            self.assertEqual(os.listdir(tmp), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
