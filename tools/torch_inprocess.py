#!/usr/bin/env python3
"""PyTorch and fusebench in ONE process: our variants and PyTorch's timed in interleaved
rounds, with the same inputs, the same verification, the same timer and the same stop rule,
into one results file whose ratios fusebench derives.

fusebench's kernels, runner and results file come as libfbpeer.so (src/peer/peer.h), loaded
through ctypes (tools/fbpeer.py). Per size the library draws the random inputs; PyTorch copies
them; each of our variants that a PyTorch variant mirrors is verified as in a sweep; each
PyTorch variant runs once (into an output poisoned with NaN where it writes a preallocated
one) and the library compares that output with the reference of the variant it mirrors (bit
for bit, or within the mirror's ULP bound: the sweep's check); then the library times all of
them together in rounds of one sample each (src/measure/runner.h, fb_sweep_time_calls: warm-up,
batch, disturbed samples dropped and retaken, the config's [measure] stop rule), calling back
into Python for PyTorch's samples: one callback per sample runs the batch of torch calls,
between the backend's own timer marks (on a GPU on the backend's stream, which torch is made
to use through torch.cuda.ExternalStream). Nothing is timed or derived in Python: the
speedups and ours_ratio = t_ours / t_torch with its interval (measure/pairing.h) are
fusebench's, in the CSV.

tools/torch_peer.py is this session without our rows (run(..., ours=False)): PyTorch timed
alone by the same runner. The PyTorch variants are tools/torch_peer.py's (its docstring says
what each runs and which variant of ours it mirrors): torch_eager_add_relu, torch_eager_threshold,
torch_compile_add_relu, torch_eager_add_relu_out, torch_compile_out, and torch_eager_NAME /
torch_compile_NAME per [chain NAME]; their launch counts (torch.profiler or inductor's kernel
count) and the *_out variants' zero allocation per call are checked as there, before timing,
outside the samples. Our rows are the mirrored variants (eager_add_relu, fused_add_relu, ...).

Each PyTorch sample carries a fixed cost besides its calls: the ctypes round trip (C -> Python
-> C) and, on a GPU, the switch to the backend's stream. It is not subtracted (nothing is
derived here, and a fixed cost per sample is what a PyTorch caller pays too); it is reported
beside the ratios: peer_empty_sample_s in the metadata is an empty sample (the same sample
function, with no call in it) timed as a sample is, once before the first size, and
peer_empty_sample_share the largest share of a torch row's sample it can be (empty sample /
(batch x median per call)), with that row.

torch runs on the device of the backend's stream, i.e. the config's [backend] device (asked of
the driver: cuStreamGetDevice), with inductor compiling in this process (tools/torch_peer.py,
TORCH_ENV and COMPILE_SETTINGS, set before torch is imported).

Exit status: 0 every point ok, 1 a point failed (wrong result, compile error), 2 usage or
configuration error or no torch (nothing measured, nothing written), 130 interrupted.
"""

import argparse
import ctypes
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fbpeer  # noqa: E402
import torch_peer as tp  # noqa: E402

REPO = os.path.dirname(HERE)
BACKEND = tp.BACKEND  # "torch"


def log(msg):
    print("torch_inprocess: " + msg, file=sys.stderr, flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="torch_inprocess.py",
        description="Time fusebench's variants and PyTorch's in interleaved rounds in one "
                    "process and write one results file (see the module docstring).")
    p.add_argument("--config", default=os.path.join(REPO, "configs", "default.ini"),
                   help="fusebench INI (default configs/default.ini): sizes, variants, chains, "
                        "backend, [measure] stop rule")
    p.add_argument("--build", default=os.path.join(REPO, "build"),
                   help="the meson build directory holding fusebench and libfbpeer.so "
                        "(default build/)")
    p.add_argument("--sizes", help='override the sizes: "1K,1M", "8..100M"')
    p.add_argument("--max-time", type=float, help="seconds per point (overrides [measure] "
                                                  "max_time)")
    p.add_argument("--threads", type=int,
                   help="CPU threads for ours and torch alike (overrides [backend] cpu_threads; "
                        "0 = all cores)")
    p.add_argument("--variants", default=None,
                   help="comma list of the PyTorch variants (default: every one whose mirror "
                        "the config enables)")
    p.add_argument("--output", help="CSV path (default out/<backend>-<device>/torch-inprocess.csv)")
    p.add_argument("--force", action="store_true",
                   help="replace an output file that fusebench did not write")
    args = p.parse_args(argv)
    if args.max_time is not None and not args.max_time > 0:
        p.error("--max-time must be > 0")
    if args.threads is not None and args.threads < 0:
        p.error("--threads must be >= 0")
    return args


