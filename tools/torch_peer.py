#!/usr/bin/env python3
"""PyTorch as a peer: times what PyTorch does for c = relu(a + b) at fusebench's sizes and
writes the rows in fusebench's CSV schema, so the plots can overlay them on our own variants.

Variants (backend column / variant column), the model's kernels and fp32 arrays of n moved:
  torch-eager   torch_eager_add_relu      (a + b).relu()                  2 kernels, 5 arrays
  torch-eager   torch_eager_threshold     torch.threshold(a + b, 0, 0)    2 kernels, 5 arrays
  torch-compile torch_compile_add_relu    torch.compile of the first one, dynamic=False,
                                          fullgraph=True: one fused kernel, 3 arrays
  torch-eager   torch_eager_add_relu_out  torch.add(a, b, out=t); torch.clamp_min(t, 0, out=c)
                                          into preallocated t and c   2 kernels, 5 arrays
  torch-compile torch_compile_out         torch.compile of c.copy_((a + b).relu()) with c a
                                          preallocated argument: inductor stores the fused
                                          result straight into c      1 kernel, 3 arrays

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
  * bytes_model: arrays_moved * 4 * n as for our variants (5 eager, 3 compiled/fused). Should
    inductor ever generate more than the one kernel the model assumes, each extra kernel reads
    an array-sized intermediate and writes one (as eager's second pass does), so a compiled
    variant's arrays become 3 + 2 (k - 1) for the k kernels counted.
  * allocated bytes per call (logged, and 0 required of the *_out variants): GPU: the caching
    allocator's allocated_bytes.all.allocated counter across the profiled calls; CPU: the
    allocations torch.profiler(profile_memory=True) attributes to the calls (the compiled
    graph's output buffers included).
  * kernel_time_s (GPU only): the summed kernel durations the profiler reports for 3 calls in
    one profiler session, divided by 3 (a mean, not a median);
    launch_overhead_s = time_median_s - kernel_time_s.
  * dram/L2 bytes and copy_fraction: not measured here (empty cells).
  * role, pair, speedup: each eager variant is paired with the compiled one; speedup =
    t_eager / t_compile at the same size (src/measure/pairing.h), filled once a size is done.

dynamic=False compiles one graph per size (the size is a constant in the generated kernel, as
in our handwritten kernels' launch); dynamo's cache is reset before each size so that the
recompile limit never sends a size silently back to eager.

Statistics match fusebench's (src/measure/stats.h): warm-up, then samples until the relative
half-width of the median's 95% confidence interval (order statistics of 1-based ranks
floor(n/2 - 1.96 sqrt(n)/2) and ceil(n/2 + 1 + 1.96 sqrt(n)/2)) is under the target, or the
time / repetition cap is hit; median, min, max, p10, p90 with numpy's "linear" percentile.

Exit status: 0 every point ok or skipped, 1 a point failed (error or wrong result),
2 usage or configuration error.
"""

import argparse
import collections
import configparser
import datetime
import math
import os
import re
import socket
import subprocess
import sys
import time
import warnings

FUSEBENCH_VERSION = "0.1.0"

CSV_COLUMNS = [
    "backend", "device", "variant", "dtype", "n", "launches", "bytes_model", "reps", "batch",
    "time_median_s", "time_min_s", "time_max_s", "time_p10_s", "time_p90_s", "noise",
    "bandwidth_gbps", "copy_fraction", "kernel_time_s", "launch_overhead_s", "dram_read_bytes",
    "dram_write_bytes", "l2_bytes", "dram_bytes_per_element", "cache", "verified", "status",
    "reason", "role", "pair", "speedup", "preempted",
]

# What a variant is: the backend column, what it runs (Peer.fn_for), the model's kernels per
# call and fp32 arrays of n elements moved per call (bytes_model = arrays * 4 * n), and whether
# it writes preallocated outputs (no allocation per call, like fusebench's own kernels).
#   eager, 2 kernels: a, b -> tmp; tmp -> c          read 2 + write 1 + read 1 + write 1 = 5
#   compiled, 1 fused kernel: a, b -> c               read 2 + write 1                    = 3
Variant = collections.namedtuple("Variant", "backend kind launches arrays preallocated")

