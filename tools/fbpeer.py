"""ctypes binding of libfbpeer.so (src/peer/peer.h: the contract of every function is there).

Only declarations and error translation: no measuring, no statistics, no number derived here.
tools/torch_inprocess.py uses it, and so do the tests (tests/peer/test_peer_ctypes.py) without
torch, through the array module's buffers.
"""

import ctypes
import os

ABI_VERSION = 4
# fb_status (src/common/error.h)
OK, ERR_RUNTIME, ERR_USAGE, ERR_VERIFY, ERR_UNAVAILABLE, ERR_INTERRUPTED = 0, -1, -2, -3, -4, -5

# int (*)(void *user, int64_t calls)
CALLS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int64)


class PeerError(Exception):
    """A call of the library failed: code is its fb_status, message its fbp_error()."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def default_path(build_dir):
    return os.path.join(build_dir, "libfbpeer.so")


def load(path):
    """The library at path, with its functions declared; PeerError(ERR_USAGE) when it cannot
    be loaded or is of another ABI version."""
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise PeerError(ERR_USAGE, "%s: cannot load (%s); build it: meson compile -C BUILD"
                        % (path, e))
    c_int, c_i64, c_p, c_s, c_d = (ctypes.c_int, ctypes.c_int64, ctypes.c_void_p,
                                   ctypes.c_char_p, ctypes.c_double)
    decl = {
        "fbp_abi_version": (c_int, []),
        "fbp_open": (c_int, [c_s, ctypes.POINTER(c_s), c_int, ctypes.POINTER(c_p), c_s,
                             ctypes.c_size_t]),
        "fbp_close": (None, [c_p]),
        "fbp_error": (c_s, [c_p]),
        "fbp_backend": (c_s, [c_p]),
        "fbp_device": (c_s, [c_p]),
        "fbp_stream": (c_p, [c_p]),
        "fbp_size_count": (c_int, [c_p]),
        "fbp_size": (c_i64, [c_p, c_int]),
        "fbp_cpu_threads": (c_int, [c_p]),
        "fbp_results_open": (c_int, [c_p, c_s, c_int]),
        "fbp_set_meta": (c_int, [c_p, c_s, c_s]),
        "fbp_results_finish": (c_int, [c_p]),
        "fbp_size_begin": (c_int, [c_p, c_i64]),
        "fbp_input": (ctypes.POINTER(ctypes.c_float), [c_p, c_int]),
        "fbp_add_ours": (c_int, [c_p, c_s]),
        "fbp_add_peer": (c_int, [c_p, c_s, c_s, c_s, c_s, c_i64, c_p, CALLS_FN, c_p]),
        "fbp_add_peer_unmirrored": (c_int, [c_p, c_s, c_s, c_s, c_s, c_i64, c_d, CALLS_FN,
                                            c_p]),
        "fbp_add_failed": (c_int, [c_p, c_s, c_s, c_s, c_s, c_s]),
        "fbp_measure_traffic": (c_int, [c_p, CALLS_FN, c_p, ctypes.POINTER(c_d),
                                        ctypes.POINTER(c_d)]),
        "fbp_set_kernel_time": (c_int, [c_p, c_int, c_d]),
        "fbp_time_round_robin": (c_int, [c_p]),
        "fbp_result": (c_int, [c_p, c_int, ctypes.POINTER(c_d), ctypes.POINTER(c_d),
                               ctypes.POINTER(c_i64), ctypes.POINTER(c_i64)]),
        "fbp_size_end": (c_int, [c_p]),
        "fbp_empty_call_s": (c_d, [c_p, CALLS_FN, c_p]),
        "fbp_interrupt": (None, [c_p]),
        "fbp_fit_model": (c_int, [c_d, c_d, c_d, c_d, c_d, c_d] + [ctypes.POINTER(c_d)] * 4
                          + [ctypes.POINTER(c_int)]),
        "fbp_fit_regime_name": (c_s, [c_int]),
    }
    for name, (res, args) in decl.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    if lib.fbp_abi_version() != ABI_VERSION:
        raise PeerError(ERR_USAGE, "%s: ABI version %d, this binding is %d: rebuild"
                        % (path, lib.fbp_abi_version(), ABI_VERSION))
    return lib


def fit_model(lib, launches, nbytes, launch_s, bandwidth, cache_bandwidth=None,
              cache_bytes=None):
    """fusebench's fitted model of one call (fbp_fit_model): launches, bytes per call, L
    (seconds), B and B_c (bytes per second; None: not fitted), the cache (bytes; None: not
    known). {"model_s", "launch_share", "traffic_share", "bandwidth" (bytes per second),
    "regime" (its words)}; PeerError(ERR_USAGE) for an input out of range."""
    nan = float("nan")
    out = [ctypes.c_double() for _ in range(4)]
    regime = ctypes.c_int()
    rc = lib.fbp_fit_model(float(launches), float(nbytes), float(launch_s), float(bandwidth),
                           nan if cache_bandwidth is None else float(cache_bandwidth),
                           nan if cache_bytes is None else float(cache_bytes),
                           *[ctypes.byref(x) for x in out], ctypes.byref(regime))
    if rc != OK:
        raise PeerError(rc, "fbp_fit_model: an input out of range (launches %r, bytes %r, "
                            "L %r, B %r, B_c %r)" % (launches, nbytes, launch_s, bandwidth,
                                                     cache_bandwidth))
    return {"model_s": out[0].value, "launch_share": out[1].value,
            "traffic_share": out[2].value, "bandwidth": out[3].value,
            "regime": lib.fbp_fit_regime_name(regime.value).decode()}


def _b(text):
    return None if text is None else text.encode()


class Session:
    """One fbp_session. Methods raise PeerError on a negative status, except where they say
    they return it (the verification of a contestant: its row is recorded failed)."""

    def __init__(self, lib, config, settings=()):
        self.lib = lib
        self._callbacks = []  # the ctypes callbacks must outlive the size they are used in
        arr = (ctypes.c_char_p * max(len(settings), 1))(*[_b(s) for s in settings])
        handle = ctypes.c_void_p()
        msg = ctypes.create_string_buffer(1024)
        rc = lib.fbp_open(_b(config), arr, len(settings), ctypes.byref(handle), msg, len(msg))
        if rc != OK:
            raise PeerError(rc, msg.value.decode(errors="replace"))
        self.s = handle

    def close(self):
        if self.s:
            self.lib.fbp_close(self.s)
            self.s = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def error(self):
        return self.lib.fbp_error(self.s).decode(errors="replace")

    def _check(self, rc):
        if rc < 0:
            raise PeerError(rc, self.error())
        return rc

    @property
    def backend(self):
        return self.lib.fbp_backend(self.s).decode()

    @property
    def device(self):
        return self.lib.fbp_device(self.s).decode(errors="replace")

    def stream(self):
        return self.lib.fbp_stream(self.s)

    def sizes(self):
        return [self.lib.fbp_size(self.s, i) for i in range(self.lib.fbp_size_count(self.s))]

    def cpu_threads(self):
        return self.lib.fbp_cpu_threads(self.s)

    def results_open(self, path, force=False):
        self._check(self.lib.fbp_results_open(self.s, _b(path), 1 if force else 0))

    def set_meta(self, key, value):
        self._check(self.lib.fbp_set_meta(self.s, _b(key), _b(str(value))))

    def results_finish(self):
        self._check(self.lib.fbp_results_finish(self.s))

    def size_begin(self, n):
        self._callbacks = []
        self._check(self.lib.fbp_size_begin(self.s, n))

    def input_address(self, which):
        """Address of input a (0) or b (1) of the open size: n floats."""
        p = self.lib.fbp_input(self.s, which)
        if not p:
            raise PeerError(ERR_USAGE, "no size open")
        return ctypes.cast(p, ctypes.c_void_p).value

    def add_ours(self, variant):
        """Its index, or a negative status (ERR_VERIFY: recorded failed; see error())."""
        rc = self.lib.fbp_add_ours(self.s, _b(variant))
        if rc == ERR_USAGE or rc == ERR_RUNTIME:
            raise PeerError(rc, self.error())
        return rc

    def _trampoline(self, calls):
        """The C callback of calls(n_calls): every peer sample, and the empty one, enters
        Python through this same code."""
        def trampoline(_user, n_calls):
            try:
                calls(n_calls)
                return 0
            except KeyboardInterrupt:  # Ctrl-C: the runner stops before its next sample
                self.lib.fbp_interrupt(self.s)
                return 0
            except Exception:  # the C side reports the failure with the size
                return 1
        return CALLS_FN(trampoline)

    def add_peer(self, backend, name, mirror, pair, launches, output_address, calls):
        """calls(n_calls) -> None (raise to fail). Its index, or ERR_VERIFY (recorded
        failed; see error())."""
        cb = self._trampoline(calls)
        self._callbacks.append(cb)
        rc = self.lib.fbp_add_peer(self.s, _b(backend), _b(name), _b(mirror), _b(pair or ""),
                                   -1 if launches is None else launches, output_address, cb,
                                   None)
        if rc == ERR_USAGE or rc == ERR_RUNTIME:
            raise PeerError(rc, self.error())
        return rc

    def add_peer_unmirrored(self, backend, name, role, pair, launches, model_bytes, calls):
        """A contestant no variant of ours mirrors: role "eager" or "fused", launches per call
        (None: unknown), model_bytes per call (> 0) are the caller's, and so is the check of
        its output (the row says so). calls(n_calls) -> None as for add_peer. Its index."""
        cb = self._trampoline(calls)
        self._callbacks.append(cb)
        return self._check(self.lib.fbp_add_peer_unmirrored(
            self.s, _b(backend), _b(name), _b(role), _b(pair or ""),
            -1 if launches is None else launches, float(model_bytes), cb, None))

    def measure_traffic(self, calls):
        """(dram_read_bytes, dram_write_bytes) of one call, calls(1), as the GPU's counters
        (fusebench's CUPTI range profiler) saw it. PeerError with code ERR_UNAVAILABLE and the
        reason as its message where nothing is counted (the CPU backend, counters refused)."""
        cb = self._trampoline(calls)
        rd, wr = ctypes.c_double(), ctypes.c_double()
        self._check(self.lib.fbp_measure_traffic(self.s, cb, None, ctypes.byref(rd),
                                                 ctypes.byref(wr)))
        return rd.value, wr.value

    def add_failed(self, backend, name, mirror, pair, reason):
        self._check(self.lib.fbp_add_failed(self.s, _b(backend), _b(name), _b(mirror),
                                            _b(pair or ""), _b(reason)))

    def set_kernel_time(self, i, seconds):
        """The kernel time per call the peer measured for its contestant i (before the
        rounds): the row's kernel_time_s, and launch_overhead_s once timed."""
        self._check(self.lib.fbp_set_kernel_time(self.s, i, seconds))

    def time_round_robin(self):
        self._check(self.lib.fbp_time_round_robin(self.s))

    def result(self, i):
        """(status, median_s, noise, reps, batch) of contestant i."""
        med, noise = ctypes.c_double(), ctypes.c_double()
        reps, batch = ctypes.c_int64(), ctypes.c_int64()
        rc = self.lib.fbp_result(self.s, i, ctypes.byref(med), ctypes.byref(noise),
                                 ctypes.byref(reps), ctypes.byref(batch))
        if rc == ERR_USAGE:
            raise PeerError(rc, "no contestant %d" % i)
        return rc, med.value, noise.value, reps.value, batch.value

    def size_end(self):
        self._check(self.lib.fbp_size_end(self.s))
        self._callbacks = []

    def empty_call_s(self, calls):
        """Seconds per sample the peer's fixed cost takes: calls(0) timed as a sample is
        (median of 101; the library measures it once per session), through the trampoline
        every sample takes. calls: the peer's sample function (what wraps its calls: for
        torch the switch to the backend's stream) with nothing to call."""
        cb = self._trampoline(calls)
        t = self.lib.fbp_empty_call_s(self.s, cb, None)
        if t < 0:
            raise PeerError(ERR_RUNTIME, self.error())
        return t
