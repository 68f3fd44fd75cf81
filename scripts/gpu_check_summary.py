#!/usr/bin/env python3
"""summary.txt of scripts/gpu-check, from the numbers fusebench derives from the CSVs it
wrote (python3 stdlib only).

  gpu_check_summary.py --mode gpu|rehearsal --out summary.txt --steps STEPS --tests TESTS
                       --sweep SWEEP.csv [--cold COLD.csv] [--torch TORCH.csv] [--ncu NCU.csv]
                       [--inprocess TORCH-INPROCESS.csv] [--nocupti SWEEP-NOCUPTI.csv]
                       [--inventory NODE.txt] [--elapsed S] [--goal S] [--quick 0|1]
                       [--fusebench PATH] [--log GPU-CHECK.LOG]
  gpu_check_summary.py --collect-ncu OUT.csv VARIANT=N=NCU_LOG.csv ...
  gpu_check_summary.py --verdict sanitizer|ncu|tests|counters ARGS... (see verdict())
  gpu_check_summary.py --sizes-of config|csv ARG FUSEBENCH CONFIG LIST   (see sizes_of())
  gpu_check_summary.py --import-versions   (torch's and triton's, for gpu-check's inventory)

The results files are read by fusebench (`fusebench --derive CSV...`: src/chart/derive_json.h),
never parsed here: the rows with their pairs, speedups (and the pair's time), copy fractions,
the row and noisy counts and metadata come as JSON. PATH is that fusebench (default $FB_FUSEBENCH, else build/fusebench
of this repository). STEPS holds "step|status|detail|seconds" lines (status ok, degraded,
skipped or FAIL; the seconds may be missing); NODE.txt "key: value" lines (what the machine
has, gpu-check's step 0). ncu's own --csv logs are ncu's format, turned by --collect-ncu
into one tidy table (N: the size in elements, a whole number). Exit status of the summary:
0 everything passed (a degraded step, one the machine refused such as its counters, is still
a pass: the first line says "DEGRADED (refused: ...)", a "degraded:" line gives each reason and
a "fix:" line the way out where the counters are reserved to administrators),
1 a step failed or a CSV holds a failed / unverified point (the summary says which), 2 usage
error; it prints gpu-check's verdict line. --collect-ncu turns ncu's --csv logs into one tidy
CSV (variant, n, kernel, launch, dram_read_bytes, dram_write_bytes) and exits 0 (1 if unreadable).
--verdict prints a step's "status|detail" from a tool's output or a suite's counts.
"""

import collections
import csv
import datetime
import io
import json
import math
import os
import re
import socket
import subprocess
import sys

SIZES_OF_INTEREST = (8, 1000000, 100000000)
_UNIT = {"byte": 1, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "tbyte": 1e12,
         "kibyte": 1024, "mibyte": 1024 ** 2, "gibyte": 1024 ** 3}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_results(fusebench, path, problems=None):
    """(metadata dict, list of row dicts, file dict: its "rows" and "noisy" counts) of a
    results file as fusebench derives it (`--derive`); ({}, [], {}) if absent, and a problem
    noted when fusebench refuses it."""
    if not path or not os.path.exists(path):
        return {}, [], {}
    cmd = [fusebench, "--derive", path]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        derived = json.loads(out.stdout) if out.returncode == 0 else None
        why = out.stderr.strip().splitlines()[-1] if out.returncode else ""
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        derived, why = None, str(e)
    if derived is None:
        if problems is not None:
            problems.append("cannot read %s: %s" % (path, why or "fusebench --derive failed"))
        return {}, [], {}
    meta = {m["key"]: m["value"] for m in derived["meta"] if m["file"] == 0}
    return meta, derived["rows"], derived["files"][0]


def num(row, col):
    """A number of a derived row, or of the metadata (text there); NaN where there is none."""
    v = row.get(col)
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(v) if isinstance(v, str) and v.strip() else float("nan")
    except ValueError:
        return float("nan")


def fmt_time(s):
    if math.isnan(s):
        return "n/a"
    if s < 1e-3:
        return "%.2f us" % (s * 1e6)
    if s < 1:
        return "%.3f ms" % (s * 1e3)
    return "%.3f s" % s


def fmt_bytes(b):
    if b is None or (isinstance(b, float) and math.isnan(b)):
        return "n/a"
    return "{:,}".format(int(round(b)))


