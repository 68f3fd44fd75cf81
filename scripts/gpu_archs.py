#!/usr/bin/env python3
"""The GPU architectures a build compiles the kernels for: the one answer meson.build uses
(python3 stdlib only; docs/gpus.md explains the choice).

  gpu_archs.py --nvcc NVCC --archs REQUEST [--device-query PROGRAM]

REQUEST is the -Dgpu_archs option joined with commas:
  all        (the default) machine code (SASS) for every major architecture from Turing on
             that this nvcc lists (`nvcc --list-gpu-code`), each at its lowest minor: SASS
             for X.y runs on every X.z with z >= y, so sm_80 serves sm_86/87/88/89 and
             sm_100 serves sm_103 and sm_107. Plus PTX of the newest of them, which the
             driver compiles for any later GPU.
  native     the GPUs of this machine, as nvcc's __nvcc_device_query reports them; an error
             when none answers (nvcc's own -arch=native silently builds sm_75 then).
  75,80,...  the architectures named (75, sm_75 or 7.5), each one nvcc must list; PTX of the
             newest named.

  gpu_archs.py --nvcc NVCC --device CC

CC is a device's compute capability (8.6, as nvidia-smi's compute_cap says it): prints the one
architecture to build for it, the lowest minor of its major that this nvcc lists (what the
default build carries and the SASS audit checks, tests/kernels/sass_audit.py): 8.6 and 8.9 get
80, 10.3 gets 100, 12.1 gets 120. Used by scripts/gpu-check; exit 2, saying why, for a device
that no such architecture can run on (older than Turing, or below every listed minor).

Otherwise prints "key<TAB>value" lines:
  sass      the SASS architectures, comma-separated numbers: 75,80,90,100,110,120
  ptx       the PTX architecture: 120
  listed    what nvcc lists, comma-separated
  gencode   one line per nvcc flag: -gencode=arch=compute_75,code=sm_75 ... and the PTX one
Exit status 0; 2 with a message on stderr for a request nvcc cannot build.
"""

import argparse
import re
import subprocess
import sys

# Turing (sm_75) is the oldest architecture fusebench builds for: CUDA 13 lists none older,
# and the kernels need nothing newer.
OLDEST = 75


def parse_listed(text):
    """[75, 80, 86, ...] from `nvcc --list-gpu-code` output (sm_XY lines), sorted."""
    found = sorted({int(m.group(1)) for m in re.finditer(r"\bsm_(\d+)\b", text)})
    if not found:
        raise ValueError("nvcc --list-gpu-code listed no sm_XY architecture:\n" + text)
    return found


def default_archs(listed):
    """The lowest minor of each major from Turing on, as (sass list, ptx arch)."""
    majors = {}
    for arch in listed:
        if arch >= OLDEST:
            majors.setdefault(arch // 10, arch)
    if not majors:
        raise ValueError("this nvcc lists no architecture from sm_%d on (it lists %s)"
                         % (OLDEST, ", ".join("sm_%d" % a for a in listed)))
    sass = sorted(majors.values())
    return sass, sass[-1]


def parse_named(entries, listed):
    """(sass list, ptx arch) for entries such as '80', 'sm_90', '8.6'."""
    sass = []
    for entry in entries:
        m = re.match(r"^(?:sm_|compute_)?(\d)\.?(\d+)$", entry.strip())
        if not m:
            raise ValueError("-Dgpu_archs: %r is not an architecture (write 80, sm_80 or 8.0; "
                             "or all, or native)" % entry)
        arch = int(m.group(1) + m.group(2))
        if arch not in listed:
            raise ValueError("-Dgpu_archs: sm_%d is not one this nvcc can build (it lists %s)"
                             % (arch, ", ".join("sm_%d" % a for a in listed)))
        if arch not in sass:
            sass.append(arch)
    if not sass:
        raise ValueError("-Dgpu_archs is empty: give all, native or architectures (80,90)")
    sass.sort()
    return sass, sass[-1]


def query_devices(program):
    """The compute capabilities __nvcc_device_query prints ('90' or '86,90'), as entries."""
    try:
        done = subprocess.run([program], capture_output=True, text=True, check=False,
                              timeout=60)
    except OSError as e:
        raise ValueError("-Dgpu_archs=native: cannot run %s: %s" % (program, e))
    out = done.stdout.strip()
    entries = [e for e in re.split(r"[\s,;]+", out) if e]
    if done.returncode != 0 or not entries or not all(re.match(r"^\d+$", e) for e in entries):
        why = (done.stderr.strip() or out or "no output").splitlines()[0]
        raise ValueError("-Dgpu_archs=native: no GPU answered here (%s: %s, exit %d); name the "
                         "architecture instead, e.g. -Dgpu_archs=90 for an H100/H200 "
                         "(docs/gpus.md lists them), or keep the default, all"
                         % (program, why, done.returncode))
    return entries


def choose(request, listed, device_query=None):
    """(sass list, ptx arch) for the request string (comma-separated option values)."""
    entries = [e.strip() for e in request.split(",") if e.strip()]
    if entries == ["all"] or not entries:
        return default_archs(listed)
    if entries == ["native"]:
        if device_query is None:
            raise ValueError("-Dgpu_archs=native: nvcc's __nvcc_device_query was not found")
        return parse_named(query_devices(device_query), listed)
    if "all" in entries or "native" in entries:
        raise ValueError("-Dgpu_archs: all and native stand alone (got %s)" % request)
    return parse_named(entries, listed)


def for_device(cc, listed):
    """The architecture to build for a device of compute capability cc ("8.6"): the lowest
    minor of its major that is listed, from Turing on; SASS of X.y runs on every X.z with
    z >= y, so it must not exceed the device's own minor."""
    m = re.match(r"^(\d+)\.(\d)$", cc.strip())
    if not m:
        raise ValueError("not a compute capability: %r (want MAJOR.MINOR, e.g. 8.6)" % cc)
    major, device = int(m.group(1)), int(m.group(1) + m.group(2))
    same = [a for a in listed if a // 10 == major and OLDEST <= a <= device]
    if not same:
        raise ValueError("no architecture this nvcc lists runs on a %s device (sm_%d): it lists "
                         "%s, and fusebench builds from sm_%d (Turing) on" % (
                             cc, device, ", ".join("sm_%d" % a for a in listed), OLDEST))
    return min(same)


def gencode(sass, ptx):
    """The nvcc flags: SASS for each architecture, PTX for the newest."""
    flags = ["-gencode=arch=compute_%d,code=sm_%d" % (a, a) for a in sass]
    flags.append("-gencode=arch=compute_%d,code=compute_%d" % (ptx, ptx))
    return flags


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nvcc", required=True)
    parser.add_argument("--archs", default="all")
    parser.add_argument("--device-query", default=None)
    parser.add_argument("--device", default=None)
    args = parser.parse_args(argv[1:])
    done = subprocess.run([args.nvcc, "--list-gpu-code"], capture_output=True, text=True,
                          check=False)
    try:
        if done.returncode != 0:
            raise ValueError("%s --list-gpu-code failed: %s" % (args.nvcc, done.stderr.strip()))
        listed = parse_listed(done.stdout)
        if args.device is not None:
            print(for_device(args.device, listed))
            return 0
        sass, ptx = choose(args.archs, listed, args.device_query)
    except ValueError as e:
        sys.stderr.write("%s\n" % e)
        return 2
    print("sass\t%s" % ",".join(str(a) for a in sass))
    print("ptx\t%d" % ptx)
    print("listed\t%s" % ",".join(str(a) for a in listed))
    for flag in gencode(sass, ptx):
        print("gencode\t%s" % flag)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