def stream_device(stream, libcuda=None):
    """The CUDA device ordinal of the backend's stream (a cudaStream_t, the address
    fbp_stream gives): the config's [backend] device, numbered as torch numbers it (both count
    the devices visible to this process). libcuda: the driver library (default libcuda.so.1,
    already loaded by the backend). PeerError when the driver cannot say (cuStreamGetDevice
    needs a CUDA 12.8 driver; a CUDA 13 build needs r580 anyway)."""
    try:
        lib = libcuda if libcuda is not None else ctypes.CDLL("libcuda.so.1")
        get = lib.cuStreamGetDevice
    except (OSError, AttributeError) as e:
        raise fbpeer.PeerError(fbpeer.ERR_RUNTIME, "cannot ask the CUDA driver for the "
                               "backend's device (cuStreamGetDevice: %s)" % e)
    ordinal = ctypes.c_int(-1)
    rc = get(ctypes.c_void_p(stream), ctypes.byref(ordinal))
    if rc != 0 or ordinal.value < 0:
        raise fbpeer.PeerError(fbpeer.ERR_RUNTIME, "cuStreamGetDevice on the backend's stream: "
                               "CUresult %d" % rc)
    return ordinal.value


def torch_device(torch, backend, stream, device_of=stream_device):
    """The torch device the peer's tensors and calls go to: the backend's own. cuda: the
    device of its stream (device_of(stream): the configured [backend] device, not torch's
    current one); else the CPU."""
    if backend == "cuda":
        return torch.device("cuda", device_of(stream))
    return torch.device("cpu")


def sample_calls(on_stream, fn=None, args=()):
    """A peer sample as the library calls it: calls(count) runs fn(*args) count times on the
    backend's queue (on_stream(): a context). fn None: the empty sample, all of a sample but
    the calls (what peer_empty_sample_s times)."""
    def calls(count):
        with on_stream():
            for _ in range(count):
                fn(*args)
    return calls


class Contest:
    """One size: our mirrors and PyTorch's variants, added to the library's session.
    stream: torch's handle of the backend's stream (main makes it once; on a GPU made here
    when not given)."""

    def __init__(self, torch, session, peer, device, stream=None, log=log):
        self.torch, self.s, self.peer, self.device = torch, session, peer, device
        self.log = log
        self.cuda = device.type == "cuda"
        if self.cuda and stream is None:
            stream = torch.cuda.ExternalStream(session.stream(), device=device)
        self.stream = stream
        self.failed = 0

    def inputs(self, n):
        """The library's a and b, copied into torch tensors on the device."""
        torch = self.torch
        out = []
        for which in (0, 1):
            host = (ctypes.c_float * n).from_address(self.s.input_address(which))
            out.append(torch.frombuffer(host, dtype=torch.float32).clone().to(self.device))
        return out

    def add_torch(self, name, variant, a, b):
        """Runs the variant once, checks what only the peer can (its output lands in the
        preallocated one, no allocation per call), counts its launches, and hands its output
        to the library's verification; a failure is recorded in the row."""
        torch, peer = self.torch, self.peer

        def failed(reason):
            self.failed += 1
            self.log("%-24s n=%-10d failed: %s" % (name, a.numel(), reason))
            self.s.add_failed(BACKEND, name, variant.mirror, variant.pair, reason[:250])

        try:
            with self.on_stream():
                fn, metrics, outs = peer.fn_for(variant, a, reset=False)
                for buf in outs:
                    buf.fill_(float("nan"))  # an element left unwritten cannot pass
                out = fn(a, b)  # compiles, for torch.compile
                peer.sync()
                if outs and out.data_ptr() != outs[-1].data_ptr():
                    return failed("result not written into the preallocated output")
                host = out.detach().contiguous().to("cpu")
                if host.dtype != torch.float32 or host.numel() != a.numel():
                    return failed("result of %s %s, expected float32 of %d elements"
                                  % (host.dtype, tuple(host.shape), a.numel()))
                launches, kernel_s, allocated = peer.profile_calls(fn, a, b)
                if metrics is not None and not self.cuda:
                    launches = int(metrics.generated_kernel_count)
                if variant.preallocated and allocated > 0:
                    return failed("allocates %d bytes per call: not an out variant" % allocated)
        except Exception as e:  # a compile or runtime error is this point's failure
            return failed("%s: %s" % (type(e).__name__, str(e).splitlines()[0][:200]
                                      if str(e) else ""))

        rc = self.s.add_peer(BACKEND, name, variant.mirror, variant.pair, launches,
                             host.data_ptr(), sample_calls(self.on_stream, fn, (a, b)))
        if rc == fbpeer.ERR_VERIFY:
            self.failed += 1
            self.log("%-24s n=%-10d failed: %s" % (name, a.numel(), self.s.error()))
        else:
            if kernel_s is not None:  # GPU: the profiler's kernel time, as ours have theirs
                self.s.set_kernel_time(rc, kernel_s)
            note = "" if launches == variant.launches else (
                " (%s has %d: its bytes_model makes the bandwidth an effective one)"
                % (variant.mirror, variant.launches))
            self.log("%-24s n=%-10d verified, launches=%d%s, alloc/call=%.0f B"
                     % (name, a.numel(), launches, note, allocated))
        del host

    def on_stream(self):
        return self.torch.cuda.stream(self.stream) if self.cuda else _NoStream()


