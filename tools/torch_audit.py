#!/usr/bin/env python3
"""Audit of a user's elementwise PyTorch function: the kernels and the memory traffic of each
mode (eager, torch.compile), predicted from torch's own output and counted by torch.profiler,
the time per call of each in fusebench's interleaved rounds, and, where the function is one of
fusebench's chains, fusebench's own eager and fused kernels timed beside them.

    tools/torch_audit.py FILE.py:FUNCTION --size 1M [--shape ARG=DIMS ...] [--dtype fp32]
        [--device auto|cpu|cuda] [--output FILE.csv] [--force] [--json] [--max-time S]
        [--threads N] [--build DIR]

FUNCTION's positional parameters (those without a default) are tensors of --size elements
(1-D), or of the shape --shape gives (ARG=1000x1000, ARG=1), filled with fresh random numbers
uniform in [-1, 1) (never zeros). FILE is imported from its path (importlib), never edited.

What is predicted, and from what (tools/audit_graph.py: pure functions):
  eager     one kernel per elementwise ATen op of the function's FX graph (make_fx on the
            real inputs: torch's own tracing), views free; each kernel reads its distinct
            tensor operands and writes its result (numel x dtype size; a broadcast operand at
            its own size; Python scalars free). A reduction, a matmul or any other op that is
            not elementwise is refused (exit 2, naming it).
  compiled  the kernels call() of inductor's generated wrapper runs
            (torch._inductor.utils.run_and_get_code): its fused kernels and its extern calls
            (an ATen op it did not lower), with the buffers each reads and writes; the ops of
            each kernel from its name (or inductor's "Original ATen" comment); where it split
            the function, the reason its output gives (an extern op).
What is counted, per call (torch.profiler around 3 calls): on the CPU the outermost ATen ops
that pass over memory (views and allocations are not kernels) and inductor's C++
kernels (compiled with cpp.enable_kernel_profile: each records itself as
"graph_N_cpp_fused_..."; without it the profiler sees nothing inside the compiled graph); on a
GPU the CUDA kernels (tools/torch_peer.py's Peer.profile_calls). enable_kernel_profile stays on
in the timed compiled calls too (one compile per function: a second would double the audit's
longest step); its record costs about 0.3 us a call here, against about 16 us of
torch.compile's own call overhead (add+relu at 4096 elements: 19.3 vs 19.0 us per call with
and without it, eager 2.7 us; 2-core Intel Xeon).
DRAM bytes measured per call: libfbpeer's fbp_measure_traffic (fusebench's CUPTI range
profiler around one call), NA with the library's reason where it cannot count (the CPU).
Time per call: a session of libfbpeer.so (tools/torch_inprocess.py's machinery) on a config
written into a temporary directory: torch eager and torch.compile of the function, and, where
every op maps onto fusebench's op table and the inputs are fp32 1-D of one size, fusebench's
eager_audit and fused_audit of the [chain audit] it maps to, all in the same interleaved rounds
under fusebench's stop rule. Mapped, the torch rows mirror eager_audit / fused_audit and
fusebench verifies their outputs against its reference; otherwise the torch rows are added
unmirrored (fbp_add_peer_unmirrored) with the predicted bytes and counted kernels, and the
audit checks compiled against eager itself (torch.testing.assert_close at the dtype's
tolerance) before timing. The eager/compiled ratio is fusebench's speedup column with its
interval (fusebench --derive on the results file), as are the fitted model's launch cost and
bandwidth where the run allows a fit.

Exit status: 0 audited, 1 a row failed (a wrong result, a compile error), 2 bad input or usage
(nothing written: a file that does not import, a function that is not elementwise, shapes
that do not broadcast, a dtype torch refuses, no torch, no C++ compiler for inductor), 130
interrupted (no file left behind).
"""

import argparse
import importlib.util
import inspect
import json
import os
import re
import shutil
import sys
import tempfile
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import audit_graph as ag  # noqa: E402
import fbpeer  # noqa: E402
import torch_peer as tp  # noqa: E402  (sets TORCH_ENV before torch is imported)
import torch_inprocess as ti  # noqa: E402

REPO = os.path.dirname(HERE)
PROG = "torch_audit"
DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
# The chain's name in the temporary config: its variants are eager_audit and fused_audit.
CHAIN = "audit"
NAMES = {"eager": "torch_eager_" + CHAIN, "compiled": "torch_compile_" + CHAIN}
MODES = ("eager", "compiled")


class UsageError(Exception):
    """Bad input: exit 2, nothing written."""


