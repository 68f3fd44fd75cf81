#!/usr/bin/env python3
"""tests/skip_reasons.py: each skipped test of a meson JSON log with the reason it printed.

A log made here the way meson writes it (one JSON object a line): the reason is the test's
own line about skipping (not cmocka's "[  SKIPPED ]" mark), else its last line; a skip with
no output says so; tests that passed or failed are not listed."""
import json
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(SRC, "tests", "skip_reasons.py")

RESULTS = [
    {"name": "s:unit / said", "result": "SKIP", "stdout": "checking\nskip: no cuobjdump here\n"},
    {"name": "s:gpu / cmocka", "result": "SKIP",
     "stdout": "[ RUN      ] a\nno CUDA device answers\n[  SKIPPED ] a\n[==========] 1 test(s) run.\n"},
    {"name": "s:unit / stderr", "result": "SKIP", "stdout": "", "stderr": "SKIPPED: needs root\n"},
    {"name": "s:unit / silent", "result": "SKIP", "stdout": ""},
    {"name": "s:unit / fine", "result": "OK", "stdout": "skip: not a skip\n"},
    {"name": "s:unit / broken", "result": "FAIL", "stdout": "skip? no\n"},
]
EXPECTED = [
    "  s:unit / said: skip: no cuobjdump here",
    "  s:gpu / cmocka: no CUDA device answers",
    "  s:unit / stderr: SKIPPED: needs root",
    "  s:unit / silent: (the test printed no reason)",
]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "testlog.json")
        with open(log, "w") as f:
            for result in RESULTS:
                f.write(json.dumps(result) + "\n")
            f.write("not json\n")
        out = subprocess.run([sys.executable, SCRIPT, log], capture_output=True, text=True)
    got = out.stdout.splitlines()
    if out.returncode != 0 or got != EXPECTED:
        print("FAIL: exit %d, got:\n%s\nwanted:\n%s" % (out.returncode, "\n".join(got),
                                                       "\n".join(EXPECTED)))
        return 1
    print("skip_reasons: %d skips listed with their reasons" % len(got))
    return 0


if __name__ == "__main__":
    sys.exit(main())
