#!/usr/bin/env python3
"""libfbpeer.so through tools/fbpeer.py (ctypes), as tools/torch_inprocess.py loads it, with a
peer written in plain Python over the array module's buffers (no torch): the library's random
inputs, a poisoned output, the peer's result checked against fusebench's reference (a wrong
element, an unwritten output: failed, never timed), ours and the peer timed in the same rounds
under the config's stop rule, and the results file with ours_ratio derived by fusebench."""

import array
import csv
import ctypes
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import fbpeer  # noqa: E402

LIB = os.environ.get("FB_PEER_LIB", "")
FUSEBENCH = os.environ.get("FB_FUSEBENCH", "")

CONFIG = """[sweep]
sizes = 1, 7, 64
variants = eager_add_relu, fused_add_relu
[backend]
backend = cpu
cpu_threads = 1
[measure]
warmup = 1
min_reps = 8
max_reps = 30
min_time = 0
max_time = 0.1
target_noise = 0.5
"""


class PyPeer:
    """relu(a + b) into a preallocated array('f'), in Python; counts its calls."""

    def __init__(self, session, n, wrong_at=None):
        self.n = n
        self.a = (ctypes.c_float * n).from_address(session.input_address(0))
        self.b = (ctypes.c_float * n).from_address(session.input_address(1))
        self.out = array.array("f", [float("nan")] * n)  # poisoned
        self.wrong_at = wrong_at
        self.calls = 0

    def call(self):
        a, b, out = self.a, self.b, self.out
        for i in range(self.n):
            s = a[i] + b[i]
            out[i] = 0.0 if s <= 0 else s
        if self.wrong_at is not None:
            out[self.wrong_at] = out[self.wrong_at] + 1.0

    def calls_fn(self, count):
        for _ in range(count):
            self.call()
        self.calls += count

    def address(self):
        return self.out.buffer_info()[0]


