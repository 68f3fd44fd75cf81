# gpu_check_verdicts.sh: sourced by scripts/gpu-check (bash). How the output of
# compute-sanitizer and of ncu becomes a step's verdict, "status|detail" on stdout:
#   ok         the tool ran and found nothing wrong
#   degraded   the machine refused the tool (counters hidden by its sandbox, the device not
#              supported): a pass that summary.txt explains with the tool's own words
#   FAIL       a real finding (a memory error), or a failure that names no known refusal
# The same for the test suites' counts and the sweep's counters line. tests/scripts/
# test_gpu_check_verdicts.sh feeds them the messages and counts below.

# What a machine that hides its counters or refuses the sanitizer answers: the node's gVisor
# sandbox (CUDA13-NOTES.md: ncu "Failed to initialize the profiler: LibraryNotLoaded",
# compute-sanitizer "Device not supported" then error 999) and NVIDIA's documented messages
# for counters reserved to administrators (ERR_NVGPUCTRPERM).
GC_NCU_REFUSED='LibraryNotLoaded|ERR_NVGPUCTRPERM|permission to access NVIDIA GPU Performance Counters|[Ii]nsufficient privilege|Profiling is not supported|not supported on this (device|platform)|Device not supported|Failed to initialize the profiler'
GC_SANITIZER_REFUSED='Device not supported|not supported on this (device|platform)|[Ee]rror:? 999|\(999\)|CUDA_ERROR_UNKNOWN|cudaErrorUnknown'
# What memcheck prints for a real error (checked first: a finding is never a refusal).
GC_SANITIZER_FOUND='Invalid (__global__|__shared__|__local__|global|shared|local)? ?(read|write)|[Oo]ut of bounds|[Mm]isaligned (address|access)|[Uu]ninitialized|[Ll]eaked [0-9]'

gc_was_stopped() { [ "$1" -eq 124 ] || [ "$1" -eq 137 ] || [ "$1" -eq 125 ]; }

# gc_sanitizer_verdict RC OUTPUT_FILE WHAT STOPPED_TEXT
#   RC: compute-sanitizer's exit status (run with --error-exitcode), or timeout's 124/137, or
#   125 when not started; WHAT names what ran under it; STOPPED_TEXT says how it was stopped.
gc_sanitizer_verdict() {
    local rc=$1 file=$2 what=$3 stopped_text=$4
    if grep -qE "$GC_SANITIZER_FOUND" "$file"; then
        echo "FAIL|memcheck found errors in $what: $(grep -m 1 -E "$GC_SANITIZER_FOUND" "$file" | sed 's/^=* *//' | cut -c1-160)"
    elif [ "$rc" -eq 0 ]; then
        echo "ok|memcheck clean on $what"
    elif grep -qE "$GC_SANITIZER_REFUSED" "$file"; then
        echo "degraded|compute-sanitizer refused this device: $(grep -m 1 -E "$GC_SANITIZER_REFUSED" "$file" | sed 's/^=* *//' | cut -c1-160)"
    elif gc_was_stopped "$rc"; then
        # memcheck prints each error as it finds it: none printed before the stop means none
        # found in what ran.
        echo "degraded|memcheck of $what $stopped_text, with no error reported before"
    else
        echo "FAIL|memcheck of $what exited $rc without naming a memory error; see the log"
    fi
}