VARIANTS = {
    "torch_eager_add_relu": Variant("torch-eager", "eager_relu", 2, 5, False),
    "torch_eager_threshold": Variant("torch-eager", "eager_threshold", 2, 5, False),
    "torch_compile_add_relu": Variant("torch-compile", "compile_relu", 1, 3, False),
    "torch_eager_add_relu_out": Variant("torch-eager", "eager_relu_out", 2, 5, True),
    "torch_compile_out": Variant("torch-compile", "compile_relu_out", 1, 3, True),
}

# name -> (role, pair): what the CSV's role and pair columns say (src/measure/pairing.h): an
# eager variant is held against the compiled one, which fuses the same chain.
PAIRS = {
    "torch_eager_add_relu": ("eager", "torch_compile_add_relu"),
    "torch_eager_threshold": ("eager", "torch_compile_add_relu"),
    "torch_compile_add_relu": ("fused", ""),
    # like with like: both write preallocated outputs
    "torch_eager_add_relu_out": ("eager", "torch_compile_out"),
    "torch_compile_out": ("fused", ""),
}


def derive_speedups(rows):
    """Fills the speedup of the rows of one size once all of them are measured, as fusebench
    does for its own rows (src/measure/pairing.h, the definition): speedup = time_median_s /
    the pair's time_median_s (for an eager row, what fusing saves), empty unless both rows
    are ok with a positive time."""
    def time_of(r):
        t = r.get("time_median_s")
        return t if r.get("status") == "ok" and isinstance(t, float) and t > 0 else None
    by_name = {r["variant"]: r for r in rows}
    for r in rows:
        pair = by_name.get(r.get("pair")) if r.get("pair") else None
        t, tp = time_of(r), (time_of(pair) if pair else None)
        r["speedup"] = t / tp if t and tp else ""


def arrays_moved(variant, launches):
    """fp32 arrays of n moved per call by the model, given the kernels counted (None or "" when
    not counted). Eager variants are their two passes whatever the count; a compiled variant
    that got k > 1 kernels pays 2 arrays per extra kernel (it writes an intermediate and the
    next kernel reads it back), so an unfused compile costs eager's 5."""
    if variant.backend == "torch-compile" and isinstance(launches, int) \
            and launches > variant.launches:
        return variant.arrays + 2 * (launches - variant.launches)
    return variant.arrays


def bytes_model(variant, n, launches=None):
    """Model bytes per call: arrays_moved * sizeof(fp32) * n."""
    return arrays_moved(variant, launches) * SIZEOF_FP32 * n


# Defaults of [measure] when the config does not set them (the values configs/default.ini
# documents; the file wins when it has the key).
MEASURE_DEFAULTS = {
    "warmup": 3, "min_reps": 5, "max_reps": 200, "min_time": 0.02, "max_time": 0.5,
    "target_noise": 0.02,
}

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


