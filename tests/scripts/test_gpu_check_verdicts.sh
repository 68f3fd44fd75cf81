#!/usr/bin/env bash
# gpu_check_summary.py --verdict (scripts/gpu-check's verdicts) on the messages the tools print: a machine that refuses ncu or
# compute-sanitizer (the GPU node's gVisor sandbox, counters reserved to administrators) gives a
# degraded pass with the tool's own words; a memory error, a stop at the cap, an unknown ncu
# error or a kernel regex that matches nothing is said plainly, and fails where it must. The
# test suites' verdicts: no skip on a GPU but the counters' own; the counters line's.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
verdict() { python3 "$SRC/scripts/gpu_check_summary.py" --verdict "$@"; }
gc_sanitizer_verdict() { verdict sanitizer "$@"; }  # RC OUTPUT WHAT STOPPED_TEXT
gc_ncu_verdict() { verdict ncu "$@"; }              # RC LOG WHAT STOPPED_TEXT KERNEL_REGEX
gc_counters_verdict() { # MODE META: the verdict on a sweep CSV whose counters line says META
    { [ -z "$2" ] || echo "# counters: $2"; echo "variant,n"; } > "$TMP/sweep.csv"
    verdict counters "$1" "$TMP/sweep.csv"
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-verdicts.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
expect() { # NAME VERDICT PATTERN: VERDICT ("status|detail") matches the extended regex
    if grep -qE -- "$3" <<< "$2"; then echo "ok   $1"; passed=$((passed + 1))
    else echo "FAIL $1: got '$2', expected /$3/"; failed=$((failed + 1)); fi
}
out() { printf '%s\n' "$@" > "$TMP/out.txt"; echo "$TMP/out.txt"; }

expect sanitizer_clean_is_ok \
    "$(gc_sanitizer_verdict 0 "$(out '========= COMPUTE-SANITIZER' '========= ERROR SUMMARY: 0 errors')" kernels_gpu x)" \
    '^ok\|memcheck clean on kernels_gpu$'
expect sanitizer_device_not_supported_is_degraded \
    "$(gc_sanitizer_verdict 1 "$(out '========= COMPUTE-SANITIZER' '========= Error: Device not supported' 'cuda error 999')" kernels_gpu x)" \
    '^degraded\|compute-sanitizer refused this device: Error: Device not supported$'
expect sanitizer_error_999_is_degraded \
    "$(gc_sanitizer_verdict 97 "$(out '========= Program hit cudaErrorUnknown (error 999) due to "unknown error" on CUDA API call to cudaMalloc.')" x x)" \
    '^degraded\|.*error 999'
expect sanitizer_invalid_read_fails \
    "$(gc_sanitizer_verdict 97 "$(out '========= Invalid __global__ read of size 16 bytes' '=========     at fb_binary_vector_kernel' '=========     Address 0x7f0 is out of bounds' '========= ERROR SUMMARY: 1 error')" fusebench x)" \
    '^FAIL\|memcheck found errors in fusebench: Invalid __global__ read of size 16 bytes$'
expect sanitizer_a_finding_beats_a_refusal_word \
    "$(gc_sanitizer_verdict 97 "$(out '========= Invalid __global__ write of size 4 bytes' 'cudaErrorUnknown')" x x)" \
    '^FAIL\|'
expect sanitizer_stopped_at_the_cap_is_degraded \
    "$(gc_sanitizer_verdict 124 "$(out '========= COMPUTE-SANITIZER')" kernels_gpu 'stopped after 100 s (the cap of this step)')" \
    '^degraded\|memcheck of kernels_gpu stopped after 100 s \(the cap of this step\), with no error reported before$'
expect sanitizer_other_failure_fails \
    "$(gc_sanitizer_verdict 1 "$(out '[  FAILED  ] 1 test(s)')" kernels_gpu x)" \
    '^FAIL\|memcheck of kernels_gpu exited 1 without naming a memory error'

expect ncu_counters_read_is_ok \
    "$(gc_ncu_verdict 0 "$(out '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"' '"0","k","dram__bytes_read.sum","byte","8"')" x x r)" \
    '^ok\|$'
expect ncu_library_not_loaded_is_degraded \
    "$(gc_ncu_verdict 1 "$(out '==PROF== Connected to process 42' '==ERROR== Failed to initialize the profiler: LibraryNotLoaded')" 'fused_add_relu at 1M' x r)" \
    '^degraded\|ncu cannot read the counters here: Failed to initialize the profiler: LibraryNotLoaded$'
expect ncu_no_permission_is_degraded \
    "$(gc_ncu_verdict 1 "$(out '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0.')" x x r)" \
    '^degraded\|ncu cannot read the counters here: ERR_NVGPUCTRPERM'
expect ncu_no_kernel_profiled_fails \
    "$(gc_ncu_verdict 0 "$(out '==WARNING== No kernels were profiled.')" 'copy at 1M' x 'fb_(unary|binary)_')" \
    "^FAIL\|ncu profiled no kernel of copy at 1M: does the kernel regex 'fb_\(unary\|binary\)_' still match"
expect ncu_stopped_fails \
    "$(gc_ncu_verdict 124 "$(out '==PROF== Connected')" 'eager_add_relu at 100M' 'stopped after 60 s (the cap of this step)' r)" \
    '^FAIL\|ncu on eager_add_relu at 100M stopped after 60 s'
expect ncu_unknown_error_fails_with_its_words \
    "$(gc_ncu_verdict 9 "$(out '==ERROR== The application returned an error code (9).')" x x r)" \
    '^FAIL\|ncu on x exited 9 without DRAM counters: ==ERROR== The application returned an error code \(9\)\.$'

# The test suites' verdicts, on what meson prints (its console output and its log) for the
# gpu suite: fixtures/gpu-suite/ holds no-device.{out,log}, recorded from the real binaries
# here (no GPU: both tests exit 77 with cudart's "driver version is insufficient"), and
# counters-refused.{out,log}, which only a GPU whose counters are reserved to administrators
# prints: built from test_cupti_gpu.c's and cmocka's own output (fixtures/gpu-suite/README).
FX=$SRC/tests/scripts/fixtures/gpu-suite
gpu_suite() { # FIXTURE_DIR NAME MODE [RC]: the verdict on NAME.out and NAME.log
    verdict tests gpu "$3" "${4:-0}" "$1/$2.out" "$1/$2.log" "the gpu suite" x "$TMP/tests.txt" 2>/dev/null
}
expect gpu_suite_counters_refused_is_degraded "$(gpu_suite "$FX" counters-refused gpu)" \
    "^degraded\|1 passed; the counters' parts of test_cupti_gpu skipped, counters refused: CUPTI counters unavailable: .*CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"
expect gpu_suite_counts_go_to_the_tests_file "$(tail -n 1 "$TMP/tests.txt")" \
    '^gpu ok=1 fail=0 skipped=1 timeout=0 xfail=0 upass=0 cmocka_skipped=1 counters_skipped=1 none=0 rc=0$'
expect gpu_suite_no_device_fails_naming_the_driver "$(gpu_suite "$FX" no-device gpu)" \
    '^FAIL\|no gpu test passed \(meson skipped 2\): no CUDA device answers: .*driver version is insufficient.*driver release 580 or newer.*cuda-compat'
expect gpu_suite_skips_allowed_in_a_rehearsal "$(gpu_suite "$FX" no-device rehearsal)" \
    '^ok\|rehearsal: 0 ran, skips allowed without a GPU \(meson 2, cmocka 0\)$'
# Variants of the refused run: another part refused (not the counters) fails; both tests
# passing is ok; kernels_gpu failing names itself and its last error line.
mkdir "$TMP/fx"
sed 's/CUPTI counters unavailable/CUPTI activity unavailable/' "$FX/counters-refused.log" > "$TMP/fx/activity.log"
cp "$FX/counters-refused.out" "$TMP/fx/activity.out"
expect gpu_suite_another_refusal_fails "$(gpu_suite "$TMP/fx" activity gpu)" \
    '^FAIL\|skips on a GPU machine: meson Skipped 1, cmocka skipped 1: test_cupti_gpu: CUPTI activity unavailable'
sed -e '/^skip: /d' -e '/SKIPPED/d' -e 's/exit status 77/exit status 0/' "$FX/counters-refused.log" > "$TMP/fx/passed.log"
sed -e 's/^Ok: .*/Ok:                 2   /' -e 's/^Skipped: .*/Skipped:            0   /' -e 's/SKIP  *3.12s   exit status 77/OK               3.12s/' \
    "$FX/counters-refused.out" > "$TMP/fx/passed.out"
expect gpu_suite_all_passed_is_ok "$(gpu_suite "$TMP/fx" passed gpu)" '^ok\|2 passed, none skipped$'
sed -e '0,/exit status 0/s//exit status 1/' \
    -e 's/^\[  PASSED  \] 1 test(s)\.$/[  ERROR   ] --- element 17 is 0x8000, want 0x0000 (relu fp16 n=4099)\n[   LINE   ] --- ..\/tests\/kernels\/test_kernels_gpu.c:210: error: Failure!\n[  FAILED  ] relu_fp16_keeps_signed_zero\n[  FAILED  ] 1 test(s), listed below:\n[  FAILED  ] relu_fp16_keeps_signed_zero\n\n 1 FAILED TEST(S)/' \
    "$TMP/fx/passed.log" > "$TMP/fx/failed.log"
sed -e 's/^Ok: .*/Ok:                 1   /' -e 's/^Fail: .*/Fail:               1   /' "$TMP/fx/passed.out" > "$TMP/fx/failed.out"
expect gpu_suite_a_failure_names_the_test_and_its_error "$(gpu_suite "$TMP/fx" failed gpu 1)" \
    '^FAIL\|the gpu suite: 1 failed, 0 timed out \(meson exit 1\): kernels_gpu: \[   LINE   \] --- \.\./tests/kernels/test_kernels_gpu\.c:210: error: Failure! \(their logs: .*/failed\.log\)$'

# The other suites, and a stop, on meson's console counts alone.
# suite SUITE MODE "OK FAIL SKIPPED RC" WHAT STOPPED
suite() {
    local n=($3)
    printf 'Ok:                 %s\nExpected Fail:      0\nFail:               %s\nUnexpected Pass:    0\nSkipped:            %s\nTimeout:            0\n' \
        "${n[0]}" "${n[1]}" "${n[2]}" > "$TMP/meson.txt"
    : > "$TMP/log.txt"
    verdict tests "$1" "$2" "${n[3]:-0}" "$TMP/meson.txt" "$TMP/log.txt" "$4" "$5" "$TMP/tests.txt" 2>/dev/null
}
expect gpu_suite_nothing_passed_fails "$(suite gpu gpu "0 0 3" "the gpu suite" x)" \
    '^FAIL\|no gpu test passed \(meson skipped 3\): did no device answer'
expect suite_stopped_fails_saying_how "$(suite rest gpu "3 0 0 124" "unit and slow suites" 'stopped after 180 s (the cap of this step)')" \
    '^FAIL\|unit and slow suites stopped after 180 s \(the cap of this step\)$'
expect rest_suites_passed_is_ok "$(suite rest gpu "50 0 4" "unit and slow suites" x)" \
    '^ok\|unit and slow suites: 50 passed, 4 skipped$'
expect counters_on_is_ok "$(gc_counters_verdict gpu 'activity on; counters on')" '^ok\|activity on; counters on$'
expect counters_unavailable_is_degraded "$(gc_counters_verdict gpu 'activity on; counters unavailable (ERR_NVGPUCTRPERM)')" \
    '^degraded\|CUPTI counters unavailable here: activity on; counters unavailable'
expect counters_off_in_the_config_is_skipped "$(gc_counters_verdict gpu 'off (switched off)')" '^skipped\|switched off in the config'
expect counters_in_a_rehearsal_are_skipped "$(gc_counters_verdict rehearsal 'not applicable (cpu backend)')" \
    '^skipped\|cpu rehearsal: not applicable \(cpu backend\)$'
expect counters_line_missing_fails "$(gc_counters_verdict gpu '')" "^FAIL\\|the sweep's CSV says '# counters: '"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