class _NoStream:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def empty_share(empty_s, median_s, batch):
    """The share of a sample (batch calls of median_s each) the empty sample's fixed cost
    takes; NaN when the row has no time."""
    sample = median_s * batch
    return empty_s / sample if sample > 0 else float("nan")


def report(session, names, torch_names, empty_s, worst, n, log=log):
    """Logs each row of the size; worst: [share, name, n], the largest empty-sample share of
    a torch row so far, updated."""
    for i, name in enumerate(names):
        status, med, noise, reps, batch = session.result(i)
        if status == fbpeer.OK:
            extra = ""
            if name in torch_names:
                share = empty_share(empty_s, med, batch)
                extra = " empty-sample share %.2g" % share
                if share > worst[0]:
                    worst[:] = [share, name, n]
            log("%-24s median=%.4g s noise=%.3f (%d reps x %d)%s"
                % (name, med, noise, reps, batch, extra))


def settings_of(args, plan):
    """fusebench's "key=value" overrides (fbp_open's settings) of the options: --sizes (or
    --sizes-from-csv's), --max-time (min_time lowered to it when the config's is longer, so
    that the stop rule stays valid), --threads, --device (the backend)."""
    settings = []
    if getattr(args, "sizes_from_csv", None):
        sizes = tp.sizes_from_csv(args.fusebench, args.sizes_from_csv)
        settings.append("sizes=" + ",".join(str(n) for n in sizes))
    elif args.sizes:
        settings.append("sizes=" + args.sizes)
    if args.max_time is not None:
        if plan["measure"]["min_time"] > args.max_time:
            settings.append("min_time=%g" % args.max_time)
        settings.append("max_time=%g" % args.max_time)
    if args.threads is not None:
        settings.append("cpu_threads=%d" % args.threads)
    if getattr(args, "device", None):
        settings.append("backend=" + args.device)
    return settings


def main(argv):
    args = parse_args(argv)
    args.fusebench = os.path.join(args.build, "fusebench")
    args.where = "--build DIR"
    return run(args, ours=True, prog="torch_inprocess", out_name="torch-inprocess.csv")