def log(msg):
    print("torch_peer: " + msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# Sizes: the same syntax as fb_sizes_parse() (src/config/config.h)
# --------------------------------------------------------------------------------------------

# As src/config/sizes.c: K (or k) M G = 1e3, 1e6, 1e9; Ki Mi Gi = 2^10, 2^20, 2^30.
_SUFFIX = {"": 1, "K": 1000, "k": 1000, "M": 1000 ** 2, "G": 1000 ** 3,
           "Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3}
_SIZE_RE = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)(Ki|Mi|Gi|k|K|M|G)?\s*$")


def parse_size(token):
    """One size ("8", "1K", "1Mi", "1e6", "2.5K") -> int >= 1; UsageError otherwise."""
    m = _SIZE_RE.match(token)
    if not m:
        raise UsageError('size "%s": expected an integer with an optional K M G Ki Mi Gi '
                         'suffix' % token.strip())
    mult = _SUFFIX[m.group(2) or ""]
    value = float(m.group(1)) * mult
    if value < 1 or value != math.floor(value) or value > 2 ** 62:
        raise UsageError('size "%s": must be an integer >= 1' % token.strip())
    return int(value)


def parse_sizes(text, points_per_decade):
    """A size list ("8..100M", "8, 1K, 1Mi", "1K..1M, 4099") -> sorted unique ints.

    A range lo..hi holds lo, hi and the points of the grid round(10^(k / points_per_decade))
    (k integer) strictly between them; the grid holds every exact power of ten."""
    if points_per_decade < 1:
        raise UsageError("points_per_decade must be >= 1")
    sizes = set()
    for token in text.split(","):
        if not token.strip():
            raise UsageError('size list "%s": empty item' % text)
        if ".." in token:
            lo_text, hi_text = token.split("..", 1)
            lo, hi = parse_size(lo_text), parse_size(hi_text)
            if lo > hi:
                raise UsageError('size range "%s": low end above high end' % token.strip())
            sizes.update((lo, hi))
            k = math.floor(math.log10(lo) * points_per_decade) - 1
            while True:
                v = int(round(10 ** (k / points_per_decade)))
                if v > hi:
                    break
                if v > lo:
                    sizes.add(v)
                k += 1
        else:
            sizes.add(parse_size(token))
    return sorted(sizes)


def sizes_from_csv(path):
    """The distinct n of a fusebench CSV (so a peer run uses exactly the sweep's sizes)."""
    sizes = set()
    header = None
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\r\n").split(",")
            if header is None:
                header = cells
                if "n" not in header:
                    raise UsageError("%s: no column named n in the header" % path)
                continue
            sizes.add(int(cells[header.index("n")]))
    if not sizes:
        raise UsageError("%s: no rows" % path)
    return sorted(sizes)


# --------------------------------------------------------------------------------------------
# Configuration
# --------------------------------------------------------------------------------------------

def _seconds(text, key):
    """ "2", "2s", "500ms", "50us" -> seconds."""
    m = re.match(r"^\s*([0-9.eE+-]+)\s*(s|ms|us|ns)?\s*$", text)
    if not m:
        raise UsageError("[measure] %s: \"%s\" is not a duration" % (key, text))
    return float(m.group(1)) * {"s": 1, None: 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[m.group(2)]


def fnv1a64(data):
    """FNV-1a 64 of bytes, as the sweep stores config_hash (src/config/config.h)."""
    h = 0xcbf29ce484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def load_config(path):
    """Reads the keys the peer needs from a fusebench INI file."""
    cp = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), interpolation=None)
    try:
        with open(path, "rb") as f:
            raw = f.read()
        cp.read_string(raw.decode("utf-8"), source=path)
    except (OSError, UnicodeDecodeError, configparser.Error) as e:
        raise UsageError("%s: %s" % (path, e))
    cfg = {"path": path, "hash": "%016x" % fnv1a64(raw)}
    cfg["points_per_decade"] = cp.getint("sweep", "points_per_decade", fallback=6)
    cfg["sizes_text"] = cp.get("sweep", "sizes", fallback="8..100M").strip().strip('"')
    cfg["label"] = cp.get("sweep", "label", fallback="").strip().strip('"')
    cfg["cpu_threads"] = cp.getint("backend", "cpu_threads", fallback=0)
    for key, default in MEASURE_DEFAULTS.items():
        text = cp.get("measure", key, fallback=None)
        if text is None:
            cfg[key] = default
        elif key in ("min_time", "max_time"):
            cfg[key] = _seconds(text, key)
        elif key == "target_noise":
            t = text.strip()
            cfg[key] = float(t[:-1]) / 100 if t.endswith("%") else float(t)
        else:
            cfg[key] = int(text)
    return cfg


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
    def __init__(self, torch, device, measure):
        self.torch = torch
        self.device = device
        self.cuda = device.type == "cuda"
        self.m = measure

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

    def fn_for(self, kind, a):
        """(fn, metrics, outs) for one point: fn(a, b) runs the variant once and returns its
        result; metrics is inductor's metrics module for a compiled variant (its
        generated_kernel_count counts the kernels of the graph just compiled), else None; outs
        are the preallocated buffers the call writes, the result's last (empty when the call
        allocates its own)."""
        torch = self.torch
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
        torch._dynamo.reset()
        # The FX graph cache would skip code generation and so the kernel count below.
        inductor_config.fx_graph_cache = False
        inductor_metrics.reset()
        if kind == "compile_relu":
            return torch.compile(self.add_relu, dynamic=False, fullgraph=True), inductor_metrics, ()
        if kind == "compile_relu_out":
            c = torch.empty_like(a)
            compiled = torch.compile(self.add_relu_into, dynamic=False, fullgraph=True)
            return (lambda a, b: compiled(a, b, c)), inductor_metrics, (c,)
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

    def verify(self, out, ref):
        torch = self.torch
        o = out.detach().to("cpu")
        if o.shape != ref.shape or o.dtype != ref.dtype:
            return False, "output shape/dtype %s/%s, expected %s/%s" % (
                tuple(o.shape), o.dtype, tuple(ref.shape), ref.dtype)
        same = (o == ref) | (torch.isnan(o) & torch.isnan(ref))
        bad = int((~same).sum())
        if bad:
            i = int((~same).nonzero()[0])
            return False, "%d of %d elements differ; first at %d: got %r expected %r" % (
                bad, ref.numel(), i, float(o[i]), float(ref[i]))
        return True, ""

    def prepare(self, n):
        """Inputs on the device and the CPU reference for size n, shared by the variants."""
        a_cpu, b_cpu = self.inputs(n, seed=n)
        ref = self.reference(a_cpu, b_cpu)
        return a_cpu.to(self.device), b_cpu.to(self.device), ref

    def measure(self, name, n, device_name, data):
        """One CSV row for variant `name` at size n; data = prepare(n), or an exception
        raised by prepare(n) (the point then fails or is skipped with its message). The row's
        "allocated" entry (bytes per call; not a CSV column) is for the log."""
        variant = VARIANTS[name]
        row = {c: "" for c in CSV_COLUMNS}
        row.update(role=PAIRS.get(name, ("", ""))[0], pair=PAIRS.get(name, ("", ""))[1])
        row.update(backend=variant.backend, device=device_name, variant=name, dtype="fp32", n=n,
                   bytes_model=bytes_model(variant, n), cache="warm", verified=0,
                   status="failed", allocated="")
        torch = self.torch
        try:
            if isinstance(data, BaseException):
                raise data
            a, b, ref = data
            fn, metrics, outs = self.fn_for(variant.kind, a)
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
            ok, why = self.verify(out, ref)
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
            row.update(launches=launches, bytes_model=bytes_model(variant, n, launches),
                       allocated=allocated)
            if kernel_s is not None:
                row["kernel_time_s"] = kernel_s
            if launches != variant.launches:
                log("  %s n=%d: %d kernels per call where the model has %d (bytes_model "
                    "counts %d arrays)" % (name, n, launches, variant.launches,
                                          arrays_moved(variant, launches)))
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


