#!/usr/bin/env bash
# The offline GPU node, rehearsed: scripts/gpu-check --cpu-rehearsal on a tiny config with the
# system's inih, cmocka, pkg-config and gnuplot made invisible (offline_node.sh: a private
# mount namespace with overlays), so that the build, the tests and the sweep can only use
# .gpu-bundle/ (made here with `scripts/gpu-check --prepare` when it is missing: that needs the
# distribution's package mirror). Checks that the check passes, that meson took inih and cmocka
# from the bundle, that the programs carry a RUNPATH to it, and that the charts step says they
# are drawn later with ./sweep --plot. Skips (77) only where the namespace cannot be made (not
# root, unshare or overlay refused). The clock decides nothing: the rehearsal takes --caps
# report (a step past its node cap is reported "slow:", here too) and a --time-limit far above
# its expected length (~5 minutes on a loaded 2-core machine) as the hang guard.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ -n "${FB_GPU_CHECK_NESTED:-}" ]; then
    echo "SKIP: running inside scripts/gpu-check, which is what this test rehearses"
    exit 77
fi
offline=$SRC/tests/scripts/offline_node.sh
bash "$offline" true
rc=$?
[ $rc -eq 0 ] || { [ $rc -eq 77 ] && exit 77; echo "FAIL: offline_node.sh true exited $rc"; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-gpu-offline.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { # NAME CONDITION...
    local name=$1; shift
    if "$@"; then echo "ok   $name"; passed=$((passed + 1))
    else echo "FAIL $name"; failed=$((failed + 1)); fi
}

BUNDLE=$SRC/.gpu-bundle
system_ini=$(ls /usr/include/ini.h 2>/dev/null)
if [ ! -f "$BUNDLE/MANIFEST" ]; then
    echo "no bundle at $BUNDLE: making it (scripts/gpu-check --prepare)"
    "$SRC/scripts/gpu-check" --prepare > "$TMP/prepare.txt" 2>&1
    rc=$?
    cat "$TMP/prepare.txt"
    check "prepare_makes_the_bundle" test $rc -eq 0 -a -f "$BUNDLE/MANIFEST"
    [ $rc -eq 0 ] || { grep -h '^gpu-check: slow: ' "$TMP/out/gpu-check.log" 2>/dev/null | sed 's/^gpu-check: //'
echo "$passed passed, $failed failed"; exit 1; }
fi
check "bundle_has_the_headers" test -f "$BUNDLE/include/ini.h" -a -f "$BUNDLE/include/cmocka.h"
check "bundle_has_the_shared_libraries" test -e "$BUNDLE/lib/libinih.so" -a -e "$BUNDLE/lib/libcmocka.so"

sed 's/^sizes *=.*/sizes = 8, 1K, 100K/' "$SRC/configs/smoke.ini" > "$TMP/tiny.ini"
bash "$offline" "$SRC/scripts/gpu-check" --cpu-rehearsal --caps report --time-limit 1800 \
    --config "$TMP/tiny.ini" --build-dir "$TMP/build" "$TMP/out" > "$TMP/run.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "--- offline rehearsal output (exit $rc), last 80 lines:"; tail -n 80 "$TMP/run.txt"; }
S=$TMP/out/summary.txt
check "premise_the_four_were_hidden" grep -q '^offline_node: hidden: inih, cmocka' "$TMP/run.txt"
check "offline_rehearsal_exits_0" test $rc -eq 0
check "summary_says_pass" grep -q '^fusebench gpu-check: PASS$' "$S"
check "meson_took_inih_from_the_bundle" grep -qE '^  meson inih +bundle \(' "$S"
check "meson_took_cmocka_from_the_bundle" grep -qE '^  meson cmocka +bundle \(' "$S"
check "inventory_says_pkg_config_absent" grep -qE '^  pkg-config +absent' "$S"
check "inventory_says_gnuplot_absent" grep -qE '^  gnuplot +absent' "$S"
check "fusebench_loads_inih_from_the_bundle" grep -qE '^  loads libinih\.so\.1 +.*\.gpu-bundle/lib/libinih\.so\.1' "$S"
check "charts_are_left_for_sweep_plot" grep -qE '^  charts +skipped .*gnuplot is not installed here; draw them later, anywhere: \./sweep --plot ' "$S"
check "unit_tests_ran_with_the_bundle_cmocka" grep -qE '^  tests-rest +ok .* [1-9][0-9]* passed' "$S"
check "sweep_ran" grep -qE '^  sweep +ok .*21 rows' "$S"  # 3 sizes x 7 variants
check "at_most_10_files_in_outdir" test "$(find "$TMP/out" -type f | wc -l)" -le 10  # with torch: its audit's table and CSV too
if command -v readelf >/dev/null; then
    check "fusebench_has_a_runpath_to_the_bundle" \
        grep -q "$BUNDLE/lib" <<< "$(readelf -d "$TMP/build/fusebench" | grep -E 'RUNPATH|RPATH')"
fi
# Outside the namespace nothing changed: the system's copies are still there.
check "system_untouched_afterwards" test "$(ls /usr/include/ini.h 2>/dev/null)" = "$system_ini"

grep -h '^gpu-check: slow: ' "$TMP/out/gpu-check.log" 2>/dev/null | sed 's/^gpu-check: //'
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