def fmt_n(n):
    for unit, div in (("G", 10 ** 9), ("M", 10 ** 6), ("K", 10 ** 3)):
        if n >= div and n % div == 0:
            return "%d%s" % (n // div, unit)
    return str(n)


def index(rows):
    """{(variant, n): row} of the measured rows: ok, and noisy ones (disturbed by another
    program: launches counted all the same, times to be read with the sweep's noisy count)."""
    return {(r.get("variant"), r["n"]): r for r in rows
            if r.get("status") in ("ok", "noisy") and isinstance(r.get("n"), int)}


def paired(rows, n):
    """The measured rows (ok or noisy) at size n that name a pair (an eager variant and its
    fused one, the generic fused kernel and the handwritten one), in file order, the last of
    each variant. Pairs, roles and speedups are data written by fusebench
    (src/measure/pairing.h): this script reads them and knows no variant's name. A noisy row
    is listed too (fusebench writes no speedup for it): on a loaded machine every row may be
    noisy, and the table would otherwise be empty."""
    last = {}
    for r in rows:
        if r.get("status") in ("ok", "noisy") and r.get("n") == n and r.get("pair"):
            last.pop(r["variant"], None)
            last[r["variant"]] = r
    return list(last.values())


def variants_of(rows, roles=None):
    """The variants of rows (with one of `roles`, when given), in order of first appearance."""
    seen = []
    for r in rows:
        if r.get("variant") not in seen and (roles is None or r.get("role") in roles):
            seen.append(r.get("variant"))
    return seen


def by_role(index_, n, role):
    """The first ok row of `role` at size n in an index(), or {}."""
    return next((r for (v, m), r in index_.items() if m == n and r.get("role") == role), {})


# ---- ncu -----------------------------------------------------------------------------------

def parse_ncu_log(path):
    """[(kernel, launch id, metric, bytes)] from an ncu --csv log (tool lines skipped)."""
    with open(path, newline="", errors="replace") as f:
        text = f.read().splitlines()
    # ncu's own "==PROF==" lines (and the program's, if any) may come before or after the
    # table: keep the quoted CSV lines from the header on.
    start = next((i for i, l in enumerate(text) if l.startswith('"ID"')), None)
    if start is None:
        return []
    table = [l for l in text[start:] if l.startswith('"')]
    out = []
    for row in csv.DictReader(io.StringIO("\n".join(table))):
        metric = row.get("Metric Name") or ""
        if not metric.startswith("dram__bytes"):
            continue
        value = float((row.get("Metric Value") or "nan").replace(",", ""))
        scale = _UNIT.get((row.get("Metric Unit") or "byte").lower(), float("nan"))
        out.append((row.get("Kernel Name", ""), row.get("ID", ""), metric, value * scale))
    return out


def collect_ncu(out_path, specs):
    rows = []
    for spec in specs:
        variant, size, path = spec.split("=", 2)
        n = int(size)
        per_launch = {}
        if os.path.exists(path):
            for kernel, launch, metric, value in parse_ncu_log(path):
                d = per_launch.setdefault((kernel, launch), {})
                d["read" if "read" in metric else "write"] = value
        for (kernel, launch), d in sorted(per_launch.items(), key=lambda kv: kv[0][1]):
            rows.append([variant, n, kernel, launch, d.get("read", ""), d.get("write", "")])
    tmp = out_path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        f.write("# ncu dram__bytes_read.sum / dram__bytes_write.sum per profiled launch\n")
        w.writerow(["variant", "n", "kernel", "launch", "dram_read_bytes", "dram_write_bytes"])
        for r in rows:
            w.writerow([("%d" % x) if isinstance(x, float) else x for x in r])
    os.replace(tmp, out_path)
    return 0


def ncu_per_call(path):
    """{(variant, n): (read, write)} per call: the median over launches of each kernel name,
    summed over the kernel names of the variant (eager: one per op; fused: one). The table is
    --collect-ncu's own (ncu's numbers, not a results file)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    by = {}
    for r in rows:
        try:
            key = (r["variant"], int(r["n"]))
            rd, wr = float(r["dram_read_bytes"]), float(r["dram_write_bytes"])
        except (KeyError, ValueError):
            continue
        by.setdefault(key, {}).setdefault(r["kernel"], []).append((rd, wr))
    result = {}
    for key, kernels in by.items():
        rd = wr = 0.0
        for samples in kernels.values():
            rs = sorted(s[0] for s in samples)
            ws = sorted(s[1] for s in samples)
            rd += rs[len(rs) // 2]
            wr += ws[len(ws) // 2]
        result[key] = (rd, wr)
    return result


# ---- verdicts: a step's "status|detail" from what its tool printed ---------------------------
#   ok        the tool ran and found nothing wrong
#   degraded  the machine refused the tool (counters hidden by its sandbox, the device not
#             supported): a pass that summary.txt explains with the tool's own words
#   FAIL      a real finding (a memory error), or a failure that names no known refusal
# What a machine that hides its counters or refuses the sanitizer answers: the node's gVisor
# sandbox (CUDA13-NOTES.md: ncu "Failed to initialize the profiler: LibraryNotLoaded",
# compute-sanitizer "Device not supported" then error 999) and NVIDIA's documented messages
# for counters reserved to administrators (ERR_NVGPUCTRPERM).
NCU_REFUSED = re.compile(r"LibraryNotLoaded|ERR_NVGPUCTRPERM|permission to access NVIDIA GPU "
                         r"Performance Counters|[Ii]nsufficient privilege|Profiling is not "
                         r"supported|not supported on this (device|platform)|Device not "
                         r"supported|Failed to initialize the profiler")
SANITIZER_REFUSED = re.compile(r"Device not supported|not supported on this (device|platform)|"
                               r"[Ee]rror:? 999|\(999\)|CUDA_ERROR_UNKNOWN|cudaErrorUnknown")
# What memcheck prints for a real error (checked first: a finding is never a refusal).
SANITIZER_FOUND = re.compile(r"Invalid (__global__|__shared__|__local__|global|shared|local)? ?"
                             r"(read|write)|[Oo]ut of bounds|[Mm]isaligned (address|access)|"
                             r"[Uu]ninitialized|[Ll]eaked [0-9]")
STOPPED = (124, 137, 125)  # timeout's stop and kill, and gpu-check's "no time left to start"


def first_line(pattern, text, strip=""):
    """The first line of text matching pattern, strip removed, cut at 160; "" if none."""
    line = next((l for l in text.splitlines() if pattern.search(l)), "")
    return re.sub(strip, "", line)[:160]


def sanitizer_verdict(rc, text, what, stopped):
    found = first_line(SANITIZER_FOUND, text, r"^=* *")
    refused = first_line(SANITIZER_REFUSED, text, r"^=* *")
    if found:
        return "FAIL|memcheck found errors in %s: %s" % (what, found)
    if rc == 0:
        return "ok|memcheck clean on %s" % what
    if refused:
        return "degraded|compute-sanitizer refused this device: %s" % refused
    if rc in STOPPED:  # memcheck prints each error as it finds it: none before the stop
        return "degraded|memcheck of %s %s, with no error reported before" % (what, stopped)
    return "FAIL|memcheck of %s exited %d without naming a memory error; see the log" % (what, rc)


def ncu_verdict(rc, text, what, stopped, regex):
    refused = first_line(NCU_REFUSED, text, r"^==[A-Z]*== *")
    if rc == 0 and "dram__bytes" in text:
        return "ok|"
    if refused:
        return "degraded|ncu cannot read the counters here: %s" % refused
    if rc in STOPPED:
        return "FAIL|ncu on %s %s" % (what, stopped)
    if "No kernels were profiled" in text:
        return ("FAIL|ncu profiled no kernel of %s: does the kernel regex '%s' still match the "
                "kernel names?" % (what, regex))
    return "FAIL|ncu on %s exited %d without DRAM counters: %s" % (
        what, rc, first_line(re.compile("==ERROR=="), text))


# What a counters refusal for lack of privileges looks like (CUPTI's result name and
# src/cupti/cupti_check.c's hint, ncu's ERR_NVGPUCTRPERM), and the way out, printed once in the
# summary: NVIDIA's documented setting (ERR_NVGPUCTRPERM) or more privileges for the check.
PRIVILEGES = re.compile(r"INSUFFICIENT_PRIVILEGES|ERR_NVGPUCTRPERM|restricted to administrators|"
                        r"RestrictProfilingToAdminUsers|permission to access NVIDIA GPU "
                        r"Performance Counters")
COUNTERS_FIX = ("the GPU's performance counters are reserved to administrators here "
                "(NVreg_RestrictProfilingToAdminUsers=1). Fix, as root: echo 'options nvidia "
                "NVreg_RestrictProfilingToAdminUsers=0' > /etc/modprobe.d/nvidia-profiling.conf, "
                "then reload the nvidia module (modprobe -r nvidia_uvm nvidia_drm "
                "nvidia_modeset nvidia && modprobe nvidia) or reboot; or run gpu-check as root "
                "or with CAP_SYS_ADMIN / CAP_PERFMON (a container: --cap-add SYS_ADMIN)")
# The skip a test prints for a part that needs the counters (tests/cupti/test_cupti_gpu.c:
# "skip: CUPTI counters unavailable: <CUPTI's reason>").
COUNTERS_SKIP = re.compile(r"counters unavailable", re.I)
# cudart's words when the driver is older than the runtime (or absent), and fusebench's own
# (src/backends/cuda/gpu_compat.c): said with the way out.
DRIVER_OLD = re.compile(r"driver version is insufficient|cudaErrorInsufficientDriver|"
                        r"NVIDIA driver supports CUDA [0-9.]+, older than")
DRIVER_HINT = (" (the NVIDIA driver is older than this build's CUDA runtime: a CUDA 13 build "
               "needs driver release 580 or newer; on a datacenter GPU the forward-"
               "compatibility package cuda-compat-13-0 lets it run on the older driver)")


def meson_log_tests(log):
    """[{name, result, text}] of the test sections of a meson test log ("==== i/n ====",
    then "test:", "result:" and the test's stdout and stderr), in order."""
    tests = []
    for part in re.split(r"^=+ [0-9]+/[0-9]+ =+$", log, flags=re.M)[1:]:
        name = re.search(r"^test: +(.*)$", part, re.M)
        result = re.search(r"^result: +(.*)$", part, re.M)
        tests.append({"name": name.group(1).split(" / ")[-1].strip() if name else "?",
                      "result": result.group(1).strip() if result else "?", "text": part})
    return tests


def skip_reasons(text):
    """The reasons a test printed for what it skipped ("skip: ..." / "SKIP: ..." lines), less
    test_cupti_gpu's closing line, which only points at them."""
    return [m.strip() for m in re.findall(r"^skip(?:ped)?: (\S.*)$", text, re.M | re.I)
            if "reason printed above" not in m]


def last_error_line(text):
    """The last line of a failed test's output that says what went wrong (cmocka's own
    tallies skipped), else its last non-empty line; cut at 200."""
    lines = [l.strip() for l in text.splitlines() if l.strip() and not l.startswith("-----")
             and not re.match(r"^(\[  (FAILED|PASSED|SKIPPED) +\]|[0-9]+ FAILED TEST)", l.strip())]
    said = [l for l in lines if re.search(r"error|fail|assert|abort|fault|cannot|denied|"
                                          r"insufficient|timed? ?out", l, re.I)
            and not re.match(r"^(result|test|command|start time|duration):", l)]
    return (said or lines or [""])[-1][:200]


def suite_counts(suite, rc, out, log):
    """meson test's counts from its output, and from its log: each test's result, what it
    skipped and why (cmocka's skip() is no "Skipped" for meson: "[  SKIPPED ] N test(s)"),
    the skips that need the counters, and each failed test's last error line."""
    c = {"suite": suite, "rc": rc, "none": int("No suitable tests defined" in out)}
    for key, label in (("ok", "Ok"), ("fail", "Fail"), ("skipped", "Skipped"),
                       ("timeout", "Timeout"), ("xfail", "Expected Fail"),
                       ("upass", "Unexpected Pass")):
        m = re.findall(r"^%s: +([0-9]+)" % label, out, re.M)
        c[key] = int(m[-1]) if m else 0
    c["cmocka_skipped"] = sum(int(n) for n in re.findall(r"^\[  SKIPPED \] +([0-9]+) test", log, re.M))
    why = [r for r in skip_reasons(log) if COUNTERS_SKIP.search(r)]
    c["counters_skipped"] = len(why)
    c["reason"] = why[0][:300] if why else ""
    c["reasons_all"] = skip_reasons(log)
    c["tests"] = []
    for t in meson_log_tests(log):
        cmocka = sum(int(n) for n in re.findall(r"^\[  SKIPPED \] +([0-9]+) test", t["text"], re.M))
        reasons = skip_reasons(t["text"])
        t.update(skipped=t["result"] == "exit status 77" or cmocka > 0, reasons=reasons,
                 counters_only=bool(reasons) and all(COUNTERS_SKIP.search(r) for r in reasons),
                 failed=t["result"] not in ("exit status 0", "exit status 77"),
                 error=last_error_line(t["text"]))
        c["tests"].append(t)
    return c


def tests_verdict(c, mode, what, stopped):
    """SUITE gpu: no skip allowed on a GPU, except the parts of tests that need the counters
    when the machine refuses them (a degraded pass, with the fix where it is privileges);
    rest: the other suites. A failure names each failed test and its last error line."""
    failed = "; ".join("%s: %s" % (t["name"], t["error"]) for t in c["tests"] if t["failed"])
    if failed and c.get("log"):
        failed += " (their logs: %s)" % c["log"]
    if c["rc"] in STOPPED:
        return "FAIL|%s %s%s" % (what, stopped, (": " + failed) if failed else "")
    if c["fail"] or c["timeout"] or c["rc"]:
        return "FAIL|%s: %d failed, %d timed out (meson exit %d)%s" % (
            what, c["fail"], c["timeout"], c["rc"], (": " + failed) if failed else "")
    if c["suite"] != "gpu":
        return "ok|%s: %d passed, %d skipped" % (what, c["ok"], c["skipped"])
    if mode != "gpu":
        return "ok|rehearsal: %d ran, skips allowed without a GPU (meson %d, cmocka %d)" % (
            c["ok"], c["skipped"], c["cmocka_skipped"])
    reasons = [r for t in c["tests"] for r in t["reasons"]] or c["reasons_all"]
    if c["none"] or not c["ok"]:
        # test_kernels_gpu says it in a line of its own ("...: no GPU, every test skips: ...")
        why = reasons or re.findall(r"every test skips: (.*)$", "\n".join(
            t["text"] for t in c["tests"]), re.M)
        why = why[0][:300] if why else "did no device answer? see the log; is the CUDA backend built?"
        return "FAIL|no gpu test passed (meson skipped %d): %s%s" % (
            c["skipped"], why, DRIVER_HINT if DRIVER_OLD.search(why) else "")
    skippers = [t for t in c["tests"] if t["skipped"]]
    if not skippers and (c["skipped"] or c["cmocka_skipped"]):
        # a log without test sections: the skips' reasons as a whole
        skippers = [{"name": "the gpu suite", "reasons": reasons, "counters_only":
                     bool(reasons) and all(COUNTERS_SKIP.search(r) for r in reasons)}]
    if skippers and all(t["counters_only"] for t in skippers):
        return "degraded|%d passed; the counters' parts of %s skipped, counters refused: %s" % (
            c["ok"], ", ".join(t["name"] for t in skippers), skippers[0]["reasons"][0][:300])
    if skippers:
        return ("FAIL|skips on a GPU machine: meson Skipped %d, cmocka skipped %d: %s" % (
            c["skipped"], c["cmocka_skipped"], "; ".join(
                "%s: %s" % (t["name"], t["reasons"][0][:200] if t["reasons"] else "no reason given")
                for t in skippers if not t["counters_only"])))
    return "ok|%d passed, none skipped" % c["ok"]


def counters_verdict(mode, meta, rows=None, refused="", log=""):
    """CUPTI's counters as the sweep's "# counters:" line says at open (on, or unavailable
    here: a degraded pass, the DRAM columns stay empty), then, where they were on, as the rows
    say: every measured row with kernels of ours (launches > 0: a memcpy has no range to
    count) has its DRAM bytes; rows without them are a per-variant refusal (metadata
    counters_refused: degraded) or a give-up mid-sweep (FAIL, with the sweep's warning from
    the log). rows None: the counters line alone."""
    if mode != "gpu":
        return "skipped|cpu rehearsal: %s" % (meta or "no counters line in the CSV")
    if re.search("unavailable|counters off", meta, re.I):
        return "degraded|CUPTI counters unavailable here: %s" % meta
    if re.match("off", meta, re.I):
        return "skipped|switched off in the config: %s" % meta
    if not re.search("counters on|^on", meta, re.I):
        return ("FAIL|the sweep's CSV says '# counters: %s' (expected on, or unavailable with a "
                "reason)" % meta)
    if rows is None:
        return "ok|%s" % meta
    counted = [r for r in rows if r.get("status") in ("ok", "noisy")
               and isinstance(r.get("launches"), int) and r["launches"] > 0]
    empty = [r for r in counted if not (isinstance(r.get("dram_read_bytes"), (int, float)) and
                                        isinstance(r.get("dram_write_bytes"), (int, float)))]
    if not empty:
        return "ok|%s; DRAM bytes in all %d measured rows" % (meta, len(counted))
    names = sorted({r.get("variant") for r in empty})
    first = empty[0]
    where = "%d of %d measured rows have no DRAM bytes (%s), the first %s n=%s" % (
        len(empty), len(counted), ", ".join(names), first.get("variant"), first.get("n"))
    # counters_refused: "VARIANT: reason; VARIANT: reason", or past its table "more variants
    # refused" (measure/probe.c)
    if refused and ("more variants refused" in refused or
                    all(refused.startswith(v + ": ") or ("; %s: " % v) in refused for v in names)):
        return "degraded|CUPTI counters refused some variants: %s; refused: %s" % (where, refused[:300])
    gave_up = first_line(re.compile(r"warning: CUPTI (counters|activity) failed"), log)
    return "FAIL|counters on at open, but %s: %s" % (
        where, gave_up or "the sweep's output says why (gpu-check.log)")


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def verdict(kind, a):
    """  sanitizer RC OUTPUT WHAT STOPPED_TEXT      (OUTPUT: what compute-sanitizer printed)
      ncu RC LOG WHAT STOPPED_TEXT KERNEL_REGEX     (LOG: ncu's --log-file)
      tests SUITE MODE RC OUTPUT LOG WHAT STOPPED_TEXT TESTS  (meson test's output and log;
                      the counts line is appended to TESTS, for the summary)
      counters MODE CSV [FUSEBENCH [LOG]]           (the sweep's "# counters:" line, and with
                      FUSEBENCH its rows' DRAM columns; LOG: where a give-up's warning is)
    RC: the tool's exit status, timeout's 124/137, or 125 when not started."""
    if kind == "sanitizer":
        return sanitizer_verdict(int(a[0]), read_text(a[1]), a[2], a[3])
    if kind == "ncu":
        return ncu_verdict(int(a[0]), read_text(a[1]), a[2], a[3], a[4])
    if kind == "counters":
        meta = re.findall(r"^# counters: (.*)$", read_text(a[1]), re.M)
        if len(a) < 3:
            return counters_verdict(a[0], meta[0] if meta else "")
        rmeta, rows, _ = read_results(a[2], a[1])
        return counters_verdict(a[0], meta[0] if meta else "", rows,
                                rmeta.get("counters_refused", ""), read_text(a[3]) if len(a) > 3 else "")
    if kind != "tests":
        raise ValueError("no verdict of that kind (sanitizer, ncu, tests, counters)")
    c = suite_counts(a[0], int(a[2]), read_text(a[3]), read_text(a[4]))
    c["log"] = a[4]
    line = " ".join("%s=%s" % (k, c[k]) for k in ("ok", "fail", "skipped", "timeout", "xfail",
                                                   "upass", "cmocka_skipped", "counters_skipped",
                                                   "none", "rc"))
    with open(a[7], "a") as f:
        f.write("%s %s\n" % (a[0], line))
    print("%s %s" % (a[0], line), file=sys.stderr)  # into gpu-check's log
    return tests_verdict(c, a[1], a[5], a[6])


# ---- the summary ---------------------------------------------------------------------------

def read_steps(path, caps=None):
    """[(step, status, detail, seconds)] of gpu-check's steps file ("a|b|c|d|e" lines: the
    seconds and the step's cap may be missing; older files have no cap); the caps go into
    the dict `caps` by step, when one is given."""
    steps = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("|")
                if len(parts) < 3:
                    continue
                cap = ""
                if len(parts) > 4 and parts[-1].strip().isdigit() and parts[-2].strip().isdigit():
                    cap = parts.pop().strip()
                if len(parts) > 3 and parts[-1].strip().isdigit():
                    seconds, detail = parts[-1].strip(), "|".join(parts[2:-1])
                else:
                    seconds, detail = "", "|".join(parts[2:])
                steps.append((parts[0], parts[1], detail, seconds))
                if caps is not None and cap:
                    caps[parts[0]] = cap
    return steps


def read_inventory(path):
    """[(key, value)] of the "key: value" lines of gpu-check's inventory, in order."""
    out = []
    if path and os.path.exists(path):
        with open(path, errors="replace") as f:
            for line in f:
                key, sep, value = line.rstrip("\n").partition(": ")
                if sep:
                    out.append((key, value))
    return out


def dram_table(sweep_index, args, cold_results):
    """The CUPTI-vs-ncu lines. Both sides in one cache state, cold: ncu flushes the caches
    before each profiled kernel (--cache-control all) and the CUPTI numbers come from the
    --cache cold sweep; the warm sweep's CUPTI bytes are shown beside them for reference
    (at 1M the inputs stay in a 60 MB L2 when warm: near-zero DRAM bytes is right there)."""
    cmeta, crows, _ = cold_results
    cold = index(crows)
    ncu = ncu_per_call(args.get("ncu")) if args.get("ncu") and os.path.exists(args["ncu"]) else {}
    lines = ["", "DRAM bytes per call, read + write; cache state: cold for CUPTI and ncu alike "
             "(CUPTI from the --cache cold sweep, ncu with --cache-control all: caches flushed "
             "before each kernel); CUPTI warm from the main sweep, for reference:"]
    lines.append("  %-16s %-6s %16s %16s %16s %9s %9s %16s" % (
        "variant", "n", "model", "CUPTI cold", "ncu cold", "CUPTI/mod", "ncu/mod", "CUPTI warm"))
    sizes = sorted({n for (_, n) in cold} | {n for (_, n) in ncu})
    # the cold sweep's eager and fused variants, then any other that ncu profiled
    names = variants_of(crows, ("copy_ceiling", "eager", "fused"))
    names += [v for v in sorted({v for (v, _) in ncu}) if v not in names]
    for n in sizes:
        for v in names:
            r = cold.get((v, n))
            if r is None and (v, n) not in ncu:
                continue
            w = sweep_index.get((v, n)) or {}
            model = num(r or w, "bytes_model")
            cupti = num(r or {}, "dram_read_bytes") + num(r or {}, "dram_write_bytes")
            warm = num(w, "dram_read_bytes") + num(w, "dram_write_bytes")
            nb = sum(ncu[(v, n)]) if (v, n) in ncu else float("nan")

            def rel(x):
                return "n/a" if math.isnan(x) or math.isnan(model) or model == 0 else "%.2f" % (x / model)
            lines.append("  %-16s %-6s %16s %16s %16s %9s %9s %16s" % (
                v, fmt_n(n), fmt_bytes(model), fmt_bytes(cupti), fmt_bytes(nb), rel(cupti),
                rel(nb), fmt_bytes(warm)))
    if sizes:
        # The one place where the two cold states still differ: ncu flushes before every
        # kernel, our cold sweep before every call. Eager's second kernel therefore finds tmp
        # in L2 under CUPTI whenever tmp fits there (1M: 4 MB), and in DRAM under ncu.
        lines.append("  note: ncu flushes before each kernel, the cold sweep before each call: "
                     "for eager (2 kernels) at sizes whose tmp fits in L2, CUPTI's relu reads "
                     "tmp from L2 and ncu's from DRAM; single-kernel variants compare exactly")
    if not sizes:
        lines.append("  (no cold sweep and no ncu numbers: see the sweep-cold and ncu steps)")
    elif not ncu:
        lines.append("  (no ncu numbers: see the ncu step above)")
    if cmeta.get("counters"):
        lines.append("  CUPTI in the cold sweep: %s" % cmeta["counters"])
    return lines

def nocupti_lines(sweep_index, nocupti):
    """CUPTI's cost to small-size timings: the sweep's median (CUPTI on) beside a sweep of the
    same small sizes with activity and counters off."""
    meta, rows, _ = nocupti
    if not meta:
        return []
    lines = ["", "CUPTI's cost to small-size timings (median time per call; the sweep with "
             "CUPTI on, and again with activity and counters off):",
             "  %-10s %-26s %11s %11s %8s" % ("n", "variant", "CUPTI on", "CUPTI off", "on/off")]
    for (v, n), r in sorted(index(rows).items(), key=lambda kv: (kv[0][1], str(kv[0][0]))):
        on, off = num(sweep_index.get((v, n), {}), "time_median_s"), num(r, "time_median_s")
        lines.append("  %-10s %-26s %11s %11s %8s" % (
            fmt_n(n), v, fmt_time(on), fmt_time(off),
            "n/a" if math.isnan(on) or math.isnan(off) or off == 0 else "%.3f" % (on / off)))
    return lines


def inprocess_lines(meta, rows):
    """The in-process peer's rows (tools/torch_inprocess.py): each PyTorch variant against the
    variant of ours it mirrors, timed in the same process, with fusebench's ours_ratio."""
    if not meta:
        return []
    lines = ["", "PyTorch in-process (tools/torch_inprocess.py; torch %s; ours_ratio = our time "
             "/ torch's, below 1: ours faster; its per-sample ctypes cost: %s s):" % (
                 meta.get("torch", "?"), meta.get("peer_empty_sample_s", "?"))]
    lines.append("  %-10s %-26s %-20s %11s %11s  %s" % ("n", "torch variant", "mirrors",
                                                       "torch time", "ours_ratio", "interval"))
    for r in rows:
        if not r.get("mirror"):
            continue
        ratio, lo, hi = num(r, "ours_ratio"), num(r, "ours_ratio_lo"), num(r, "ours_ratio_hi")
        lines.append("  %-10s %-26s %-20s %11s %11s  %s%s" % (
            fmt_n(r["n"]) if isinstance(r.get("n"), int) else r.get("n"), r.get("variant"),
            r.get("mirror"), fmt_time(num(r, "time_median_s")),
            "n/a" if math.isnan(ratio) else "%.3f" % ratio,
            "n/a" if math.isnan(lo) or math.isnan(hi) else "[%.3f, %.3f]" % (lo, hi),
            "" if r.get("status") == "ok" else "  (%s)" % r.get("status")))
    return lines


def point_problems(label, rows):
    """Each failed point of a results file, and each ok point that was not verified."""
    out = []
    for r in rows:
        if r.get("status") == "failed":
            out.append("%s: %s n=%s failed: %s" % (label, r.get("variant"), r.get("n"),
                                                    r.get("reason", "")))
        elif r.get("status") == "ok" and not r.get("verified"):
            out.append("%s: %s n=%s ok but not verified" % (label, r.get("variant"), r.get("n")))
    return out


def git_commit():
    """This checkout's commit, or "unknown"."""
    try:
        return subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)),
                               "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def fmt_peak(peak):
    return ("%.0f GB/s" % peak) if not math.isnan(peak) else "unknown"


