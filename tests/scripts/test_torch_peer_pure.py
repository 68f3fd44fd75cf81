#!/usr/bin/env python3
"""The parts of tools/torch_peer.py that need no torch: the size syntax (the same as
src/config/sizes.c), the statistics (the same as src/measure/stats.h), the config reader, the
variants' model (names, kernels, bytes) and the CSV writer. torch is imported only inside
main(), so these run everywhere (test_torch_peer_run.py runs the variants with torch)."""
import os
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tools"))
import torch_peer as tp  # noqa: E402


class Sizes(unittest.TestCase):
    def test_range_holds_ends_and_every_power_of_ten(self):
        s = tp.parse_sizes("8..100M", 6)
        self.assertEqual(s[0], 8)
        self.assertEqual(s[-1], 100000000)
        for p in range(1, 9):
            self.assertIn(10 ** p, s)

    def test_range_is_the_decade_anchored_grid(self):
        self.assertEqual(tp.parse_sizes("8..100K", 2),
                         [8, 10, 32, 100, 316, 1000, 3162, 10000, 31623, 100000])

    def test_suffixes_are_si_and_binary(self):
        self.assertEqual(tp.parse_sizes("1K,1Mi,2G,3e2,1k,2Ki", 1),
                         [300, 1000, 2048, 1048576, 2000000000])

    def test_lists_are_sorted_and_unique(self):
        self.assertEqual(tp.parse_sizes("1M, 8, 1000000, 8", 1), [8, 1000000])

    def test_bad_tokens_are_usage_errors(self):
        for bad in ("", "0", "1.5", "1m", "-3", "1X", "10..5", "1,,2", "abc"):
            with self.assertRaises(tp.UsageError, msg=bad):
                tp.parse_sizes(bad, 4)

    def test_sizes_from_csv_reads_the_n_column_by_name(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("# device: x\nvariant,n,status\ncopy,1000,ok\nfused_add_relu,8,ok\ncopy,8,ok\n")
        try:
            self.assertEqual(tp.sizes_from_csv(f.name), [8, 1000])
        finally:
            os.unlink(f.name)


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
        self.assertEqual(tp.parse_args([]).variant_list, list(tp.VARIANTS))


class ConfigAndOutput(unittest.TestCase):
    def test_smoke_config_is_read(self):
        cfg = tp.load_config(os.path.join(SRC, "configs", "smoke.ini"))
        self.assertEqual(cfg["points_per_decade"], 2)
        self.assertEqual(cfg["max_reps"], 20)
        self.assertAlmostEqual(cfg["max_time"], 0.02)
        self.assertEqual(len(cfg["hash"]), 16)

    def test_csv_has_the_schema_header_and_empty_cells_for_nan(self):
        row = {c: "" for c in tp.CSV_COLUMNS}
        row.update(backend="torch-eager", variant="torch_eager_add_relu", n=8,
                   time_median_s=float("nan"), reason="a, b")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "o.csv")
            tp.write_csv_atomic(path, [("device", "x")], [row])
            lines = open(path).read().splitlines()
            self.assertEqual(os.listdir(d), ["o.csv"])  # the .tmp was renamed away
        self.assertEqual(lines[0], "# device: x")
        self.assertEqual(lines[1], ",".join(tp.CSV_COLUMNS))
        cells = lines[2].split(",")
        self.assertEqual(cells[tp.CSV_COLUMNS.index("time_median_s")], "")
        self.assertTrue(lines[2].endswith('"a, b",,,,'))  # then role, pair, speedup, preempted

    def test_each_eager_row_gets_its_speedup_over_its_pair(self):
        def row(name, t, status="ok"):
            r = {c: "" for c in tp.CSV_COLUMNS}
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

    def test_row_entries_outside_the_schema_are_not_written(self):
        # measure() keeps the bytes allocated per call in the row for the log only.
        row = {c: "" for c in tp.CSV_COLUMNS}
        row.update(variant="torch_compile_out", n=8, allocated=64)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "o.csv")
            tp.write_csv_atomic(path, [], [row])
            lines = open(path).read().splitlines()
        self.assertEqual(lines[0], ",".join(tp.CSV_COLUMNS))
        self.assertEqual(len(lines[1].split(",")), len(tp.CSV_COLUMNS))
        self.assertNotIn("64", lines[1].split(","))

    def test_usage_errors_exit_2(self):
        with self.assertRaises(SystemExit) as cm:
            tp.parse_args(["--variants", "nope"])
        self.assertEqual(cm.exception.code, 2)
        self.assertEqual(tp.main(["--sizes", "0", "--config",
                                  os.path.join(SRC, "configs", "smoke.ini")]), 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
