#!/usr/bin/env python3
"""scripts/gpu_check_summary.py on made-up CSVs: the verdict, the speedups and bandwidths it
shows (derived by fusebench: `fusebench --derive`, $FB_FUSEBENCH), and the ncu log parsing
(ncu's --csv layout, units in bytes, thousands separators). Skips without a fusebench."""
import os
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
SCRIPT = os.path.join(SRC, "scripts", "gpu_check_summary.py")
FUSEBENCH = os.environ.get("FB_FUSEBENCH") or os.path.join(SRC, "build", "fusebench")
if not os.access(FUSEBENCH, os.X_OK):
    print("SKIP: no fusebench binary at %s (build it, or set FB_FUSEBENCH)" % FUSEBENCH)
    sys.exit(77)
COLS = ("backend,device,variant,dtype,n,launches,bytes_model,reps,batch,time_median_s,"
        "time_min_s,time_max_s,time_p10_s,time_p90_s,noise,bandwidth_gbps,copy_fraction,"
        "kernel_time_s,launch_overhead_s,dram_read_bytes,dram_write_bytes,l2_bytes,"
        "dram_bytes_per_element,cache,verified,status,reason,role,pair,speedup")


def row(variant, n, launches, moved, t, status="ok", verified=1, dram=("", ""), role="",
        pair="", speedup="", copy_fraction=""):
    """A row as fusebench writes it; role, pair, speedup and copy_fraction are given (the
    script only reads them)."""
    cells = dict.fromkeys(COLS.split(","), "")
    cells.update(role=role, pair=pair, speedup=speedup, copy_fraction=copy_fraction)
    bm = moved * 4 * n
    cells.update(backend="cuda", device="GPU X", variant=variant, dtype="fp32", n=n,
                 launches=launches, bytes_model=bm, time_median_s=t,
                 bandwidth_gbps=bm / t / 1e9, cache="warm", verified=verified, status=status,
                 dram_read_bytes=dram[0], dram_write_bytes=dram[1])
    return ",".join(str(cells[c]) for c in COLS.split(","))


NCU_LOG = '''==PROF== Connected to process 4242 (/x/build/fusebench)
==PROF== Profiling "fb_binary_vector_kernel" - 0: 0%....50%....100% - 1 pass
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4242","fusebench","127.0.0.1","void fb_binary_vector_kernel<fb_add>(const float *, const float *, float *, long, fb_add)","1","7","(256, 1, 1)","(977, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","byte","8,000,000"
"0","4242","fusebench","127.0.0.1","void fb_binary_vector_kernel<fb_add>(const float *, const float *, float *, long, fb_add)","1","7","(256, 1, 1)","(977, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes_write.sum","byte","4,000,000"
"1","4242","fusebench","127.0.0.1","void fb_unary_vector_kernel<fb_relu>(const float *, float *, long, fb_relu)","1","7","(256, 1, 1)","(977, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","Mbyte","4"
"1","4242","fusebench","127.0.0.1","void fb_unary_vector_kernel<fb_relu>(const float *, float *, long, fb_relu)","1","7","(256, 1, 1)","(977, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes_write.sum","byte","4,000,000"
==PROF== Disconnected from process 4242
'''


