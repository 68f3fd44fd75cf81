#!/usr/bin/env python3
"""tools/torch_peer.py run with torch on the CPU, at tiny sizes: every variant verifies, counts
the kernels and bytes of its model, and the *_out variants allocate nothing per call while the
allocating ones allocate their outputs (so the 0 is measured, not a counter that never moves);
a would-be out variant that allocates, writes elsewhere or leaves its output unwritten fails.
Chains: the eager chain variants verify (bit-exact for exact ops, within
CHAIN_TRANSCENDENTAL_TOL with sigmoid or gelu) with one kernel per op, and a mapping that
computes something else (a wrong bias, erf gelu instead of tanh) fails verification.

Needs torch. meson runs this with its python3; when that one cannot import torch, the test
re-runs itself under $FB_PYTHON or the repository's .venv/bin/python (the pythons
scripts/gpu-check uses), and skips (exit 77, reason printed) when none of them has torch.

Without arguments only the eager variants run (seconds, unit suite). --compile adds the
torch.compile variants: inductor compiles C++ for each, and the first compile of a process
takes ~40 s on a busy 2-core machine (slow suite; skipped inside scripts/gpu-check, whose
time-capped PyTorch step runs the same variants on its device)."""
import os
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tools"))
import torch_peer as tp  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_or_skip import SKIP, import_torch_or_reexec  # noqa: E402,F401


torch = import_torch_or_reexec(__file__, SRC)  # before --compile leaves argv: a re-run needs it
COMPILE = "--compile" in sys.argv
if COMPILE:
    sys.argv.remove("--compile")
torch.set_num_threads(1)  # a light load on a shared machine; the counts do not depend on it

# Short points: the test checks what is counted and verified, not the times.
MEASURE = dict(warmup=1, min_reps=2, max_reps=5, min_time=0.001, max_time=0.005,
               target_noise=0.02)
SIZES = (8, 1000)  # 8: the first size with the NaN and inf inputs; 1000: a vector tail


FUSEBENCH = os.environ.get("FB_FUSEBENCH") or os.path.join(SRC, "build", "fusebench")


def op(name, arity=1, ulp_bound=0, *params):
    """One op as the plan gives it."""
    return {"op": name, "arity": arity, "ulp_bound": ulp_bound, "params": list(params)}


MUL_BIAS_RELU = (op("mul", 2), op("bias", 1, 0, 0.5), op("relu"))
ADD_GELU = (op("add", 2), op("gelu", 1, 256))
SCALE_SIGMOID_THRESHOLD = (op("scale", 1, 0, 2.0), op("sigmoid", 1, 4),
                           op("threshold", 1, 0, 0.5, -1.0), op("copy"))


def builtin_variants():
    """The peer's add_relu variants with their model from this build's plan (every built-in
    of configs/default.ini enabled)."""
    if not os.access(FUSEBENCH, os.X_OK):
        print("SKIP: no fusebench binary at %s (build it, or set FB_FUSEBENCH)" % FUSEBENCH)
        sys.exit(SKIP)
    plan = tp.read_plan(FUSEBENCH, os.path.join(SRC, "configs", "default.ini"))
    return tp.resolve_variants(plan, tp.VARIANTS)


BUILTINS = builtin_variants()


def chain_peer(**chains):
    """A peer whose chain variants are torch_eager_NAME for each NAME=ops given, with the
    model of an eager chain of those ops (plan/variants.h: 3 + 2 (k - 1) arrays)."""
    variants = {"torch_eager_" + name: tp.Variant("chain_eager", "eager_" + name, False, ops,
                                                  "eager", "", len(ops), 3 + 2 * (len(ops) - 1))
                for name, ops in chains.items()}
    return tp.Peer(torch, torch.device("cpu"), MEASURE, variants=variants)


def measure(name, n, peer=None):
    peer = peer or tp.Peer(torch, torch.device("cpu"), MEASURE, variants=BUILTINS)
    return peer.measure(name, n, "cpu", peer.prepare(n))


