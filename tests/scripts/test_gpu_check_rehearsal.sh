#!/usr/bin/env bash
# End-to-end test of scripts/gpu-check: a --cpu-rehearsal on a tiny config (smoke.ini at three
# sizes) into a temp dir, checking the exit code, the files written and summary.txt, and the
# failure paths (a sweep that fails, in --quick mode; a build that fails; a SIGTERM mid-build),
# each of which must still write summary.txt and gpu-check.log. Everything it writes is under
# a temp dir (never results/ or build/). Usage errors and OUTDIR: test_gpu_check_usage.sh.
# The clock decides nothing: every run takes --caps report (a step past its node cap is
# reported "slow:", here too, not stopped) and a --time-limit far above their expected length
# as the hang guard (LIMIT s; a loaded 2-core machine takes ~5 minutes for the first run).
# Nor does the machine's load: the tiny config's points may all be noisy there (fusebench
# then writes no speedup), which the checks accept as such. On a failure, what the run wrote
# (summary.txt, the failed nested tests' own logs) is printed here, in meson's log of this
# test, since the temp dir it was in is removed when the test ends.
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
# show_run OUT BUILD: what a run wrote, into this test's output (kept in meson's log): its
# summary.txt, the end of its log, and each failed test of its nested meson runs with that
# test's own log.
show_run() {
    echo "--- $1/summary.txt (the temp dir is removed when this test ends; this copy stays in meson's log):"
    cat "$1/summary.txt" 2>/dev/null
    echo "--- $1/gpu-check.log, its last 40 lines before the summary:"
    sed '/^gpu-check: ==== 6\. summary/,$d' "$1/gpu-check.log" 2>/dev/null | tail -n 40
    local log
    for log in "$2"/meson-logs/gpu-check-*.txt; do
        [ -f "$log" ] || continue
        # the sections ("==== i/n ====" ... ) of tests whose result is not a pass or a skip
        awk '/^=+ [0-9]+\/[0-9]+ =+$/ {if (keep) printf "%s", sec; sec = ""; keep = 0}
             {sec = sec $0 "\n"} /^result: / && $0 !~ /exit status (0|77)$/ {keep = 1}
             END {if (keep) printf "%s", sec}' "$log" | sed "s|^|nested ($(basename "$log")): |"
    done
}
script=$SRC/scripts/gpu-check
LIMIT=1800

# The tiny config: smoke.ini at three sizes (n = 8 is one of the summary's sizes), on one
# thread (fewer points disturbed on a busy machine; none is required clean).
sed -e 's/^sizes *=.*/sizes = 8, 1K, 100K/' -e 's/^cpu_threads *=.*/cpu_threads = 1/' \
    "$SRC/configs/smoke.ini" > "$TMP/tiny.ini"
"$script" --cpu-rehearsal --caps report --time-limit $LIMIT --config "$TMP/tiny.ini" \
    --build-dir "$TMP/build" "$TMP/out" > "$TMP/run.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "--- rehearsal output (exit $rc), last 60 lines:"; tail -n 60 "$TMP/run.txt"; }
check "rehearsal_exits_0" test $rc -eq 0
S=$TMP/out/summary.txt
# the nested suites: a failure there names the inner test and its last error line
for step in tests-gpu tests-rest; do
    grep -E "^  $step +(ok|FAIL|degraded|skipped) " "$S" 2>/dev/null | grep -v ' ok ' | sed 's/^/  /'
    check "nested_${step}_passed" grep -qE "^  $step +ok " "$S"
done
check "summary_is_written" test -s "$S"
check "summary_says_pass" grep -q '^fusebench gpu-check: PASS$' "$S"
check "summary_names_the_mode" grep -q '^mode: cpu-rehearsal$' "$S"
check "summary_lists_the_build_step_ok" grep -qE '^  build +ok ' "$S"
check "summary_says_why_sanitizer_was_skipped" grep -qE '^  sanitizer +skipped +[0-9]+ s(/[0-9]+ *)?  cpu rehearsal' "$S"
check "inventory_is_the_first_step" test "$(grep -m 1 -o 'gpu-check: ==== [0-9a-z.]* [a-z]*' "$TMP/out/gpu-check.log")" = "gpu-check: ==== 0. inventory"
check "inventory_names_the_compiler_and_meson" grep -qE '^  meson +[^ ].* [0-9]+\.[0-9]+' "$S"
check "inventory_says_where_meson_found_inih" grep -qE '^  meson inih +(system|bundle) ' "$S"
check "inventory_says_whether_a_bundle_is_there" grep -qE '^  bundle +[^ ]' "$S"
check "every_step_has_its_seconds" test "$(sed -n '/^steps/,/^$/p' "$S" | grep -cE '^  [a-z-]+ +[a-zA-Z]+ +[0-9]+ s(/[0-9]+ *)?  ')" -ge 10
check "cold_sweep_for_the_cupti_ncu_comparison" grep -qE '^  sweep-cold +ok .*cache cold' "$S"
check "cold_csv_is_cold" grep -q '^# cache_mode: cold' "$TMP/out/sweep-cold-cpu.csv"
check "summary_says_which_cache_state_is_compared" grep -q 'cache state: cold for CUPTI and ncu alike' "$S"
check "summary_says_why_ncu_was_skipped" grep -qE '^  ncu +skipped +[0-9]+ s(/[0-9]+ *)?  cpu rehearsal' "$S"
check "summary_counts_eager_launches_as_2" grep -qE '^  eager_add_relu +2$' "$S"
check "summary_counts_fused_launches_as_1" grep -qE '^  fused_add_relu +1$' "$S"
# a paired row: n, variant, its pair, both times and the speedup fusebench wrote
# (or, where the point was disturbed, the pair listed as noisy: fusebench gives no speedup)
check "summary_has_the_speedup_at_8" \
    grep -qE '^  8 +[a-z_]+ +[a-z_]+ +[0-9.]+ [mu]?s +[0-9.]+ [mu]?s +([0-9.]+x|n/a  \(noisy)' "$S"
