#!/usr/bin/env python3
"""The gpu suite's tests run one at a time: every test of the suite is is_parallel: false in
this build's meson introspection (BUILD_DIR/meson-info/intro-tests.json). In parallel, a node
in EXCLUSIVE_PROCESS compute mode refuses the second test's context, and device-wide DRAM
counters see the other test's traffic. Skips (77), saying so, in a build without the suite.

  test_gpu_suite_serial.py BUILD_DIR"""
import json
import os
import sys


def main(build):
    path = os.path.join(build, "meson-info", "intro-tests.json")
    with open(path) as f:
        tests = json.load(f)
    gpu = [t for t in tests if any(s.split(":")[-1] == "gpu" for s in t["suite"])]
    if not gpu:
        print("SKIP: this build has no gpu suite (no CUDA backend)")
        return 77
    parallel = [t["name"] for t in gpu if t["is_parallel"]]
    for t in gpu:
        print("%-4s %s is_parallel=%s" % ("FAIL" if t["is_parallel"] else "ok", t["name"],
                                          t["is_parallel"]))
    if parallel:
        print("gpu suite tests that meson may run side by side: %s (give them is_parallel: "
              "false)" % ", ".join(parallel))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
