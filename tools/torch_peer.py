#!/usr/bin/env python3
"""PyTorch as a peer: what PyTorch does for c = relu(a + b), and for every [chain NAME] of the
config, timed at fusebench's sizes by fusebench's own runner and written as fusebench's results
file, so that the plots can overlay the rows on our own variants.

This module is two things. (1) The PyTorch variants, which tools/torch_inprocess.py uses too:
what each runs, which variant of fusebench it mirrors, and the checks only PyTorch can make
(its launch count, the *_out variants' zero allocation per call). (2) The command
`torch_peer.py`: a session of libfbpeer.so (src/peer/peer.h, through tools/fbpeer.py and
tools/torch_inprocess.py's run) that adds only these variants, with no row of ours. So the
verification (each variant's first output against the reference of the variant it mirrors, bit
for bit or within its ULP bound, into a NaN-poisoned output for *_out), the timer, warm-up,
batch, stop rule, statistics, the results file (judged, locked, NAME.partial, the schema's
columns) and the speedups (measure/pairing.h) are fusebench's C: nothing is timed, computed or
written here. torch_inprocess.py is the same session with our mirrored variants interleaved.

The variants and their ops come from fusebench's plan (`fusebench CONFIG --print-plan`: the
enabled variants with their ops, role, pair and model), so nothing of the config's syntax or
of the model is re-implemented here. The binary is build/fusebench of this repository unless
--fusebench says otherwise; libfbpeer.so is read beside it.

Variants (the backend column is "torch" for every row; the variant column), and the variant of
fusebench each one mirrors: its model (kernels, arrays moved, role), its reference and its pair
are that variant's:
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
Compiled chains are held to the mirror's check too: inductor compiles without FMA contraction
and with IEEE division (COMPILE_SETTINGS), so that a compiled exact chain rounds as our kernels
(-fmad=false) do.

torch's environment (TORCH_ENV, set when this module is imported, before torch is):
TEARDOWN_CUPTI=1 (the profiler session that counts launches leaves no CUPTI attached to the
timed calls) and TORCHINDUCTOR_COMPILE_THREADS=1 (no compile worker processes).

Like for like: fusebench's kernels write preallocated buffers, so the *_out rows are the fair
comparison with ours; the allocating rows show what an ordinary PyTorch call costs (a fresh
output per call, and for eager a fresh temporary too). The *_out variants are checked at every
size: the result must land in the preallocated c and the calls must allocate nothing (bytes
counted per call, below); otherwise the row is failed, with the reason.

What PyTorch's side counts (before timing, outside the samples; logged, and in the metadata):
  * launches: GPU: the device kernels torch.profiler records for one call (memcpy/memset
    excluded). CPU eager: the leaf aten operators of one call (aten::relu runs as its child
    aten::clamp_min: one pass over memory each). CPU compile: the kernels inductor generated
    for the graph (torch._inductor.metrics.generated_kernel_count); the profiler cannot see
    inside the compiled C++ graph. bytes_model is the mirror's, so a compile that generates
    more kernels than its mirror's one shows a bandwidth that is an effective one.
  * allocated bytes per call (logged, and 0 required of the *_out variants): GPU: the caching
    allocator's allocated_bytes.all.allocated counter across the profiled calls; CPU: the
    allocations torch.profiler(profile_memory=True) attributes to the calls.
Each torch sample is a callback from the runner (C -> Python -> C) running the batch of calls
on the backend's queue; its fixed cost is measured once and written as peer_empty_sample_s
(tools/torch_inprocess.py says more).

dynamic=False compiles one graph per size (the size is a constant in the generated kernel, as
in our handwritten kernels' launch); dynamo's cache is reset before each size so that the
recompile limit never sends a size silently back to eager.

Exit status: 0 every row ok, 1 a row failed (a wrong result, a compile error, an allocating
*_out), 2 usage or configuration error, or no usable torch (not installed for this python, or
--device cuda with a torch that has no CUDA): one line with the command that installs it,
printed after every check that needs no torch (options, the plan, the variants); nothing is
measured or written then. 130 interrupted (the finished sizes stay in NAME.partial).
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

# Set before torch is imported, here at this module's import (tools/torch_inprocess.py imports
# it first too), for every torch this process loads:
#   TEARDOWN_CUPTI=1: the launches and kernel times are counted with torch.profiler before a
#     size is timed, and Kineto leaves CUPTI attached after a profiler session unless this is
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


def derived_meta(derived, file=0):
    """The metadata of one file of a `derive` result (its flat `meta` table), as a dict."""
    return {m["key"]: m["value"] for m in derived.get("meta", []) if m["file"] == file}


# The op name -> torch mapping: fn(torch, inputs, params) -> a fresh tensor, one torch call
# (one pass over memory) per op. inputs: (a, b) for a binary op, (x,) for a unary one (the
# arity comes from fusebench's op table, through the plan). The result is checked against the
# mirrored chain's reference (fusebench's op table), not against these.
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
# and division, a few ulp off on a GPU: the check is the mirror's ULP bound (fusebench's op
# table: 4 for sigmoid), which such a result may exceed (its row then fails verification,
# naming the element).
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


# Calls in the one profiler session of a size (launches and allocations are per call).
PROFILED_CALLS = 3


class UsageError(Exception):
    """A bad option or configuration value: exit 2."""


def shown(text):
    """text for one line of a message: control characters (a newline in a --config path)
    written as escapes, so data never breaks or forges a line of what the tool says."""
    return "".join(c if c.isprintable() or c == "\t" else
                   c.encode("unicode_escape").decode("ascii") for c in str(text))


# What --print-plan's JSON must hold for the peers (src/output/plan_json.h), with its type.
PLAN_KEYS = (("measure", dict), ("sizes", list), ("variants", list))

# --------------------------------------------------------------------------------------------
# The plan: from fusebench itself
# --------------------------------------------------------------------------------------------

def sizes_from_csv(fusebench, path):
    """The distinct n of a fusebench CSV (so a peer run uses exactly the sweep's sizes), as
    fusebench reads it (`--derive`)."""
    sizes = [s["n"] for s in derive(fusebench, [path])["sizes"]]
    if not sizes:
        raise UsageError("%s: no rows" % path)
    return [int(n) for n in sizes]


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


# --------------------------------------------------------------------------------------------
# What PyTorch runs, and what only PyTorch can count (tools/torch_inprocess.py, Contest)
# --------------------------------------------------------------------------------------------

class Peer:
    def __init__(self, torch, device):
        self.torch = torch
        self.device = device
        self.cuda = device.type == "cuda"

    # ---- the functions measured ----
    @staticmethod
    def add_relu(a, b):
        return (a + b).relu()

    @staticmethod
    def add_relu_into(a, b, c):
        """relu(a + b) written into the caller's c. Under torch.compile the copy_ becomes the
        fused kernel's store into c (no array-sized temporary: Contest.add_torch checks that the call
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


# --------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="torch_peer.py",
        description="Time PyTorch's eager and torch.compile'd relu(a + b) and the config's "
                    "chains at fusebench's sizes with fusebench's runner (libfbpeer.so) and "
                    "write them as a fusebench results file (see the module docstring).")
    p.add_argument("--config", default=None,
                   help="fusebench INI (default configs/default.ini); its plan (sizes, chains, "
                        "stop rule, label, cpu_threads); the variants' ops from "
                        "`fusebench CONFIG --print-plan`")
    p.add_argument("--fusebench", metavar="PATH", default=None,
                   help="the fusebench binary that prints the plan; libfbpeer.so is read from "
                        "its directory (default build/fusebench of this repository)")
    p.add_argument("--sizes", help='override the sizes, passed to fusebench --sizes: "8..100M", '
                                   '"1K,1M,100M"')
    p.add_argument("--sizes-from-csv", metavar="CSV",
                   help="use the distinct n of a fusebench CSV (the sweep's exact sizes)")
    p.add_argument("--variants", default=None,
                   help="comma list of: " + ", ".join(VARIANTS) + ", and torch_eager_NAME, "
                        "torch_compile_NAME of each [chain NAME] (default: every one whose "
                        "mirrored variant of fusebench the config enables)")
    p.add_argument("--device", choices=["cpu", "cuda", "auto"], default="auto",
                   help="the backend that runs and times the calls ([backend] backend); "
                        "auto: cuda when a GPU answers, else cpu")
    p.add_argument("--output", help="CSV path (default out/<cpu|cuda>-<device-slug>/torch.csv)")
    p.add_argument("--force", action="store_true",
                   help="replace an --output file that is not a fusebench results file")
    p.add_argument("--max-time", type=float, help="seconds of timing per point (overrides "
                                                  "[measure] max_time, and min_time when longer)")
    p.add_argument("--threads", type=int, help="CPU threads for torch and the runner "
                                               "(overrides [backend] cpu_threads; 0 = all cores)")
    args = p.parse_args(argv)
    if args.sizes and args.sizes_from_csv:
        p.error("--sizes and --sizes-from-csv exclude each other")
    if args.max_time is not None and not args.max_time > 0:
        p.error("--max-time must be > 0")
    if args.threads is not None and args.threads < 0:
        p.error("--threads must be >= 0")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args.config = args.config or os.path.join(repo, "configs", "default.ini")
    args.fusebench = args.fusebench or os.path.join(repo, "build", "fusebench")
    args.where = "--fusebench PATH"
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
    """The session of tools/torch_inprocess.py with PyTorch's variants only (no row of ours)."""
    args = parse_args(argv)
    import torch_inprocess  # imports this module: not at the top, where it would be circular
    return torch_inprocess.run(args, ours=False, prog="torch_peer", out_name="torch.csv")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