def write_csv_atomic(path, meta, rows):
    """tmp file in the same directory, fsync, rename: a reader never sees half a file."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for key, value in meta:
            f.write("# %s: %s\n" % (key, value))
        f.write(",".join(CSV_COLUMNS) + "\n")
        for r in rows:
            f.write(",".join(fmt_cell(r[c]) for c in CSV_COLUMNS) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# --------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="torch_peer.py",
        description="Time PyTorch's eager and torch.compile'd relu(a + b) at fusebench's sizes "
                    "and write fusebench-schema CSV rows (see the module docstring).")
    p.add_argument("--config", default=None,
                   help="fusebench INI: [sweep] sizes, points_per_decade, label; [measure] "
                        "warmup, min_reps, max_reps, min_time, max_time, target_noise; "
                        "[backend] cpu_threads (default configs/default.ini when it exists)")
    p.add_argument("--sizes", help='override the sizes, same syntax as the config: "8..100M", '
                                   '"1K,1M,100M"')
    p.add_argument("--sizes-from-csv", metavar="CSV",
                   help="use the distinct n of a fusebench CSV (the sweep's exact sizes)")
    p.add_argument("--variants", default=",".join(VARIANTS),
                   help="comma list of: " + ", ".join(VARIANTS) + " (default: all)")
    p.add_argument("--device", choices=["cpu", "cuda", "auto"], default="auto",
                   help="auto: cuda when torch sees a GPU, else cpu")
    p.add_argument("--output", help="CSV path (default results/torch-<cpu|cuda>-<device-slug>.csv)")
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
    names = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in names:
        if v not in VARIANTS:
            p.error('--variants: unknown variant "%s" (known: %s)' % (v, ", ".join(VARIANTS)))
    args.variant_list = names
    return args


def main(argv):
    args = parse_args(argv)
    repo_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        config_path = args.config
        if config_path is None:
            default = os.path.join(repo_dir, "configs", "default.ini")
            config_path = default if os.path.exists(default) else None
        if config_path:
            cfg = load_config(config_path)
        else:
            cfg = dict(MEASURE_DEFAULTS, path="", hash="",
                       points_per_decade=6, sizes_text="8..100M", label="", cpu_threads=0)
        if args.sizes_from_csv:
            sizes = sizes_from_csv(args.sizes_from_csv)
        else:
            sizes = parse_sizes(args.sizes or cfg["sizes_text"], cfg["points_per_decade"])
        if args.max_time is not None:
            cfg["max_time"] = args.max_time
            cfg["min_time"] = min(cfg["min_time"], args.max_time)
    except (UsageError, OSError, ValueError) as e:
        print("torch_peer: error: %s" % e, file=sys.stderr)
        return 2

    warnings.filterwarnings("ignore", message=".*Failed to initialize NumPy.*")
    warnings.filterwarnings("ignore", message=".*Profiler clears events.*")
    import torch

    if args.device == "auto":
        dev_kind = "cuda" if torch.cuda.is_available() else "cpu"
        log("--device auto: using %s" % dev_kind)
    else:
        dev_kind = args.device
    if dev_kind == "cuda" and not torch.cuda.is_available():
        print("torch_peer: error: --device cuda but torch sees no CUDA device "
              "(torch %s, built for CUDA %s)" % (torch.__version__, torch.version.cuda),
              file=sys.stderr)
        return 2
    device = torch.device(dev_kind)
    threads = args.threads if args.threads is not None else cfg["cpu_threads"]
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

    output = args.output or os.path.join(repo_dir, "results", "torch-%s-%s.csv"
                                         % (dev_kind, slug(device_name)))
    meta = [
        ("fusebench", FUSEBENCH_VERSION),
        ("tool", "tools/torch_peer.py"),
        ("git_commit", git_commit(repo_dir)),
        ("date", datetime.datetime.now(datetime.timezone.utc).astimezone().isoformat(timespec="seconds")),
        ("host", socket.gethostname()),
        ("backend", dev_kind),
        ("device", device_name),
        ("cache_name", cache_name),
        ("cache_bytes", cache_bytes),
        ("peak_bandwidth_gbps", peak),
        ("config", cfg["path"]),
        ("config_hash", cfg["hash"]),
        ("label", cfg["label"]),
        ("torch", torch.__version__),
        ("torch_cuda", torch.version.cuda or ""),
        ("torch_threads", torch.get_num_threads() if dev_kind == "cpu" else ""),
        ("torch_compile", "dynamic=False fullgraph=True mode=default; dynamo reset and one "
                          "compile per size, warmed up before timing; torch_compile_out "
                          "compiles c.copy_((a + b).relu()) with c an argument"),
        ("timing", "CUDA events around a batch" if dev_kind == "cuda"
         else "time.perf_counter_ns around a batch"),
        ("launches", "profiler device kernels per call" if dev_kind == "cuda" else
         "eager: leaf aten ops per call; compile: inductor generated_kernel_count"),
        ("outputs", "*_out variants write preallocated buffers (the like-for-like comparison "
                    "with fusebench's kernels), checked to allocate 0 bytes per call; the others "
                    "allocate their outputs on every call"),
        ("measure", "warmup=%d min_reps=%d max_reps=%d min_time=%gs max_time=%gs target_noise=%g"
         % (cfg["warmup"], cfg["min_reps"], cfg["max_reps"], cfg["min_time"], cfg["max_time"],
            cfg["target_noise"])),
    ]
    log("%s (%s), torch %s, %d sizes x %d variants -> %s" % (
        device_name, dev_kind, torch.__version__, len(sizes), len(args.variant_list), output))

    peer = Peer(torch, device, cfg)
    rows, failed = [], 0
    for n in sizes:
        try:
            data = peer.prepare(n)
        except Exception as e:  # out of memory and the like: every variant reports it
            data = e
        for name in args.variant_list:
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
                write_csv_atomic(output, meta, rows)
            except OSError as e:
                print("torch_peer: error: cannot write %s: %s" % (output, e), file=sys.stderr)
                return 1
        derive_speedups([r for r in rows if r["n"] == n])
        try:
            write_csv_atomic(output, meta, rows)
        except OSError as e:
            print("torch_peer: error: cannot write %s: %s" % (output, e), file=sys.stderr)
            return 1
        del data
        if dev_kind == "cuda":
            torch.cuda.empty_cache()
    log("wrote %d rows to %s (%d failed)" % (len(rows), output, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
