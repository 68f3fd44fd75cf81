#!/usr/bin/env python3
"""The parts of tools/torch_peer.py that need no torch: the plan read from fusebench
(`--print-plan`: sizes, stop rule, chains), the variants' model (each mirrors a variant of
fusebench: its kernels, bytes, role and pair come from the plan), the sizes fusebench reads from
a CSV (`--derive`), the options turned into fusebench's settings, the output judged by
libfbpeer's results code before anything is measured, and what the peer does without torch
(one line with the install command, exit 2, after every check that needs no torch). The
statistics, stop rule, CSV writer and speedups are fusebench's C (libfbpeer.so), tested there
(tests/measure, tests/results, tests/peer); test_torch_peer_run.py runs the variants with torch.

The plan tests run the built binary: $FB_FUSEBENCH, else build/fusebench of the source tree;
they skip, saying why, when there is none."""
import json
import os
import re
import subprocess
import sys
import tempfile
import types
import unittest
from unittest import mock

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
if os.environ.get("FB_SANITIZED"):
    # the peer's main loads this build's libfbpeer.so into python, whose runtime the
    # sanitizers' refuse to follow ("ASan runtime does not come first"); tests/run's
    # unsanitized build runs these, and test_peer / test_peer_ctypes test the library here
    print("SKIP: a -Db_sanitize=%s build: the peer's libfbpeer.so is not loaded behind the "
          "sanitizers' runtimes" % os.environ["FB_SANITIZED"])
    sys.exit(77)
sys.path.insert(0, os.path.join(SRC, "tools"))
import torch_inprocess as ti  # noqa: E402
import torch_peer as tp  # noqa: E402

FUSEBENCH = os.environ.get("FB_FUSEBENCH") or os.path.join(SRC, "build", "fusebench")
HAVE_FUSEBENCH = os.access(FUSEBENCH, os.X_OK)
NO_FUSEBENCH = "no fusebench binary at %s (build it, or set FB_FUSEBENCH)" % FUSEBENCH
CHAINS_INI = os.path.join(SRC, "configs", "chains-example.ini")