def header_lines(args, verdict, problems, degraded, fix, smeta, tmeta):
    """The verdict with its problems, degraded parts and fix; the run, the device."""
    lines = ["fusebench gpu-check: %s" % verdict] + ["  problem: %s" % p for p in problems[:20]]
    if len(problems) > 20:
        lines.append("  ... and %d more problems" % (len(problems) - 20))
    lines += ["  degraded: %s" % d for d in degraded] + (["  fix: %s" % fix] if fix else [])
    lines.append("mode: %s%s" % ("gpu" if args["mode"] == "gpu" else "cpu-rehearsal",
                                 " (quick)" if args.get("quick") == "1" else ""))
    lines.append("date: %s" % datetime.datetime.now().astimezone().isoformat(timespec="seconds"))
    goal, elapsed = args.get("goal"), args.get("elapsed", "?")
    over = ("  OVER THE GOAL: see the step times" if goal and elapsed.isdigit() and
            args["mode"] == "gpu" and int(elapsed) > int(goal) else "")
    lines.append("host: %s   git: %s   elapsed: %s s%s%s"
                 % (socket.gethostname(), git_commit(), elapsed,
                    (" (goal: under %s s on an H200)" % goal) if goal else "", over))
    lines.append("device: %s (backend %s)   %s: %s bytes   peak bandwidth: %s"
                 % (smeta.get("device", "?"), smeta.get("backend", "?"),
                    smeta.get("cache_name", "cache"), smeta.get("cache_bytes", "?") or "?",
                    fmt_peak(num(smeta, "peak_bandwidth_gbps"))))
    if smeta.get("counters"):
        lines.append("counters (CUPTI, in the sweep): %s" % smeta["counters"])
    if tmeta:
        lines.append("torch: %s on %s" % (tmeta.get("torch", "?"), tmeta.get("device", "?")))
    return lines


