#!/usr/bin/env python3
"""The parts of tools/torch_peer.py that need no torch: the plan read from fusebench
(`--print-plan`: sizes, stop rule, chains, and the CSV columns, which must stay those of the C
schema), the statistics (the same as src/measure/stats.h), the variants' model (names, kernels,
bytes) and the CSV writer. torch is imported only inside main(), so these run everywhere
(test_torch_peer_run.py runs the variants with torch).

The plan tests run the built binary: $FB_FUSEBENCH, else build/fusebench of the source tree;
they skip, saying why, when there is none."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tools"))
import torch_peer as tp  # noqa: E402

FUSEBENCH = os.environ.get("FB_FUSEBENCH") or os.path.join(SRC, "build", "fusebench")
HAVE_FUSEBENCH = os.access(FUSEBENCH, os.X_OK)
NO_FUSEBENCH = "no fusebench binary at %s (build it, or set FB_FUSEBENCH)" % FUSEBENCH
CHAINS_INI = os.path.join(SRC, "configs", "chains-example.ini")


class Sizes(unittest.TestCase):
    def test_sizes_from_csv_reads_the_n_column_by_name(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("# device: x\nvariant,n,status\ncopy,1000,ok\nfused_add_relu,8,ok\ncopy,8,ok\n")
        try:
            self.assertEqual(tp.sizes_from_csv(f.name), [8, 1000])
        finally:
            os.unlink(f.name)


@unittest.skipUnless(HAVE_FUSEBENCH, NO_FUSEBENCH)
class Plan(unittest.TestCase):
    def plan(self, *extra):
        out = subprocess.run([FUSEBENCH, CHAINS_INI, "--print-plan"] + list(extra),
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        return json.loads(out.stdout)

    def test_the_peer_writes_the_c_schema_columns(self):
        """The drift test: every column the peer fills is in fusebench's schema, and the CSV it
        writes has exactly the schema's columns, in order."""
        columns = self.plan()["columns"]
        tp.check_columns(columns)  # raises on drift
        self.assertEqual(sorted(set(tp.PEER_COLUMNS) - set(columns)), [])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "o.csv")
            row = {c: "" for c in tp.PEER_COLUMNS}
            row.update(variant="torch_eager_add_relu", n=8)
            tp.write_csv_atomic(path, [], [row], columns)
            header = open(path).read().splitlines()[0]
        self.assertEqual(header.split(","), columns)

    def test_a_renamed_column_is_refused(self):
        columns = [c if c != "time_median_s" else "t_median" for c in self.plan()["columns"]]
        with self.assertRaisesRegex(tp.UsageError, "time_median_s"):
            tp.check_columns(columns)

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
        chains = tp.chain_variants(self.plan())
        self.assertEqual(list(chains), [
            "torch_eager_mul_bias_relu", "torch_compile_mul_bias_relu",
            "torch_eager_add_gelu", "torch_compile_add_gelu",
            "torch_eager_scale_sigmoid", "torch_compile_scale_sigmoid"])
        e, c = chains["torch_eager_mul_bias_relu"], chains["torch_compile_mul_bias_relu"]
        self.assertEqual((e.backend, e.launches, e.arrays, e.preallocated),
                         ("torch-eager", 3, 3 + 2 + 2, False))
        self.assertEqual((c.backend, c.launches, c.arrays, c.preallocated),
                         ("torch-compile", 1, 3, False))
        self.assertEqual([(op["op"], op["params"]) for op in e.ops],
                         [("mul", []), ("bias", [0.5]), ("relu", [])])
        self.assertEqual(tp.bytes_model(e, 1000), 7 * 4 * 1000)
        self.assertTrue(tp.chain_is_exact(e.ops))
        self.assertFalse(tp.chain_is_exact(chains["torch_eager_add_gelu"].ops))
        # Only the enabled ones.
        plan = self.plan("--variants", "fused_add_gelu,copy")
        self.assertEqual(list(tp.chain_variants(plan)), ["torch_compile_add_gelu"])

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


