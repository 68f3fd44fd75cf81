#!/usr/bin/env python3
"""PyTorch as a peer: times what PyTorch does for c = relu(a + b), and for every [chain NAME]
of the config, at fusebench's sizes and writes the rows in fusebench's CSV schema, so the plots
can overlay them on our own variants.

The plan comes from fusebench itself (`fusebench CONFIG --print-plan`, JSON: the sizes, the
enabled variants with their ops, the [measure] stop rule, the CSV columns): nothing of the
config's syntax, the size parser or the column list is re-implemented here. The binary is
build/fusebench of this repository unless --fusebench says otherwise.

Variants (the backend column is "torch" for every row; the variant column), and the variant of
fusebench each one mirrors: its model (kernels, arrays moved, role) and its pair are that
variant's, read from the plan, so that no number of the model is written here:
  torch_eager_add_relu      (a + b).relu()                           mirrors eager_add_relu
  torch_eager_threshold     torch.threshold(a + b, 0, 0)             mirrors eager_add_threshold
  torch_compile_add_relu    torch.compile of the first one, dynamic=False, fullgraph=True:
                            one fused kernel                         mirrors fused_add_relu
  torch_eager_add_relu_out  torch.add(a, b, out=t); torch.clamp_min(t, 0, out=c) into
                            preallocated t and c                     mirrors eager_add_relu
  torch_compile_out         torch.compile of c.copy_((a + b).relu()) with c a preallocated
                            argument: inductor stores the fused result straight into c
                                                                     mirrors fused_add_relu
For each [chain NAME] of the config (its ops from the plan; TORCH_OPS below maps an op name to
torch, the only place op names appear here), allocating like the first three rows:
  torch_eager_NAME          one torch call per op, a fresh tensor each   mirrors eager_NAME
  torch_compile_NAME        torch.compile of the same function (dynamic=False,
                            fullgraph=True): one fused kernel            mirrors fused_NAME
A variant runs when the config enables the variant it mirrors (the plan lists only those).
Chains are checked against a float32 reference computed op by op in float64 and rounded to
float32 after each op: a chain of exact ops (ulp_bound 0 in fusebench's op table) is held bit
for bit, NaN matching NaN; a chain holding a transcendental op (ulp_bound > 0) within
|out - ref| <= 1e-5 + 1e-5 |ref| (see CHAIN_TRANSCENDENTAL_TOL). Compiled chains are held to the
same check: inductor compiles without FMA contraction and with IEEE division
(COMPILE_SETTINGS), so that a compiled exact chain rounds as our kernels (-fmad=false) do.

torch's environment (TORCH_ENV, set when this module is imported, before torch is):
TEARDOWN_CUPTI=1 (the profiler session that counts launches leaves no CUPTI attached to the
timed calls) and TORCHINDUCTOR_COMPILE_THREADS=1 (no compile worker processes).

Like for like: fusebench's kernels write preallocated buffers, so the *_out rows are the fair
comparison with ours; the allocating rows show what an ordinary PyTorch call costs (a fresh
output per call, and for eager a fresh temporary too). The *_out variants are checked at every
point: the result must land in the preallocated c (poisoned before the verified call) and the
calls must allocate nothing (bytes counted per call, below); otherwise the point fails.

What the numbers are (said here once, and in the CSV's metadata):
  * time: per call, wall time of a batch of calls divided by the batch (CUDA events around the
    batch on a GPU, time.perf_counter_ns on the CPU). Eager calls allocate their outputs
    (tmp and c) through PyTorch's caching allocator on every call: that is what eager costs.
  * launches: counted, not assumed. GPU: the device kernels torch.profiler records for one call
    (memcpy/memset records excluded). CPU eager: the leaf aten operators of one call (aten::relu
    runs as its child aten::clamp_min: one pass over memory each). CPU compile: the kernels
    inductor generated for the graph (torch._inductor.metrics.generated_kernel_count; each runs
    once per call); the profiler cannot see inside the compiled C++ graph.
  * bytes_model: the mirrored variant's elements_moved (from the plan: fusebench's model) x 4
    bytes x n, as for our variants; bandwidth_gbps = bytes_model / time. A compile that
    generates more kernels than its mirror's one moves more than that (its launches column
    shows the count, and the log says so): the bandwidth is then an effective one.
  * allocated bytes per call (logged, and 0 required of the *_out variants): GPU: the caching
    allocator's allocated_bytes.all.allocated counter across the profiled calls; CPU: the
    allocations torch.profiler(profile_memory=True) attributes to the calls (the compiled
    graph's output buffers included).
  * kernel_time_s (GPU only): the summed kernel durations the profiler reports for 3 calls in
    one profiler session, divided by 3 (a mean, not a median);
    launch_overhead_s = time_median_s - kernel_time_s.
  * dram/L2 bytes and copy_fraction: not measured here (empty cells).
  * role, pair: the mirrored variant's role, and for an eager one the torch variant that
    mirrors its pair and writes its outputs the same way (allocating or preallocated);
    speedup = t_eager / t_compile at the same size is derived by fusebench (`fusebench
    --derive CSV`, src/measure/pairing.h) once a size is done and written into the row.

dynamic=False compiles one graph per size (the size is a constant in the generated kernel, as
in our handwritten kernels' launch); dynamo's cache is reset before each size so that the
recompile limit never sends a size silently back to eager.

Statistics match fusebench's (src/measure/stats.h): warm-up, then samples until the relative
half-width of the median's 95% confidence interval (order statistics of 1-based ranks
floor(n/2 - 1.96 sqrt(n)/2) and ceil(n/2 + 1 + 1.96 sqrt(n)/2)) is under the target, or the
time / repetition cap is hit; median, min, max, p10, p90 with numpy's "linear" percentile.

Exit status: 0 every point ok or skipped, 1 a point failed (error or wrong result),
2 usage or configuration error, or no usable torch (not installed for this python, or
--device cuda with a torch that has no CUDA): one line with the command that installs it,
printed after every check that needs no torch (options, the plan, the variants, the output
path); nothing is measured or written then.
"""

import argparse
import collections
import datetime
import json
import math
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import warnings