def run_lines(args, steps, caps):
    """What gpu-check itself recorded: the node, each step with its seconds and cap, the
    suites' counts."""
    lines = ["", "node (gpu-check's first step; 'meson' lines: where the build found them):"]
    lines += ["  %-22s %s" % kv for kv in read_inventory(args.get("inventory"))]
    lines += ["", "steps (seconds each; the step's cap after the slash: the CUPTI range "
              "profiler's replays are in the sweep's):"]
    for name, status, detail, seconds in steps:
        cap = caps.get(name, "")
        past = "  PAST ITS CAP" if cap and seconds and int(seconds) > int(cap) else ""
        lines.append("  %-11s %-8s %4s s%s  %s%s" % (name, status, seconds or "?",
                                                    "/%-4s" % cap if cap else "", detail, past))
    lines += ["", "tests (meson test):"]
    for l in (read_text(args["tests"]) if os.path.exists(args["tests"]) else "").splitlines():
        parts = l.split()
        kv = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
        if parts:
            lines.append("  %-5s passed %s, failed %s, skipped %s (cmocka skips %s), "
                         "timed out %s, exit %s" % (parts[0], kv.get("ok"), kv.get("fail"),
                                                   kv.get("skipped"), kv.get("cmocka_skipped"),
                                                   kv.get("timeout"), kv.get("rc")))
    return lines


