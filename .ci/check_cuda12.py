#!/usr/bin/env python3
"""Every kernel of a CUDA build through a CUDA 12 device compiler where no nvcc 12 can be had
(CI: Colab's CUDA 12.8, for its T4, sm_75; docs/gpus.md): NVRTC to PTX, then ptxas to machine
code. The nvidia-cuda-nvcc-cu12 wheel ships ptxas but no nvcc driver and no cicc; NVRTC (the
nvidia-cuda-nvrtc-cu12 wheel) holds the same front end and optimiser as cicc.

  check_cuda12.py --build BUILD --nvrtc LIBNVRTC --ptxas PTXAS --cuda-include DIR --arch 75

For each .cu file of BUILD/compile_commands.json: its own nvcc command's device options
(-I, -D, -U, -std, -fmad...; an option this script does not know stops it, so a new one is
never silently dropped), CUDA include directories replaced by DIR (cuda_fp16.h and
cuda_bf16.h of that version); NVRTC at compute_ARCH, then ptxas -arch=sm_ARCH. Then the
build's own nvcc command with -ptx in place of its output: the kernel entry points NVRTC
produced must be exactly those nvcc produces, so a kernel left out is caught.

Prints one line per file (kernels, registers, spills), one per failing kernel, then
"cuda X.Y device compile: N kernels compiled for sm_ARCH, N failed" and
"tests: N passed, N failed, 0 skipped", a test being one kernel (a file NVRTC or ptxas
rejects fails all of nvcc's kernels in it). Exit 1 on any failure. Python 3 standard library.
"""

import argparse
import ctypes
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

# NVRTC has no C library headers; the kernels' headers include these for types alone. As
# glibc has them on x86-64 (LP64): int64_t is long, and it is part of the kernels' mangled
# names, which must be nvcc's.
C_HEADERS = {
    "stdint.h": """#pragma once
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;
typedef unsigned long uint64_t; typedef long intptr_t; typedef unsigned long uintptr_t;
""",
    "stddef.h": "#pragma once\n#define NULL 0\n",  # size_t and ptrdiff_t are NVRTC's own
    "stdbool.h": "#pragma once\n",                  # C++: bool is a keyword
}

# nvcc options that do not concern device code generation, with whether they take a value
# as the next word.
HOST_ONLY = {"-c": False, "-o": True, "-ccbin": True, "--threads": True, "-MD": False,
             "-MF": True, "-MT": True, "-MQ": True}
HOST_ONLY_PREFIXES = ("-Xcompiler", "-O", "--cudart", "-gencode", "--generate-code", "-arch",
                      "--threads", "-W", "-g")  # -g: host debug info; -G would be device
DEVICE_PREFIXES = ("-std=", "-fmad=", "-ftz=", "-prec-div=", "-prec-sqrt=", "-maxrregcount=",
                   "--use_fast_math", "-use_fast_math", "-lineinfo", "--extra-device-vectorization")

ENTRY = re.compile(r"^\s*(?:\.(?:visible|weak)\s+)?\.entry\s+([\w$]+)\s*\(", re.M)
PTXAS_ENTRY = re.compile(r"Compiling entry function '([\w$]+)' for 'sm_(\d+)'")
PTXAS_SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
PTXAS_REGS = re.compile(r"Used (\d+) registers")


def cuda_include_dir(path):
    return os.path.isfile(os.path.join(path, "cuda_runtime_api.h"))


def device_options(args, directory, cuda_include):
    """NVRTC's options from an nvcc command line (a list; args[0] is nvcc)."""
    out, i = [], 1
    while i < len(args):
        a = args[i]
        take_next = HOST_ONLY.get(a)
        if take_next is not None:
            i += 2 if take_next else 1
            continue
        if a.startswith(("-I", "-D", "-U")):
            flag, value = a[:2], a[2:]
            if not value:
                i += 1
                value = args[i]
            if flag == "-I":
                value = os.path.normpath(os.path.join(directory, value))
                if cuda_include_dir(value):
                    value = cuda_include
            if flag + value not in out:
                out.append(flag + value)
        elif a.startswith(DEVICE_PREFIXES):
            out.append(a)
        elif a.startswith("-") and not a.startswith(HOST_ONLY_PREFIXES):
            raise ValueError("nvcc option %r: this check does not know whether it concerns "
                             "device code (add it to HOST_ONLY or DEVICE_PREFIXES)" % a)
        i += 1
    if "-I" + cuda_include not in out:
        out.append("-I" + cuda_include)  # cuda_fp16.h and cuda_bf16.h of the version checked
    return out


class Nvrtc:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
        self.version = "%d.%d" % (major.value, minor.value)
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p

    def compile(self, source_path, options):
        """(ptx or None, log)"""
        with open(source_path, "rb") as f:
            source = f.read()
        prog = ctypes.c_void_p()
        rc = self.lib.nvrtcCreateProgram(ctypes.byref(prog), source, source_path.encode(), 0,
                                         None, None)
        if rc:
            return None, "nvrtcCreateProgram: %s" % self.lib.nvrtcGetErrorString(rc).decode()
        try:
            opts = [o.encode() for o in options]
            rc = self.lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
            size = ctypes.c_size_t()
            self.lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            self.lib.nvrtcGetProgramLog(prog, log)
            if rc:
                return None, log.value.decode(errors="replace")
            self.lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
            ptx = ctypes.create_string_buffer(size.value)
            self.lib.nvrtcGetPTX(prog, ptx)
            return ptx.value.decode(), log.value.decode(errors="replace")
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(prog))


def first_errors(log, n=3):
    lines = [l for l in log.splitlines() if "error" in l]
    return "; ".join(lines[:n]) or log.strip()[-300:]