check "sweep_csv_has_3_sizes_x_7_variants" test "$(grep -v '^#' "$TMP/out/sweep-cpu.csv" | tail -n +2 | wc -l)" -eq 21
check "at_most_11_files_in_outdir" test "$(find "$TMP/out" -type f | wc -l)" -le 11
check "log_is_written" grep -q 'gpu-check: passed in' "$TMP/out/gpu-check.log"
if command -v gnuplot >/dev/null; then
    check "charts_drawn_where_gnuplot_is" grep -qE '^  charts +ok ' "$S"
fi
check "build_dir_is_where_asked" test -x "$TMP/build/fusebench"
check "torch_step_ran_or_said_why" grep -qE '^  torch +(ok|skipped) +[^ ]' "$S"
# the in-process peer: run where torch imports, else skipped saying so
check "torch_inprocess_step_ran_or_said_why" \
    grep -qE '^  torch-inprocess +(ok +[0-9]+ s(/[0-9]+ *)?  torch_eager_add_relu|skipped +[0-9]+ s(/[0-9]+ *)?  .*cannot import torch)' "$S"
# the audit of add+relu: its verdicts where torch imports, else skipped saying so
check "torch_audit_step_ran_or_said_why" \
    grep -qE '^  torch-audit +(ok +[0-9]+ s(/[0-9]+ *)?  verdict eager: predicted 2 kernels = counted 2|skipped +[0-9]+ s(/[0-9]+ *)?  .*cannot import torch)' "$S"
[ $failed -eq 0 ] || show_run "$TMP/out" "$TMP/build"

# A config the sweep rejects, in --quick mode: the check must fail loudly (exit 1, FAIL in the
# summary, a message on stderr), still writing its summary; --quick runs the gpu suite alone.
sed 's/^warmup *=.*/warmup = -5/' "$TMP/tiny.ini" > "$TMP/broken.ini"
"$script" --cpu-rehearsal --quick --caps report --time-limit $LIMIT --config "$TMP/broken.ini" \
    --build-dir "$TMP/build" "$TMP/bad" > "$TMP/bad.txt" 2> "$TMP/bad.err"
rc=$?
check "failing_sweep_exits_1" test $rc -eq 1
check "failing_sweep_says_fail_in_summary" grep -q '^fusebench gpu-check: FAIL$' "$TMP/bad/summary.txt"
check "failing_sweep_names_the_step" grep -qE '^  problem: sweep: fusebench exited 2' "$TMP/bad/summary.txt"
check "failing_sweep_says_so_on_stderr" grep -q 'gpu-check: FAILED' "$TMP/bad.err"
check "quick_is_named_in_the_summary" grep -q '^mode: cpu-rehearsal (quick)$' "$TMP/bad/summary.txt"
check "quick_runs_the_gpu_suite_only" grep -qE '^  tests-rest +skipped .*--quick runs the gpu suite only' "$TMP/bad/summary.txt"

# A build that fails (no C compiler): summary.txt and the log are still written, with the
# node's inventory, so that the summary says what the machine has.
CC=/bin/false "$script" --cpu-rehearsal --caps report --time-limit $LIMIT --config "$TMP/tiny.ini" --build-dir "$TMP/build2" \
    "$TMP/nobuild" > /dev/null 2>&1
rc=$?
check "failing_build_exits_1" test $rc -eq 1
check "failing_build_names_the_step" grep -qE '^  problem: build: meson setup exited [0-9]+' "$TMP/nobuild/summary.txt"
check "failing_build_keeps_the_inventory" grep -qE '^  nvcc +' "$TMP/nobuild/summary.txt"
check "failing_build_writes_the_log" grep -q 'gpu-check: FAILED' "$TMP/nobuild/gpu-check.log"

# SIGTERM to the whole process group during the build (what a runner's time limit sends): the
# summary still says what happened.
if command -v setsid >/dev/null; then
    setsid "$script" --cpu-rehearsal --caps report --time-limit $LIMIT --config "$TMP/tiny.ini" \
        --build-dir "$TMP/build3" "$TMP/term" > /dev/null 2>&1 &
    pid=$!
    # until the build starts, however long a loaded machine takes to get there (the run's
    # own --time-limit is the hang guard)
    while kill -0 "$pid" 2>/dev/null && ! grep -q '==== 1. build' "$TMP/term/gpu-check.log" 2>/dev/null; do
        sleep 0.1
    done
    sleep 1
    kill -TERM -- "-$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    check "sigterm_exits_1" test $rc -eq 1
    check "sigterm_is_named_in_the_summary" grep -qE "^  problem: gpu-check: interrupted by SIGTERM in step '1. build'" "$TMP/term/summary.txt"
    check "sigterm_leaves_the_log" test -s "$TMP/term/gpu-check.log"
fi

# What the runs found slow, repeated for tests/run's report.
grep -h '^gpu-check: slow: ' "$TMP"/*/gpu-check.log 2>/dev/null | sed 's/^gpu-check: //'
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