@unittest.skipUnless(LIB, "FB_PEER_LIB unset: run through meson test (tests/peer/meson.build)")
class PeerThroughCtypes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_peer_ctypes-")
        self.config = os.path.join(self.tmp.name, "peer.ini")
        with open(self.config, "w") as f:
            f.write(CONFIG)
        self.lib = fbpeer.load(LIB)

    def tearDown(self):
        self.tmp.cleanup()

    def session(self, *settings):
        return fbpeer.Session(self.lib, self.config, settings)

    def test_a_bad_config_is_refused_with_the_library_message(self):
        with self.assertRaises(fbpeer.PeerError) as e:
            self.session("sizes")
        self.assertEqual(e.exception.code, fbpeer.ERR_USAGE)
        self.assertIn("key=value", str(e.exception))

    def test_the_config_gives_sizes_backend_and_threads(self):
        with self.session() as s:
            self.assertEqual(s.sizes(), [1, 7, 64])
            self.assertEqual(s.backend, "cpu")
            self.assertEqual(s.cpu_threads(), 1)
            self.assertIsNone(s.stream())

    def test_inputs_are_random_and_differ_between_a_and_b(self):
        with self.session() as s:
            s.size_begin(64)
            a = list((ctypes.c_float * 64).from_address(s.input_address(0)))
            b = list((ctypes.c_float * 64).from_address(s.input_address(1)))
            self.assertTrue(all(-1.0 <= x < 1.0 for x in a + b))
            self.assertGreater(len(set(a)), 60)
            self.assertNotEqual(a, b)
            self.assertTrue(any(x + y < 0 for x, y in zip(a, b)))  # relu has work both sides
            s.size_end()

    def test_ours_and_the_peer_are_timed_in_the_same_rounds_under_the_stop_rule(self):
        with self.session() as s:
            for n in (1, 7, 64):
                s.size_begin(n)
                p = PyPeer(s, n)
                p.call()
                self.assertEqual(s.add_ours("eager_add_relu"), 0)
                self.assertEqual(s.add_ours("fused_add_relu"), 1)
                self.assertEqual(s.add_peer("pypeer", "pypeer_add_relu", "fused_add_relu", "",
                                            1, p.address(), p.calls_fn), 2)
                s.time_round_robin()
                for i in range(3):
                    status, med, noise, reps, batch = s.result(i)
                    self.assertEqual(status, fbpeer.OK)
                    self.assertTrue(med > 0 and math.isfinite(med))
                    self.assertTrue(1 <= reps <= 30, reps)
                    self.assertGreaterEqual(batch, 1)
                _, _, _, reps, batch = s.result(2)
                self.assertGreaterEqual(p.calls, reps * batch)
                s.size_end()

    def test_a_peer_only_session_with_its_kernel_time(self):
        """tools/torch_peer.py's session: no row of ours, the peer's kernel time in its row
        with the launch overhead derived from it."""
        out = os.path.join(self.tmp.name, "peer.csv")
        with self.session() as s:
            s.results_open(out)
            s.size_begin(64)
            p = PyPeer(s, 64)
            p.call()
            i = s.add_peer("pypeer", "pypeer_add_relu", "fused_add_relu", "", 1, p.address(),
                           p.calls_fn)
            with self.assertRaises(fbpeer.PeerError):
                s.set_kernel_time(i, -1.0)
            s.set_kernel_time(i, 2e-7)
            s.time_round_robin()
            s.size_end()
            s.results_finish()
        with open(out) as f:
            rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
        self.assertEqual([r["variant"] for r in rows], ["pypeer_add_relu"])
        r = rows[0]
        self.assertAlmostEqual(float(r["kernel_time_s"]), 2e-7)
        self.assertAlmostEqual(float(r["launch_overhead_s"]),
                               float(r["time_median_s"]) - 2e-7, delta=1e-12)

    def test_a_wrong_element_fails_the_peer_and_it_is_never_timed(self):
        with self.session() as s:
            s.size_begin(7)
            p = PyPeer(s, 7, wrong_at=6)
            p.call()
            self.assertEqual(s.add_peer("pypeer", "pypeer_add_relu", "fused_add_relu", "", 1,
                                        p.address(), p.calls_fn), fbpeer.ERR_VERIFY)
            self.assertIn("wrong result at element 6 of 7", s.error())
            unwritten = PyPeer(s, 7)  # still the NaN poison
            self.assertEqual(s.add_peer("pypeer", "pypeer_unwritten", "fused_add_relu", "", 1,
                                        unwritten.address(), unwritten.calls_fn),
                             fbpeer.ERR_VERIFY)
            s.time_round_robin()
            self.assertEqual(p.calls + unwritten.calls, 0)
            s.size_end()

    def test_a_raising_peer_call_is_an_error_of_the_size(self):
        with self.session() as s:
            s.size_begin(7)
            p = PyPeer(s, 7)
            p.call()

            def broken(count):
                raise RuntimeError("boom")
            s.add_peer("pypeer", "pypeer_add_relu", "fused_add_relu", "", 1, p.address(), broken)
            with self.assertRaises(fbpeer.PeerError) as e:
                s.time_round_robin()
            self.assertEqual(e.exception.code, fbpeer.ERR_RUNTIME)

    def test_ctrl_c_in_a_peer_call_stops_the_rounds_as_interrupted(self):
        with self.session() as s:
            s.size_begin(7)
            p = PyPeer(s, 7)
            p.call()

            def interrupted(count):
                if count:
                    raise KeyboardInterrupt
            s.add_peer("pypeer", "pypeer_add_relu", "fused_add_relu", "", 1, p.address(),
                       interrupted)
            with self.assertRaises(fbpeer.PeerError) as e:
                s.time_round_robin()
            self.assertEqual(e.exception.code, fbpeer.ERR_INTERRUPTED)

    def test_the_results_file_has_both_and_ours_ratio_from_fusebench(self):
        path = os.path.join(self.tmp.name, "out", "inprocess.csv")
        with self.session() as s:
            s.results_open(path)
            s.set_meta("peer", "pure python")
            s.size_begin(64)
            p = PyPeer(s, 64)
            p.call()
            s.add_ours("eager_add_relu")
            s.add_ours("fused_add_relu")
            s.add_peer("pypeer", "pypeer_eager", "eager_add_relu", "pypeer_fused", 1,
                       p.address(), p.calls_fn)
            s.add_peer("pypeer", "pypeer_fused", "fused_add_relu", "", 1, p.address(),
                       p.calls_fn)
            s.time_round_robin()
            s.size_end()
            s.results_finish()
            # The empty sample goes through the peer's own sample function, with no call.
            counts = []
            self.assertGreater(s.empty_call_s(counts.append), 0)
            self.assertGreaterEqual(len(counts), 1)
            self.assertEqual(set(counts), {0})
        with open(path) as f:
            lines = f.read().splitlines()
        self.assertIn("# peer: pure python", lines)
        rows = {r["variant"]: r for r in csv.DictReader(l for l in lines if not l.startswith("#"))}
        pe, eager = rows["pypeer_eager"], rows["eager_add_relu"]
        self.assertEqual((pe["backend"], pe["mirror"], pe["verified"]),
                         ("pypeer", "eager_add_relu", "1"))
        self.assertIn(pe["status"], ("ok", "noisy"))
        if pe["status"] == "ok" and eager["status"] == "ok":  # not noisy (a loaded machine)
            ratio = float(eager["time_median_s"]) / float(pe["time_median_s"])
            self.assertAlmostEqual(float(pe["ours_ratio"]) / ratio, 1.0, places=6)
            self.assertLessEqual(float(pe["ours_ratio_lo"]), float(pe["ours_ratio"]))
        else:
            self.assertEqual(pe["ours_ratio"], "")
        self.assertEqual(eager["ours_ratio"], "")
        self.assertEqual(os.listdir(os.path.dirname(path)), ["inprocess.csv"])
        if FUSEBENCH:  # --derive gives the same numbers to tools, with the mirror
            derived = json.loads(subprocess.run([FUSEBENCH, "--derive", path], check=True,
                                                capture_output=True, text=True).stdout)
            row = [r for r in derived["rows"] if r["variant"] == "pypeer_eager"][0]
            self.assertEqual(row["mirror"], "eager_add_relu")
            if pe["ours_ratio"]:
                self.assertAlmostEqual(row["ours_ratio"] / float(pe["ours_ratio"]), 1.0, places=6)
            else:
                self.assertIsNone(row["ours_ratio"])

    def test_an_unmirrored_peer_is_timed_with_ours_and_its_row_is_the_callers(self):
        """tools/torch_audit.py's contestant: no mirror; its role, launches and model bytes
        the caller's, its bandwidth derived from them, the peer named as its checker."""
        path = os.path.join(self.tmp.name, "audit.csv")
        with self.session() as s:
            s.results_open(path)
            s.size_begin(64)
            p = PyPeer(s, 64)
            self.assertEqual(s.add_ours("fused_add_relu"), 0)
            self.assertEqual(s.add_peer_unmirrored("pypeer", "pypeer_user", "eager", "", 2,
                                                   5 * 4 * 64, p.calls_fn), 1)
            for role, model_bytes in (("copy_ceiling", 8), ("eager", 0), ("fused", math.nan)):
                with self.assertRaises(fbpeer.PeerError) as e:
                    s.add_peer_unmirrored("pypeer", "bad", role, "", 1, model_bytes, p.calls_fn)
                self.assertEqual(e.exception.code, fbpeer.ERR_USAGE)
            self.assertEqual(p.calls, 0)
            s.time_round_robin()
            status, med, _, reps, batch = s.result(1)
            self.assertEqual(status, fbpeer.OK)
            self.assertTrue(med > 0 and reps >= 1)
            self.assertGreaterEqual(p.calls, reps * batch)
            s.size_end()
            s.results_finish()
        with open(path) as f:
            rows = {r["variant"]: r for r in csv.DictReader(l for l in f
                                                            if not l.startswith("#"))}
        self.assertEqual(sorted(rows), ["fused_add_relu", "pypeer_user"])
        r = rows["pypeer_user"]
        self.assertEqual((r["backend"], r["role"], r["launches"], r["bytes_model"], r["mirror"],
                          r["verified"], r["ours_ratio"]),
                         ("pypeer", "eager", "2", "1280", "", "0", ""))
        self.assertTrue(r["reason"].startswith("output checked by the peer, not by fusebench"),
                        r["reason"])
        self.assertIn(r["status"], ("ok", "noisy"))
        if r["status"] == "ok":
            self.assertAlmostEqual(float(r["bandwidth_gbps"]),
                                   1280 / float(r["time_median_s"]) / 1e9, delta=1e-4)
        if FUSEBENCH:  # what tools read (--derive): the same row, unverified by fusebench
            derived = json.loads(subprocess.run([FUSEBENCH, "--derive", path], check=True,
                                                capture_output=True, text=True).stdout)
            row = [d for d in derived["rows"] if d["variant"] == "pypeer_user"][0]
            self.assertEqual((row["role"], row["launches"], row["bytes_model"], row["verified"]),
                             ("eager", 2, 1280, False))
            if r["status"] == "ok":
                self.assertAlmostEqual(row["bandwidth_gbps"], float(r["bandwidth_gbps"]),
                                       delta=1e-4)

    def test_measure_traffic_on_the_cpu_is_unavailable_with_the_reason(self):
        with self.session() as s:
            counts = []
            with self.assertRaises(fbpeer.PeerError) as e:
                s.measure_traffic(counts.append)
            self.assertEqual(e.exception.code, fbpeer.ERR_UNAVAILABLE)
            self.assertEqual(str(e.exception), "the CPU backend has no DRAM counters")
            self.assertEqual(counts, [])