# Set before torch is imported, here at this module's import (tools/torch_inprocess.py imports
# it first too), for every torch this process loads:
#   TEARDOWN_CUPTI=1: the launches and kernel times are counted with torch.profiler before a
#     point is timed, and Kineto leaves CUPTI attached after a profiler session unless this is
#     1 (pytorch#144455, read by Kineto when a session stops): every later call would carry
#     CUPTI's callbacks, most of a small size's time.
#   TORCHINDUCTOR_COMPILE_THREADS=1: inductor compiles in this process instead of a pool of
#     worker processes that outlives the compile; on a GPU each worker with a CUDA context is
#     one more process NVML counts on the device, and fusebench's disturbance judge drops every
#     sample taken while another process holds a context (measure/disturbance.c). Read when
#     torch._inductor.config is imported; compile_settings() sets the config key as well.
# Forced, not defaulted: a value inherited from the shell would bias the times.
TORCH_ENV = (("TEARDOWN_CUPTI", "1"), ("TORCHINDUCTOR_COMPILE_THREADS", "1"))


def set_torch_env(environ=os.environ):
    for key, value in TORCH_ENV:
        environ[key] = value


set_torch_env()

# The columns this peer writes values into. The CSV's columns and their order are fusebench's
# schema, read from `--print-plan` at run time (every other column is left empty); check_columns
# refuses to run when one of these is no longer in the schema (a rename in C).
PEER_COLUMNS = (
    "backend", "device", "variant", "dtype", "n", "launches", "bytes_model", "reps", "batch",
    "time_median_s", "time_min_s", "time_max_s", "time_p10_s", "time_p90_s", "noise",
    "bandwidth_gbps", "kernel_time_s", "launch_overhead_s", "cache", "verified", "status",
    "reason", "role", "pair", "speedup",
)

# What a variant is: what it runs (Peer.fn_for), the variant of fusebench it mirrors (its
# model and pair come from the plan: resolve_variants) and whether it writes preallocated
# outputs (no allocation per call, like fusebench's own kernels). Chain variants also carry
# their ops (tuple of plan op dicts); the add_relu ones None. resolve_variants fills role,
# pair, launches and elements from the plan.
Variant = collections.namedtuple(
    "Variant", "kind mirror preallocated ops role pair launches elements",
    defaults=(None, "", "", None, None))

BACKEND = "torch"

VARIANTS = {
    "torch_eager_add_relu": Variant("eager_relu", "eager_add_relu", False),
    "torch_eager_threshold": Variant("eager_threshold", "eager_add_threshold", False),
    "torch_compile_add_relu": Variant("compile_relu", "fused_add_relu", False),
    "torch_eager_add_relu_out": Variant("eager_relu_out", "eager_add_relu", True),
    "torch_compile_out": Variant("compile_relu_out", "fused_add_relu", True),
}


def resolve_variants(plan, variants):
    """The variants whose mirror the plan enables, in order, with their model from the plan:
    role, launches and elements_moved of the mirror, and the pair: the torch variant that
    mirrors the mirror's pair and writes its outputs the same way (like for like)."""
    by_name = {v["name"]: v for v in plan["variants"]}
    resolved = collections.OrderedDict()
    for name, v in variants.items():
        m = by_name.get(v.mirror)
        if m is not None:
            resolved[name] = v._replace(role=m["role"], launches=m["launches"],
                                        elements=m["elements_moved"])
    for name, v in resolved.items():
        mirror_pair = by_name[v.mirror]["pair"]
        if v.role == "eager" and mirror_pair:
            twins = [n for n, w in resolved.items()
                     if w.mirror == mirror_pair and w.preallocated == v.preallocated]
            resolved[name] = v._replace(pair=twins[0] if twins else "")
    return resolved


def bytes_model(variant, n):
    """Model bytes per call: the mirror's elements_moved * sizeof(fp32) * n."""
    return variant.elements * SIZEOF_FP32 * n


def fusebench_json(cmd, timeout):
    """The JSON fusebench prints for cmd (argv); UsageError with fusebench's own message when
    it refuses (exit 2) or cannot be run."""
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as e:
        raise UsageError("%s: %s" % (" ".join(cmd), e))
    if out.returncode != 0:
        raise UsageError("%s (exit %d): %s" % (" ".join(cmd), out.returncode,
                                               out.stderr.strip()))
    try:
        return json.loads(out.stdout)
    except ValueError as e:
        raise UsageError("%s: not JSON: %s" % (" ".join(cmd), e))


def derive(fusebench, csvs):
    """`fusebench --derive CSV...` (src/chart/derive_json.h): the numbers fusebench derives
    from results files (speedups, sizes, ...), as a dict."""
    return fusebench_json([fusebench, "--derive"] + list(csvs), 120)


def fill_speedups(fusebench, path, rows):
    """The speedup of every row, as fusebench derives it from the CSV at path (which holds
    rows): t_eager / t_pair at the same size, empty where it has none."""
    derived = derive(fusebench, [path])["rows"]
    speedups = {(r["variant"], r["n"]): r["speedup"] for r in derived}
    for r in rows:
        s = speedups.get((r["variant"], r["n"]))
        r["speedup"] = s if s is not None else ""


# The op name -> torch mapping: fn(torch, inputs, params) -> a fresh tensor, one torch call
# (one pass over memory) per op. inputs: (a, b) for a binary op, (x,) for a unary one (the
# arity comes from fusebench's op table, through the plan). The reference runs the same
# functions on float64 tensors.
TORCH_OPS = {
    "copy": lambda torch, xs, p: xs[0].clone(),
    "add": lambda torch, xs, p: torch.add(xs[0], xs[1]),
    "mul": lambda torch, xs, p: torch.mul(xs[0], xs[1]),
    # aten::relu runs as clamp_min(x, 0) (NaN passes); calling it directly is the same pass.
    "relu": lambda torch, xs, p: torch.clamp_min(xs[0], 0.0),
    "threshold": lambda torch, xs, p: torch.threshold(xs[0], p[0], p[1]),
    "scale": lambda torch, xs, p: torch.mul(xs[0], p[0]),
    "bias": lambda torch, xs, p: torch.add(xs[0], p[0]),
    "sigmoid": lambda torch, xs, p: torch.sigmoid(xs[0]),
    "gelu": lambda torch, xs, p: torch.nn.functional.gelu(xs[0], approximate="tanh"),
}

