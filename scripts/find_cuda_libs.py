#!/usr/bin/env python3
"""Where the CUDA runtime, CUPTI and libnvperf are: the one answer the build (meson.build) and
scripts/gpu-check both use (python3 stdlib only).

  find_cuda_libs.py --nvcc PATH [--cupti-dir DIR] [--extra-root DIR ...]

Prints "key<TAB>value" lines (value empty when not found):
  cuda_root      the toolkit that nvcc belongs to (the parent of its bin/)
  cuda_include   the directory with cuda_runtime.h
  cudart_dir     the directory with libcudart.so*
  cudart_lib     the file to link: libcudart.so, else the versioned libcudart.so.N
  cupti_include  the directory with cupti.h (and cupti_profiler_host.h)
  cupti_dir      the directory with libcupti.so*
  cupti_lib      the file to link, as for cudart
  cupti_layout   option | toolkit | extras | pip-cu13 | pip-cuda_cupti | none
  nvperf_host    libnvperf_host.so (CUPTI's range profiler needs it at run time), or empty
  nvperf_target  libnvperf_target.so, or empty

Layouts searched, first match wins, for CUPTI (libcupti.so* and cupti.h):
  option          --cupti-dir DIR: DIR/{lib64,lib} and DIR/include (meson -Dcupti_dir=DIR)
  toolkit         ROOT/{lib64,lib,targets/<arch>-linux/lib} with ROOT/include: CUDA 13 puts
                  CUPTI beside the runtime (also this machine's toolkit, assembled from wheels)
  extras          ROOT/extras/CUPTI/{lib64,lib,include}: runfile and distribution installs
  pip-cu13        site-packages/nvidia/cu13/{lib,include}: the CUDA 13 wheels
                  (nvidia-cuda-cupti 13.x; what torch 2.11+cu130 installs)
  pip-cuda_cupti  site-packages/nvidia/cuda_cupti/{lib,include}: the CUDA 12 wheels
where ROOT is nvcc's toolkit, then $CUDA_PATH / $CUDA_HOME, then each --extra-root, and the
site-packages are those of the python running this script (sys.path).
Wheels hold no symlinks, so a pip lib/ has only libcupti.so.13 (no libcupti.so): the *_lib keys
name the versioned file then, which the linker takes as a path.

Exit status: 0 (also when something is not found: the keys say so), 2 usage error or a
--cupti-dir that holds no CUPTI.
"""

import argparse
import glob
import os
import platform
import re
import sys


def shared_lib(directory, name):
    """directory/libNAME.so if it exists, else the versioned libNAME.so.N[.M...] with the
    highest version, else None."""
    if not directory or not os.path.isdir(directory):
        return None
    plain = os.path.join(directory, "lib%s.so" % name)
    if os.path.exists(plain):
        return plain
    pattern = re.compile(r"^lib%s\.so\.([0-9]+(?:\.[0-9]+)*)$" % re.escape(name))
    best = None
    for path in glob.glob(os.path.join(directory, "lib%s.so.*" % name)):
        m = pattern.match(os.path.basename(path))
        if m:
            version = tuple(int(x) for x in m.group(1).split("."))
            if best is None or version > best[0]:
                best = (version, path)
    # The shortest name that points at the best file is the SONAME-like one (libcupti.so.13
    # rather than libcupti.so.13.0.85): the linker records the SONAME either way.
    if best is None:
        return None
    real = os.path.realpath(best[1])
    same = [p for p in glob.glob(os.path.join(directory, "lib%s.so.*" % name))
            if pattern.match(os.path.basename(p)) and os.path.realpath(p) == real]
    return min(same, key=len)


def toolkit_roots(nvcc, extra_roots):
    """nvcc's toolkit (unresolved, e.g. /usr/local/cuda, then resolved), $CUDA_PATH,
    $CUDA_HOME, extra roots; each once, existing directories only."""
    roots = []
    if nvcc:
        roots.append(os.path.dirname(os.path.dirname(os.path.abspath(nvcc))))
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    for var in ("CUDA_PATH", "CUDA_HOME"):
        if os.environ.get(var):
            roots.append(os.environ[var])
    roots.extend(extra_roots)
    out = []
    for r in roots:
        r = os.path.normpath(r)
        if os.path.isdir(r) and r not in out:
            out.append(r)
    return out


def target_dir():
    """targets/<arch>-linux, as the toolkit names its per-target tree."""
    machine = platform.machine()
    return "targets/%s-linux" % {"aarch64": "sbsa", "arm64": "sbsa"}.get(machine, machine)


def site_dirs():
    """The python's package directories that can hold the nvidia.* wheels."""
    out = []
    for p in sys.path:
        if p and os.path.isdir(os.path.join(p, "nvidia")) and p not in out:
            out.append(p)
    return out