def count_lines(sweep, torch):
    """The points of each file by status (the row and noisy counts as fusebench --derive
    writes them), and every distinct launch count of each variant."""
    (_, srows, sfile), (_, trows, tfile) = sweep, torch
    c = collections.Counter(r.get("status") for r in srows)
    verified = sum(1 for r in srows if r.get("status") == "ok" and r.get("verified"))
    lines = ["", "sweep: %d points: %d ok (%d verified), %d failed, %d skipped, %d noisy"
             % (sfile.get("rows", 0), c["ok"], verified, c["failed"], c["skipped"],
                sfile.get("noisy", 0))]
    if trows:
        c = collections.Counter(r.get("status") for r in trows)
        lines.append("torch: %d points: %d ok, %d failed, %d skipped"
                     % (tfile.get("rows", 0), c["ok"], c["failed"], c["skipped"]))
    lines += ["", "launches per call (counted; every distinct value over the sizes):"]
    for rows in (srows, trows):
        seen = {}
        for r in rows:  # a noisy row's launches are counted all the same
            if r.get("status") in ("ok", "noisy") and isinstance(r.get("launches"), int):
                seen.setdefault(r["variant"], set()).add(r["launches"])
        lines += ["  %-24s %s" % (v, ", ".join(str(x) for x in sorted(ls)))
                  for v, ls in seen.items()]
    return lines


