#!/usr/bin/env bash
# scripts/gpu-check ends by its --time-limit whatever a step does, so that a GPU node's
# 10-minute window always gets its summary.txt: with a `meson` that never finishes a setup
# (a stand-in first on PATH), the build step is stopped at the deadline less the summary's
# reserve, the check fails naming that, and writes its summary; with --caps report (steps past
# their cap only reported) the deadline holds all the same. The runs' own length is what the
# script decides (--time-limit 60); the test's hang guard is HANG s.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ -n "${FB_GPU_CHECK_NESTED:-}" ]; then
    echo "SKIP: running inside scripts/gpu-check, which is what this test rehearses"
    exit 77
fi
HANG=400
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-gpu-check-deadline.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { # NAME CONDITION...
    local name=$1; shift
    if "$@"; then echo "ok   $name"; passed=$((passed + 1))
    else echo "FAIL $name"; failed=$((failed + 1)); fi
}
mkdir "$TMP/bin"
cat > "$TMP/bin/meson" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo 1.0.1; exit 0; }
echo $$ > "$STAND_IN_PID"
exec sleep 100000
EOF
chmod +x "$TMP/bin/meson"

for caps in enforce report; do
    out=$TMP/out-$caps
    PATH=$TMP/bin:$PATH STAND_IN_PID=$TMP/pid-$caps timeout -k 10 "$HANG" "$SRC/scripts/gpu-check" --cpu-rehearsal \
        --time-limit 60 --caps "$caps" --build-dir "$TMP/build-$caps" "$out" > "$TMP/$caps.txt" 2>&1
    rc=$?
    [ $rc -eq 1 ] || { echo "--- gpu-check --caps $caps: exit $rc, last 30 lines:"; tail -n 30 "$TMP/$caps.txt"; }
    check "caps_${caps}_the_check_fails_exit_1" test $rc -eq 1
    check "caps_${caps}_build_stopped_at_the_time_limit" \
        grep -qE '^  problem: build: meson setup stopped after [0-9]+ s, at the --time-limit of 60 s$' "$out/summary.txt"
    check "caps_${caps}_no_step_after_the_build" test -z "$(grep -E '==== (2|3|4|5)' "$out/gpu-check.log")"
    check "caps_${caps}_summary_and_log_written" test -s "$out/summary.txt" -a -s "$out/gpu-check.log"
    check "caps_${caps}_the_stand_in_meson_ran" test -s "$TMP/pid-$caps"
    check "caps_${caps}_the_stand_in_meson_was_stopped" bash -c '! kill -0 "$(cat "$1")" 2>/dev/null' _ "$TMP/pid-$caps"
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
