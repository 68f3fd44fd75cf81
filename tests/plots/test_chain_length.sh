#!/usr/bin/env bash
# plots/chain_length.sh end to end: the speedup-against-k chart from a small chain-length CSV
# (tests/plots/data/sample-chain-length.csv: chains add_k1..add_k8 and add_trans4 at three
# sizes, with pair and speedup columns), drawn into a temp dir; a CSV with no pairs is
# refused (exit 1) and leaves no chart; a missing CSV is a usage error (exit 2).
# Skips (77) without gnuplot.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot is not installed"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-chain-length.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { local name=$1; shift; if "$@"; then echo "ok   $name"; passed=$((passed + 1)); else echo "FAIL $name"; failed=$((failed + 1)); fi; }
script=$SRC/plots/chain_length.sh

bash "$script" "$SRC/tests/plots/data/sample-chain-length.csv" -o "$TMP/out" > "$TMP/log" 2>&1; rc=$?
check "draws_the_chart" test $rc -eq 0 -a -s "$TMP/out/sample-chain-length-speedup-k.png" -a -s "$TMP/out/sample-chain-length-speedup-k.svg"
check "svg_has_both_model_lines" grep -q "traffic (3 + 2k) / 3" "$TMP/out/sample-chain-length-speedup-k.svg"
check "svg_has_a_line_per_size" grep -q "n = 100M" "$TMP/out/sample-chain-length-speedup-k.svg"
check "svg_marks_the_transcendental_chain" grep -q "transcendental chain" "$TMP/out/sample-chain-length-speedup-k.svg"
check "no_temporary_left" test -z "$(ls -A "$TMP/out" | grep -v speedup-k)"

grep -v "eager_" "$SRC/tests/plots/data/sample-chain-length.csv" > "$TMP/nopairs.csv"
bash "$script" "$TMP/nopairs.csv" -o "$TMP/none" > "$TMP/log2" 2>&1; rc=$?
check "no_pairs_is_a_failure_without_a_chart" test $rc -eq 1 -a ! -e "$TMP/none/nopairs-speedup-k.png"
bash "$script" "$TMP/missing.csv" -o "$TMP/none" > /dev/null 2>&1; rc=$?
check "missing_csv_is_a_usage_error" test $rc -eq 2

echo "chain_length: $passed passed, $failed failed"
[ $failed -eq 0 ]