def speedup_lines(srows, trows, sizes):
    """Each paired row at the sizes of interest and the largest: its time, its pair's time
    and the speedup, all as fusebench --derive wrote them."""
    lines = ["", "median time per call, and speedups (time / pair time, as fusebench wrote "
             "them; for an eager variant, what fusing saves):",
             "  %-10s %-26s %-26s %11s %11s %9s" % ("n", "variant", "vs (pair)", "time",
                                                   "pair time", "speedup")]
    probe = list(SIZES_OF_INTEREST) + ([sizes[-1]] if sizes and sizes[-1] not in
                                       SIZES_OF_INTEREST else [])
    for n in probe:
        if n not in sizes:
            lines.append("  %-10s (not in this sweep)" % fmt_n(n))
            continue
        for label, rows in (("", srows), ("torch: ", trows)):
            for r in paired(rows, n):
                sp = num(r, "speedup")
                lines.append("  %-10s %-26s %-26s %11s %11s %9s%s" % (
                    fmt_n(n), label + r["variant"], r["pair"], fmt_time(num(r, "time_median_s")),
                    fmt_time(num(r, "pair_time_s")), "n/a" if math.isnan(sp) else "%.2fx" % sp,
                    "  (noisy: disturbed by other programs)" if r.get("status") == "noisy" else ""))
    return lines