# Chains with a transcendental op (ulp_bound > 0 in fusebench's op table) are held to
# |out - ref| <= atol + rtol |ref| against the float64 reference: torch's float32 exp / tanh
# are within a few ulp (rtol 1e-5 is ~84 ulp of float32), and a formula of the form
# 0.5 x (1 + tanh(u)) cancels in 1 + tanh(u) for x << 0: an absolute error up to about
# |x| 2^-24 (~6e-7 at x = -10; the inputs are N(0, 1) sums), hence atol 1e-5.
CHAIN_TRANSCENDENTAL_TOL = (1e-5, 1e-5)  # (atol, rtol)

# inductor's settings for every compiled variant, (dotted key of torch._inductor.config,
# value), so that a compiled chain rounds as our kernels do (nvcc -fmad=false, IEEE division):
#   emulate_precision_casts: besides keeping fp16/bf16 casts, it compiles the Triton kernels
#     with enable_fp_fusion=False (torch 2.11, codegen/triton.py), so a*b + c stays a rounded
#     multiply and a rounded add instead of one FMA: a compiled exact chain (mul, bias, ...)
#     then matches the reference bit for bit on a GPU too;
#   eager_numerics.division_rounding: x / y as div_rn, not Triton's approximate div.full;
#   cpp.enable_floating_point_contract_flag "off", use_fast_math False: the defaults, pinned
#     (the CPU's C++ is compiled with -ffp-contract=off; Triton's exp is libdevice's);
#   compile_threads 1: no worker processes (TORCH_ENV says why);
#   fx_graph_cache False: a cache hit would skip code generation, and so the kernel count.
# What no setting reaches: tl.sigmoid, Triton's own 1 / (1 + exp(-x)) with its approximate exp
# and division, a few ulp off on a GPU: within CHAIN_TRANSCENDENTAL_TOL here; the in-process
# peer's check is the mirror's ULP bound (fusebench's op table: 4 for sigmoid), which such a
# result may exceed (its row then fails verification, naming the element).
COMPILE_SETTINGS = (
    ("emulate_precision_casts", True),
    ("eager_numerics.division_rounding", True),
    ("cpp.enable_floating_point_contract_flag", "off"),
    ("use_fast_math", False),
    ("compile_threads", 1),
    ("fx_graph_cache", False),
)


def compile_settings(config, settings=COMPILE_SETTINGS):
    """Sets each of settings on inductor's config module (config: torch._inductor.config);
    RuntimeError naming the key when this torch has no such key (a compiled variant would
    not round as ours: its point fails rather than run unlike)."""
    for key, value in settings:
        *path, last = key.split(".")
        obj = config
        for part in path + [last]:
            if not hasattr(obj, part):
                raise RuntimeError("this torch's inductor has no config key %s (needed: %s)"
                                   % (key, ", ".join("%s=%s" % kv for kv in settings)))
            if part != last:
                obj = getattr(obj, part)
        setattr(obj, last, value)


def settings_text(pairs):
    """"k=v k=v" of (key, value) pairs, for the CSV's metadata."""
    return " ".join("%s=%s" % kv for kv in pairs)


def chain_tolerance(ops):
    """The check of a chain's result, compiled or eager: None (bit for bit) for a chain of
    exact ops, compiled ones included (no FMA contraction: COMPILE_SETTINGS), else
    CHAIN_TRANSCENDENTAL_TOL."""
    return None if chain_is_exact(ops) else CHAIN_TRANSCENDENTAL_TOL

# One timed sample should last at least this long, so that timer resolution (~1 us for CUDA
# events' start/stop pair, ~0.1 us for perf_counter_ns) and the event overhead stay < ~2%.
MIN_SAMPLE_S = 50e-6
MAX_BATCH = 100000
# Calls in the one profiler session of a point (launches and kernel time are per call).
PROFILED_CALLS = 3
SIZEOF_FP32 = 4
# Written into a preallocated output before the verified call: relu(a + b) is >= 0 or NaN,
# never -1, so an element the variant failed to write cannot match the reference.
OUTPUT_POISON = -1.0


class UsageError(Exception):
    """A bad option or configuration value: exit 2."""


def shown(text):
    """text for one line of a message: control characters (a newline in a --config path)
    written as escapes, so data never breaks or forges a line of what the tool says."""
    return "".join(c if c.isprintable() or c == "\t" else
                   c.encode("unicode_escape").decode("ascii") for c in str(text))


# What --print-plan's JSON must hold for the peers (src/output/plan_json.h), with its type.
PLAN_KEYS = (("columns", list), ("measure", dict), ("sizes", list), ("variants", list))