def parse_size(text):
    """Elements of "4096", "1M", "30M", "1e6", "1Ki" (K M G x1000, Ki Mi Gi x1024)."""
    m = re.fullmatch(r"\s*([0-9.eE+]+)\s*(Ki|Mi|Gi|K|M|G)?\s*", text or "")
    if not m:
        raise argparse.ArgumentTypeError("not a size: %r (e.g. 4096, 1M, 30M, 1Ki)" % text)
    mult = {None: 1, "K": 10**3, "M": 10**6, "G": 10**9, "Ki": 2**10, "Mi": 2**20,
            "Gi": 2**30}[m.group(2)]
    try:
        n = float(m.group(1)) * mult
    except ValueError:
        raise argparse.ArgumentTypeError("not a size: %r" % text)
    if n < 1 or n != int(n):
        raise argparse.ArgumentTypeError("not a whole number of elements >= 1: %r" % text)
    return int(n)


def parse_shape(text):
    """("bias", (1000,)) of "bias=1000"; ("x", (1000, 1000)) of "x=1000x1000"."""
    name, eq, dims = (text or "").partition("=")
    if not eq or not name.isidentifier():
        raise argparse.ArgumentTypeError("--shape wants ARG=DIMS (e.g. bias=1, x=1000x1000): %r"
                                         % text)
    try:
        shape = tuple(parse_size(d) for d in dims.split("x"))
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError("--shape %s: DIMS are sizes joined by x: %r"
                                         % (name, dims))
    return name, shape


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="torch_audit.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Audit a PyTorch elementwise function: kernels and bytes of eager and "
                    "torch.compile, predicted and counted, and their times beside fusebench's "
                    "own kernels.",
        epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("target", metavar="FILE.py:FUNCTION",
                   help="the Python file (imported from its path, never edited) and the "
                        "function in it to audit")
    p.add_argument("--size", type=parse_size, required=True,
                   help="elements of each input tensor (1-D): 4096, 1M, 30M, 1Ki")
    p.add_argument("--shape", type=parse_shape, action="append", default=[],
                   metavar="ARG=DIMS",
                   help="the shape of parameter ARG instead of --size (1-D): bias=1, "
                        "x=1000x1000 (repeat for several)")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="fp32",
                   help="element type of every input (default fp32)")
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                   help="where torch and fusebench run: auto = cuda when torch sees a GPU")
    p.add_argument("--output", metavar="FILE.csv",
                   help="write the timed rows as a fusebench results file (fusebench --plot, "
                        "--report, --compare read it); default: none kept")
    p.add_argument("--force", action="store_true",
                   help="replace an --output file that fusebench did not write")
    p.add_argument("--json", action="store_true", help="print the audit as JSON")
    p.add_argument("--max-time", type=float, metavar="S",
                   help="seconds of timing per row (fusebench's [measure] max_time; default "
                        "its 1.5)")
    p.add_argument("--threads", type=int, metavar="N",
                   help="CPU threads for torch, inductor's kernels and fusebench (0 = all "
                        "cores; default all)")
    p.add_argument("--model", metavar="CSV",
                   help="the fitted model (launch cost L, bandwidth B) from a fusebench sweep's "
                        "results file of this machine (fusebench --derive CSV), for the launch "
                        "and traffic shares of each mode: one size never gives a fit; e.g. "
                        "results/cpu-intel-xeon/default.csv")
    p.add_argument("--build", default=os.path.join(REPO, "build"), metavar="DIR",
                   help="the meson build with fusebench and libfbpeer.so (default build/)")
    args = p.parse_args(argv)
    if args.max_time is not None and not args.max_time > 0:
        p.error("--max-time must be > 0")
    if args.threads is not None and args.threads < 0:
        p.error("--threads must be >= 0")
    if ":" not in args.target:
        p.error("FILE.py:FUNCTION wanted, got %r" % args.target)
    return args


# --------------------------------------------------------------------------------------------
# The user's function and its inputs
# --------------------------------------------------------------------------------------------

