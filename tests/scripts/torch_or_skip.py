"""torch for a test, or never returns: the tests that need torch (test_torch_peer_run.py,
tests/peer/test_torch_inprocess.py) import it through here. meson runs them with its python3;
when that one cannot import torch, the test re-runs itself under $FB_PYTHON or the
repository's .venv/bin/python (the pythons scripts/gpu-check uses), and skips (exit 77, the
reason printed) when none of them has torch."""
import atexit
import getpass
import os
import shutil
import sys
import tempfile
import warnings

SKIP = 77
REEXEC_MARK = "FB_TORCH_TEST_REEXEC"


def import_torch_or_reexec(script, src):
    """torch; else re-executes `script` (with this argv) under a python that may have it, or
    exits 77. src: the repository (for .venv). Inductor's cache goes to a directory of the
    test's own, removed at exit, and its default directory (TMPDIR/torchinductor_USER, where
    it puts precompiled headers whatever TORCHINDUCTOR_CACHE_DIR says) is removed at exit
    when the test made it: a test leaves nothing behind."""
    default = os.path.join(tempfile.gettempdir(), "torchinductor_" + getpass.getuser())
    if not os.path.exists(default):
        atexit.register(shutil.rmtree, default, True)
    cache = None
    if "TORCHINDUCTOR_CACHE_DIR" not in os.environ:
        cache = tempfile.mkdtemp(prefix="torchinductor-")
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
        atexit.register(shutil.rmtree, cache, True)
    try:
        warnings.filterwarnings("ignore", message=".*Failed to initialize NumPy.*")
        warnings.filterwarnings("ignore", message=".*Profiler clears events.*")
        import torch
        return torch
    except ImportError as e:
        why = str(e)
    if cache:  # the python re-run below, or none, makes its own
        shutil.rmtree(cache, True)
        del os.environ["TORCHINDUCTOR_CACHE_DIR"]
    if not os.environ.get(REEXEC_MARK):
        for py in (os.environ.get("FB_PYTHON"), os.path.join(src, ".venv", "bin", "python")):
            # Not realpath: a venv's python is a link to the base interpreter, and what
            # differs is the environment it finds beside the link.
            if py and os.access(py, os.X_OK) and \
                    os.path.abspath(py) != os.path.abspath(sys.executable):
                os.environ[REEXEC_MARK] = "1"
                sys.stdout.flush()
                os.execv(py, [py, os.path.abspath(script)] + sys.argv[1:])
    print("SKIP: no python here imports torch (%s: %s; tried $FB_PYTHON and %s/.venv/bin/python);"
          " see requirements-torch.txt" % (sys.executable, why, src))
    sys.exit(SKIP)