def log(msg):
    print("torch_peer: " + msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# The plan: from fusebench itself
# --------------------------------------------------------------------------------------------

def sizes_from_csv(fusebench, path):
    """The distinct n of a fusebench CSV (so a peer run uses exactly the sweep's sizes), as
    fusebench reads it (`--derive`)."""
    sizes = derive(fusebench, [path])["sizes"]
    if not sizes:
        raise UsageError("%s: no rows" % path)
    return [int(n) for n in sizes]


# --------------------------------------------------------------------------------------------
# Configuration
# --------------------------------------------------------------------------------------------

def fnv1a64(data):
    """FNV-1a 64 of bytes, as the sweep stores config_hash (src/config/config.h)."""
    h = 0xcbf29ce484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def read_plan(fusebench, config, sizes=None, where="--fusebench PATH"):
    """The plan of `config` as `fusebench CONFIG --print-plan` prints it (a dict: see
    src/output/plan_json.h), with --sizes passed on when given (fusebench parses it).
    UsageError with fusebench's own message when it refuses the config, and when the plan
    lacks what the peers read (PLAN_KEYS: a fusebench of another version) (exit 2). where:
    the option that names another binary, for the message when there is none."""
    if not os.access(fusebench, os.X_OK):
        raise UsageError("%s: no fusebench binary there (build it: scripts/ensure-build build; "
                         "or give %s)" % (fusebench, where))
    plan = fusebench_json([fusebench, config, "--print-plan"] +
                          (["--sizes", sizes] if sizes else []), 60)
    for key, kind in PLAN_KEYS:
        if not isinstance(plan, dict) or not isinstance(plan.get(key), kind):
            raise UsageError("%s --print-plan: the plan has no %s (a JSON %s): a fusebench "
                             "of another version than this tool? (rebuild it)"
                             % (fusebench, key, "array" if kind is list else "object"))
    return plan


def check_columns(columns):
    """UsageError when a column this peer fills is not in fusebench's schema."""
    missing = [c for c in PEER_COLUMNS if c not in columns]
    if missing:
        raise UsageError("fusebench's CSV schema has no column %s, which torch_peer.py writes: "
                         "update PEER_COLUMNS" % ", ".join(missing))


def chain_variants(plan):
    """torch_eager_NAME / torch_compile_NAME for each [chain NAME] whose eager_NAME /
    fused_NAME is enabled in the plan, in plan order, mirroring them (resolve_variants gives
    them their model). Built-in variants (no chain) are not mirrored here, eager_add_relu_graph
    (one_launch: fusebench's kernels in one CUDA graph) included: the peer's add_relu rows are
    its own, VARIANTS above."""
    variants = collections.OrderedDict()
    for v in plan["variants"]:
        if not v.get("chain"):
            continue
        for op in v["ops"]:
            if op["op"] not in TORCH_OPS:
                raise UsageError('[chain %s]: op "%s" has no torch mapping in TORCH_OPS'
                                 % (v["chain"], op["op"]))
        if v["role"] == "eager":
            variants["torch_eager_" + v["chain"]] = Variant(
                "chain_eager", v["name"], False, tuple(v["ops"]))
        elif v["role"] == "fused":
            variants["torch_compile_" + v["chain"]] = Variant(
                "chain_compile", v["name"], False, tuple(v["ops"]))
    return variants


def run_chain(torch, ops, a, b):
    """The chain's ops in order through TORCH_OPS: the first on (a, b) or (a,), each next on
    the previous result."""
    x = None
    for i, op in enumerate(ops):
        xs = ((a, b) if op["arity"] == 2 else (a,)) if i == 0 else (x,)
        x = TORCH_OPS[op["op"]](torch, xs, op["params"])
    return x


def chain_is_exact(ops):
    return all(op["ulp_bound"] == 0 for op in ops)


# --------------------------------------------------------------------------------------------
# Statistics (the same definitions as src/measure/stats.h)
# --------------------------------------------------------------------------------------------

def percentile_sorted(xs, p):
    n = len(xs)
    if n == 0:
        return float("nan")
    h = (n - 1) * min(max(p, 0.0), 100.0) / 100.0
    lo = int(math.floor(h))
    if lo + 1 >= n:
        return xs[n - 1]
    return xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])


def noise_sorted(xs):
    """Relative half-width of the distribution-free 95% CI of the median."""
    n = len(xs)
    if n == 0:
        return float("nan")
    if n == 1:
        return float("inf")
    if xs[0] == xs[-1]:
        return 0.0
    med = percentile_sorted(xs, 50)
    if med == 0:
        return float("inf")
    half = 1.96 * math.sqrt(n) / 2
    j = min(max(int(math.floor(n / 2 - half)), 1), n)
    k = min(max(int(math.ceil(n / 2 + 1 + half)), 1), n)
    return (xs[k - 1] - xs[j - 1]) / 2 / abs(med)


def should_stop(m, reps, elapsed, noise):
    if reps <= 0:
        return False
    if reps >= m["max_reps"]:
        return True
    if elapsed >= m["max_time"]:
        return True
    return reps >= m["min_reps"] and elapsed >= m["min_time"] and noise <= m["target_noise"]


# --------------------------------------------------------------------------------------------
# Device facts
# --------------------------------------------------------------------------------------------

def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "cpu"


def cpu_l3_bytes():
    """Largest cache of cpu0 from sysfs ("32768K" -> bytes), or None."""
    best = None
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in os.listdir(base):
            try:
                with open(os.path.join(base, entry, "size")) as f:
                    text = f.read().strip()
                with open(os.path.join(base, entry, "level")) as f:
                    level = int(f.read().strip())
            except (OSError, ValueError):
                continue
            m = re.match(r"^(\d+)([KMG]?)$", text)
            if m:
                size = int(m.group(1)) * {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}[m.group(2)]
                if best is None or level > best[0]:
                    best = (level, size)
    except OSError:
        return None
    return best[1] if best else None