def bandwidth_lines(s, srows, t, trows, sizes, peak):
    """Bandwidth at 100M (or the largest size): each variant's, against the peak and, as
    fusebench wrote it (copy_fraction), against our copy kernel; the 90% targets."""
    big = 100000000 if 100000000 in sizes else (sizes[-1] if sizes else None)
    if big is None:
        return [""]
    lines = ["", "bandwidth at n=%s (bytes_model / median time; peak %s):" % (
        fmt_n(big), fmt_peak(peak))]

    def line(v, r, copy):
        bw, frac = num(r, "bandwidth_gbps"), num(r, "copy_fraction")
        of_peak = "" if math.isnan(peak) or peak == 0 else "  %5.1f%% of peak" % (100 * bw / peak)
        of_copy = "" if math.isnan(frac) or not copy else "  %5.1f%% of copy" % (100 * frac)
        return [] if math.isnan(bw) else ["  %-22s %9.1f GB/s%s%s" % (v, bw, of_peak, of_copy)]
    for v in variants_of(srows):
        lines += line(v, s.get((v, big), {}), True)
    # the platform's copy as a fraction of ours (its copy_fraction), turned round
    platform = num(by_role(s, big, "platform_reference"), "copy_fraction")
    if not math.isnan(platform) and platform > 0:
        lines.append("  our copy kernel at %.1f%% of the platform's copy (target: 90%%: %s)"
                     % (100 / platform, "met" if 1 / platform >= 0.9 else "MISSED"))
    for v in variants_of(srows, ("fused",)):
        f = num(s.get((v, big), {}), "copy_fraction")
        if not math.isnan(f):
            lines.append("  %s at %.1f%% of our copy (target: 90%%: %s)"
                         % (v, 100 * f, "met" if f >= 0.9 else "MISSED"))
    for v in variants_of(trows):
        lines += line(v, t.get((v, big), {}), False)
    return lines


