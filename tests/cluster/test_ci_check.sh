#!/usr/bin/env bash
# cluster/ci-check, the ReFrame suite on a local Slurm (suite `cluster`: root only, minutes),
# and what it leaves: it must pass, and the cross-device chart it announces must still exist
# once it has exited (it once lay in the temporary directory removed at exit). The chart is
# kept under this test's temporary directory (--keep). Its results path holds a space,
# quotes and `$(touch pwned)` (ci-check checks that nothing ran). Skips (77) where ci-check
# does: without root. FB_FUSEBENCH: the fusebench the jobs run.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-ci-check.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
"$SRC/cluster/ci-check" --fusebench "${FB_FUSEBENCH:?}" --keep "$TMP/keep" | tee "$TMP/out"
status=${PIPESTATUS[0]}
[ "$status" = 77 ] && exit 77
[ "$status" = 0 ] || { echo "FAIL: ci-check exited $status"; exit 1; }
chart=$(sed -n 's/^ci-check: cross-device chart \(.*\) ([0-9]* bytes)$/\1/p' "$TMP/out")
if [ -z "$chart" ] || [ ! -s "$chart" ]; then
    echo "FAIL: the announced chart (${chart:-none}) does not exist after ci-check exited"
    exit 1
fi
echo "ci-check: passed, its chart kept at $chart"