def git_commit(repo_dir):
    try:
        out = subprocess.run(["git", "-C", repo_dir, "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


# --------------------------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------------------------

class Peer:
    def __init__(self, torch, device, measure, columns=PEER_COLUMNS, variants=None):
        """measure: the plan's stop rule (warmup, min_reps, ...); columns: the CSV's (the
        plan's); variants: resolve_variants' (name -> Variant with its model)."""
        self.torch = torch
        self.device = device
        self.cuda = device.type == "cuda"
        self.m = measure
        self.columns = list(columns)
        self.variants = variants or {}

    def variant(self, name):
        return self.variants[name]

    # ---- the functions measured ----
    @staticmethod
    def add_relu(a, b):
        return (a + b).relu()

    @staticmethod
    def add_relu_into(a, b, c):
        """relu(a + b) written into the caller's c. Under torch.compile the copy_ becomes the
        fused kernel's store into c (no array-sized temporary: measure() checks that the call
        allocates nothing)."""
        return c.copy_((a + b).relu())

    def fn_for(self, variant, a, reset=True):
        """(fn, metrics, outs) for one point: fn(a, b) runs the variant once and returns its
        result; metrics is inductor's metrics module for a compiled variant (its
        generated_kernel_count counts the kernels of the graph just compiled), else None; outs
        are the preallocated buffers the call writes, the result's last (empty when the call
        allocates its own). reset=False keeps dynamo's state (tools/torch_inprocess.py resets
        it once per size, so that the compiled variants of a size live side by side)."""
        torch = self.torch
        kind = variant.kind
        if kind == "chain_eager":  # allocating: a fresh tensor per op, as plain PyTorch code
            return (lambda a, b: run_chain(torch, variant.ops, a, b)), None, ()
        if kind == "eager_relu":
            return self.add_relu, None, ()
        if kind == "eager_threshold":
            return (lambda a, b: torch.threshold(a + b, 0.0, 0.0)), None, ()
        if kind == "eager_relu_out":
            t, c = torch.empty_like(a), torch.empty_like(a)

            # The same two passes as our eager_add_relu: a + b into the temporary, then relu
            # into c (aten::relu is clamp_min(x, 0), which has an out= form; relu has none).
            def eager_out(a, b):
                torch.add(a, b, out=t)
                return torch.clamp_min(t, 0.0, out=c)
            return eager_out, None, (t, c)
        # A fresh dynamo state per size: dynamic=False recompiles for every new shape and the
        # recompile limit (8 by default) would otherwise make later sizes run eagerly.
        import torch._dynamo
        import torch._inductor.config as inductor_config
        import torch._inductor.metrics as inductor_metrics
        if reset:
            torch._dynamo.reset()
        compile_settings(inductor_config)  # before torch.compile: read when it compiles
        inductor_metrics.reset()
        if kind == "compile_relu":
            return torch.compile(self.add_relu, dynamic=False, fullgraph=True), inductor_metrics, ()
        if kind == "compile_relu_out":
            c = torch.empty_like(a)
            compiled = torch.compile(self.add_relu_into, dynamic=False, fullgraph=True)
            return (lambda a, b: compiled(a, b, c)), inductor_metrics, (c,)
        if kind == "chain_compile":  # allocating, like compile_relu: its output is fresh
            ops = variant.ops

            def chain(a, b):
                return run_chain(torch, ops, a, b)
            return torch.compile(chain, dynamic=False, fullgraph=True), inductor_metrics, ()
        raise ValueError("unknown variant kind %s" % kind)

    # ---- clocks ----
    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize(self.device)

    def time_batch(self, fn, a, b, batch):
        """Seconds for `batch` back-to-back calls (stream-ordered on a GPU)."""
        if self.cuda:
            start = self.torch.cuda.Event(enable_timing=True)
            stop = self.torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(batch):
                fn(a, b)
            stop.record()
            stop.synchronize()
            return start.elapsed_time(stop) * 1e-3
        t0 = time.perf_counter_ns()
        for _ in range(batch):
            fn(a, b)
        return (time.perf_counter_ns() - t0) * 1e-9

    # ---- counting with the profiler ----
    def profile_calls(self, fn, a, b, calls=PROFILED_CALLS):
        """(launches per call, mean summed kernel seconds per call or None, bytes allocated per
        call) from one torch.profiler session around `calls` calls. The count must divide
        evenly: a remainder means something ran only sometimes, and is reported rather than
        rounded away."""
        from torch.profiler import ProfilerActivity, profile
        activities = [ProfilerActivity.CPU]
        if self.cuda:
            activities.append(ProfilerActivity.CUDA)
        self.sync()
        if self.cuda:
            before = self.torch.cuda.memory_stats(self.device).get("allocated_bytes.all.allocated", 0)
        with profile(activities=activities, profile_memory=not self.cuda) as prof:
            for _ in range(calls):
                fn(a, b)
            self.sync()
        events = prof.events()
        if self.cuda:
            allocated = self.torch.cuda.memory_stats(self.device).get(
                "allocated_bytes.all.allocated", 0) - before
            kernels = [e for e in events if e.device_type == self.torch.autograd.DeviceType.CUDA
                       and not e.name.lower().startswith(("memcpy", "memset"))]
            # A device event's own interval (device_time_total reads 0 for events the
            # profiler marks async).
            usec = sum(e.time_range.elapsed_us() for e in kernels)
            count, seconds = len(kernels), usec * 1e-6 / calls
        else:
            # Allocations are attributed to the operator (or compiled graph) that made them as
            # a positive self_cpu_memory_usage; frees are negative.
            allocated = sum(max(e.self_cpu_memory_usage, 0) for e in events)
            # Leaf aten operators (one pass over memory each); allocations are not passes.
            leaves = [e for e in events if e.name.startswith("aten::")
                      and not e.name.startswith(("aten::empty", "aten::resize_"))
                      and not any(c.name.startswith("aten::") for c in e.cpu_children)]
            count, seconds = len(leaves), None
        if count % calls:
            raise RuntimeError("profiler saw %d kernels in %d calls: not the same every call"
                               % (count, calls))
        return count // calls, seconds, allocated / calls

    # ---- one point ----
    def inputs(self, n, seed):
        """Random a, b (fp32, N(0,1) drawn on the CPU from a seeded generator, so every
        device gets the same values), with a NaN in a and an (inf, -inf) pair that sums to NaN
        when n allows, so the NaN-propagation of relu / threshold is exercised."""
        torch = self.torch
        g = torch.Generator().manual_seed(seed)
        a = torch.randn(n, generator=g, dtype=torch.float32)
        b = torch.randn(n, generator=g, dtype=torch.float32)
        if n >= 8:
            a[n // 3] = float("nan")
            a[n // 2] = float("inf")
            b[n // 2] = float("-inf")
        return a, b

    def reference(self, a_cpu, b_cpu):
        """relu(a + b) with PyTorch's NaN semantics (y = x <= 0 ? 0 : x; NaN passes),
        computed on the CPU with torch.where, not with relu/threshold themselves."""
        torch = self.torch
        s = a_cpu + b_cpu
        return torch.where(s <= 0, torch.zeros_like(s), s)

    def chain_reference(self, ops, a_cpu, b_cpu):
        """The chain in float64 through TORCH_OPS, rounded to float32 after every op: for the
        exact ops that is IEEE float32 arithmetic (a float64 sum or product of two floats is
        exact or rounds once more harmlessly: 53 >= 2 * 24 + 2 bits), computed without torch's
        float32 kernels; for the transcendental ops a more accurate value than float32's."""
        torch = self.torch
        x = None
        for i, op in enumerate(ops):
            if i == 0:
                xs = (a_cpu.double(), b_cpu.double()) if op["arity"] == 2 else (a_cpu.double(),)
            else:
                xs = (x.double(),)
            x = TORCH_OPS[op["op"]](torch, xs, op["params"]).float()
        return x

    def verify(self, out, ref, tol=None):
        """Bit for bit (NaN matching NaN), or within tol = (atol, rtol) when given."""
        torch = self.torch
        o = out.detach().to("cpu")
        if o.shape != ref.shape or o.dtype != ref.dtype:
            return False, "output shape/dtype %s/%s, expected %s/%s" % (
                tuple(o.shape), o.dtype, tuple(ref.shape), ref.dtype)
        if tol is None:
            close = o == ref
        else:  # infinities must match exactly (inf - inf is NaN: not close)
            atol, rtol = tol
            close = (o == ref) | ((o.double() - ref.double()).abs()
                                  <= atol + rtol * ref.double().abs())
        same = close | (torch.isnan(o) & torch.isnan(ref))
        bad = int((~same).sum())
        if bad:
            i = int((~same).nonzero()[0])
            return False, "%d of %d elements differ; first at %d: got %r expected %r" % (
                bad, ref.numel(), i, float(o[i]), float(ref[i]))
        return True, ""

    def prepare(self, n):
        """Inputs on the device and the CPU references for size n, shared by the variants:
        relu(a + b), and each chain's (made on first use, by reference_for)."""
        a_cpu, b_cpu = self.inputs(n, seed=n)
        return {"a": a_cpu.to(self.device), "b": b_cpu.to(self.device), "a_cpu": a_cpu,
                "b_cpu": b_cpu, "ref": self.reference(a_cpu, b_cpu), "chain_refs": {}}

    def reference_for(self, variant, data):
        """(reference, tolerance or None for bit-exact) of a variant at data's size."""
        if variant.ops is None:
            return data["ref"], None
        key = json.dumps(variant.ops, sort_keys=True)
        if key not in data["chain_refs"]:
            data["chain_refs"][key] = self.chain_reference(variant.ops, data["a_cpu"],
                                                           data["b_cpu"])
        return data["chain_refs"][key], chain_tolerance(variant.ops)

    def measure(self, name, n, device_name, data):
        """One CSV row for variant `name` at size n; data = prepare(n), or an exception
        raised by prepare(n) (the point then fails or is skipped with its message). The row's
        "allocated" entry (bytes per call; not a CSV column) is for the log."""
        variant = self.variant(name)
        row = {c: "" for c in self.columns}
        row.update(role=variant.role, pair=variant.pair)
        row.update(backend=BACKEND, device=device_name, variant=name, dtype="fp32", n=n,
                   bytes_model=bytes_model(variant, n), cache="warm", verified=0,
                   status="failed", allocated="")
        torch = self.torch
        try:
            if isinstance(data, BaseException):
                raise data
            a, b = data["a"], data["b"]
            ref, tol = self.reference_for(variant, data)
            fn, metrics, outs = self.fn_for(variant, a)
            # A value relu(a + b) never takes: an output left unwritten cannot pass.
            for buf in outs:
                buf.fill_(OUTPUT_POISON)
            t0 = time.monotonic()
            out = fn(a, b)  # compiles, for torch.compile
            self.sync()
            if metrics is not None:
                log("  %s n=%d: compiled in %.1f s" % (name, n, time.monotonic() - t0))
            if outs and out.data_ptr() != outs[-1].data_ptr():
                row["reason"] = "result not written into the preallocated output"
                return row
            ok, why = self.verify(out, ref, tol)
            del out
            if not ok:
                row["reason"] = "verification failed: " + why
                return row
            row["verified"] = 1

            for _ in range(self.m["warmup"]):
                fn(a, b)
            self.sync()

            launches, kernel_s, allocated = self.profile_calls(fn, a, b)
            if metrics is not None and not self.cuda:
                launches = int(metrics.generated_kernel_count)
            row.update(launches=launches, allocated=allocated)
            if kernel_s is not None:
                row["kernel_time_s"] = kernel_s
            if launches != variant.launches:
                log("  %s n=%d: %d kernels per call where %s has %d (bytes_model is the "
                    "model's: the bandwidth is an effective one)"
                    % (name, n, launches, variant.mirror, variant.launches))
            if variant.preallocated and allocated > 0:
                row["reason"] = ("allocates %d bytes per call (%.2f arrays of n): not an "
                                 "out variant" % (allocated, allocated / (SIZEOF_FP32 * n)))
                return row

            # Batch: enough calls that one sample lasts MIN_SAMPLE_S.
            one = min(self.time_batch(fn, a, b, 1) for _ in range(3))
            batch = 1 if one >= MIN_SAMPLE_S else min(MAX_BATCH, int(math.ceil(MIN_SAMPLE_S / max(one, 1e-9))))
            samples = []
            start = time.monotonic()
            noise = float("nan")
            while True:
                samples.append(self.time_batch(fn, a, b, batch) / batch)
                xs = sorted(samples)
                noise = noise_sorted(xs)
                if should_stop(self.m, len(samples), time.monotonic() - start, noise):
                    break
            med = percentile_sorted(xs, 50)
            row.update(reps=len(xs), batch=batch, time_median_s=med, time_min_s=xs[0],
                       time_max_s=xs[-1], time_p10_s=percentile_sorted(xs, 10),
                       time_p90_s=percentile_sorted(xs, 90), noise=noise,
                       bandwidth_gbps=row["bytes_model"] / med / 1e9 if med > 0 else "",
                       status="ok")
            if self.cuda and row["kernel_time_s"] != "":
                row["launch_overhead_s"] = med - row["kernel_time_s"]
            return row
        except (torch.cuda.OutOfMemoryError, MemoryError) as e:
            row.update(status="skipped", verified=0,
                       reason="out of memory: " + str(e).splitlines()[0][:150])
            return row
        except Exception as e:  # a compile or runtime error is this point's failure, not the run's
            row["reason"] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:200] if str(e) else "")
            return row


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

def fmt_cell(v):
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        return "%.9g" % v
    s = str(v)
    if "," in s or '"' in s or "\n" in s:
        s = '"' + s.replace('"', "'").replace("\n", " ") + '"'
    return s


def write_csv_atomic(path, meta, rows, columns):
    """A new, uniquely named temporary file in the target's directory (O_EXCL: never one
    planted there, never through a link), fsync, rename: a reader never sees half a file, and
    two writers never share a temporary. A symlink at path is followed to the file really
    written (the link stays a link), as fusebench's results file is; a target that is not a
    regular file (a directory, FIFO, device such as /dev/null) is refused (OSError), never
    replaced. columns: fusebench's, in order (the plan's); a row's other entries are not
    written."""
    target = os.path.realpath(path)
    if os.path.exists(target) and not os.path.isfile(target):
        raise OSError("%s is not a regular file; not replaced" % target)
    directory = os.path.dirname(target)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".tmp.", dir=directory)
    try:
        # mkstemp makes it 0600: give it the old file's mode, else 0666 less the umask.
        try:
            mode = os.stat(target).st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w") as f:
            for key, value in meta:
                f.write("# %s: %s\n" % (key, value))
            f.write(",".join(columns) + "\n")
            for r in rows:
                f.write(",".join(fmt_cell(r.get(c, "")) for c in columns) + "\n")
            f.flush()
            os.fsync(f.fileno())
        if os.path.exists(target) and not os.path.isfile(target):  # swapped in meanwhile
            raise OSError("%s is not a regular file; not replaced" % target)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def looks_like_results(head):
    """fusebench's rule (src/results/store.c): a "# fusebench:" line among the leading '#'
    lines, or a first other line that starts "backend,"."""
    for line in head.split(b"\n"):
        line = line.rstrip(b"\r")
        if not line:
            continue
        if line.startswith(b"#"):
            if line.startswith(b"# fusebench:"):
                return True
            continue
        return line.startswith(b"backend,")
    return False


# --------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="torch_peer.py",
        description="Time PyTorch's eager and torch.compile'd relu(a + b) and the config's "
                    "chains at fusebench's sizes and write fusebench-schema CSV rows (see the "
                    "module docstring).")
    p.add_argument("--config", default=None,
                   help="fusebench INI (default configs/default.ini); its plan (sizes, chains, "
                        "stop rule, label, cpu_threads, CSV columns) is read from "
                        "`fusebench CONFIG --print-plan`")
    p.add_argument("--fusebench", metavar="PATH", default=None,
                   help="the fusebench binary that prints the plan (default build/fusebench "
                        "of this repository)")
    p.add_argument("--sizes", help='override the sizes, passed to fusebench --sizes: "8..100M", '
                                   '"1K,1M,100M"')
    p.add_argument("--sizes-from-csv", metavar="CSV",
                   help="use the distinct n of a fusebench CSV (the sweep's exact sizes)")
    p.add_argument("--variants", default=None,
                   help="comma list of: " + ", ".join(VARIANTS) + ", and torch_eager_NAME, "
                        "torch_compile_NAME of each [chain NAME] (default: every one whose "
                        "mirrored variant of fusebench the config enables)")
    p.add_argument("--device", choices=["cpu", "cuda", "auto"], default="auto",
                   help="auto: cuda when torch sees a GPU, else cpu")
    p.add_argument("--output", help="CSV path (default out/<cpu|cuda>-<device-slug>/torch.csv)")
    p.add_argument("--force", action="store_true",
                   help="replace an --output file that is not a fusebench results file")
    p.add_argument("--max-time", type=float, help="seconds of timing per point (overrides "
                                                  "[measure] max_time)")
    p.add_argument("--threads", type=int, help="CPU threads for torch (default [backend] "
                                               "cpu_threads, 0 or unset = all cores)")
    args = p.parse_args(argv)
    if args.sizes and args.sizes_from_csv:
        p.error("--sizes and --sizes-from-csv exclude each other")
    if args.max_time is not None and not args.max_time > 0:
        p.error("--max-time must be > 0")
    if args.threads is not None and args.threads < 0:
        p.error("--threads must be >= 0")
    # None: all (checked against the plan's chains in main, once the plan is read).
    args.variant_list = None if args.variants is None else \
        [v.strip() for v in args.variants.split(",") if v.strip()]
    return args


def select_variants(names, available, known):
    """The variants to run: names (None = every available one: those whose mirror the config
    enables), in order; UsageError for a name not known, or one whose mirror is not enabled."""
    if names is None:
        return list(available)
    for v in names:
        if v not in known:
            raise UsageError('--variants: unknown variant "%s" (known: %s)'
                             % (v, ", ".join(known)))
        if v not in available:
            raise UsageError('--variants: %s mirrors %s, which the config does not enable'
                             % (v, known[v].mirror))
    return names


def check_output(path, force=False):
    """UsageError when the CSV cannot be written at path, checked without creating anything:
    fusebench's rule for its results file. A symlink is followed; its target must be a
    regular file (a directory, FIFO or device such as /dev/null is never replaced) or not
    exist; an existing file that is neither empty nor a results file is replaced only with
    force; and a writable directory must be (or can be made) above it."""
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise UsageError("--output %s: is a directory" % path)
    if os.path.exists(target):
        if not os.path.isfile(target):
            raise UsageError("--output %s: is not a regular file (a FIFO, socket or device); "
                             "not replaced" % path)
        if not force:
            try:
                with open(target, "rb") as f:
                    head = f.read(65536)
            except OSError as e:
                raise UsageError("--output %s: cannot read it to tell whether it is a "
                                 "results file: %s; --force replaces it unread" % (path, e))
            if head and not looks_like_results(head):
                raise UsageError('--output %s: is not a fusebench results file (no "# '
                                 'fusebench:" line, no "backend,..." header) and not empty; '
                                 "refusing to replace it: choose another --output, or add "
                                 "--force to replace it" % path)
    parent = os.path.dirname(target)
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError("--output %s: %s is not a writable directory" % (path, parent))


def import_torch(device, prog="torch_peer"):
    """torch, after the checks that need none; None with one line saying how to install it
    (exit 2: nothing measured) when this python has none, or none with CUDA for cuda. prog:
    the tool that says so."""
    py = sys.executable or "python3"
    try:
        import torch
    except Exception as e:  # ImportError, or a broken install (a missing shared library)
        print(prog + ": error: this python (%s) cannot import torch (%s); install it: "
              "%s -m pip install torch --index-url https://download.pytorch.org/whl/cpu "
              "(CPU), or %s -m pip install -r requirements-torch.txt (CUDA)"
              % (py, str(e).splitlines()[0] if str(e) else type(e).__name__, py, py),
              file=sys.stderr)
        return None
    if device == "cuda" and not torch.cuda.is_available():
        print(prog + ": error: --device cuda, but torch %s sees no CUDA device (built for "
              "CUDA %s); on a machine with an NVIDIA GPU and driver, install the CUDA build: "
              "%s -m pip install -r requirements-torch.txt"
              % (torch.__version__, torch.version.cuda, py), file=sys.stderr)
        return None
    return torch


def main(argv):
    args = parse_args(argv)
    repo_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        config_path = args.config or os.path.join(repo_dir, "configs", "default.ini")
        fusebench = args.fusebench or os.path.join(repo_dir, "build", "fusebench")
        plan = read_plan(fusebench, config_path, args.sizes)
        columns = plan["columns"]
        check_columns(columns)
        known = collections.OrderedDict(list(VARIANTS.items()) +
                                        list(chain_variants(plan).items()))
        variants = resolve_variants(plan, known)
        variant_list = select_variants(args.variant_list, variants, known)
        with open(config_path, "rb") as f:
            config_hash = "%016x" % fnv1a64(f.read())
        cfg = dict(plan["measure"])
        sizes = sizes_from_csv(fusebench, args.sizes_from_csv) if args.sizes_from_csv \
            else plan["sizes"]
        if args.max_time is not None:
            cfg["max_time"] = args.max_time
            cfg["min_time"] = min(cfg["min_time"], args.max_time)
        if args.output:
            check_output(args.output, args.force)
    except (UsageError, OSError, ValueError) as e:
        print("torch_peer: error: %s" % shown(e), file=sys.stderr)
        return 2

    warnings.filterwarnings("ignore", message=".*Failed to initialize NumPy.*")
    warnings.filterwarnings("ignore", message=".*Profiler clears events.*")
    torch = import_torch(args.device)
    if torch is None:
        return 2

    if args.device == "auto":
        dev_kind = "cuda" if torch.cuda.is_available() else "cpu"
        log("--device auto: using %s" % dev_kind)
    else:
        dev_kind = args.device
    device = torch.device(dev_kind)
    threads = args.threads if args.threads is not None else plan["cpu_threads"]
    if threads and threads > 0:
        torch.set_num_threads(threads)

    if dev_kind == "cuda":
        props = torch.cuda.get_device_properties(device)
        device_name = props.name
        cache_name, cache_bytes = "L2", getattr(props, "L2_cache_size", "")
        clock_khz = getattr(props, "memory_clock_rate", 0)
        bus_bits = getattr(props, "memory_bus_width", 0)
        # Peak bytes/s = 2 (double data rate) * clock_kHz * 1000 * bus_bits / 8.
        peak = "%.1f" % (2 * clock_khz * 1000 * bus_bits / 8 / 1e9) if clock_khz and bus_bits else ""
    else:
        device_name = cpu_name()
        cache_name, cache_bytes, peak = "L3", cpu_l3_bytes() or "", ""

    # beside the sweep's quick-start results (configs' [output] csv: out/{backend}-{device}/)
    output = args.output or os.path.join(repo_dir, "out", "%s-%s" % (dev_kind, slug(device_name)),
                                         "torch.csv")
    if not args.output:  # the default path, judged as --output is, before measuring
        try:
            check_output(output, args.force)
        except UsageError as e:
            print("torch_peer: error: %s" % shown(e), file=sys.stderr)
            return 2
    meta = [
        ("fusebench", plan["fusebench"]),
        ("tool", "tools/torch_peer.py"),
        ("git_commit", git_commit(repo_dir)),
        ("date", datetime.datetime.now(datetime.timezone.utc).astimezone().isoformat(timespec="seconds")),
        ("host", socket.gethostname()),
        ("backend", dev_kind),
        ("device", device_name),
        ("cache_name", cache_name),
        ("cache_bytes", cache_bytes),
        ("peak_bandwidth_gbps", peak),
        ("config", config_path),
        ("config_hash", config_hash),
        ("label", plan["label"]),
        ("torch", torch.__version__),
        ("torch_cuda", torch.version.cuda or ""),
        ("torch_threads", torch.get_num_threads() if dev_kind == "cpu" else ""),
        ("torch_compile", "dynamic=False fullgraph=True mode=default; dynamo reset and one "
                          "compile per size, warmed up before timing; torch_compile_out "
                          "compiles c.copy_((a + b).relu()) with c an argument; "
                          "torch_compile_NAME compiles the chain's function (allocating); "
                          "inductor " + settings_text(COMPILE_SETTINGS)),
        ("torch_env", settings_text(TORCH_ENV)),
        ("timing", "CUDA events around a batch" if dev_kind == "cuda"
         else "time.perf_counter_ns around a batch"),
        ("launches", "profiler device kernels per call" if dev_kind == "cuda" else
         "eager: leaf aten ops per call; compile: inductor generated_kernel_count"),
        ("outputs", "*_out variants write preallocated buffers (the like-for-like comparison "
                    "with fusebench's kernels), checked to allocate 0 bytes per call; the others "
                    "(chains included) allocate their outputs on every call"),
        ("chain_check", "float64 reference rounded to float32 per op; bit-exact for exact "
                        "chains, |out - ref| <= %g + %g |ref| with a transcendental op"
         % CHAIN_TRANSCENDENTAL_TOL),
        ("measure", "warmup=%d min_reps=%d max_reps=%d min_time=%gs max_time=%gs target_noise=%g"
         % (cfg["warmup"], cfg["min_reps"], cfg["max_reps"], cfg["min_time"], cfg["max_time"],
            cfg["target_noise"])),
    ]
    log("%s (%s), torch %s, %d sizes x %d variants -> %s" % (
        device_name, dev_kind, torch.__version__, len(sizes), len(variant_list), output))

    peer = Peer(torch, device, cfg, columns, variants)
    rows, failed = [], 0
    for n in sizes:
        try:
            data = peer.prepare(n)
        except Exception as e:  # out of memory and the like: every variant reports it
            data = e
        for name in variant_list:
            row = peer.measure(name, n, device_name, data)
            rows.append(row)
            if row["status"] == "ok":
                log("%-24s n=%-10d %s launches=%s alloc/call=%.0f B median=%.3g s (%s reps x %s) "
                    "%.1f GB/s" % (name, n, row["status"], row["launches"], row["allocated"],
                                   row["time_median_s"], row["reps"], row["batch"],
                                   row["bandwidth_gbps"]))
            else:
                failed += row["status"] == "failed"
                log("%-24s n=%-10d %s: %s" % (name, n, row["status"], row["reason"]))
            try:
                write_csv_atomic(output, meta, rows, columns)
            except OSError as e:
                print("torch_peer: error: cannot write %s: %s" % (shown(output), shown(e)),
                      file=sys.stderr)
                return 1
        try:
            fill_speedups(fusebench, output, rows)  # fusebench derives them (pairing.h)
            write_csv_atomic(output, meta, rows, columns)
        except (OSError, UsageError) as e:
            print("torch_peer: error: %s: %s" % (shown(output), shown(e)), file=sys.stderr)
            return 1
        del data
        if dev_kind == "cuda":
            torch.cuda.empty_cache()
    log("wrote %d rows to %s (%d failed)" % (len(rows), output, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