def summarize(args):
    problems, degraded, caps = [], [], {}
    steps = read_steps(args["steps"], caps)
    for name, status, detail, _ in steps:
        if status in ("FAIL", "degraded"):
            (problems if status == "FAIL" else degraded).append("%s: %s" % (name, detail))
    fb = args["fusebench"]
    sweep, torch, inprocess, cold = (read_results(fb, args.get(k), problems)
                                     for k in ("sweep", "torch", "inprocess", "cold"))
    for label, results in (("sweep", sweep), ("torch", torch), ("torch in-process", inprocess)):
        problems += point_problems(label, results[1])
    if not sweep[1]:
        problems.append("sweep: no rows in %s" % args["sweep"])
    nocupti = read_results(fb, args.get("nocupti"), problems)

    refused = ", ".join(d.split(":", 1)[0] for d in degraded)
    # DEGRADED: a pass where the machine refused a part (its counters, ncu, the sanitizer).
    verdict = "FAIL" if problems else "DEGRADED (refused: %s)" % refused if degraded else "PASS"
    fix = COUNTERS_FIX if any(PRIVILEGES.search(d) for d in degraded + problems) else ""
    s, t = index(sweep[1]), index(torch[1])
    sizes = sorted({n for (_, n) in s})
    lines = header_lines(args, verdict, problems, degraded, fix, sweep[0], torch[0])
    lines += run_lines(args, steps, caps) + count_lines(sweep, torch)
    lines += speedup_lines(sweep[1], torch[1], sizes)
    lines += bandwidth_lines(s, sweep[1], t, torch[1], sizes, num(sweep[0], "peak_bandwidth_gbps"))
    lines += inprocess_lines(*inprocess[:2]) + nocupti_lines(s, nocupti) + dram_table(s, args, cold)
    tmp = args["out"] + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, args["out"])
    # gpu-check's last line, the verdict with where to look.
    run, where = "%s s (%s)" % (args.get("elapsed", "?"), args["mode"]), os.path.dirname(os.path.abspath(tmp))
    if problems:
        print("gpu-check: FAILED after %s: %s; see %s and %s" % (
            run, "; ".join(problems[:3]), args["out"], args.get("log", "gpu-check.log")))
    elif degraded:
        print("gpu-check: DEGRADED (a pass) in %s: %s refused by this machine (summary.txt says "
              "why%s); results in %s" % (run, refused, " and how to fix it" if fix else "", where))
    else:
        print("gpu-check: passed in %s; results in %s" % (run, where))
    return 0 if not problems else 1


def sizes_of(mode, arg, fusebench, config, wanted):
    """A comma list of sizes, parsed by fusebench (tools/torch_peer.py's read_plan). mode
    config: ARG's [sweep] sizes that are in WANTED (all of them when none is); mode csv: the n
    of CSV ARG that are in WANTED (none: all)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import torch_peer as tp
    have = tp.read_plan(fusebench, arg)["sizes"] if mode == "config" else tp.sizes_from_csv(fusebench, arg)
    keep = set(tp.read_plan(fusebench, config, wanted)["sizes"])
    print(",".join(str(n) for n in ([n for n in have if n in keep] or have)))
    return 0


def import_versions():
    """torch's and triton's "NAME: version" lines, printed by the python that has torch."""
    import importlib
    for name in ("torch", "triton"):
        try:
            m = importlib.import_module(name)
            extra = " (CUDA %s, device available: %s)" % (m.version.cuda, m.cuda.is_available()) if name == "torch" else ""
            print("%s: %s%s" % (name, m.__version__, extra))
        except Exception as e:
            print("%s: not importable (%s)" % (name, (str(e).splitlines() or [type(e).__name__])[0][:100]))
    return 0


def main(argv):
    if argv[:1] == ["--sizes-of"] and len(argv) == 6:
        return sizes_of(*argv[1:])
    if argv == ["--import-versions"]:
        return import_versions()
    if len(argv) >= 2 and argv[0] == "--verdict":
        try:
            print(verdict(argv[1], argv[2:]))
        except (IndexError, ValueError) as e:
            print("gpu_check_summary: --verdict %s: %s" % (argv[1], e), file=sys.stderr)
            return 2
        return 0
    if len(argv) >= 2 and argv[0] == "--collect-ncu":
        try:
            return collect_ncu(argv[1], argv[2:])
        except (OSError, ValueError) as e:
            print("gpu_check_summary: %s" % e, file=sys.stderr)
            return 1
    args = {}
    it = iter(argv)
    for a in it:
        if not a.startswith("--"):
            print("gpu_check_summary: unexpected argument %r" % a, file=sys.stderr)
            return 2
        try:
            args[a[2:]] = next(it)
        except StopIteration:
            print("gpu_check_summary: %s needs a value" % a, file=sys.stderr)
            return 2
    args.setdefault("fusebench", os.environ.get("FB_FUSEBENCH") or
                    os.path.join(ROOT, "build", "fusebench"))
    for required in ("mode", "out", "steps", "tests", "sweep"):
        if required not in args:
            print("gpu_check_summary: --%s is required" % required, file=sys.stderr)
            return 2
    return summarize(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