def run(args, ours, prog, out_name):
    """One session: per size, our mirrors (when ours) and the chosen PyTorch variants, timed
    together in the library's rounds, written to one results file. args: fusebench (binary;
    libfbpeer.so beside it), where (the option naming it), config, sizes, max_time, threads,
    variants, output, force, and for tools/torch_peer.py device and sizes_from_csv. ours False:
    PyTorch's rows only (tools/torch_peer.py), still verified against our reference and timed
    by our runner. Returns the exit status."""
    def error(msg, rc):
        print("%s: error: %s" % (prog, tp.shown(msg)), file=sys.stderr)
        return rc

    def log(msg):
        print("%s: %s" % (prog, msg), file=sys.stderr, flush=True)

    try:
        # The variants and what each mirrors: fusebench's plan (their ops, model and pairs).
        plan = tp.read_plan(args.fusebench, args.config, args.sizes, where=args.where)
        known = dict(list(tp.VARIANTS.items()) + list(tp.chain_variants(plan).items()))
        variants = tp.resolve_variants(plan, known)
        names = tp.select_variants(None if args.variants is None else
                                   [v.strip() for v in args.variants.split(",") if v.strip()],
                                   variants, known)
        settings = settings_of(args, plan)
        lib = fbpeer.load(fbpeer.default_path(os.path.dirname(args.fusebench)))
    except (tp.UsageError, fbpeer.PeerError, OSError, ValueError) as e:
        return error(e, 2)
    if not names:
        return error("the config enables no variant a PyTorch variant mirrors "
                     "(eager_add_relu, fused_add_relu, chains)", 2)

    warnings.filterwarnings("ignore", message=".*Failed to initialize NumPy.*")
    warnings.filterwarnings("ignore", message=".*Profiler clears events.*")
    # Before the session: --device cuda with a torch without CUDA says how to install one.
    torch = tp.import_torch(getattr(args, "device", None) or "cpu", prog=prog)
    if torch is None:
        return 2
    try:
        session = fbpeer.Session(lib, args.config, settings)
    except fbpeer.PeerError as e:
        return error(e, 2)
    with session:
        dev_kind = "cuda" if session.backend == "cuda" else "cpu"
        if getattr(args, "device", None) == "auto":
            log("--device auto: using %s" % dev_kind)
        if dev_kind == "cuda" and tp.import_torch(dev_kind, prog=prog) is None:
            return 2
        output = args.output or os.path.join(REPO, "out", "%s-%s" % (
            session.backend, tp.slug(session.device)), out_name)
        try:
            session.results_open(output, args.force)
        except fbpeer.PeerError as e:
            return error(e, 2)
        try:
            device = torch_device(torch, session.backend, session.stream())
        except fbpeer.PeerError as e:
            return error(e, 2)
        stream = None
        if device.type == "cuda":
            torch.cuda.set_device(device)  # the tensors torch allocates without a device
            stream = torch.cuda.ExternalStream(session.stream(), device=device)
        on_stream = (lambda: torch.cuda.stream(stream)) if stream is not None else _NoStream
        try:
            empty_s = session.empty_call_s(sample_calls(on_stream))
        except fbpeer.PeerError as e:
            return error(e, 1)
        threads = session.cpu_threads()
        if threads > 0:
            torch.set_num_threads(threads)
        mirrors = []
        for name in names:
            if ours and variants[name].mirror not in mirrors:
                mirrors.append(variants[name].mirror)
        meta = [
            ("tool", "tools/%s.py (libfbpeer.so: %s in one process, interleaved rounds, one "
                     "timer, one stop rule)" % (prog, "ours and torch" if ours else
                                               "torch's variants only")),
            ("torch", torch.__version__),
            ("torch_cuda", torch.version.cuda or ""),
            ("torch_threads", torch.get_num_threads() if dev_kind == "cpu" else ""),
            ("torch_variants", " ".join("%s(mirrors %s)" % (n, variants[n].mirror)
                                        for n in names)),
            ("torch_compile", "dynamic=False fullgraph=True mode=default; dynamo reset once "
                              "per size, compiled before timing; torch_compile_out compiles "
                              "c.copy_((a + b).relu()) with c an argument; inductor "
                              + tp.settings_text(tp.COMPILE_SETTINGS)),
            ("torch_env", tp.settings_text(tp.TORCH_ENV)),
            ("launches", "profiler device kernels per call" if dev_kind == "cuda" else
             "eager: leaf aten ops per call; compile: inductor generated_kernel_count"),
            ("peer_check", "the torch output of one call (into a NaN-poisoned preallocated "
                           "output for *_out) against the mirror's reference, as ours; *_out "
                           "allocate 0 bytes per call (torch.profiler)"),
            ("torch_device", str(device)),
            ("peer_empty_sample_s", "%.3g" % empty_s),
            ("peer_empty_sample_note", "not subtracted: an empty torch sample (ctypes round trip"
                                       " and the switch to the backend's stream, no call) timed "
                                       "as a sample; peer_empty_sample_share: its largest share "
                                       "of a torch row's sample (batch x median)"),
        ]
        for key, value in meta:
            session.set_meta(key, value)
        log("%s (%s), torch %s: %d sizes, ours %s, torch %s -> %s" % (
            session.device, session.backend, torch.__version__, len(session.sizes()),
            ",".join(mirrors) or "none", ",".join(names), output))

        peer = tp.Peer(torch, device)
        import torch._dynamo
        failed = 0
        worst = [0.0, "", 0]
        try:
            for n in session.sizes():
                session.size_begin(n)
                contest = Contest(torch, session, peer, device, stream, log)
                a, b = contest.inputs(n)
                torch._dynamo.reset()  # once per size: its compiled variants live side by side
                order = []
                for m in mirrors:
                    if session.add_ours(m) == fbpeer.ERR_VERIFY:
                        failed += 1
                        log("%-24s n=%-10d failed: %s" % (m, n, session.error()))
                    order.append(m)
                for name in names:
                    contest.add_torch(name, variants[name], a, b)
                    order.append(name)
                session.time_round_robin()
                log("n=%d:" % n)
                report(session, order, names, empty_s, worst, n, log)
                if worst[1]:  # written with this size's rows (a key set again is replaced)
                    session.set_meta("peer_empty_sample_share", "%.3g (%s at n=%d)"
                                     % tuple(worst))
                session.size_end()
                failed += contest.failed
                del a, b, contest
            session.results_finish()
        except KeyboardInterrupt:
            print("%s: interrupted; the finished sizes are in %s.partial" % (prog, output),
                  file=sys.stderr)
            return 130
        except fbpeer.PeerError as e:
            print("%s: error: %s (the finished sizes are in %s.partial)" % (prog, e, output),
                  file=sys.stderr)
            return 130 if e.code == fbpeer.ERR_INTERRUPTED else 1
    log("wrote %s (%d failed)" % (output, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