class Summary(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_summary(self, rows, steps="build|ok|fine|31\nsweep|ok|fine|77\n", ncu=None,
                    cold=None, inventory=None, extra=()):
        sweep = self.write("sweep.csv", "# device: GPU X\n# backend: cuda\n"
                           "# peak_bandwidth_gbps: 4800\n# counters: activity on; counters on\n"
                           + COLS + "\n" + "\n".join(rows) + "\n")
        args = [sys.executable, SCRIPT, "--mode", "gpu", "--out", os.path.join(self.d, "s.txt"),
                "--steps", self.write("steps.txt", steps),
                "--tests", self.write("tests.txt", "gpu ok=3 fail=0 skipped=0 timeout=0 "
                                      "xfail=0 upass=0 cmocka_skipped=0 none=0 rc=0\n"),
                "--sweep", sweep, "--elapsed", "42", "--fusebench", FUSEBENCH] + list(extra)
        if ncu:
            args += ["--ncu", ncu]
        if cold is not None:
            args += ["--cold", self.write("cold.csv", "# device: GPU X\n# cache_mode: cold\n"
                                          "# counters: activity on; counters on\n" + COLS
                                          + "\n" + "\n".join(cold) + "\n")]
        if inventory is not None:
            args += ["--inventory", self.write("node.txt", inventory)]
        p = subprocess.run(args, stdout=subprocess.PIPE, text=True)
        rc, self.verdict_line = p.returncode, p.stdout.strip()  # gpu-check's last line
        with open(os.path.join(self.d, "s.txt")) as f:
            return rc, f.read()

    def good_rows(self):
        fused = dict(role="fused")
        eager = dict(role="eager", pair="fused_add_relu")
        return [row("copy", 100000000, 1, 2, 200e-6, role="copy_ceiling", copy_fraction=1),
                row("fused_add_relu", 100000000, 1, 3, 300e-6, copy_fraction=1.5, **fused),
                row("eager_add_relu", 100000000, 2, 5, 500e-6, speedup=500 / 300, **eager),
                row("fused_add_relu", 8, 1, 3, 2e-6, **fused),
                row("eager_add_relu", 8, 2, 5, 4e-6, speedup=2.0, **eager),
                row("fused_add_relu", 1000000, 1, 3, 10e-6, dram=(8000000, 4000000), **fused),
                row("eager_add_relu", 1000000, 2, 5, 15e-6, dram=(12000000, 8000000),
                    speedup=1.5, **eager)]

    def test_all_ok_passes_with_speedups_and_bandwidth(self):
        rc, text = self.run_summary(self.good_rows())
        self.assertEqual(rc, 0)
        self.assertTrue(text.startswith("fusebench gpu-check: PASS\n"))
        self.assertRegex(text, r"\n  8 .* 2\.00x")          # 4 us / 2 us
        self.assertRegex(text, r"\n  1M .* 1\.50x")         # 15 us / 10 us
        # fused at 100M: 3 * 4 * 1e8 B / 300 us = 4000 GB/s = 83.3% of 4800
        self.assertRegex(text, r"fused_add_relu +4000\.0 GB/s +83\.3% of peak")
        self.assertRegex(text, r"fused_add_relu +4000\.0 GB/s +83\.3% of peak +150\.0% of copy")
        self.assertRegex(text, r"eager_add_relu +2")
        self.assertIn("GPU X", text)

    def test_noisy_rows_keep_their_launches_and_pairs(self):
        # A loaded machine: every row disturbed. fusebench writes no speedup for them, but
        # the launches are counted and the pair is still listed, marked noisy.
        rows = [row("fused_add_relu", 8, 1, 3, 2e-6, role="fused", status="noisy"),
                row("eager_add_relu", 8, 2, 5, 4e-6, role="eager", pair="fused_add_relu",
                    status="noisy")]
        rc, text = self.run_summary(rows)
        self.assertEqual(rc, 0, text)
        self.assertRegex(text, r"\n  fused_add_relu +1\n")
        self.assertRegex(text, r"\n  eager_add_relu +2\n")
        self.assertRegex(text, r"\n  8 +eager_add_relu +fused_add_relu +4\.00 us +.* n/a  "
                               r"\(noisy: disturbed by other programs\)")

    def test_the_in_process_peer_is_listed_with_ours_ratio(self):
        cols = COLS + ",mirror,ours_ratio,ours_ratio_lo,ours_ratio_hi"
        ours = row("eager_add_relu", 1000000, 2, 5, 15e-6, role="eager", pair="fused_add_relu")
        torch = row("torch_eager_add_relu", 1000000, 2, 5, 20e-6)
        csv_text = ("# device: GPU X\n# backend: cuda\n# torch: 2.11.0\n"
                    "# peer_empty_sample_s: 1.2e-06\n" + cols + "\n" + ours + ",,,,\n"
                    + torch + ",eager_add_relu,0.75,0.7,0.8\n")
        rc, text = self.run_summary(self.good_rows(),
                                    extra=["--inprocess", self.write("inproc.csv", csv_text)])
        self.assertEqual(rc, 0, text)
        self.assertIn("PyTorch in-process (tools/torch_inprocess.py; torch 2.11.0;", text)
        self.assertIn("per-sample ctypes cost: 1.2e-06 s", text)
        self.assertRegex(text, r"\n  1M +torch_eager_add_relu +eager_add_relu +20\.00 us +0\.750 "
                               r"+\[0\.700, 0\.800\]\n")

    def test_what_only_a_gpu_confirms_is_printed(self):
        # the steps' caps (the range profiler's replays are in the sweep's seconds), CUPTI's
        # cost to small sizes (a sweep with CUPTI off), and the 90% targets at 100M
        nocupti = self.write("nocupti.csv", "# device: GPU X\n# backend: cuda\n"
                             "# counters: off ([cupti] activity and counters are false)\n" + COLS
                             + "\n" + row("fused_add_relu", 8, 1, 3, 1.6e-6, role="fused") + "\n")
        steps = "sweep|ok|x|250|240\nncu|ok|y|12|60\n"
        rc, text = self.run_summary(self.good_rows(), steps=steps, extra=["--nocupti", nocupti])
        self.assertEqual(rc, 0, text)
        self.assertRegex(text, r"\n  sweep +ok +250 s/240   x  PAST ITS CAP\n")
        self.assertRegex(text, r"\n  ncu +ok +12 s/60    y\n")
        self.assertRegex(text, r"\n  8 +fused_add_relu +2\.00 us +1\.60 us +1\.250\n")
        self.assertIn("\n  fused_add_relu at 150.0% of our copy (target: 90%: met)\n", text)

    def test_our_copy_is_held_to_90_percent_of_the_platforms(self):
        # the platform's copy (role platform_reference: memcpy) against our copy kernel at
        # 100M, from the copy_fraction fusebench derives for it: 4000 GB/s against 3200
        # (ours at 125%: met), then against 5000 (ours at 80%: missed, a figure, no verdict)
        for t, share, target in ((250e-6, "125.0", "met"), (160e-6, "80.0", "MISSED")):
            rows = self.good_rows() + [row("memcpy", 100000000, 1, 2, t,
                                           role="platform_reference")]
            rc, text = self.run_summary(rows)
            self.assertEqual(rc, 0, text)
            self.assertIn("\n  our copy kernel at %s%% of the platform's copy (target: 90%%: %s)\n"
                          % (share, target), text)

    def test_the_torch_peer_is_counted_paired_and_held_to_the_peak(self):
        torch = self.write("torch.csv", "# device: GPU X\n# backend: torch\n# torch: 2.11.0\n"
                           + COLS + "\n" + "\n".join([
                               row("torch_eager", 100000000, 2, 5, 1000e-6, role="eager",
                                   pair="torch_compile", speedup=2.0),
                               row("torch_compile", 100000000, 1, 3, 500e-6, role="fused"),
                               row("torch_eager", 8, 2, 5, 9e-6, status="skipped")]) + "\n")
        rc, text = self.run_summary(self.good_rows(), extra=["--torch", torch])
        self.assertEqual(rc, 0, text)
        self.assertIn("\ntorch: 2.11.0 on GPU X\n", text)
        self.assertIn("\ntorch: 3 points: 2 ok, 0 failed, 1 skipped\n", text)
        self.assertRegex(text, r"\n  torch_eager +2\n  torch_compile +1\n")
        self.assertRegex(text, r"\n  100M +torch: torch_eager +torch_compile +1\.000 ms "
                               r"+500\.00 us +2\.00x\n")
        # 3 * 4 * 1e8 B / 500 us = 2400 GB/s, half of the sweep's 4800 peak; no copy fraction
        self.assertRegex(text, r"\n  torch_compile +2400\.0 GB/s +50\.0% of peak\n")

    def test_the_verdict_line_says_passed_failed_or_degraded(self):
        self.run_summary(self.good_rows())
        self.assertRegex(self.verdict_line, r"^gpu-check: passed in 42 s \(gpu\); results in /")
        self.run_summary(self.good_rows(), steps="build|FAIL|meson setup exited 1|3\n",
                         extra=["--log", "/o/gpu-check.log"])
        self.assertRegex(self.verdict_line, r"^gpu-check: FAILED after 42 s \(gpu\): build: meson "
                         r"setup exited 1; see /.*/s\.txt and /o/gpu-check\.log$")
        self.run_summary(self.good_rows(), steps="sweep|ok|x|1\ncounters|degraded|hidden|1\n")
        self.assertRegex(self.verdict_line, r"^gpu-check: DEGRADED \(a pass\) in 42 s \(gpu\): "
                         r"counters refused by this machine")

    def test_each_chain_is_listed_against_its_own_pair_with_the_speedup_as_written(self):
        rows = self.good_rows() + [
            row("eager_mul_relu", 8, 2, 5, 9e-6, role="eager", pair="fused_mul_relu",
                speedup=3.0),
            row("fused_mul_relu", 8, 1, 3, 3e-6, role="fused"),
            # a pair that failed: fusebench left the speedup empty
            row("eager_mul_relu", 1000000, 2, 5, 9e-6, role="eager", pair="fused_mul_relu"),
            row("fused_mul_relu", 1000000, 1, 3, 3e-6, role="fused", status="skipped")]
        rc, text = self.run_summary(rows)
        self.assertEqual(rc, 0, text)
        self.assertRegex(text, r"\n  8 +eager_mul_relu +fused_mul_relu +9\.00 us +3\.00 us +3\.00x")
        self.assertRegex(text, r"\n  8 +eager_add_relu +fused_add_relu +4\.00 us +2\.00 us +2\.00x")
        self.assertRegex(text, r"\n  1M +eager_mul_relu +fused_mul_relu +9\.00 us +n/a +n/a")

    def test_a_failed_point_fails_loudly(self):
        rows = self.good_rows() + [row("copy", 8, 1, 2, 1e-6, status="failed", verified=0)]
        rc, text = self.run_summary(rows)
        self.assertEqual(rc, 1)
        self.assertTrue(text.startswith("fusebench gpu-check: FAIL\n"))
        self.assertIn("problem: sweep: copy n=8 failed", text)

    def test_an_unverified_ok_point_fails(self):
        rows = self.good_rows() + [row("copy", 8, 1, 2, 1e-6, verified=0)]
        rc, text = self.run_summary(rows)
        self.assertEqual(rc, 1)
        self.assertIn("ok but not verified", text)

    def test_a_results_file_fusebench_refuses_is_a_problem(self):
        rows = self.good_rows() + ["cpu,x,copy,fp32,8,1"]  # a row with fields missing
        rc, text = self.run_summary(rows)
        self.assertEqual(rc, 1)
        self.assertIn("problem: cannot read", text)
        self.assertIn("fields, but the header has", text)

    def test_an_unreadable_side_file_fails_the_summary_too(self):
        # the CUPTI-off sweep is read with the others, before the verdict: summary.txt and
        # gpu-check's last line agree (both once said PASS and FAILED)
        bad = self.write("nocupti.csv", "# device: GPU X\n" + COLS + "\ncpu,x,copy,fp32,8,1\n")
        rc, text = self.run_summary(self.good_rows(), extra=["--nocupti", bad])
        self.assertEqual(rc, 1)
        self.assertTrue(text.startswith("fusebench gpu-check: FAIL\n"), text)
        self.assertIn("problem: cannot read %s" % bad, text)
        self.assertRegex(self.verdict_line, r"^gpu-check: FAILED after 42 s \(gpu\): cannot read ")

    def test_speedups_and_copy_fractions_missing_from_the_file_are_derived(self):
        rows = [row("copy", 100000000, 1, 2, 200e-6, role="copy_ceiling"),
                row("fused_add_relu", 100000000, 1, 3, 300e-6, role="fused"),
                row("eager_add_relu", 100000000, 2, 5, 600e-6, role="eager",
                    pair="fused_add_relu")]
        rc, text = self.run_summary(rows)
        self.assertEqual(rc, 0, text)
        self.assertRegex(text, r"\n  100M +eager_add_relu +fused_add_relu .* 2\.00x")
        self.assertRegex(text, r"fused_add_relu +4000\.0 GB/s +83\.3% of peak +100\.0% of copy")

    def test_a_failed_step_fails(self):
        rc, text = self.run_summary(self.good_rows(), steps="tests-gpu|FAIL|2 skipped\n")
        self.assertEqual(rc, 1)
        self.assertIn("problem: tests-gpu: 2 skipped", text)

    def test_ncu_logs_are_collected_and_summed_per_call(self):
        log = self.write("ncu-eager.csv", NCU_LOG)
        out = os.path.join(self.d, "ncu.csv")
        rc = subprocess.run([sys.executable, SCRIPT, "--collect-ncu", out,
                             "eager_add_relu=1000000=" + log]).returncode
        self.assertEqual(rc, 0)
        with open(out) as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 4)  # comment, header, two launches
        self.assertIn("eager_add_relu,1000000,", lines[2])
        cold = [row("eager_add_relu", 1000000, 2, 5, 16e-6, dram=(12000000, 8100000),
                    role="eager", pair="fused_add_relu"),
                row("fused_add_relu", 1000000, 1, 3, 11e-6, dram=(8000000, 4000000),
                    role="fused")]
        rc, text = self.run_summary(self.good_rows(), ncu=out, cold=cold)
        # ncu: add 8M + 4M, relu 4 Mbyte + 4M = 20,000,000 bytes per call, the 5N model;
        # CUPTI cold 20.1M from the cold sweep; CUPTI warm 20M from the main sweep.
        self.assertRegex(text, r"eager_add_relu +1M +20,000,000 +20,100,000 +20,000,000 +1\.00 +"
                               r"1\.00 +20,000,000")
        self.assertRegex(text, r"fused_add_relu +1M +12,000,000 +12,000,000 +n/a +1\.00 +n/a")
        self.assertIn("cache state: cold for CUPTI and ncu alike", text)

    def test_cupti_and_ncu_sizes_come_from_the_cold_sweep(self):
        cold = [row("eager_add_relu", 100000, 2, 5, 16e-6, dram=(1, 2), role="eager")]
        rc, text = self.run_summary(self.good_rows(), cold=cold)
        self.assertEqual(rc, 0)
        self.assertRegex(text, r"eager_add_relu +100K +2,000,000 +3 +n/a")
        self.assertIn("(no ncu numbers", text)

    def test_a_degraded_step_is_a_pass_that_says_why(self):
        steps = ("build|ok|fine|30\nncu|degraded|ncu cannot read the counters here: "
                 "Failed to initialize the profiler: LibraryNotLoaded|12\n"
                 "sanitizer|degraded|compute-sanitizer refused this device: Device not supported|3\n")
        rc, text = self.run_summary(self.good_rows(), steps=steps)
        self.assertEqual(rc, 0)
        self.assertTrue(text.startswith("fusebench gpu-check: DEGRADED (refused: ncu, sanitizer)\n"))
        self.assertIn("\n  degraded: ncu: ncu cannot read the counters here: Failed to initialize "
                      "the profiler: LibraryNotLoaded\n", text)
        self.assertIn("\n  degraded: sanitizer: compute-sanitizer refused this device", text)
        self.assertNotIn("problem:", text)
        self.assertNotIn("fix:", text)  # LibraryNotLoaded: a sandbox, no setting to change

    def test_counters_kept_for_administrators_print_the_fix(self):
        steps = ("tests-gpu|degraded|1 passed; the counters' parts of test_cupti_gpu skipped, "
                 "counters refused: CUPTI counters unavailable: cuptiRangeProfilerEnable(&en): "
                 "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)|30\n")
        rc, text = self.run_summary(self.good_rows(), steps=steps)
        self.assertEqual(rc, 0)
        self.assertTrue(text.startswith("fusebench gpu-check: DEGRADED (refused: tests-gpu)\n"))
        self.assertIn("\n  fix: the GPU's performance counters are reserved to administrators", text)
        self.assertIn("options nvidia NVreg_RestrictProfilingToAdminUsers=0", text)
        self.assertIn("CAP_SYS_ADMIN", text)
        self.assertRegex(self.verdict_line, r"says why and how to fix it\)")

    def test_a_failure_beats_a_degraded_step(self):
        steps = "ncu|degraded|refused|12\nsweep|FAIL|fusebench exited 1|40\n"
        rc, text = self.run_summary(self.good_rows(), steps=steps)
        self.assertEqual(rc, 1)
        self.assertTrue(text.startswith("fusebench gpu-check: FAIL\n"))

    def test_steps_show_their_seconds_and_old_lines_still_read(self):
        rc, text = self.run_summary(self.good_rows(), steps="build|ok|a|b detail|31\nsweep|ok|x\n")
        self.assertEqual(rc, 0)
        self.assertRegex(text, r"\n  build +ok +31 s  a\|b detail\n")
        self.assertRegex(text, r"\n  sweep +ok +\? s  x\n")

    def test_the_node_inventory_is_repeated(self):
        inv = "gpu: NVIDIA H200, 9.0, 143771 MiB, 580.82\nncu: not found\nmeson inih: bundle (/r/.gpu-bundle)\n"
        rc, text = self.run_summary(self.good_rows(), inventory=inv)
        self.assertRegex(text, r"\n  gpu +NVIDIA H200, 9\.0, 143771 MiB, 580\.82\n")
        self.assertRegex(text, r"\n  meson inih +bundle \(/r/\.gpu-bundle\)\n")
        self.assertIn("counters (CUPTI, in the sweep): activity on; counters on", text)

    def test_over_the_goal_is_flagged_and_quick_is_named(self):
        rc, text = self.run_summary(self.good_rows(), extra=["--goal", "30", "--quick", "1"])
        self.assertEqual(rc, 0)
        self.assertIn("elapsed: 42 s (goal: under 30 s on an H200)  OVER THE GOAL", text)
        self.assertIn("\nmode: gpu (quick)\n", text)


