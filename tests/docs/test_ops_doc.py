#!/usr/bin/env python3
"""docs/ops.md is what `fusebench --list-ops` prints from the op table, byte for byte: the
docs' one list of the ops cannot drift from kernels/op_table.h.

usage: test_ops_doc.py PATH/TO/fusebench   (the repository root from FB_SOURCE_DIR, else two
levels up)"""
import os
import subprocess
import sys

ROOT = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")


def main():
    printed = subprocess.run([sys.argv[1], "--list-ops"], capture_output=True, check=True,
                             timeout=60).stdout
    with open(os.path.join(ROOT, "docs", "ops.md"), "rb") as f:
        committed = f.read()
    if printed != committed:
        sys.exit("docs/ops.md differs from the op table: regenerate it with\n"
                 "  build/fusebench --list-ops > docs/ops.md")
    print("docs/ops.md matches fusebench --list-ops")


if __name__ == "__main__":
    main()
