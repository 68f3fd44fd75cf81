#!/usr/bin/env bash
# plots/dtypes.sh end to end: the speedup-per-dtype chart from a small CSV
# (tests/plots/data/sample-dtypes.csv: eager and fused add_relu at fp32, fp16 and bf16 at three
# sizes, with pair and speedup columns, and a noisy row), drawn into a temp dir, both panels
# (against n, against bytes per tensor) with a line per dtype and the cache mark; render.sh
# draws it beside the other charts for such a CSV and not for a one-dtype CSV; a CSV without
# the variant is refused (exit 1) and leaves no chart; a missing CSV is a usage error (exit 2).
# Skips (77) without gnuplot.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot is not installed"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-dtypes.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { local name=$1; shift; if "$@"; then echo "ok   $name"; passed=$((passed + 1)); else echo "FAIL $name"; failed=$((failed + 1)); fi; }
script=$SRC/plots/dtypes.sh
data=$SRC/tests/plots/data/sample-dtypes.csv

bash "$script" "$data" -o "$TMP/out" > "$TMP/log" 2>&1; rc=$?
cat "$TMP/log"
svg=$TMP/out/sample-dtypes-dtypes.svg
check "draws_the_chart" test $rc -eq 0 -a -s "$TMP/out/sample-dtypes-dtypes.png" -a -s "$svg"
check "svg_has_a_line_per_dtype" grep -q "bf16" "$svg"
check "svg_has_fp16" grep -q "fp16" "$svg"
check "svg_has_the_bytes_panel" grep -q "against bytes per tensor" "$svg"
check "svg_marks_the_cache" grep -q "L3 / 4" "$svg"
check "no_temporary_left" test -z "$(ls -A "$TMP/out" | grep -v -- -dtypes)"

bash "$SRC/plots/render.sh" "$data" -o "$TMP/render" > "$TMP/log3" 2>&1; rc=$?
check "render_draws_it_for_several_dtypes" test $rc -eq 0 -a -s "$TMP/render/sample-dtypes-dtypes.png"
grep -v ",fp16,\|,bf16," "$data" > "$TMP/fp32only.csv"
bash "$SRC/plots/render.sh" "$TMP/fp32only.csv" -o "$TMP/render1" > "$TMP/log4" 2>&1; rc=$?
check "render_skips_it_for_one_dtype" test $rc -eq 0 -a ! -e "$TMP/render1/fp32only-dtypes.png"

grep -v "eager_" "$data" > "$TMP/noeager.csv"
bash "$script" "$TMP/noeager.csv" -o "$TMP/none" > "$TMP/log2" 2>&1; rc=$?
check "no_eager_rows_is_a_failure_without_a_chart" test $rc -eq 1 -a ! -e "$TMP/none/noeager-dtypes.png"
bash "$script" "$TMP/missing.csv" -o "$TMP/none" > /dev/null 2>&1; rc=$?
check "missing_csv_is_a_usage_error" test $rc -eq 2

echo "dtypes: $passed passed, $failed failed"
[ $failed -eq 0 ]
