#!/usr/bin/env bash
# End-to-end test of scripts/gpu-check: its usage errors, and a --cpu-rehearsal on a tiny
# config (smoke.ini at three sizes) into a temp dir, checking the exit code, the files written
# and summary.txt. Everything it writes is under a temp dir (never results/ or build/).
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ -n "${FB_GPU_CHECK_NESTED:-}" ]; then
    # Run by gpu-check's own `meson test`: rehearsing gpu-check from inside gpu-check would
    # recurse (and double the check's time).
    echo "SKIP: running inside scripts/gpu-check, which is what this test rehearses"
    exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-gpu-check.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { # NAME CONDITION...
    local name=$1; shift
    if "$@"; then echo "ok   $name"; passed=$((passed + 1))
    else echo "FAIL $name"; failed=$((failed + 1)); fi
}
script=$SRC/scripts/gpu-check

"$script" --help > "$TMP/help.txt" 2>&1; rc=$?
check "help_exits_0_and_prints_usage" test $rc -eq 0 -a -n "$(grep '^usage: scripts/gpu-check' "$TMP/help.txt")"
"$script" > /dev/null 2>&1; rc=$?
check "missing_outdir_is_a_usage_error" test $rc -eq 2
"$script" --frobnicate "$TMP/x" > /dev/null 2>&1; rc=$?
check "unknown_option_is_a_usage_error" test $rc -eq 2
mkdir -p "$TMP/full"; touch "$TMP/full/keep"
"$script" --cpu-rehearsal "$TMP/full" > /dev/null 2>&1; rc=$?
check "non_empty_outdir_is_refused" test $rc -eq 2 -a -f "$TMP/full/keep"
"$script" --cpu-rehearsal --config "$TMP/missing.ini" "$TMP/y" > /dev/null 2>&1; rc=$?
check "missing_config_is_a_usage_error" test $rc -eq 2

# The tiny config: smoke.ini at three sizes (n = 8 is one of the summary's sizes).
sed 's/^sizes *=.*/sizes = 8, 1K, 100K/' "$SRC/configs/smoke.ini" > "$TMP/tiny.ini"
"$script" --cpu-rehearsal --config "$TMP/tiny.ini" --build-dir "$TMP/build" "$TMP/out" \
    > "$TMP/run.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "--- rehearsal output (exit $rc), last 60 lines:"; tail -n 60 "$TMP/run.txt"; }
check "rehearsal_exits_0" test $rc -eq 0
S=$TMP/out/summary.txt
check "summary_is_written" test -s "$S"
check "summary_says_pass" grep -q '^fusebench gpu-check: PASS$' "$S"
check "summary_names_the_mode" grep -q '^mode: cpu-rehearsal$' "$S"
check "summary_lists_the_build_step_ok" grep -qE '^  build +ok ' "$S"
check "summary_says_why_sanitizer_was_skipped" grep -qE '^  sanitizer +skipped +cpu rehearsal' "$S"
check "summary_says_why_ncu_was_skipped" grep -qE '^  ncu +skipped +cpu rehearsal' "$S"
check "summary_counts_eager_launches_as_2" grep -qE '^  eager_add_relu +2$' "$S"
check "summary_counts_fused_launches_as_1" grep -qE '^  fused_add_relu +1$' "$S"
check "summary_has_the_speedup_at_8" grep -qE '^  8 +[0-9.]+ [mu]?s +[0-9.]+ [mu]?s' "$S"
check "sweep_csv_has_3_sizes_x_6_variants" test "$(grep -v '^#' "$TMP/out/sweep-cpu.csv" | tail -n +2 | wc -l)" -eq 18
check "at_most_8_files_in_outdir" test "$(find "$TMP/out" -type f | wc -l)" -le 8
check "log_is_written" grep -q 'gpu-check: passed in' "$TMP/out/gpu-check.log"
check "build_dir_is_where_asked" test -x "$TMP/build/fusebench"
check "torch_step_ran_or_said_why" grep -qE '^  torch +(ok|skipped) +[^ ]' "$S"

# A config the sweep rejects: the check must fail loudly (exit 1, FAIL in the summary, a
# message on stderr), still writing its summary.
sed 's/^warmup *=.*/warmup = -5/' "$TMP/tiny.ini" > "$TMP/broken.ini"
"$script" --cpu-rehearsal --config "$TMP/broken.ini" --build-dir "$TMP/build" "$TMP/bad" \
    > "$TMP/bad.txt" 2> "$TMP/bad.err"
rc=$?
check "failing_sweep_exits_1" test $rc -eq 1
check "failing_sweep_says_fail_in_summary" grep -q '^fusebench gpu-check: FAIL$' "$TMP/bad/summary.txt"
check "failing_sweep_names_the_step" grep -qE '^  problem: sweep: fusebench exited 2' "$TMP/bad/summary.txt"
check "failing_sweep_says_so_on_stderr" grep -q 'gpu-check: FAILED' "$TMP/bad.err"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
