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

# The test suites' counts: meson's output and its log, as run_suite in gpu-check keeps them.
# suite SUITE MODE "OK FAIL SKIPPED CMOCKA_SKIPPED COUNTERS_SKIPPED [RC]" WHAT STOPPED [REASON]
suite() {
    local n=($3) i
    printf 'Ok:                 %s\nExpected Fail:      0\nFail:               %s\nUnexpected Pass:    0\nSkipped:            %s\nTimeout:            0\n' \
        "${n[0]}" "${n[1]}" "${n[2]}" > "$TMP/meson.txt"
    : > "$TMP/log.txt"
    for i in $(seq "${n[3]}"); do echo "[  SKIPPED ] 1 test, listed below:" >> "$TMP/log.txt"; done
    for i in $(seq "${n[4]}"); do echo "SKIPPED: ${6:-counters unavailable: x}" >> "$TMP/log.txt"; done
    verdict tests "$1" "$2" "${n[5]:-0}" "$TMP/meson.txt" "$TMP/log.txt" "$4" "$5" "$TMP/tests.txt" 2>/dev/null
}
expect gpu_suite_all_passed_is_ok "$(suite gpu gpu "12 0 0 0 0" "the gpu suite" x)" \
    '^ok\|12 passed, none skipped$'
expect gpu_suite_counts_go_to_the_tests_file "$(tail -n 1 "$TMP/tests.txt")" \
    '^gpu ok=12 fail=0 skipped=0 timeout=0 xfail=0 upass=0 cmocka_skipped=0 counters_skipped=0 none=0 rc=0$'
expect gpu_suite_a_skip_on_a_gpu_fails "$(suite gpu gpu "11 0 1 0 0" "the gpu suite" x)" \
    '^FAIL\|skips on a GPU machine: meson Skipped 1, cmocka skipped 0'
expect gpu_suite_a_cmocka_skip_on_a_gpu_fails "$(suite gpu gpu "12 0 0 2 1" "the gpu suite" x)" \
    '^FAIL\|skips on a GPU machine: meson Skipped 0, cmocka skipped 2'
expect gpu_suite_counters_unavailable_skips_are_degraded \
    "$(suite gpu gpu "12 0 0 2 2" "the gpu suite" x "counters unavailable: ERR_NVGPUCTRPERM")" \
    '^degraded\|12 passed; 2 skipped because the counters are unavailable: counters unavailable: ERR_NVGPUCTRPERM$'
expect gpu_suite_nothing_passed_fails "$(suite gpu gpu "0 0 3 0 0" "the gpu suite" x)" \
    '^FAIL\|no gpu test passed \(meson skipped 3'
expect gpu_suite_skips_allowed_in_a_rehearsal "$(suite gpu rehearsal "0 0 3 1 0" "the gpu suite" x)" \
    '^ok\|rehearsal: 0 ran, skips allowed without a GPU \(meson 3, cmocka 1\)$'
expect gpu_suite_a_failure_fails "$(suite gpu gpu "10 2 0 0 0 1" "the gpu suite" x)" \
    '^FAIL\|the gpu suite: 2 failed, 0 timed out \(meson exit 1\)$'
expect suite_stopped_fails_saying_how "$(suite rest gpu "3 0 0 0 0 124" "unit and slow suites" 'stopped after 180 s (the cap of this step)')" \
    '^FAIL\|unit and slow suites stopped after 180 s \(the cap of this step\)$'
expect rest_suites_passed_is_ok "$(suite rest gpu "50 0 4 0 0" "unit and slow suites" x)" \
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
