#!/usr/bin/env python3
"""Compile every C file of a CUDA build against other CUDA runtime and CUPTI headers (CI:
the CUDA 12.8 wheels, Colab's toolkit), to prove that the host code builds with an older
toolkit than the one installed, where no nvcc of that version can be had (docs/gpus.md).

  compile_against_headers.py --build BUILD --cuda-include DIR --cupti-include DIR

Reads BUILD/compile_commands.json; for each C file, replaces every -I directory that holds
cuda_runtime_api.h or cupti.h by the given ones, puts first a directory holding
cupti_profiler_host_c.h made from DIR's cupti_profiler_host.h as src/cupti/meson.build makes
it, and runs the command with -fsyntax-only in place of its output. Prints one line per
failure with the compiler's first error, then "N passed, N failed". Exit 1 on any failure.
Python 3 standard library only.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def cuda_include_dir(path):
    return any(os.path.isfile(os.path.join(path, h)) for h in ("cuda_runtime_api.h", "cupti.h"))


def rewrite(args, cuda_include, cupti_include, generated):
    """The compile command for a syntax-only check against the other headers."""
    out = [args[0], "-I" + generated]
    replaced = False
    skip = False
    for i, a in enumerate(args[1:], 1):
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MQ", "-MT"):
            skip = True
            continue
        if a in ("-MD", "-MMD", "-c"):
            continue
        if a.startswith("-I") and cuda_include_dir(a[2:] or args[i + 1]):
            if not replaced:
                out += ["-I" + cuda_include, "-I" + cupti_include]
                replaced = True
            continue
        out.append(a)
    return out + ["-fsyntax-only"], replaced


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--cuda-include", required=True)
    parser.add_argument("--cupti-include", required=True)
    args = parser.parse_args(argv[1:])
    with open(os.path.join(args.build, "compile_commands.json"), encoding="utf-8") as f:
        commands = [c for c in json.load(f) if c["file"].endswith(".c")]
    passed = failed = with_cuda = 0
    with tempfile.TemporaryDirectory() as generated:
        with open(os.path.join(args.cupti_include, "cupti_profiler_host.h"), encoding="utf-8") as f:
            header = f.read()
        # included as "cupti/cupti_profiler_host_c.h": this directory comes first
        os.makedirs(os.path.join(generated, "cupti"))
        with open(os.path.join(generated, "cupti", "cupti_profiler_host_c.h"), "w",
                  encoding="utf-8") as f:
            f.write(re.sub(r"(?m)^\s*#\s*include\s*<string>.*$", "", header))
        for c in commands:
            cmd = c.get("arguments") or shlex.split(c["command"])
            cmd, replaced = rewrite(cmd, args.cuda_include, args.cupti_include, generated)
            with_cuda += replaced
            done = subprocess.run(cmd, cwd=c["directory"], capture_output=True, text=True)
            if done.returncode == 0:
                passed += 1
            else:
                failed += 1
                first = next((l for l in done.stderr.splitlines() if "error" in l),
                             done.stderr.strip()[:300])
                print("FAILED %s: %s" % (c["file"], first))
    print("compiled %d C files (%d of them with the CUDA include path) against %s and %s"
          % (passed + failed, with_cuda, args.cuda_include, args.cupti_include))
    if with_cuda == 0:
        print("no C file of %s uses the CUDA headers: is it a CUDA build?" % args.build)
        failed += 1
    print("tests: %d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