class Eager(unittest.TestCase):
    def test_eager_rows_verify_with_two_kernels_and_five_arrays(self):
        for name in ("torch_eager_add_relu", "torch_eager_threshold", "torch_eager_add_relu_out"):
            for n in SIZES:
                row = measure(name, n)
                self.assertEqual((row["status"], row["reason"]), ("ok", ""), (name, n))
                self.assertEqual(row["verified"], 1, (name, n))
                self.assertEqual(row["launches"], 2, (name, n))
                self.assertEqual(row["bytes_model"], 5 * 4 * n, (name, n))

    def test_eager_allocates_tmp_and_c_and_its_out_twin_nothing(self):
        for n in SIZES:
            self.assertEqual(measure("torch_eager_add_relu", n)["allocated"], 2 * 4 * n, n)
            self.assertEqual(measure("torch_eager_add_relu_out", n)["allocated"], 0, n)

    def test_main_writes_the_out_rows_and_the_chains(self):
        columns = tp.read_plan(FUSEBENCH, os.path.join(SRC, "configs", "smoke.ini"))["columns"]
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "torch.csv")
            rc = tp.main(["--config", os.path.join(SRC, "configs", "chains-example.ini"),
                          "--fusebench", FUSEBENCH, "--sizes",
                          "1000", "--device", "cpu", "--threads", "1", "--max-time", "0.005",
                          "--variants", "torch_eager_add_relu,torch_eager_add_relu_out,"
                          "torch_eager_mul_bias_relu,torch_eager_add_gelu",
                          "--output", out])
            self.assertEqual(rc, 0)
            with open(out) as f:
                lines = [l for l in f.read().splitlines() if not l.startswith("#")]
        self.assertEqual(lines[0], ",".join(columns))  # the C schema's columns
        rows = [dict(zip(columns, l.split(","))) for l in lines[1:]]
        self.assertEqual([r["variant"] for r in rows],
                         ["torch_eager_add_relu", "torch_eager_add_relu_out",
                          "torch_eager_mul_bias_relu", "torch_eager_add_gelu"])
        expected = {"torch_eager_add_relu": ("2", "20000"), "torch_eager_add_relu_out":
                    ("2", "20000"), "torch_eager_mul_bias_relu": ("3", "28000"),
                    "torch_eager_add_gelu": ("2", "20000")}
        for r in rows:
            self.assertEqual((r["status"], r["verified"], r["launches"], r["bytes_model"]),
                             ("ok", "1") + expected[r["variant"]], r["variant"])
            self.assertEqual(r["backend"], "torch")
        # the eager rows' pairs are not run here: no speedup, and none made up
        self.assertEqual([r["speedup"] for r in rows], ["", "", "", ""])
        self.assertEqual(rows[0]["pair"], "torch_compile_add_relu")
        self.assertEqual(rows[1]["pair"], "torch_compile_out")


class Chains(unittest.TestCase):
    def test_eager_chains_verify_with_one_kernel_per_op(self):
        peer = chain_peer(mbr=MUL_BIAS_RELU, ag=ADD_GELU, sst=SCALE_SIGMOID_THRESHOLD)
        for name, ops in (("mbr", MUL_BIAS_RELU), ("ag", ADD_GELU),
                          ("sst", SCALE_SIGMOID_THRESHOLD)):
            for n in SIZES:
                row = measure("torch_eager_" + name, n, peer)
                self.assertEqual((row["status"], row["reason"]), ("ok", ""), (name, n))
                self.assertEqual((row["verified"], row["launches"]), (1, len(ops)), (name, n))
                self.assertEqual(row["bytes_model"], (3 + 2 * (len(ops) - 1)) * 4 * n)

    def mapped_wrong(self, op_name, fn, ops):
        saved = tp.TORCH_OPS[op_name]
        tp.TORCH_OPS[op_name] = fn
        try:
            return measure("torch_eager_x", 1000, chain_peer(x=ops))
        finally:
            tp.TORCH_OPS[op_name] = saved

    def test_an_exact_chain_is_held_bit_for_bit(self):
        # The tested (float32) chain adds the float after 0.5 (0.5 + 2^-24), the reference
        # (float64) 0.5 itself: one ulp in one op must be seen.
        row = self.mapped_wrong(
            "bias", lambda t, xs, p: t.add(xs[0], p[0] + (2 ** -24 if xs[0].dtype ==
                                                          t.float32 else 0.0)),
            MUL_BIAS_RELU)
        self.assertEqual((row["status"], row["verified"]), ("failed", 0))
        self.assertIn("verification failed", row["reason"])

    def test_a_transcendental_chain_tolerance_still_catches_another_formula(self):
        # erf gelu instead of the tanh form: up to ~5e-4 apart, far outside 1e-5.
        gelu = tp.TORCH_OPS["gelu"]
        row = self.mapped_wrong(
            "gelu", lambda t, xs, p: (t.nn.functional.gelu(xs[0]) if xs[0].dtype == t.float32
                                      else gelu(t, xs, p)), ADD_GELU)
        self.assertEqual((row["status"], row["verified"]), ("failed", 0))
        self.assertIn("verification failed", row["reason"])


