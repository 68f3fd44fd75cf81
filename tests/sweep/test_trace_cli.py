#!/usr/bin/env python3
"""--profile N and --trace FILE.json end to end on the CPU backend (issue 20, item 6).

usage: test_trace_cli.py PATH/TO/fusebench   (meson passes the built binary)
The trace must be valid JSON in the Chrome trace event format (parsed here with Python's json),
with a process per variant in the order given, eager add_relu 2 kernel events and 2 launches
per call, fused 1 and 1, the graph variant 2 kernels under 1 launch, memcpy a platform call;
--profile must keep the order of --variants and state counts that match the plan; the trace
path is judged before anything runs. Each test works in its own temporary directory."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

BINARY = None
ROOT = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SMOKE = os.path.join(ROOT, "configs", "smoke.ini")
CALLS = 20  # FB_PROFILE_CALLS
GNUPLOT = subprocess.run(["sh", "-c", "command -v gnuplot"], capture_output=True).returncode == 0


def run(*args, timeout=300, **kwargs):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout,
                          **kwargs)


def profile(*args, variants="eager_add_relu,fused_add_relu", size="1K"):
    return run(SMOKE, "--backend", "cpu", "--profile", size, "--variants", variants, *args)


def tracks(trace):
    """{variant: {"kernels": [...], "platform": [...], "launches": [...]}} by process name."""
    names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_name"}
    out = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "M":
            continue
        t = out.setdefault(names[e["pid"]], {"kernel": [], "platform": [], "launch": []})
        t[e["cat"]].append(e)
    return names, out


def per_call(events):
    calls = {}
    for e in events:
        calls.setdefault(e["args"]["call"], []).append(e)
    return calls


class TraceCli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.trace = os.path.join(self.dir, "t.json")

    def tearDown(self):
        self.tmp.cleanup()

    def load(self):
        with open(self.trace, "rb") as f:
            data = f.read()
        return json.loads(data.decode("utf-8"))  # strict: valid UTF-8 and JSON, or it fails

    # --- --profile's table -------------------------------------------------------------

    def test_profile_keeps_the_order_of_variants(self):
        p = profile("--no-plot", variants="fused_add_relu,memcpy,eager_add_relu")
        self.assertEqual(p.returncode, 0, p.stderr)
        heads = re.findall(r"^(\w+): ", p.stdout, re.M)
        self.assertEqual(heads, ["fused_add_relu", "memcpy", "eager_add_relu"])

    def test_graph_counts_match_the_plan(self):
        p = profile(variants="eager_add_relu_graph")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"{2 * CALLS} records in {CALLS} calls = 2 per call (declared per call: "
                      "2 kernels of ours in 1 host launch); host launches seen: 1 per call",
                      p.stdout)
        self.assertRegex(p.stdout, r"\nadd +20 ")
        self.assertRegex(p.stdout, r"\nrelu +20 ")

    def test_memcpy_is_said_to_be_a_platform_call(self):
        p = profile(variants="memcpy")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("declared: 0", p.stdout)
        self.assertIn(f"{CALLS} records in {CALLS} calls = 1 per call (declared per call: "
                      "1 platform call, libc memcpy: the platform's copy, not a kernel of ours, "
                      "so 0 kernel launches); host launches seen: 0 per call", p.stdout)

    def test_eager_and_fused_counts(self):
        p = profile()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"{2 * CALLS} records in {CALLS} calls = 2 per call (declared per call: "
                      "2 kernels of ours, one host launch each); host launches seen: 2 per call",
                      p.stdout)
        self.assertIn(f"{CALLS} records in {CALLS} calls = 1 per call (declared per call: "
                      "1 kernel of ours in 1 host launch); host launches seen: 1 per call",
                      p.stdout)

    # --- the trace ---------------------------------------------------------------------

    def test_trace_is_chrome_trace_json(self):
        p = profile("--trace", self.trace, "--no-plot",
                    variants="fused_add_relu,eager_add_relu,eager_add_relu_graph,memcpy")
        self.assertEqual(p.returncode, 0, p.stderr)
        trace = self.load()
        self.assertEqual(trace["otherData"]["producer"], "fusebench")
        self.assertEqual(trace["otherData"]["n"], 1000)
        self.assertEqual(trace["otherData"]["calls"], CALLS)
        self.assertEqual(trace["displayTimeUnit"], "ns")
        names, by = tracks(trace)
        # a process per variant, in the order given, each with its two named threads
        self.assertEqual([names[k] for k in sorted(names) if k > 0],
                         ["fused_add_relu", "eager_add_relu", "eager_add_relu_graph", "memcpy"])
        threads = [(e["pid"], e["tid"]) for e in trace["traceEvents"]
                   if e["ph"] == "M" and e["name"] == "thread_name"]
        self.assertEqual(threads, [(p, t) for p in range(1, 5) for t in (1, 2)])
        for e in trace["traceEvents"]:
            if e["ph"] == "X":
                self.assertIsInstance(e["ts"], float)
                self.assertGreaterEqual(e["dur"], 0)
                self.assertEqual(e["tid"], 2)
            elif e["ph"] == "i":
                self.assertEqual((e["name"], e["s"], e["tid"]), ("launch", "t", 1))

        def shape(variant):
            t = by[variant]
            kernels, launches = per_call(t["kernel"]), per_call(t["launch"])
            platform = per_call(t["platform"])
            return {c: (len(kernels.get(c, [])), len(launches.get(c, [])),
                        len(platform.get(c, []))) for c in range(CALLS)}

        self.assertEqual(set(shape("eager_add_relu").values()), {(2, 2, 0)})
        self.assertEqual(set(shape("fused_add_relu").values()), {(1, 1, 0)})
        self.assertEqual(set(shape("eager_add_relu_graph").values()), {(2, 1, 0)})
        self.assertEqual(set(shape("memcpy").values()), {(0, 0, 1)})
        self.assertEqual([e["name"] for e in by["eager_add_relu"]["kernel"][:2]], ["add", "relu"])
        # the graph's two kernels start after their one launch and follow each other
        graph = by["eager_add_relu_graph"]
        for call, (add, relu) in per_call(graph["kernel"]).items():
            launch = per_call(graph["launch"])[call][0]
            self.assertGreaterEqual(add["ts"], launch["ts"])
            self.assertGreaterEqual(relu["ts"], add["ts"] + add["dur"] - 0.0015)
        self.assertIn("trace: ", p.stdout)

    def test_trace_path_is_judged_before_measuring(self):
        cases = {"a directory": self.dir, "no file name": self.dir + "/",
                 "an unwritable place": "/proc/fusebench-trace.json"}
        for what, path in cases.items():
            p = profile("--trace", path, "--no-plot")
            self.assertEqual(p.returncode, 2, (what, p.stdout, p.stderr))
            self.assertIn("--trace", p.stderr, what)
            self.assertNotIn("kernel table", p.stdout, what)  # nothing measured

    def test_a_foreign_file_is_kept_unless_force(self):
        with open(self.trace, "w") as f:
            f.write("precious\n")
        p = profile("--trace", self.trace, "--no-plot")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--force", p.stderr)
        self.assertNotIn("kernel table", p.stdout)
        with open(self.trace) as f:
            self.assertEqual(f.read(), "precious\n")
        p = profile("--trace", self.trace, "--no-plot", "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.load()
        # a trace fusebench wrote is replaced without --force
        p = profile("--trace", self.trace, "--no-plot", variants="fused_add_relu")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(set(tracks(self.load())[1]), {"fused_add_relu"})
        # no temporary left
        self.assertEqual(sorted(os.listdir(self.dir)), ["t-timeline.tsv", "t.json"])

    def test_a_foreign_file_where_the_timeline_table_goes_is_kept_unless_force(self):
        table = os.path.join(self.dir, "t-timeline.tsv")
        with open(table, "w") as f:
            f.write("precious\n")
        p = profile("--trace", self.trace, "--no-plot")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("its timeline table", p.stderr)
        self.assertIn("--force", p.stderr)
        self.assertNotIn("kernel table", p.stdout)  # judged before measuring
        self.assertEqual(os.listdir(self.dir), ["t-timeline.tsv"])
        p = profile("--trace", self.trace, "--no-plot", "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(table) as f:
            self.assertTrue(f.readline().startswith("# fusebench timeline table"))

    def test_plot_redraws_only_a_timeline_table_fusebench_wrote(self):
        table = os.path.join(self.dir, "t-timeline.tsv")
        with open(self.trace, "w") as f:
            f.write('{"traceEvents": []}\n')
        p = run("--plot", self.trace)  # a trace without its table (or not ours)
        self.assertEqual(p.returncode, 2)
        self.assertIn("t-timeline.tsv is missing", p.stderr)
        with open(table, "w") as f:
            f.write("x0\tx1\ty\tk\n1\t2\t1\t1\n")
        for path in (self.trace, table):
            p = run("--plot", path)
            self.assertEqual(p.returncode, 2, path)
            self.assertIn("not a timeline table fusebench wrote", p.stderr)
        os.remove(table)
        os.mkfifo(table)  # refused at once, never waited on (run's timeout would fail it)
        p = run("--plot", table, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn("not a regular file", p.stderr)
        os.remove(table)
        with open(table, "wb") as f:  # sparse: past the size of any table, refused unread
            f.write(b"# fusebench timeline table (plots/timeline.gp draws it)\n")
            f.truncate((64 << 20) + 1)
        p = run("--plot", table)
        self.assertEqual(p.returncode, 2)
        self.assertIn("a timeline table has at most", p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), ["t-timeline.tsv", "t.json"])

    def test_trace_needs_profile(self):
        p = run(SMOKE, "--trace", self.trace)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--trace: only with --profile", p.stderr)
        self.assertFalse(os.path.exists(self.trace))

    @unittest.skipUnless(GNUPLOT, "gnuplot is not installed: the timeline chart is not drawn")
    def test_timeline_chart_is_drawn_beside_the_trace(self):
        p = profile("--trace", self.trace, variants="eager_add_relu,eager_add_relu_graph,"
                    "fused_add_relu")
        self.assertEqual(p.returncode, 0, p.stderr)
        for ext, magic in (("png", b"\x89PNG\r\n\x1a\n"), ("svg", b"<?xml"), ("pdf", b"%PDF-")):
            path = os.path.join(self.dir, "t-timeline." + ext)
            self.assertIn(path, p.stdout)
            with open(path, "rb") as f:
                self.assertEqual(f.read(len(magic)), magic)
        self.assertEqual(sorted(os.listdir(self.dir)),  # no stage left
                         ["t-timeline.pdf", "t-timeline.png", "t-timeline.svg",
                          "t-timeline.tsv", "t.json"])
        # --plot FILE.json redraws it from the table beside the trace, measuring nothing,
        # and so does --plot of the table itself
        for path in (self.trace, os.path.join(self.dir, "t-timeline.tsv")):
            os.remove(os.path.join(self.dir, "t-timeline.png"))
            p = run("--plot", path)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn(os.path.join(self.dir, "t-timeline.png"), p.stdout)
            self.assertNotIn("kernel table", p.stdout)
            with open(os.path.join(self.dir, "t-timeline.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        charts = os.path.join(self.dir, "charts")
        p = profile("--trace", self.trace, "--plot-dir", charts, variants="fused_add_relu")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(os.listdir(charts)),
                         ["t-timeline.pdf", "t-timeline.png", "t-timeline.svg"])


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