@unittest.skipUnless(HAVE_FUSEBENCH, NO_FUSEBENCH)
class Sizes(unittest.TestCase):
    def test_sizes_from_csv_are_fusebenchs_reading_of_the_n_column(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("# device: x\nbackend,variant,dtype,n,status\ncpu,copy,fp32,1000,ok\n"
                    "cpu,fused_add_relu,fp32,8,ok\ncpu,copy,fp32,8,ok\n")
        try:
            self.assertEqual(tp.sizes_from_csv(FUSEBENCH, f.name), [8, 1000])
        finally:
            os.unlink(f.name)

    def test_a_bad_csv_is_a_usage_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("variant,n\ncopy,1000\n")  # no backend, dtype: not a results file
        try:
            with self.assertRaisesRegex(tp.UsageError, "exit 2"):
                tp.sizes_from_csv(FUSEBENCH, f.name)
        finally:
            os.unlink(f.name)


@unittest.skipUnless(HAVE_FUSEBENCH, NO_FUSEBENCH)
class Plan(unittest.TestCase):
    def plan(self, *extra):
        out = subprocess.run([FUSEBENCH, CHAINS_INI, "--print-plan"] + list(extra),
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        return json.loads(out.stdout)

    def test_read_plan_passes_sizes_and_gives_the_stop_rule(self):
        plan = tp.read_plan(FUSEBENCH, CHAINS_INI, "8..100K")
        self.assertEqual(plan["sizes"][0], 8)
        self.assertEqual(plan["sizes"][-1], 100000)
        self.assertEqual(sorted(plan["measure"]), sorted(
            ["warmup", "min_reps", "max_reps", "min_time", "max_time", "target_noise"]))
        self.assertEqual(tp.read_plan(FUSEBENCH, CHAINS_INI, "1K,1M")["sizes"], [1000, 1000000])

    def test_bad_sizes_and_configs_are_usage_errors(self):
        with self.assertRaisesRegex(tp.UsageError, "exit 2"):
            tp.read_plan(FUSEBENCH, CHAINS_INI, "0")
        with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
            f.write("[chain x]\nops = add, frob\n")
        try:
            with self.assertRaisesRegex(tp.UsageError, r"\[chain x\] ops: unknown op"):
                tp.read_plan(FUSEBENCH, f.name)
        finally:
            os.unlink(f.name)

    def test_chain_variants_follow_the_plan(self):
        plan = self.plan()
        chains = tp.chain_variants(plan)
        self.assertEqual(list(chains), [
            "torch_eager_mul_bias_relu", "torch_compile_mul_bias_relu",
            "torch_eager_add_gelu", "torch_compile_add_gelu",
            "torch_eager_scale_sigmoid", "torch_compile_scale_sigmoid"])
        v = tp.resolve_variants(plan, chains)
        e, c = v["torch_eager_mul_bias_relu"], v["torch_compile_mul_bias_relu"]
        # the model of fusebench's eager_mul_bias_relu / fused_mul_bias_relu, from the plan
        self.assertEqual((e.mirror, e.role, e.pair, e.launches, e.elements, e.preallocated),
                         ("eager_mul_bias_relu", "eager", "torch_compile_mul_bias_relu", 3,
                          3 + 2 + 2, False))
        self.assertEqual((c.mirror, c.role, c.pair, c.launches, c.elements),
                         ("fused_mul_bias_relu", "fused", "", 1, 3))
        self.assertEqual([(op["op"], op["params"]) for op in e.ops],
                         [("mul", []), ("bias", [0.5]), ("relu", [])])
        # Only the enabled ones.
        plan = self.plan("--variants", "fused_add_gelu,copy")
        self.assertEqual(list(tp.chain_variants(plan)), ["torch_compile_add_gelu"])

    def test_the_add_relu_variants_take_their_model_and_pairs_from_the_plan(self):
        v = tp.resolve_variants(self.plan(), tp.VARIANTS)
        self.assertEqual(list(v), list(tp.VARIANTS))
        for name in ("torch_eager_add_relu", "torch_eager_threshold", "torch_eager_add_relu_out"):
            self.assertEqual((v[name].role, v[name].launches, v[name].elements), ("eager", 2, 5))
        for name in ("torch_compile_add_relu", "torch_compile_out"):
            self.assertEqual((v[name].role, v[name].pair, v[name].launches, v[name].elements),
                             ("fused", "", 1, 3))
        # like with like: allocating with allocating, preallocated with preallocated
        self.assertEqual(v["torch_eager_add_relu"].pair, "torch_compile_add_relu")
        self.assertEqual(v["torch_eager_threshold"].pair, "torch_compile_add_relu")
        self.assertEqual(v["torch_eager_add_relu_out"].pair, "torch_compile_out")

    def test_a_variant_whose_mirror_the_config_disables_is_not_run(self):
        plan = self.plan("--variants", "copy,eager_add_relu,fused_add_relu")
        v = tp.resolve_variants(plan, tp.VARIANTS)
        self.assertNotIn("torch_eager_threshold", v)  # eager_add_threshold is not enabled
        self.assertEqual(tp.select_variants(None, v, tp.VARIANTS), list(v))
        with self.assertRaisesRegex(tp.UsageError, "mirrors eager_add_threshold"):
            tp.select_variants(["torch_eager_threshold"], v, tp.VARIANTS)

    def test_the_one_launch_variant_is_in_the_plan_and_not_mirrored(self):
        # eager_add_relu_graph is a built-in (no chain): the plan shows its 2 kernels in one
        # launch, and the peer makes no torch row of it (its own rows are fixed: VARIANTS).
        plan = self.plan("--variants", "eager_add_relu_graph,eager_add_relu,fused_mul_bias_relu")
        graph = [v for v in plan["variants"] if v["name"] == "eager_add_relu_graph"]
        self.assertEqual(len(graph), 1)
        g = graph[0]
        self.assertEqual((g["role"], g["pair"], g["launches"], g["host_launches"],
                          g["one_launch"], g["elements_moved"], g["chain"]),
                         ("eager", "fused_add_relu", 2, 1, True, 5, ""))
        eager = [v for v in plan["variants"] if v["name"] == "eager_add_relu"][0]
        self.assertEqual((eager["host_launches"], eager["one_launch"]), (2, False))
        self.assertEqual(list(tp.chain_variants(plan)), ["torch_compile_mul_bias_relu"])
        self.assertIn("host_launches", plan["columns"])

    def test_every_op_of_the_table_has_a_torch_mapping(self):
        with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
            f.write("[chain bad]\nops = add, nosuchop\n")
        try:
            out = subprocess.run([FUSEBENCH, f.name, "--print-plan"], capture_output=True,
                                 text=True, timeout=60)
        finally:
            os.unlink(f.name)
        # The message lists the table's ops: "ops: copy, add, ..., threshold(threshold, value)".
        listed = out.stderr.rsplit("ops: ", 1)[1].strip()
        names = re.findall(r"([a-z_][a-z0-9_]*)(?:\([^)]*\))?(?:, |$)", listed)
        self.assertGreaterEqual(len(names), 9, listed)
        self.assertIn("gelu", names)
        self.assertEqual(sorted(n for n in names if n not in tp.TORCH_OPS), [])

    def test_a_missing_binary_is_a_usage_error(self):
        with self.assertRaisesRegex(tp.UsageError, "no fusebench binary"):
            tp.read_plan("/nonexistent/fusebench", CHAINS_INI)


class Variants(unittest.TestCase):
    ALLOCATING = ("torch_eager_add_relu", "torch_eager_threshold", "torch_compile_add_relu")
    PREALLOCATED = ("torch_eager_add_relu_out", "torch_compile_out")

    def test_the_allocating_rows_and_their_out_twins(self):
        self.assertEqual(sorted(tp.VARIANTS), sorted(self.ALLOCATING + self.PREALLOCATED))
        for name in self.ALLOCATING:
            self.assertFalse(tp.VARIANTS[name].preallocated, name)
        for name in self.PREALLOCATED:
            self.assertTrue(tp.VARIANTS[name].preallocated, name)

    def test_no_model_number_is_written_in_the_peer(self):
        # kernels, arrays, role and pair come from the plan (resolve_variants), not the table
        for name, v in tp.VARIANTS.items():
            self.assertEqual((v.role, v.pair, v.launches, v.elements), ("", "", None, None), name)

    def test_kinds_are_distinct(self):
        kinds = [v.kind for v in tp.VARIANTS.values()]
        self.assertEqual(len(kinds), len(set(kinds)))

    def test_variants_option_takes_the_new_names_in_order(self):
        self.assertEqual(tp.select_variants(["torch_compile_out", "torch_eager_add_relu_out"],
                                            tp.VARIANTS, tp.VARIANTS),
                         ["torch_compile_out", "torch_eager_add_relu_out"])
        with self.assertRaisesRegex(tp.UsageError, 'unknown variant "nope"'):
            tp.select_variants(["nope"], tp.VARIANTS, tp.VARIANTS)


class ConfigAndOutput(unittest.TestCase):
    @unittest.skipUnless(HAVE_FUSEBENCH, NO_FUSEBENCH)
    def test_smoke_config_stop_rule_comes_from_fusebench(self):
        plan = tp.read_plan(FUSEBENCH, os.path.join(SRC, "configs", "smoke.ini"))
        self.assertEqual(plan["measure"]["max_reps"], 20)
        self.assertAlmostEqual(plan["measure"]["max_time"], 0.02)

    @unittest.skipUnless(HAVE_FUSEBENCH, NO_FUSEBENCH)
    def test_the_options_become_fusebenchs_settings(self):
        """What the peer's options override is fusebench's own config (fbp_open's settings),
        and --max-time lowers a longer min_time with it (the old peer's rule), so that the
        stop rule stays valid."""
        smoke = os.path.join(SRC, "configs", "smoke.ini")  # min_time 0.001, max_time 0.02
        plan = tp.read_plan(FUSEBENCH, smoke)
        args = tp.parse_args(["--config", smoke, "--sizes", "1K,1M", "--max-time", "0.5",
                              "--threads", "1", "--device", "cpu"])
        self.assertEqual(ti.settings_of(args, plan),
                         ["sizes=1K,1M", "max_time=0.5", "cpu_threads=1", "backend=cpu"])
        args = tp.parse_args(["--config", smoke, "--max-time", "0.0005"])
        self.assertEqual(ti.settings_of(args, plan),
                         ["min_time=0.0005", "max_time=0.0005", "backend=auto"])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.csv")
            with open(path, "w") as f:
                f.write("backend,variant,dtype,n,status\ncpu,copy,fp32,1000,ok\n"
                        "cpu,copy,fp32,8,ok\n")
            args = tp.parse_args(["--config", smoke, "--sizes-from-csv", path,
                                  "--fusebench", FUSEBENCH])
            self.assertEqual(ti.settings_of(args, plan), ["sizes=8,1000", "backend=auto"])
        with self.assertRaises(SystemExit):
            tp.parse_args(["--sizes", "8", "--sizes-from-csv", "x.csv"])

    def test_usage_errors_exit_2(self):
        with self.assertRaises(SystemExit) as cm:
            tp.parse_args(["--max-time", "0"])
        self.assertEqual(cm.exception.code, 2)
        smoke = os.path.join(SRC, "configs", "smoke.ini")
        self.assertEqual(tp.main(["--fusebench", "/nonexistent/fusebench", "--config", smoke]), 2)
        if HAVE_FUSEBENCH:
            self.assertEqual(tp.main(["--fusebench", FUSEBENCH, "--sizes", "0", "--config",
                                      smoke]), 2)
            self.assertEqual(tp.main(["--fusebench", FUSEBENCH, "--variants", "nope",
                                      "--config", smoke]), 2)


@unittest.skipUnless(HAVE_FUSEBENCH, NO_FUSEBENCH)
class WithoutTorch(unittest.TestCase):
    """The peer run where this python has no torch, or a torch without CUDA (issue 19, item
    5): one line with the install command and exit 2, after every check that needs no torch.
    A fake torch package on PYTHONPATH stands in for each case, whatever this machine has."""

    def run_peer(self, fake_torch, *args):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "torch"))
            with open(os.path.join(d, "torch", "__init__.py"), "w") as f:
                f.write(fake_torch)
            out = os.path.join(d, "out", "torch.csv")
            env = dict(os.environ, PYTHONPATH=d)
            p = subprocess.run([sys.executable, os.path.join(SRC, "tools", "torch_peer.py"),
                                "--fusebench", FUSEBENCH, "--output", out] + list(args),
                               capture_output=True, text=True, env=env, timeout=120)
            written = os.path.exists(os.path.join(d, "out"))
        return p, written

    NO_TORCH = 'raise ImportError("No module named \'torch\'")\n'
    CPU_ONLY = ('__version__ = "2.11.0+cpu"\n'
                'class version:\n    cuda = None\n'
                'class cuda:\n    @staticmethod\n    def is_available():\n        return False\n')

    def test_without_torch_one_line_with_the_install_command_and_exit_2(self):
        p, written = self.run_peer(self.NO_TORCH, "--config",
                                   os.path.join(SRC, "configs", "smoke.ini"), "--device", "cpu")
        self.assertEqual(p.returncode, 2, p.stderr)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        self.assertIn("pip install torch", lines[0])
        self.assertIn("cannot import torch", lines[0])
        self.assertFalse(written)  # nothing measured, nothing written

    def test_cuda_without_a_cuda_torch_one_line_and_exit_2(self):
        p, written = self.run_peer(self.CPU_ONLY, "--config",
                                   os.path.join(SRC, "configs", "smoke.ini"), "--device", "cuda")
        self.assertEqual(p.returncode, 2, p.stderr)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn("requirements-torch.txt", lines[0])
        self.assertFalse(written)

    def test_outputs_that_are_not_results_files_are_refused(self):
        """--output /dev/null (as root: replaced by a regular file), a FIFO, a link to
        /dev/null, a foreign file: libfbpeer's judge (the sweep's) refuses each before anything
        is measured, exit 2 naming it, and leaves the directory as it was. A torch that imports
        (a fake one) gets the run that far."""
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as fake:
            os.mkdir(os.path.join(fake, "torch"))
            with open(os.path.join(fake, "torch", "__init__.py"), "w") as f:
                f.write(self.CPU_ONLY)
            fifo = os.path.join(d, "fifo.csv")
            os.mkfifo(fifo)
            foreign = os.path.join(d, "passwd")
            with open(foreign, "w") as f:
                f.write("root:x:0:0:root:/root:/bin/bash\n")
            link = os.path.join(d, "null.csv")
            os.symlink("/dev/null", link)
            for path in ("/dev/null", fifo, link, foreign):
                with self.subTest(path=path):
                    p = subprocess.run(
                        [sys.executable, os.path.join(SRC, "tools", "torch_peer.py"),
                         "--fusebench", FUSEBENCH, "--config",
                         os.path.join(SRC, "configs", "smoke.ini"), "--device", "cpu",
                         "--output", path],
                        capture_output=True, text=True, timeout=120,
                        env=dict(os.environ, PYTHONPATH=fake))
                    self.assertEqual(p.returncode, 2, p.stderr)
                    self.assertIn(path, p.stderr)
                    self.assertNotIn("Traceback", p.stderr)
            self.assertEqual(sorted(os.listdir(d)), ["fifo.csv", "null.csv", "passwd"])
            with open(foreign) as f:
                self.assertEqual(f.read(), "root:x:0:0:root:/root:/bin/bash\n")

    def test_what_needs_no_torch_is_checked_first(self):
        smoke = os.path.join(SRC, "configs", "smoke.ini")
        for args, said in ((["--config", smoke, "--variants", "nope"], 'unknown variant "nope"'),
                           (["--config", smoke, "--sizes", "0"], "--sizes"),
                           (["--config", "/nonexistent.ini"], "nonexistent.ini")):
            p, _ = self.run_peer(self.NO_TORCH, *args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(said, p.stderr, args)
            # (the paths the messages quote may hold "torch": a checkout named so)
            said_alone = p.stderr.replace(os.path.abspath(SRC), "SRC").replace(SRC, "SRC")
            self.assertNotIn("torch", said_alone.replace("torch_peer", "").replace(
                "torch_eager", "").replace("torch_compile", ""), args)


class Messages(unittest.TestCase):
    """Issue 34 item 20: what the peers say of a plan without its columns, of a missing build,
    of no torch, and of a --config path with a newline in it."""

    def fake_fusebench(self, d, plan):
        path = os.path.join(d, "fusebench")
        with open(path, "w") as f:
            f.write("#!/bin/sh\ncat <<'EOF'\n%s\nEOF\n" % json.dumps(plan))
        os.chmod(path, 0o755)
        return path

    def test_a_plan_without_variants_is_a_usage_error_naming_them(self):
        with tempfile.TemporaryDirectory() as d:
            fake = self.fake_fusebench(d, {"measure": {}, "sizes": [8], "columns": []})
            with self.assertRaises(tp.UsageError) as e:
                tp.read_plan(fake, "x.ini")
        self.assertIn("the plan has no variants", str(e.exception))

    def test_the_missing_binary_names_the_option_of_the_tool_that_asks(self):
        with self.assertRaises(tp.UsageError) as e:
            tp.read_plan("/nonexistent/fusebench", "x.ini", where="--build DIR")
        self.assertIn("--build DIR", str(e.exception))
        self.assertNotIn("--fusebench", str(e.exception))
        inprocess = subprocess.run(
            [sys.executable, os.path.join(SRC, "tools", "torch_inprocess.py"),
             "--build", "/nonexistent", "--config", os.path.join(SRC, "configs", "smoke.ini")],
            capture_output=True, text=True, timeout=60)
        self.assertEqual(inprocess.returncode, 2, inprocess.stderr)
        self.assertIn("--build DIR", inprocess.stderr)
        self.assertNotIn("--fusebench", inprocess.stderr)

    def test_no_torch_is_said_by_the_tool_that_asked(self):
        with mock.patch.dict(sys.modules, {"torch": None}), \
                mock.patch("sys.stderr", new_callable=__import__("io").StringIO) as err:
            self.assertIsNone(tp.import_torch("cpu", prog="torch_inprocess"))
        self.assertTrue(err.getvalue().startswith("torch_inprocess: error: "), err.getvalue())

    def test_a_newline_in_a_path_is_escaped(self):
        self.assertEqual(tp.shown("a\nb\x1b[31m\tc"), "a\\nb\\x1b[31m\tc")

    @unittest.skipUnless(HAVE_FUSEBENCH, NO_FUSEBENCH)
    def test_a_newline_in_a_config_path_stays_on_one_line(self):
        for tool, build in (("torch_peer.py", ["--fusebench", FUSEBENCH]),
                            ("torch_inprocess.py", ["--build", os.path.dirname(FUSEBENCH)])):
            p = subprocess.run([sys.executable, os.path.join(SRC, "tools", tool)] + build +
                               ["--config", "/nonexistent\nforged: line.ini"],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 2, (tool, p.stderr))
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, (tool, p.stderr))
            self.assertIn("\\n", p.stderr, tool)