class Stats(unittest.TestCase):
    def test_percentiles_are_numpy_linear(self):
        xs = [1.0, 2.0, 3.0, 4.0]
        self.assertEqual(tp.percentile_sorted(xs, 50), 2.5)
        self.assertAlmostEqual(tp.percentile_sorted(xs, 10), 1.3)
        self.assertEqual(tp.percentile_sorted(xs, 0), 1.0)
        self.assertEqual(tp.percentile_sorted(xs, 100), 4.0)

    def test_noise_uses_the_order_statistic_ranks(self):
        # n = 100: j = floor(50 - 9.8) = 40, k = ceil(51 + 9.8) = 61 (1-based ranks).
        xs = [float(i) for i in range(1, 101)]
        self.assertAlmostEqual(tp.noise_sorted(xs), (61 - 40) / 2 / 50.5)

    def test_noise_edge_cases(self):
        self.assertEqual(tp.noise_sorted([2.0]), float("inf"))
        self.assertEqual(tp.noise_sorted([3.0, 3.0, 3.0]), 0.0)

    def test_stop_rule_order(self):
        m = dict(min_reps=5, max_reps=10, min_time=0.1, max_time=1.0, target_noise=0.01)
        self.assertTrue(tp.should_stop(m, 10, 0.0, 1.0))       # rep cap
        self.assertTrue(tp.should_stop(m, 1, 1.0, 1.0))        # time cap beats min_reps
        self.assertFalse(tp.should_stop(m, 4, 0.5, 0.0))       # too few reps
        self.assertFalse(tp.should_stop(m, 6, 0.05, 0.0))      # too little time
        self.assertTrue(tp.should_stop(m, 6, 0.2, 0.005))      # stable
        self.assertFalse(tp.should_stop(m, 6, 0.2, float("nan")))


class Variants(unittest.TestCase):
    ALLOCATING = ("torch_eager_add_relu", "torch_eager_threshold", "torch_compile_add_relu")
    PREALLOCATED = ("torch_eager_add_relu_out", "torch_compile_out")

    def test_the_allocating_rows_and_their_out_twins(self):
        self.assertEqual(sorted(tp.VARIANTS), sorted(self.ALLOCATING + self.PREALLOCATED))
        for name in self.ALLOCATING:
            self.assertFalse(tp.VARIANTS[name].preallocated, name)
        for name in self.PREALLOCATED:
            self.assertTrue(tp.VARIANTS[name].preallocated, name)

    def test_eager_is_two_kernels_moving_five_arrays(self):
        for name in ("torch_eager_add_relu", "torch_eager_threshold", "torch_eager_add_relu_out"):
            v = tp.VARIANTS[name]
            self.assertEqual(v.backend, "torch-eager", name)
            self.assertEqual(v.launches, 2, name)
            # a, b -> tmp; tmp -> c: 2 reads + 1 write, then 1 read + 1 write, 4 bytes each.
            self.assertEqual(tp.bytes_model(v, 1000), 5 * 4 * 1000, name)
            self.assertEqual(tp.bytes_model(v, 7, launches=2), 5 * 4 * 7, name)

    def test_compile_is_one_kernel_moving_three_arrays(self):
        for name in ("torch_compile_add_relu", "torch_compile_out"):
            v = tp.VARIANTS[name]
            self.assertEqual(v.backend, "torch-compile", name)
            self.assertEqual(v.launches, 1, name)
            self.assertEqual(tp.bytes_model(v, 1000), 3 * 4 * 1000, name)
            self.assertEqual(tp.bytes_model(v, 1000, launches=1), 3 * 4 * 1000, name)

    def test_a_compile_split_into_more_kernels_pays_for_the_intermediate(self):
        v = tp.VARIANTS["torch_compile_out"]
        # Two kernels: a, b -> tmp (3 arrays), tmp -> c (2 more): eager's 5.
        self.assertEqual(tp.arrays_moved(v, 2), 5)
        self.assertEqual(tp.bytes_model(v, 1000, launches=2), 5 * 4 * 1000)
        self.assertEqual(tp.arrays_moved(v, 3), 7)
        # Not counted ("" in the row) or a count of 0 on a failed point: the model's own.
        self.assertEqual(tp.arrays_moved(v, ""), 3)
        self.assertEqual(tp.arrays_moved(v, None), 3)
        # Eager's model is its two passes whatever was counted.
        self.assertEqual(tp.arrays_moved(tp.VARIANTS["torch_eager_add_relu_out"], 3), 5)

    def test_kinds_are_distinct(self):
        kinds = [v.kind for v in tp.VARIANTS.values()]
        self.assertEqual(len(kinds), len(set(kinds)))

    def test_variants_option_takes_the_new_names_in_order(self):
        args = tp.parse_args(["--variants", "torch_compile_out, torch_eager_add_relu_out"])
        self.assertEqual(args.variant_list, ["torch_compile_out", "torch_eager_add_relu_out"])
        self.assertEqual(tp.select_variants(args.variant_list, {}),
                         ["torch_compile_out", "torch_eager_add_relu_out"])
        chains = {"torch_eager_x": None}
        self.assertEqual(tp.select_variants(tp.parse_args([]).variant_list, chains),
                         list(tp.VARIANTS) + ["torch_eager_x"])
        with self.assertRaisesRegex(tp.UsageError, 'unknown variant "nope"'):
            tp.select_variants(["nope"], chains)