def load_function(target):
    """(function, its name) of FILE.py:FUNCTION, imported from the file's path."""
    path, _, name = target.rpartition(":")
    if not os.path.isfile(path):
        raise UsageError("%s: no such file" % path)
    spec = importlib.util.spec_from_file_location("torch_audit_user", path)
    if spec is None or spec.loader is None:
        raise UsageError("%s: cannot be imported as a Python file" % path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except BaseException as e:  # SystemExit too: the user's file must not end the audit
        if isinstance(e, KeyboardInterrupt):
            raise
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        raise UsageError("%s: does not import: %s" % (path, tb))
    fn = getattr(module, name, None)
    if fn is None:
        raise UsageError("%s: no function %s" % (path, name))
    if not callable(fn):
        raise UsageError("%s:%s is not callable (a %s)" % (path, name, type(fn).__name__))
    return fn


def tensor_params(fn, where):
    """The names of fn's positional parameters without a default: its tensors."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError) as e:
        raise UsageError("%s: no signature: %s" % (where, e))
    names = [p.name for p in sig.parameters.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    if not names:
        raise UsageError("%s takes no tensor (no positional parameter without a default)" % where)
    return names


def make_inputs(torch, names, size, shapes, dtype, device, seed=1):
    """Fresh random tensors uniform in [-1, 1) (never zeros: a zero input hides what a
    multiply does), one per name, of shapes[name] or (size,)."""
    gen = torch.Generator().manual_seed(seed)
    out = []
    for name in names:
        shape = shapes.get(name, (size,))
        x = torch.rand(shape, generator=gen, dtype=torch.float32) * 2 - 1
        out.append(x.to(dtype=dtype, device=device))
    return out


def check_compiler(torch):
    """The C++ compiler inductor would use on the CPU, or UsageError naming it."""
    try:
        from torch._inductor import cpp_builder
        cxx = cpp_builder.get_cpp_compiler()
    except Exception as e:
        raise UsageError("no C++ compiler for inductor on the CPU (torch._inductor.cpp_builder"
                         ".get_cpp_compiler: %s); install g++ or set CXX" % e)
    if not shutil.which(cxx):
        raise UsageError("no C++ compiler for inductor on the CPU: inductor would run %r (CXX "
                         "or its default), which is not on PATH; install g++ or set CXX" % cxx)
    return cxx


def trace(torch, fn, inputs, where, shapes_text):
    """The eager result and the ATen-level FX graph of fn on inputs; UsageError for shapes that
    do not broadcast, a dtype an op refuses, any other failure of the function."""
    from torch.fx.experimental.proxy_tensor import make_fx
    try:
        with torch.no_grad():
            out = fn(*inputs)
            graph = make_fx(fn)(*inputs)
    except KeyboardInterrupt:
        raise
    except Exception as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if "must match the size" in msg or "broadcast" in msg:
            raise UsageError("%s: the inputs' shapes do not broadcast (%s): %s"
                             % (where, shapes_text, msg))
        if "not implemented for" in msg:
            raise UsageError("%s: torch refuses this dtype for an op: %s" % (where, msg))
        raise UsageError("%s fails on its inputs (%s): %s: %s"
                         % (where, shapes_text, type(e).__name__, msg))
    if not isinstance(out, torch.Tensor):
        raise UsageError("%s returns %s, not one tensor" % (where, type(out).__name__))
    return out, graph


# --------------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------------

PROFILED_CALLS = tp.PROFILED_CALLS
ALLOC_OPS = ("aten::empty", "aten::resize_")


def cpu_kernels(events):
    """The kernels among a CPU profile's events: inductor's C++ kernels (recorded as
    graph_N_cpp_fused_... with cpp.enable_kernel_profile) and the outermost ATen ops that pass
    over memory: an op's own children are its parts (aten::relu runs as aten::clamp_min; an
    add of a Python scalar first converts the scalar with an aten::copy_ of one element), so
    only the outermost is a kernel; a view or an allocation is none, but what it runs inside
    may be (a reshape that must copy)."""
    def is_aten(e):
        return e.name.startswith("aten::")

    def under_aten(e):
        p = e.cpu_parent
        while p is not None:
            if is_aten(p):
                return True
            p = p.cpu_parent
        return False

    names = []

    def visit(e):
        short = e.name[len("aten::"):]
        if e.name.startswith(ALLOC_OPS) or short in ag.VIEW_OPS:
            for c in e.cpu_children:
                if is_aten(c):
                    visit(c)
            return
        names.append(e.name)

    for e in events:
        if re.search(r"(^|_)cpp_fused_", e.name):
            names.append(e.name)
        elif is_aten(e) and not under_aten(e):
            visit(e)
    return names


def count_kernels(torch, peer, fn, inputs):
    """(kernels per call, kernel seconds per call or None, the kernels' names of one call)."""
    if peer.cuda:
        launches, seconds, _ = peer.profile_calls(lambda _a, _b: fn(*inputs), None, None)
        return launches, seconds, []
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(PROFILED_CALLS):
            fn(*inputs)
    names = cpu_kernels(prof.events())
    if len(names) % PROFILED_CALLS:
        raise RuntimeError("the profiler saw %d kernels in %d calls: not the same every call"
                           % (len(names), PROFILED_CALLS))
    per = len(names) // PROFILED_CALLS
    return per, None, names[:per]


def why_extern(torch):
    """why(op) for an extern kernel of inductor's output."""
    try:
        import torch._inductor.lowering as lowering
    except Exception:
        lowering = None

    def why(op):
        ns, _, name = op.partition(".")
        packet = getattr(getattr(torch.ops, ns, None), name, None)
        fallback = False
        if lowering is not None and packet is not None:
            for o in getattr(lowering, "fallbacks", ()):
                if getattr(o, "overloadpacket", None) is packet:
                    fallback = True
        return ("inductor has no lowering for it: it calls ATen's kernel (a fallback), and no "
                "kernel fuses across that") if fallback else \
            "inductor calls it as an extern kernel, which no kernel fuses across"
    return why


# --------------------------------------------------------------------------------------------
# The audit
# --------------------------------------------------------------------------------------------

def kernel_json(k):
    return {"name": k.name, "ops": list(k.ops), "kind": k.kind,
            "reads": [dict(a._asdict()) for a in k.reads],
            "writes": [dict(a._asdict()) for a in k.writes],
            "bytes": sum(a.numel * a.itemsize for a in k.reads + k.writes),
            **({"why": k.why} if k.why else {})}


def write_config(tmp, n, chain, backend, threads):
    """The session's config: one size, the [chain audit] when the function maps onto the op
    table (its variants eager_audit and fused_audit), else fusebench's copy (enabled, never
    added: a session needs a variant). fp32: libfbpeer's session runs one format, fp32, so
    the rows' dtype column says fp32 whatever --dtype; the audit_dtype metadata says which.
    """
    path = os.path.join(tmp, "audit.ini")
    lines = ["[sweep]", "sizes = %d" % n,
             "variants = " + ("eager_%s, fused_%s" % (CHAIN, CHAIN) if chain else "copy"),
             "dtype = fp32", "[backend]", "backend = " + backend,
             "cpu_threads = %d" % (threads or 0)]
    if chain:
        lines += ["[chain %s]" % CHAIN, "ops = " + ", ".join(chain)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def audit(args, out=sys.stdout):
    """Returns the exit status (the messages printed)."""
    where = args.target
    path = args.target.rpartition(":")[0]
    if not os.path.isfile(path):
        raise UsageError("%s: no such file" % path)
    # torch before the user's file, which imports it: no torch is said as such.
    warnings.filterwarnings("ignore", message=".*Failed to initialize NumPy.*")
    warnings.filterwarnings("ignore", message=".*Profiler clears events.*")
    try:
        import torch
    except Exception as e:
        py = sys.executable or "python3"
        raise UsageError("this python (%s) cannot import torch (%s): install "
                         "requirements-torch.txt into .venv (python3 -m venv .venv && "
                         ".venv/bin/pip install -r requirements-torch.txt) and run the audit "
                         "with .venv/bin/python" % (py, str(e).splitlines()[0] if str(e) else
                                                    type(e).__name__))
    fn = load_function(args.target)
    names = tensor_params(fn, where)
    shapes = dict(args.shape)
    for name in shapes:
        if name not in names:
            raise UsageError("--shape %s: %s has no tensor parameter %s (its tensors: %s)"
                             % (name, where, name, ", ".join(names)))
    device = args.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise UsageError("--device cuda, but torch %s sees no CUDA device" % torch.__version__)
    if device == "cpu":
        check_compiler(torch)
    fusebench = os.path.join(args.build, "fusebench")
    lib = fbpeer.load(fbpeer.default_path(args.build)) if os.access(fusebench, os.X_OK) \
        else None
    if lib is None:
        raise UsageError("%s: no fusebench binary there (build it: meson compile -C %s; or "
                         "give --build DIR)" % (fusebench, args.build))
    args.model_fit = args.model_cache = None
    if args.model:
        model = tp.derive(fusebench, [args.model])
        fit = model.get("fit") or {}
        # the regimes are the fit's own: the cache its sweep's metadata names
        args.model_cache = tp.derived_meta(model).get("cache_bytes")
        if fit.get("launch_s") is None or fit.get("bandwidth_gbps") is None:
            raise UsageError("--model %s: fusebench fitted no model to it (L %s, B %s): a "
                             "sweep over sizes is needed" % (args.model, fit.get("launch_s"),
                                                             fit.get("bandwidth_gbps")))
        args.model_fit = fit
    dtype = getattr(torch, DTYPES[args.dtype])
    if args.threads:
        torch.set_num_threads(args.threads)
    inputs = make_inputs(torch, names, args.size, shapes, dtype, device)
    shapes_text = ", ".join("%s %s" % (n, tuple(x.shape)) for n, x in zip(names, inputs))
    eager_out, graph = trace(torch, fn, inputs, where, shapes_text)
    nodes = list(graph.graph.nodes)
    try:
        eager_pred = ag.eager_kernels(nodes, torch.Tag.pointwise)
    except ag.NotElementwise as e:
        raise UsageError("%s: %s is not elementwise: fusebench audits elementwise chains"
                         % (where, e.op))
    if not eager_pred:
        raise UsageError("%s runs no elementwise op (only views): nothing to audit" % where)
    chain, order, unmapped = ag.map_chain(nodes)
    if chain is not None:
        if args.dtype != "fp32":
            chain, unmapped = None, "dtype %s (fusebench's chains run fp32 here)" % args.dtype
        elif any(tuple(x.shape) != (args.size,) for x in inputs):
            chain, unmapped = None, "inputs not 1-D of --size (%s)" % shapes_text
    op_names = [ag.short_op(k.name) for k in eager_pred]

    # ---- torch.compile: inductor's own kernels ----
    import torch._dynamo
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code
    torch._dynamo.reset()
    tp.compile_settings(inductor_config)
    if device == "cpu":  # each C++ kernel records itself for the profiler (cpu_kernels)
        inductor_config.cpp.enable_kernel_profile = True
    compiled = torch.compile(fn, dynamic=False, fullgraph=True)
    try:
        with torch.no_grad():
            comp_out, codes = run_and_get_code(compiled, *inputs)
    except KeyboardInterrupt:
        raise
    except Exception as e:
        print("%s: error: torch.compile of %s failed: %s: %s" % (
            PROG, where, type(e).__name__, tp.shown(str(e).splitlines()[0] if str(e) else "")),
            file=sys.stderr)
        return 1
    code = next((c for c in codes if "def call(" in c), codes[0] if codes else "")

    def extern_itemsize(op):
        for n in nodes:
            if n.op == "call_function" and ag.op_name(n.target) == op:
                return ag._itemsize(n.meta.get("val"))
        return 0
    comp_pred = ag.compiled_kernels(
        code, [(x.numel(), x.element_size()) for x in inputs], op_names,
        extern_itemsize, why_extern(torch))
    try:
        torch.testing.assert_close(comp_out, eager_out, equal_nan=True)
        check = "torch.compile's output = eager's (torch.testing.assert_close, %s tolerance)" \
            % args.dtype
    except AssertionError as e:
        check = "torch.compile's output differs from eager's: %s" % " ".join(
            str(e).split())[:200]
        print("%s: %s" % (PROG, check), file=sys.stderr)
        return 1

    # ---- counted ----
    peer = tp.Peer(torch, torch.device(device))
    counted = {}
    fns = {"eager": fn, "compiled": compiled}
    for mode in MODES:
        with torch.no_grad():
            counted[mode] = count_kernels(torch, peer, fns[mode], inputs)
    pred = {"eager": eager_pred, "compiled": comp_pred}

    # ---- timed, in one session ----
    result = {"function": where, "size": args.size, "dtype": args.dtype, "device": device,
              "torch": torch.__version__,
              "inputs": {n: list(x.shape) for n, x in zip(names, inputs)},
              "chain": chain, "unmapped": unmapped, "check": check, "modes": {}}
    tmp = tempfile.mkdtemp(prefix="torch-audit-")
    output = args.output or os.path.join(tmp, "audit.csv")
    try:
        rc = run_session(torch, args, lib, fusebench, tmp, output, device, fns, inputs, names,
                         order, chain, pred, counted, result)
    finally:
        shutil.rmtree(tmp, True)
    for mode in MODES:
        result["modes"][mode].update(verdict(mode, pred[mode], counted[mode],
                                             result["modes"][mode]))
    if args.json:
        json.dump(result, out, indent=1)
        out.write("\n")
    else:
        print_text(result, out)
    return rc


def run_session(torch, args, lib, fusebench, tmp, output, device, fns, inputs, names, order,
                chain, pred, counted, result):
    """Times the rows in one libfbpeer session; fills result["modes"], result["fusebench"],
    result["ratio"], result["fit"]. Returns 0, or 1 when a row failed."""
    config = write_config(tmp, args.size, chain, device, args.threads)
    plan = tp.read_plan(fusebench, config, where="--build DIR")
    settings = ti.settings_of(argparse.Namespace(sizes=None, max_time=args.max_time,
                                                 threads=args.threads, device=None), plan)
    variants = tp.resolve_variants(plan, tp.chain_variants(plan)) if chain else {}
    failed = 0
    with fbpeer.Session(lib, config, settings) as s:
        s.results_open(output, args.force)
        try:
            for key, value in (("tool", "tools/torch_audit.py (libfbpeer.so: the audit of a "
                                        "user's function, interleaved rounds)"),
                               ("audit_function", args.target),
                               ("audit_inputs", " ".join("%s=%s" % (n, "x".join(
                                   map(str, x.shape))) for n, x in zip(names, inputs))),
                               ("audit_dtype", args.dtype),
                               ("audit_chain", ", ".join(chain) if chain else
                                "none: " + result["unmapped"]),
                               ("torch", torch.__version__),
                               ("torch_compile", "dynamic=False fullgraph=True; inductor "
                                + tp.settings_text(tp.COMPILE_SETTINGS))):
                s.set_meta(key, value)
            s.size_begin(args.size)
            # torch's device is the backend's own (on a GPU the device of its stream, asked of
            # the driver): the inputs and the compiled graph must be there already.
            dev = ti.torch_device(torch, s.backend, s.stream())
            if dev != inputs[0].device:
                raise UsageError("the backend runs on %s, the audit's tensors are on %s"
                                 % (dev, inputs[0].device))
            contest = ti.Contest(torch, s, tp.Peer(torch, dev), dev)
            if chain:
                a, b = contest.inputs(args.size)
                lib_inputs = {order[0]: a}
                if len(order) > 1:
                    lib_inputs[order[1]] = b
                placeholders = [n + "_1" for n in names]
                run_inputs = [lib_inputs.get(p, x) for p, x in zip(placeholders, inputs)]
            else:
                run_inputs = inputs
            if chain:
                for m in ("eager_" + CHAIN, "fused_" + CHAIN):
                    if s.add_ours(m) == fbpeer.ERR_VERIFY:
                        failed += 1
                        print("%s: %s failed: %s" % (PROG, m, s.error()), file=sys.stderr)
            for mode in MODES:
                name = NAMES[mode]
                fn = fns[mode]
                calls = ti.sample_calls(contest.on_stream, fn, run_inputs)
                launches, kernel_s, _ = counted[mode]
                if chain:
                    v = variants[name]
                    with torch.no_grad(), contest.on_stream():
                        host = fn(*run_inputs).detach().contiguous().to("cpu")
                    rc = s.add_peer(tp.BACKEND, name, v.mirror, v.pair, launches,
                                    host.data_ptr(), calls)
                else:  # the pair's speedup is fusebench's, from these roles and this pair
                    rc = s.add_peer_unmirrored(tp.BACKEND, name, "eager" if mode == "eager"
                                               else "fused", NAMES["compiled"]
                                               if mode == "eager" else "", launches,
                                               float(ag.transfers(pred[mode])[1]), calls)
                if rc == fbpeer.ERR_VERIFY:
                    failed += 1
                    print("%s: %s failed: %s" % (PROG, name, s.error()), file=sys.stderr)
                elif kernel_s is not None:
                    s.set_kernel_time(rc, kernel_s)
                result["modes"][mode] = {"measured_dram": measure_traffic(s, calls)}
                for key, value in audit_meta(mode, pred[mode],
                                             result["modes"][mode]["measured_dram"]):
                    s.set_meta(key, value)
            s.time_round_robin()
            s.size_end()
            s.results_finish()
        except (KeyboardInterrupt, UsageError):
            _remove_partial(output)
            raise
        except fbpeer.PeerError as e:
            _remove_partial(output)
            if e.code == fbpeer.ERR_INTERRUPTED:
                raise KeyboardInterrupt
            raise
    derived = tp.derive(fusebench, [output])
    rows = {r["variant"]: r for r in derived["rows"]}
    for mode in MODES:
        result["modes"][mode]["time"] = row_time(rows.get(NAMES[mode]))
        result["modes"][mode]["row"] = NAMES[mode]
    if chain:
        result["fusebench"] = {m: row_time(rows.get("%s_%s" % (m, CHAIN)))
                               for m in ("eager", "fused")}
        e = rows.get("eager_" + CHAIN) or {}
        result["fusebench"]["speedup"] = [e.get("speedup"), e.get("speedup_lo"),
                                          e.get("speedup_hi")]
    e = rows.get(NAMES["eager"]) or {}
    result["ratio"] = [e.get("speedup"), e.get("speedup_lo"), e.get("speedup_hi")]
    fit, source = derived.get("fit") or {}, "this run"
    cache = tp.derived_meta(derived).get("cache_bytes")
    if (fit.get("launch_s") is None or fit.get("bandwidth_gbps") is None) and args.model_fit:
        fit, source, cache = args.model_fit, args.model, args.model_cache
    try:
        cache = float(cache) if cache else None
    except ValueError:
        cache = None
    result["fit"] = fit_of(lib, fit, pred, counted, source, cache)
    result["output"] = args.output
    return 1 if failed else 0


def _remove_partial(output):
    """No file left behind by an audit that did not finish (one size: nothing finished; the
    session removes its lock when it closes)."""
    try:
        os.remove(output + ".partial")
    except OSError:
        pass


def measure_traffic(s, calls):
    """{"read": B, "write": B} of one call through libfbpeer, or {"na": reason}."""
    try:
        r, w = s.measure_traffic(calls)
        return {"read": r, "write": w}
    except fbpeer.PeerError as e:
        if e.code != fbpeer.ERR_UNAVAILABLE:
            raise
        return {"na": str(e)}


def audit_meta(mode, kernels, dram):
    """The metadata lines of one mode for the audit chart (fusebench --plot FILE --charts
    audit, src/chart/audit.c): its predicted kernels, array-sized transfers and bytes per
    call, and its measured DRAM bytes per call (read + written), or why there are none."""
    arrays, nbytes = ag.transfers(kernels)
    meta = [("audit_predicted_kernels_" + mode, len(kernels)),
            ("audit_predicted_transfers_" + mode, arrays),
            ("audit_predicted_bytes_" + mode, nbytes)]
    if "read" in dram:
        meta.append(("audit_dram_bytes_" + mode, "%.0f" % (dram["read"] + dram["write"])))
    else:
        meta.append(("audit_dram_na_" + mode, dram.get("na") or "not measured"))
    return meta


def row_time(row):
    """(median s, noise: the relative half-width of its 95% interval, status) of a row."""
    if not row:
        return None
    return {"median_s": row.get("time_median_s"), "noise": row.get("noise"),
            "status": row.get("status"), "verified": row.get("verified"),
            "reason": row.get("reason") or ""}


def fit_of(lib, fit, pred, counted, source="this run", cache_bytes=None):
    """The model t = launches x L + bytes / bandwidth (fusebench's fit, measure/fit.h) per
    mode, with the counted kernels and the predicted bytes, and the shares of launches and of
    traffic in it, where L and B were fitted (by this run, or by the sweep of --model), else
    why not. Every number is libfbpeer's (fbp_fit_model): the bandwidth is B_c for a call
    whose bytes are cache-resident (cache_bytes: the metadata of the run the fit is of), else
    B; between the two regimes the model is said not to hold."""
    L, B, Bc = fit.get("launch_s"), fit.get("bandwidth_gbps"), fit.get("cache_bandwidth_gbps")
    if L is None or B is None:
        return {"na": "no fit (fusebench fits L and B to %d launch-bound and %d memory-bound "
                      "points of a sweep over sizes: one size cannot give it; --model CSV "
                      "takes them from a sweep of this machine)" % (3, 3)}
    out = {"launch_s": L, "bandwidth_gbps": B, "cache_bandwidth_gbps": Bc, "source": source,
           "cache_bytes": cache_bytes}
    for mode in MODES:
        m = fbpeer.fit_model(lib, counted[mode][0], ag.transfers(pred[mode])[1], L, B * 1e9,
                             None if Bc is None else Bc * 1e9, cache_bytes)
        out[mode] = {"launch_share": m["launch_share"], "traffic_share": m["traffic_share"],
                     "model_s": m["model_s"], "regime": m["regime"],
                     "bandwidth_gbps": m["bandwidth"] / 1e9}
    return out


def verdict(mode, kernels, counted, measured):
    """The verdict line of a mode, and the predicted numbers."""
    arrays, nbytes = ag.transfers(kernels)
    n_counted = counted[0]
    line = "%s: predicted %d kernel%s" % (mode, len(kernels), "" if len(kernels) == 1 else "s")
    if n_counted == len(kernels):
        line += " = counted %d" % n_counted
    else:
        line += ", counted %d" % n_counted
    if mode == "compiled" and len(kernels) > 1:
        line += ": not fused: " + " | ".join(
            "%s (%s)" % (k.name, ", ".join(k.ops)) for k in kernels)
        why = ag.split_reasons(kernels)
        if why:
            line += "; why: " + why
    dram = measured.get("measured_dram") or {}
    if "read" in dram:
        got = dram["read"] + dram["write"]
        line += "; bytes measured %.0f vs predicted %d (%.2fx)" % (got, nbytes, got / nbytes)
    else:
        line += "; bytes predicted %d, measured NA (%s)" % (nbytes, dram.get("na", ""))
    return {"kernels_predicted": len(kernels), "kernels_counted": n_counted,
            "counted_names": counted[2], "transfers_predicted": arrays,
            "bytes_predicted": nbytes, "kernels": [kernel_json(k) for k in kernels],
            "verdict": line}


def fmt_time(t):
    if not t or t.get("median_s") is None:
        return "not timed (%s)" % ((t or {}).get("reason") or "no row")
    med = t["median_s"]
    unit, scale = (("ms", 1e3) if med >= 1e-3 else ("us", 1e6))
    text = "%.4g %s +- %.1f%% (median, 95%% interval)" % (med * scale, unit,
                                                         100 * (t.get("noise") or 0))
    if t.get("status") and t["status"] != "ok":  # noisy: fusebench derives no speedup of it
        text += " [%s: %s]" % (t["status"], t.get("reason") or "")
    return text


def fmt_ratio(r):
    if not r or r[0] is None:
        return "NA (fusebench derives no speedup where a row of the pair is noisy or failed)"
    if r[1] is None or r[2] is None:
        return "%.3g (no interval)" % r[0]
    return "%.3g [%.3g, %.3g]" % tuple(r)


def print_text(r, out):
    w = out.write
    w("audit of %s: %s, %s, on %s (torch %s)\n" % (
        r["function"], ", ".join("%s %s" % (n, "x".join(map(str, s)))
                                 for n, s in r["inputs"].items()),
        r["dtype"], r["device"], r["torch"]))
    w("fusebench chain: %s\n" % (", ".join(r["chain"]) if r["chain"] else
                                 "none (%s)" % r["unmapped"]))
    for mode in MODES:
        m = r["modes"][mode]
        w("\n%s (%s)\n" % (mode, m["row"]))
        w("  kernels   predicted %d, counted %d per call%s\n" % (
            m["kernels_predicted"], m["kernels_counted"],
            (" (%s)" % ", ".join(m["counted_names"])) if m["counted_names"] else ""))
        for k in m["kernels"]:
            w("    %-40s %-28s reads %d, writes %d: %d B\n" % (
                k["name"], ", ".join(k["ops"]), len(k["reads"]), len(k["writes"]), k["bytes"]))
        w("  transfers predicted %d arrays, %d B per call\n" % (m["transfers_predicted"],
                                                               m["bytes_predicted"]))
        dram = m["measured_dram"]
        w("  DRAM      %s\n" % ("read %.0f B, written %.0f B per call" % (dram["read"],
                                                                         dram["write"])
                                if "read" in dram else "NA (%s)" % dram["na"]))
        w("  time      %s\n" % fmt_time(m["time"]))
    if r["chain"]:
        f = r["fusebench"]
        w("\nfusebench eager_%s  %s\n" % (CHAIN, fmt_time(f["eager"])))
        w("fusebench fused_%s  %s\n" % (CHAIN, fmt_time(f["fused"])))
        w("fusebench eager/fused: %s\n" % fmt_ratio(f["speedup"]))
    w("\ntorch eager/compiled: %s%s\n" % (fmt_ratio(r["ratio"]), "" if not r["ratio"] or
                                          r["ratio"][0] is None else
                                          " (fusebench's speedup column, 95% interval)"))
    fit = r["fit"]
    if "na" in fit:
        w("model: %s\n" % fit["na"])
    else:
        w("model: t = launches x L + bytes / bandwidth, L = %.3g s, B = %.3g GB/s, B_c = %s GB/s "
          "(fitted by fusebench to %s)\n" % (
              fit["launch_s"], fit["bandwidth_gbps"], "%.3g" % fit["cache_bandwidth_gbps"]
              if fit["cache_bandwidth_gbps"] is not None else "?", fit["source"]))
        for m in MODES:
            f = fit[m]
            w("  %-9s %s at %.3g GB/s (%s): launches %.1f%%, traffic %.1f%%\n" % (
                m, fmt_time({"median_s": f["model_s"]}).split(" +-")[0], f["bandwidth_gbps"],
                f["regime"], 100 * f["launch_share"], 100 * f["traffic_share"]))
    w("check: %s\n" % r["check"])
    for mode in MODES:
        w("verdict %s\n" % r["modes"][mode]["verdict"])
    if r.get("output"):
        w("wrote %s\n" % r["output"])


def main(argv):
    args = parse_args(argv)
    try:
        return audit(args)
    except UsageError as e:
        print("%s: error: %s" % (PROG, tp.shown(e)), file=sys.stderr)
        return 2
    except (tp.UsageError, fbpeer.PeerError) as e:
        print("%s: error: %s" % (PROG, tp.shown(e)), file=sys.stderr)
        return 2 if not isinstance(e, fbpeer.PeerError) or e.code == fbpeer.ERR_USAGE else 1
    except KeyboardInterrupt:
        print("%s: interrupted; nothing written" % PROG, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