# A torch package that records the environment it is imported in (in TORCH_ENV_REPORT), then
# fails to import: what torch would read at import is what the peers set before.
ENV_REPORTING_TORCH = """import json, os
with open(os.environ["TORCH_ENV_REPORT"], "w") as f:
    json.dump({k: os.environ.get(k) for k in ("TEARDOWN_CUPTI", "TORCHINDUCTOR_COMPILE_THREADS")}, f)
raise ImportError("fake torch")
"""


class TorchEnv(unittest.TestCase):
    """Both peers set TEARDOWN_CUPTI=1 (Kineto detaches CUPTI after the profiler session that
    counts launches, so the timed calls that follow do not carry it) and
    TORCHINDUCTOR_COMPILE_THREADS=1 (no compile worker processes on the GPU) before torch is
    imported, whatever the shell says (issue 31, defects 5 and 7)."""

    def imported_with(self, code_or_argv):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "torch"))
            with open(os.path.join(d, "torch", "__init__.py"), "w") as f:
                f.write(ENV_REPORTING_TORCH)
            report = os.path.join(d, "env.json")
            env = dict(os.environ, PYTHONPATH=d, TORCH_ENV_REPORT=report, TEARDOWN_CUPTI="0",
                       TORCHINDUCTOR_COMPILE_THREADS="16")
            p = subprocess.run([sys.executable] + code_or_argv, capture_output=True, text=True,
                               env=env, timeout=120)
            self.assertTrue(os.path.exists(report), p.stderr)
            with open(report) as f:
                return json.load(f), p

    def test_torch_peer_sets_them_before_torch_is_imported(self):
        if not HAVE_FUSEBENCH:
            self.skipTest(NO_FUSEBENCH)
        seen, p = self.imported_with([os.path.join(SRC, "tools", "torch_peer.py"),
                                      "--fusebench", FUSEBENCH, "--device", "cpu", "--config",
                                      os.path.join(SRC, "configs", "smoke.ini")])
        self.assertEqual(p.returncode, 2, p.stderr)  # the fake torch does not import
        self.assertEqual(seen, {"TEARDOWN_CUPTI": "1", "TORCHINDUCTOR_COMPILE_THREADS": "1"})

    def test_torch_inprocess_sets_them_at_its_import(self):
        seen, _ = self.imported_with(["-c", "import sys; sys.path.insert(0, %r)\n"
                                      "import torch_inprocess\ntry:\n    import torch\n"
                                      "except ImportError:\n    pass"
                                      % os.path.join(SRC, "tools")])
        self.assertEqual(seen, {"TEARDOWN_CUPTI": "1", "TORCHINDUCTOR_COMPILE_THREADS": "1"})


