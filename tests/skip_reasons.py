#!/usr/bin/env python3
"""tests/skip_reasons.py TESTLOG.json: each skipped test of a meson test run, with its reason.

tests/run prints these after meson's own lines, whose SKIP says only "exit status 77". The
reason is the test's own line that says it skips ("skip: ...", "skipped: ...", cmocka's
"[  SKIPPED ]" comes after the reason it printed, so that line is passed over); failing such a
line, its last line of output. A skip that printed nothing is reported as such: a defect.
"""
import json
import re
import sys

SKIP_WORD = re.compile(r"\bskip", re.IGNORECASE)
CMOCKA_MARK = re.compile(r"^\[\s*(SKIPPED|RUN|OK|PASSED|FAILED|=+|-+)\s*\]")


def reason_of(output):
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    told = [line for line in lines if SKIP_WORD.search(line) and not CMOCKA_MARK.match(line)]
    if told:
        return told[-1]
    plain = [line for line in lines if not CMOCKA_MARK.match(line)]
    return plain[-1] if plain else "(the test printed no reason)"


def main():
    if len(sys.argv) != 2:
        print("usage: tests/skip_reasons.py TESTLOG.json", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        for line in log:
            try:
                result = json.loads(line)
            except ValueError:
                continue
            if result.get("result") != "SKIP":
                continue
            output = (result.get("stdout") or "") + "\n" + (result.get("stderr") or "")
            print("  %s: %s" % (result.get("name", "?"), reason_of(output)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