def ptxas(tool, ptx_path, arch, cubin):
    """(ok, {entry: (registers, spill bytes)}, output) of ptxas -v."""
    done = subprocess.run([tool, "-v", "-arch=sm_%s" % arch, "-o", cubin, ptx_path],
                          capture_output=True, text=True)
    kernels, current = {}, None
    for line in (done.stdout + done.stderr).splitlines():
        m = PTXAS_ENTRY.search(line)
        if m:
            current = m.group(1)
            kernels[current] = [0, 0]
        elif current and PTXAS_SPILL.search(line):
            s = PTXAS_SPILL.search(line)
            kernels[current][1] = int(s.group(1)) + int(s.group(2))
        elif current and PTXAS_REGS.search(line):
            kernels[current][0] = int(PTXAS_REGS.search(line).group(1))
    return done.returncode == 0, kernels, done.stdout + done.stderr


def nvcc_entries(args, directory, arch, out_ptx):
    """The entry points of the build's own nvcc command run with -ptx for compute_ARCH."""
    cmd, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif not (a in ("-c", "-MD") or a.startswith(("-gencode", "--generate-code", "-arch"))):
            cmd.append(a)
    cmd += ["-ptx", "-arch=compute_%s" % arch, "-o", out_ptx]
    done = subprocess.run(cmd, cwd=directory, capture_output=True, text=True)
    if done.returncode != 0:
        return None, first_errors(done.stderr)
    with open(out_ptx, encoding="utf-8") as f:
        return set(ENTRY.findall(f.read())), None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--nvrtc", required=True, help="libnvrtc.so of the version checked")
    parser.add_argument("--ptxas", required=True, help="ptxas of the version checked")
    parser.add_argument("--cuda-include", required=True, help="its cuda_runtime include dir")
    parser.add_argument("--arch", default="75")
    args = parser.parse_args(argv[1:])

    with open(os.path.join(args.build, "compile_commands.json"), encoding="utf-8") as f:
        units = [c for c in json.load(f) if c["file"].endswith(".cu")]
    if not units:
        print("no .cu file in %s: is it a CUDA build?" % args.build)
        print("tests: 0 passed, 1 failed, 0 skipped")
        return 1
    nvrtc = Nvrtc(args.nvrtc)
    ptxas_version = [l for l in subprocess.run([args.ptxas, "--version"], capture_output=True,
                                               text=True).stdout.splitlines() if "release" in l]
    print("NVRTC %s: %s; ptxas: %s (%s)" % (nvrtc.version, args.nvrtc,
                                           "".join(ptxas_version[-1:]), args.ptxas))

    compiled = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        headers = os.path.join(tmp, "c-headers")
        os.makedirs(headers)
        for name, text in C_HEADERS.items():
            with open(os.path.join(headers, name), "w", encoding="utf-8") as f:
                f.write(text)
        for c in units:
            cmd = c.get("arguments") or shlex.split(c["command"])
            source = os.path.normpath(os.path.join(c["directory"], c["file"]))
            name = os.path.relpath(source)
            base = os.path.join(tmp, os.path.basename(source))
            # -default-device: the headers the kernels share with the host C code declare
            # plain functions, which NVRTC otherwise refuses as host code; no kernel calls
            # them, so the device code is the same.
            try:
                options = (["-arch=compute_%s" % args.arch, "-default-device", "-I" + headers] +
                           device_options(cmd, c["directory"], args.cuda_include))
            except ValueError as e:
                print("%s: FAILED: %s" % (name, e))
                failed += 1
                continue
            want, why = nvcc_entries(cmd, c["directory"], args.arch, base + ".nvcc.ptx")
            if want is None:
                print("%s: FAILED: nvcc -ptx (for the entry points to compare): %s" % (name, why))
                failed += 1
                continue
            ptx, log = nvrtc.compile(source, options)
            if ptx is None:
                print("%s: FAILED: NVRTC %s: %s" % (name, nvrtc.version, first_errors(log)))
                failed += len(want)
                continue
            with open(base + ".ptx", "w", encoding="utf-8") as f:
                f.write(ptx)
            ok, kernels, out = ptxas(args.ptxas, base + ".ptx", args.arch, base + ".cubin")
            if not ok:
                print("%s: FAILED: ptxas sm_%s: %s" % (name, args.arch, first_errors(out)))
                failed += len(want)
                continue
            got = set(ENTRY.findall(ptx))
            for k in sorted(want - got):
                print("%s: FAILED: %s: nvcc emits this kernel, NVRTC did not" % (name, k))
            for k in sorted(got - want):
                print("%s: FAILED: %s: NVRTC emitted this kernel, nvcc does not" % (name, k))
            for k in sorted(got - set(kernels)):
                print("%s: FAILED: %s: in NVRTC's PTX but not compiled by ptxas" % (name, k))
            good = (got & want) & set(kernels)
            compiled += len(good)
            failed += len(want | got) - len(good)
            regs = [kernels[k][0] for k in good]
            spilling = sorted(k for k in good if kernels[k][1])
            print("%s: %d kernels through NVRTC (compute_%s) and ptxas (sm_%s), %s; %s "
                  "registers, %d with spills%s"
                  % (name, len(good), args.arch, args.arch,
                     "as nvcc emits them" if got == want == good
                     else "nvcc emits %d (differences above)" % len(want),
                     "%d-%d" % (min(regs), max(regs)) if regs else "no",
                     len(spilling), (": " + " ".join(spilling)) if spilling else ""))
    print("cuda %s device compile: %d kernels compiled for sm_%s, %d failed"
          % (nvrtc.version, compiled, args.arch, failed))
    print("tests: %d passed, %d failed, 0 skipped" % (compiled, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