def fake_torch_modules(inductor_config):
    """sys.modules entries of a torch whose torch.compile records the inductor config it
    compiles under (compile_seen)."""
    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        return m
    seen = []

    def compile_(fn, **kw):
        seen.append(dict(vars(inductor_config), division_rounding=inductor_config.eager_numerics
                         .division_rounding))
        return fn
    metrics = module("torch._inductor.metrics", reset=lambda: None, generated_kernel_count=0)
    inductor = module("torch._inductor", config=inductor_config, metrics=metrics)
    dynamo = module("torch._dynamo", reset=lambda: None)
    torch = module("torch", compile=compile_, _dynamo=dynamo, _inductor=inductor,
                   compile_seen=seen)
    return {"torch": torch, "torch._dynamo": dynamo, "torch._inductor": inductor,
            "torch._inductor.config": inductor_config, "torch._inductor.metrics": metrics}


def inductor_defaults():
    """torch 2.11's defaults of the keys COMPILE_SETTINGS sets."""
    return types.SimpleNamespace(
        emulate_precision_casts=False, use_fast_math=False, compile_threads=16,
        fx_graph_cache=True, eager_numerics=types.SimpleNamespace(division_rounding=False),
        cpp=types.SimpleNamespace(enable_floating_point_contract_flag="off"))