class ConfigAndOutput(unittest.TestCase):
    @unittest.skipUnless(HAVE_FUSEBENCH, NO_FUSEBENCH)
    def test_smoke_config_stop_rule_comes_from_fusebench(self):
        plan = tp.read_plan(FUSEBENCH, os.path.join(SRC, "configs", "smoke.ini"))
        self.assertEqual(plan["measure"]["max_reps"], 20)
        self.assertAlmostEqual(plan["measure"]["max_time"], 0.02)

    def test_csv_has_the_schema_header_and_empty_cells_for_nan(self):
        columns = list(tp.PEER_COLUMNS) + ["added_in_c"]  # a column the peer does not fill
        row = {c: "" for c in tp.PEER_COLUMNS}
        row.update(backend="torch-eager", variant="torch_eager_add_relu", n=8,
                   time_median_s=float("nan"), reason="a, b")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "o.csv")
            tp.write_csv_atomic(path, [("device", "x")], [row], columns)
            lines = open(path).read().splitlines()
            self.assertEqual(os.listdir(d), ["o.csv"])  # the .tmp was renamed away
        self.assertEqual(lines[0], "# device: x")
        self.assertEqual(lines[1], ",".join(columns))
        cells = lines[2].split(",")
        self.assertEqual(cells[columns.index("time_median_s")], "")
        self.assertTrue(lines[2].endswith('"a, b",,,,'))  # then role, pair, speedup, added_in_c

    def test_each_eager_row_gets_its_speedup_over_its_pair(self):
        def row(name, t, status="ok"):
            r = {c: "" for c in tp.PEER_COLUMNS}
            r.update(variant=name, n=8, time_median_s=t, status=status,
                     role=tp.PAIRS[name][0], pair=tp.PAIRS[name][1])
            return r
        rows = [row("torch_eager_add_relu", 6e-6), row("torch_compile_add_relu", 2e-6),
                row("torch_eager_threshold", 5e-6)]
        tp.derive_speedups(rows)
        self.assertAlmostEqual(rows[0]["speedup"], 3.0)
        self.assertAlmostEqual(rows[2]["speedup"], 2.5)
        self.assertEqual(rows[1]["speedup"], "")  # the compiled one has no pair
        rows[1]["status"] = "failed"
        tp.derive_speedups(rows)
        self.assertEqual(rows[0]["speedup"], "")

    def test_a_chain_eager_row_is_paired_with_its_compiled_row(self):
        ops = ({"op": "add", "arity": 2, "ulp_bound": 0, "params": []},)
        chains = {"torch_eager_c": tp.Variant("torch-eager", "chain_eager", 1, 3, False, ops),
                  "torch_compile_c": tp.Variant("torch-compile", "chain_compile", 1, 3, False,
                                                ops)}
        peer = tp.Peer(None, type("D", (), {"type": "cpu"})(), {}, chains=chains)
        self.assertEqual(peer.pair_of("torch_eager_c"), ("eager", "torch_compile_c"))
        self.assertEqual(peer.pair_of("torch_compile_c"), ("fused", ""))
        self.assertEqual(peer.pair_of("torch_eager_add_relu"), tp.PAIRS["torch_eager_add_relu"])

    def test_row_entries_outside_the_schema_are_not_written(self):
        # measure() keeps the bytes allocated per call in the row for the log only.
        row = {c: "" for c in tp.PEER_COLUMNS}
        row.update(variant="torch_compile_out", n=8, allocated=64)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "o.csv")
            tp.write_csv_atomic(path, [], [row], tp.PEER_COLUMNS)
            lines = open(path).read().splitlines()
        self.assertEqual(lines[0], ",".join(tp.PEER_COLUMNS))
        self.assertEqual(len(lines[1].split(",")), len(tp.PEER_COLUMNS))
        self.assertNotIn("64", lines[1].split(","))

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


if __name__ == "__main__":
    unittest.main(verbosity=2)