def candidates(nvcc, cupti_dir, extra_roots):
    """[(layout, lib dirs, include dirs)] in search order."""
    if cupti_dir:
        return [("option", [os.path.join(cupti_dir, d) for d in ("lib64", "lib", ".")],
                 [os.path.join(cupti_dir, "include"), cupti_dir])]
    out = []
    tgt = target_dir()
    for root in toolkit_roots(nvcc, extra_roots):
        out.append(("toolkit",
                    [os.path.join(root, d) for d in ("lib64", "lib", tgt + "/lib")],
                    [os.path.join(root, "include"), os.path.join(root, tgt, "include")]))
        extras = os.path.join(root, "extras", "CUPTI")
        out.append(("extras", [os.path.join(extras, "lib64"), os.path.join(extras, "lib")],
                    [os.path.join(extras, "include")]))
    for site in site_dirs():
        for layout, sub in (("pip-cu13", "cu13"), ("pip-cuda_cupti", "cuda_cupti")):
            base = os.path.join(site, "nvidia", sub)
            out.append((layout, [os.path.join(base, "lib")], [os.path.join(base, "include")]))
    return out


def runtime_candidates(nvcc, extra_roots):
    """[(lib dirs, include dirs)] for libcudart and cuda_runtime.h, in search order."""
    out = []
    tgt = target_dir()
    for root in toolkit_roots(nvcc, extra_roots):
        out.append(([os.path.join(root, d) for d in ("lib64", "lib", tgt + "/lib")],
                    [os.path.join(root, "include"), os.path.join(root, tgt, "include")]))
    for site in site_dirs():
        for sub in ("cu13", "cuda_runtime"):
            base = os.path.join(site, "nvidia", sub)
            out.append(([os.path.join(base, "lib")], [os.path.join(base, "include")]))
    return out


def first_with(dirs, test):
    for d in dirs:
        if test(d):
            return d
    return None


def locate(nvcc, cupti_dir="", extra_roots=()):
    """The dict of keys described in the module docstring."""
    found = dict.fromkeys(("cuda_root", "cuda_include", "cudart_dir", "cudart_lib",
                           "cupti_include", "cupti_dir", "cupti_lib", "nvperf_host",
                           "nvperf_target"), "")
    found["cupti_layout"] = "none"
    roots = toolkit_roots(nvcc, list(extra_roots))
    found["cuda_root"] = roots[0] if roots else ""

    for libs, incs in runtime_candidates(nvcc, list(extra_roots)):
        lib_dir = first_with(libs, lambda d: shared_lib(d, "cudart"))
        inc_dir = first_with(incs, lambda d: os.path.isfile(os.path.join(d, "cuda_runtime.h")))
        if lib_dir and inc_dir:
            found.update(cudart_dir=lib_dir, cudart_lib=shared_lib(lib_dir, "cudart"),
                         cuda_include=inc_dir)
            break

    all_lib_dirs = []
    for layout, libs, incs in candidates(nvcc, cupti_dir, list(extra_roots)):
        all_lib_dirs.extend(libs)
        lib_dir = first_with(libs, lambda d: shared_lib(d, "cupti"))
        inc_dir = first_with(incs, lambda d: os.path.isfile(os.path.join(d, "cupti.h")))
        if lib_dir and inc_dir and not found["cupti_dir"]:
            found.update(cupti_layout=layout, cupti_dir=lib_dir,
                         cupti_lib=shared_lib(lib_dir, "cupti"), cupti_include=inc_dir)

    # libnvperf_* beside libcupti first (every layout above ships them there); else anywhere
    # searched, so that the build can say where they are.
    for name in ("nvperf_host", "nvperf_target"):
        dirs = ([found["cupti_dir"]] if found["cupti_dir"] else []) + all_lib_dirs
        d = first_with(dirs, lambda d: os.path.isfile(os.path.join(d, "lib%s.so" % name)))
        found[name] = os.path.join(d, "lib%s.so" % name) if d else ""
    return found


def main(argv):
    p = argparse.ArgumentParser(prog="find_cuda_libs.py",
                                description="Locate the CUDA runtime, CUPTI and libnvperf "
                                            "(see the module docstring).")
    p.add_argument("--nvcc", default="", help="the nvcc the build uses")
    p.add_argument("--cupti-dir", default="", help="look for CUPTI here only")
    p.add_argument("--extra-root", action="append", default=[],
                   help="another toolkit root to search (repeatable)")
    args = p.parse_args(argv)
    found = locate(args.nvcc, args.cupti_dir, args.extra_root)
    if args.cupti_dir and not found["cupti_dir"]:
        print("find_cuda_libs: --cupti-dir %s: no libcupti.so* in its lib64/ or lib/ with "
              "cupti.h in its include/" % args.cupti_dir, file=sys.stderr)
        return 2
    for key in ("cuda_root", "cuda_include", "cudart_dir", "cudart_lib", "cupti_include",
                "cupti_dir", "cupti_lib", "cupti_layout", "nvperf_host", "nvperf_target"):
        print("%s\t%s" % (key, found[key]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