class CompileNumerics(unittest.TestCase):
    """torch.compile of a chain rounds as our kernels do (issue 31, defect 6): inductor is set
    to compile Triton without FMA contraction (emulate_precision_casts: enable_fp_fusion off)
    and with IEEE division before it compiles, so an exact chain (mul, bias, relu) is held bit
    for bit, compiled or not; a transcendental one within its mirror's ULP bound (libfbpeer
    checks both)."""

    def test_the_chain_is_compiled_without_contraction(self):
        config = inductor_defaults()
        mods = fake_torch_modules(config)
        ops = ({"op": "mul", "arity": 2, "ulp_bound": 0, "params": []},
               {"op": "bias", "arity": 1, "ulp_bound": 0, "params": [0.5]})
        peer = tp.Peer(mods["torch"], types.SimpleNamespace(type="cuda"))
        with mock.patch.dict(sys.modules, mods):
            peer.fn_for(tp.Variant("chain_compile", "fused_x", False, ops), None)
        seen = mods["torch"].compile_seen
        self.assertEqual(len(seen), 1)
        self.assertEqual((seen[0]["emulate_precision_casts"], seen[0]["division_rounding"],
                          seen[0]["compile_threads"], seen[0]["fx_graph_cache"]),
                         (True, True, 1, False))

    def test_a_torch_without_the_keys_fails_the_point_naming_the_key(self):
        config = inductor_defaults()
        del config.emulate_precision_casts
        with self.assertRaisesRegex(RuntimeError, "no config key emulate_precision_casts"):
            tp.compile_settings(config)


if __name__ == "__main__":
    unittest.main(verbosity=2)
