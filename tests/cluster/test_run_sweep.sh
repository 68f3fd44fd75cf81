#!/usr/bin/env bash
# cluster/run-sweep with a results directory whose name holds a control byte, invalid UTF-8
# or a newline (each with a space, a quote and a `$(touch ...)` canary): the sweep passes
# (exit 0), its results file is found and named on one "fusebench-results:" line, the plan
# lies beside it, and the canary never runs. (The sweep's own "results:" line escapes such
# bytes, which run-sweep once read back as the path: "the sweep wrote no results file".)
# Then cluster/fusebench.sbatch, run without Slurm from a copy of cluster/ in a clone whose
# location, FB_CONFIG and FB_RESULTS hold the same: it passes and runs nothing.
# FB_FUSEBENCH: the fusebench to run (meson passes this build's).
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
fusebench=$(realpath "${FB_FUSEBENCH:?FB_FUSEBENCH names the fusebench to run}") || exit 1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-run-sweep.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
# Two sizes, the copy ceiling and one pair, a short stop rule: a few seconds with the charts.
cat > "$TMP/tiny.ini" <<'INI'
[sweep]
sizes = 8, 1K
variants = copy, eager_add_relu, fused_add_relu
dtype = fp32
[backend]
cpu_threads = 1
[measure]
warmup = 1
min_reps = 3
max_reps = 5
min_time = 0.001
max_time = 0.02
INI
passed=0 failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
for case in control utf8 newline; do
    case $case in
    control) name=$'r\001x' ;;
    utf8) name=$'r\377x' ;;
    newline) name=$'r\nx' ;;
    esac
    name+=" q'\"\$(touch pwned)"   # would land in the job's directory, or the test's
    results=$TMP/$case/$name
    mkdir -p "$TMP/$case/job"
    status=0
    (cd "$TMP/$case/job" && "$SRC/cluster/run-sweep" --fusebench "$fusebench" \
        --config "$TMP/tiny.ini" --backend cpu --dtype fp32 --results "$results") \
        >"$TMP/out" 2>"$TMP/err" || status=$?
    csvs=("$results"/cpu-*/tiny-fp32.csv)
    if [ "$status" != 0 ]; then
        fail "$case: exit $status"; sed 's/^/  /' "$TMP/err" | tail -n 5
    elif [ "$(grep -c '^fusebench-results: ' "$TMP/out")" != 1 ] ||
         ! grep -q '^fusebench-check: PASS$' "$TMP/out"; then
        fail "$case: no single fusebench-results line or no PASS:"; sed 's/^/  /' "$TMP/out"
    elif [ ! -f "${csvs[0]}" ] || [ ! -f "${csvs[0]%.csv}.plan.json" ]; then
        fail "$case: no results file with its plan under the results directory"
    else
        passed=$((passed + 1))
    fi
    if { find "$TMP" -name pwned -type f; find . -maxdepth 1 -name pwned -type f; } | grep -q .; then
        fail "$case: the canary ran"
    fi
done
hostile=" q'\"\$(touch pwned)"$'\n'"x"
clone=$TMP/clone$hostile
mkdir -p "$clone"
cp -R "$SRC/cluster" "$clone/cluster"
cp "$TMP/tiny.ini" "$clone/tiny$hostile.ini"
status=0
(cd "$clone" && env -u SLURM_SUBMIT_DIR -u SLURM_JOB_ID -u SLURM_JOB_PARTITION \
    -u SLURM_CLUSTER_NAME FB_FUSEBENCH="$fusebench" FB_BACKEND=cpu FB_CONFIG="tiny$hostile.ini" \
    FB_RESULTS="$TMP/sbatch$hostile" bash cluster/fusebench.sbatch) >"$TMP/out" 2>"$TMP/err" ||
    status=$?
csvs=("$TMP/sbatch$hostile"/cluster/local/cpu-*/"tiny$hostile-fp32.csv")
if [ "$status" != 0 ] || [ ! -f "${csvs[0]}" ]; then
    fail "fusebench.sbatch: exit $status, results file: ${csvs[0]}"; tail -n 5 "$TMP/err"
else
    passed=$((passed + 1))
fi
if { find "$TMP" -name pwned -type f; find . -maxdepth 1 -name pwned -type f; } | grep -q .; then
    fail "fusebench.sbatch: the canary ran"
fi

echo "run-sweep hostile results paths: $passed passed, $failed failed"
[ "$failed" = 0 ]