# gc_ncu_verdict RC LOG_FILE WHAT STOPPED_TEXT KERNEL_REGEX
#   LOG_FILE: ncu's --log-file (its ==PROF==/==ERROR== lines and the --csv table).
gc_ncu_verdict() {
    local rc=$1 file=$2 what=$3 stopped_text=$4 regex=$5
    if [ "$rc" -eq 0 ] && grep -q 'dram__bytes' "$file" 2>/dev/null; then
        echo "ok|"
    elif grep -qE "$GC_NCU_REFUSED" "$file" 2>/dev/null; then
        echo "degraded|ncu cannot read the counters here: $(grep -m 1 -E "$GC_NCU_REFUSED" "$file" | sed 's/^==[A-Z]*== *//' | cut -c1-160)"
    elif gc_was_stopped "$rc"; then
        echo "FAIL|ncu on $what $stopped_text"
    elif grep -q 'No kernels were profiled' "$file" 2>/dev/null; then
        echo "FAIL|ncu profiled no kernel of $what: does the kernel regex '$regex' still match the kernel names?"
    else
        echo "FAIL|ncu on $what exited $rc without DRAM counters: $(grep -m 1 '==ERROR==' "$file" 2>/dev/null | cut -c1-160)"
    fi
}

# gc_tests_verdict SUITE MODE COUNTS WHAT STOPPED_TEXT COUNTERS_REASON
#   SUITE gpu (the gpu suite: no skip allowed on a GPU, except tests that need the counters
#   when they are unavailable, a degraded pass) or rest (the others); MODE gpu or rehearsal;
#   COUNTS the suite's line of counts ("NAME ok=N fail=N skipped=N timeout=N ...
#   cmocka_skipped=N counters_skipped=N none=0|1 rc=N"); WHAT names the suite in the detail;
#   COUNTERS_REASON the first "counters unavailable" skip message.
gc_tests_verdict() {
    local suite=$1 mode=$2 what=$4 stopped_text=$5 reason=$6
    local ok=0 fail=0 skipped=0 timeout=0 cmocka_skipped=0 counters_skipped=0 none=0 rc=1
    eval "$(tr ' ' '\n' <<< "$3" | grep -E '^(ok|fail|skipped|timeout|cmocka_skipped|counters_skipped|none|rc)=[0-9]+$')"
    if gc_was_stopped "$rc"; then echo "FAIL|$what $stopped_text"
    elif [ "$fail" -gt 0 ] || [ "$timeout" -gt 0 ] || [ "$rc" -ne 0 ]; then
        echo "FAIL|$what: $fail failed, $timeout timed out (meson exit $rc)"
    elif [ "$suite" != gpu ]; then echo "ok|$what: $ok passed, $skipped skipped"
    elif [ "$mode" != gpu ]; then
        echo "ok|rehearsal: $ok ran, skips allowed without a GPU (meson $skipped, cmocka $cmocka_skipped)"
    elif [ "$none" -eq 1 ] || [ "$ok" -eq 0 ]; then
        echo "FAIL|no gpu test passed (meson skipped $skipped: did no device answer? see the log; is the CUDA backend built?)"
    elif [ "$skipped" -eq 0 ] && [ "$cmocka_skipped" -gt 0 ] && [ "$cmocka_skipped" -le "$counters_skipped" ]; then
        echo "degraded|$ok passed; $cmocka_skipped skipped because the counters are unavailable: $reason"
    elif [ "$skipped" -gt 0 ] || [ "$cmocka_skipped" -gt 0 ]; then
        echo "FAIL|skips on a GPU machine: meson Skipped $skipped, cmocka skipped $cmocka_skipped (see the log)"
    else
        echo "ok|$ok passed, none skipped"
    fi
}

# gc_counters_verdict MODE META: CUPTI's counters as the sweep's "# counters:" line META says:
# on, or unavailable here (a degraded pass: the DRAM columns stay empty).
gc_counters_verdict() {
    if [ "$1" != gpu ]; then echo "skipped|cpu rehearsal: ${2:-no counters line in the CSV}"
    elif grep -qiE 'unavailable|counters off' <<< "$2"; then echo "degraded|CUPTI counters unavailable here: $2"
    elif grep -qiE '^off' <<< "$2"; then echo "skipped|switched off in the config: $2"
    elif grep -qiE 'counters on|^on' <<< "$2"; then echo "ok|$2"
    else echo "FAIL|the sweep's CSV says '# counters: $2' (expected on, or unavailable with a reason)"; fi
}