class FitModelThroughCtypes(unittest.TestCase):
    """fbp_fit_model through fbpeer.fit_model, as tools/torch_audit.py's fit_of calls it: the
    numbers are the C core's (tests/measure/test_fit.c), the regime in its words."""

    @classmethod
    def setUpClass(cls):
        if not LIB:
            raise unittest.SkipTest("FB_PEER_LIB is not set (run it through meson test)")
        cls.lib = fbpeer.load(LIB)

    def test_a_memory_bound_call(self):
        m = fbpeer.fit_model(self.lib, 2, 20 * (16 << 20), 1e-6, 50e9, 200e9, 32 << 20)
        self.assertEqual(m["regime"], "memory-bound")
        self.assertEqual(m["model_s"], 2 * 1e-6 + 20 * (16 << 20) / 50e9)
        self.assertEqual(m["bandwidth"], 50e9)
        self.assertAlmostEqual(m["launch_share"] + m["traffic_share"], 1, places=12)

    def test_a_cache_resident_call_and_one_between(self):
        m = fbpeer.fit_model(self.lib, 1, 12 << 20, 1e-6, 50e9, 200e9, 32 << 20)
        self.assertEqual(m["regime"], "cache-resident")
        self.assertEqual(m["model_s"], 1e-6 + (12 << 20) / 200e9)
        m = fbpeer.fit_model(self.lib, 1, 48 << 20, 1e-6, 50e9, None, 32 << 20)
        self.assertTrue(m["regime"].startswith("between the cache and memory"))
        m = fbpeer.fit_model(self.lib, 1, 80, 1e-6, 50e9, 200e9, None)  # no cache known
        self.assertEqual(m["regime"], "memory-bound")

    def test_a_nan_input_is_refused(self):
        with self.assertRaises(fbpeer.PeerError) as e:
            fbpeer.fit_model(self.lib, 2, 80, float("nan"), 50e9)
        self.assertEqual(e.exception.code, fbpeer.ERR_USAGE)


if __name__ == "__main__":
    unittest.main()