class FakeOut(tp.Peer):
    """Would-be out variants that break the contract in one way each."""

    def fn_for(self, variant, a):
        kind = variant.kind
        c = torch.empty_like(a)
        if kind == "allocates":  # the right values in c, through two array-sized temporaries
            return (lambda a, b: c.copy_((a + b).relu())), None, (c,)
        if kind == "elsewhere":  # the right values in a fresh tensor
            return (lambda a, b: (a + b).relu()), None, (c,)
        if kind == "unwritten":  # c handed back as it was
            return (lambda a, b: c), None, (c,)
        return tp.Peer.fn_for(self, variant, a)


class OutContract(unittest.TestCase):
    def run_fake(self, kind):
        name = "fake_" + kind
        variants = {name: BUILTINS["torch_eager_add_relu_out"]._replace(kind=kind)}
        return measure(name, 1000, FakeOut(torch, torch.device("cpu"), MEASURE,
                                           variants=variants))

    def test_an_out_variant_that_allocates_fails(self):
        row = self.run_fake("allocates")
        self.assertEqual(row["status"], "failed")
        self.assertIn("allocates 8000 bytes per call", row["reason"])
        self.assertEqual(row["time_median_s"], "")  # never timed

    def test_an_out_variant_writing_elsewhere_fails(self):
        row = self.run_fake("elsewhere")
        self.assertEqual(row["status"], "failed")
        self.assertIn("not written into the preallocated output", row["reason"])

    def test_an_unwritten_output_keeps_its_poison_and_fails(self):
        row = self.run_fake("unwritten")
        self.assertEqual((row["status"], row["verified"]), ("failed", 0))
        self.assertIn("verification failed", row["reason"])


@unittest.skipUnless(COMPILE, "torch.compile variants: run with --compile (slow suite)")
@unittest.skipIf(os.environ.get("FB_GPU_CHECK_NESTED"),
                 "inside scripts/gpu-check, whose PyTorch step runs and verifies these variants")
class Compiled(unittest.TestCase):
    def test_compile_rows_are_one_kernel_and_compile_out_allocates_nothing(self):
        n = 1000
        peer = tp.Peer(torch, torch.device("cpu"), MEASURE, variants=BUILTINS)
        data = peer.prepare(n)
        allocated = {}
        for name in ("torch_compile_add_relu", "torch_compile_out"):
            row = peer.measure(name, n, "cpu", data)
            self.assertEqual((row["status"], row["reason"]), ("ok", ""), name)
            self.assertEqual(row["verified"], 1, name)
            self.assertEqual(row["launches"], 1, name)  # inductor fused add, relu and the copy
            self.assertEqual(row["bytes_model"], 3 * 4 * n, name)
            allocated[name] = row["allocated"]
        self.assertEqual(allocated, {"torch_compile_add_relu": 4 * n, "torch_compile_out": 0})

    def test_compiled_chains_are_one_kernel_and_verify(self):
        n = 1000
        variants = {"torch_compile_" + name: tp.Variant("chain_compile", "fused_" + name, False,
                                                        ops, "fused", "", 1, 3)
                    for name, ops in (("mbr", MUL_BIAS_RELU), ("ag", ADD_GELU))}
        peer = tp.Peer(torch, torch.device("cpu"), MEASURE, variants=variants)
        data = peer.prepare(n)
        for name in variants:
            row = peer.measure(name, n, "cpu", data)
            self.assertEqual((row["status"], row["reason"]), ("ok", ""), name)
            self.assertEqual((row["verified"], row["launches"]), (1, 1), name)
            self.assertEqual(row["bytes_model"], 3 * 4 * n, name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
