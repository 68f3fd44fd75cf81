# gpu_check_verdicts.sh: sourced by scripts/gpu-check (bash). How the output of
# compute-sanitizer and of ncu becomes a step's verdict, "status|detail" on stdout:
#   ok         the tool ran and found nothing wrong
#   degraded   the machine refused the tool (counters hidden by its sandbox, the device not
#              supported): a pass that summary.txt explains with the tool's own words
#   FAIL       a real finding (a memory error), or a failure that names no known refusal
# tests/scripts/test_gpu_check_verdicts.sh feeds them the messages below.

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