class CountersVerdict(unittest.TestCase):
    """--verdict counters on what the sweep's CSV records per row (the DRAM columns, the
    metadata counters_refused that src/app/sweep.c writes), not only its "# counters:" line,
    which is written at open and says "on" whatever happens later."""
    META = "# device: GPU X\n# backend: cuda\n# counters: on (cache warm); activity on\n"

    def verdict(self, rows, meta="", log=""):
        with tempfile.TemporaryDirectory() as d:
            csv_path = os.path.join(d, "sweep.csv")
            with open(csv_path, "w") as f:
                f.write(self.META + meta + COLS + "\n" + "\n".join(rows) + "\n")
            log_path = os.path.join(d, "gpu-check.log")
            with open(log_path, "w") as f:
                f.write(log)
            return subprocess.run([sys.executable, SCRIPT, "--verdict", "counters", "gpu",
                                   csv_path, FUSEBENCH, log_path], stdout=subprocess.PIPE,
                                  text=True, check=True).stdout.strip()

    def rows(self, dram_from=0):
        """A memcpy row (no kernel: no DRAM bytes, rightly) and four rows with kernels, the
        first dram_from of them with DRAM bytes (None: all)."""
        out = [row("copy_memcpy", 1000, 0, 2, 1e-6, role="platform_reference")]  # no kernel
        for i, n in enumerate((1000, 1000000)):
            for v, moved, launches in (("fused_add_relu", 3, 1), ("eager_add_relu", 5, 2)):
                has = dram_from is None or 2 * i + (v == "eager_add_relu") < dram_from
                out.append(row(v, n, launches, moved, 1e-5,
                               dram=(8 * n, 4 * n) if has else ("", "")))
        return out

    def test_every_row_counted_is_ok(self):
        self.assertRegex(self.verdict(self.rows(dram_from=None)),
                         r"^ok\|on \(cache warm\); activity on; DRAM bytes in all 4 measured rows$")

    def test_a_give_up_mid_sweep_fails_with_the_sweeps_warning(self):
        log = ("fusebench ...\nwarning: CUPTI counters failed, its columns stay empty from here "
               "on: cuptiRangeProfilerPushRange: CUPTI_ERROR_UNKNOWN (999)\n")
        self.assertRegex(self.verdict(self.rows(dram_from=2), log=log),
                         r"^FAIL\|counters on at open, but 2 of 4 measured rows have no DRAM "
                         r"bytes \(eager_add_relu, fused_add_relu\), the first fused_add_relu "
                         r"n=1000000: warning: CUPTI counters failed, its columns stay empty "
                         r"from here on: cuptiRangeProfilerPushRange")

    def test_a_variant_refused_is_degraded_naming_it(self):
        rows = self.rows(dram_from=None)
        rows[2] = row("eager_add_relu", 1000, 2, 5, 1e-5)   # no DRAM bytes
        rows[4] = row("eager_add_relu", 1000000, 2, 5, 1e-5)
        meta = ("# counters_refused: eager_add_relu: cuptiRangeProfilerEnable: "
                "CUPTI_ERROR_NOT_SUPPORTED (27)\n")
        self.assertRegex(self.verdict(rows, meta=meta),
                         r"^degraded\|CUPTI counters refused some variants: 2 of 4 measured "
                         r"rows have no DRAM bytes \(eager_add_relu\).*refused: eager_add_relu: ")


if __name__ == "__main__":
    unittest.main(verbosity=2)
