#!/usr/bin/env bash
# The ReFrame suite's job scripts under a canary (issue 34): ReFrame pastes a test's
# executable, options and postrun commands into its job script as they are, so every path and
# name cluster/fusebench_checks.py passes on must arrive as one word and run nothing. A copy
# of cluster/ in a clone whose location holds a space, quotes and a newline, with stubs for scripts/ensure-build, cluster/run-sweep and the built fusebench that record
# their arguments; ReFrame (cluster/rfm, `laptop` system, --dry-run: scripts written, nothing
# run) renders the build and sweep jobs for a hostile results root, config, dtype, meson
# option and given fusebench; the test runs each script with bash and checks each stub's
# arguments, word for word, and that no `pwned` file appeared. Then a site configuration
# whose partitions have neither the `cpu` nor the `cuda` feature: the run must fail, saying
# so (it once ran 0 checks and reported PASSED). A clone whose location holds `$(...)`: ReFrame
# itself would run it (it expands its check path and prefix), so cluster/rfm refuses it.
# ReFrame comes from cluster/rfm's venv (FB_RFM_VENV, default build-cluster/venv/, made on
# first use from PyPI); where none can be made the test skips (77), saying why.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
venv=${FB_RFM_VENV:-$SRC/build-cluster/venv}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-job-scripts.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
if [ ! -x "$venv/bin/reframe" ]; then
    # cluster/rfm makes the venv before it runs ReFrame; -V only prints its version.
    FB_RFM_VENV=$venv FB_RFM_PREFIX=$TMP/rfm-venv "$SRC/cluster/rfm" -V >"$TMP/venv.log" 2>&1
    if [ ! -x "$venv/bin/reframe" ]; then
        echo "skipped: no ReFrame venv at $venv and cluster/rfm could not make one:"
        tail -n 5 "$TMP/venv.log"
        exit 77
    fi
fi
passed=0 failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
ok() { passed=$((passed + 1)); }

hostile=" q'\"\$(touch pwned)"$'\n'"x"
clone=$TMP/clone" q'\""$'\n'"x"
mkdir -p "$clone/scripts" "$TMP/calls" "$TMP/home" "$TMP/job"
cp -R "$SRC/cluster" "$clone/cluster"
rm -rf "$clone/cluster/__pycache__"
# A stub records its own path and arguments, NUL-separated, one file per call.
stub='#!/usr/bin/env bash
printf "%s\0" "$0" "$@" > "$(mktemp "$FB_TEST_CALLS/call.XXXXXX")"
'
printf '%s' "$stub" > "$clone/cluster/run-sweep"
# ensure-build BUILD_DIR OPTIONS...: leaves a stub fusebench in BUILD_DIR for the postrun line.
printf '%s%s' "$stub" 'mkdir -p "$1" && cp "$0" "$1/fusebench"
' > "$clone/scripts/ensure-build"
chmod +x "$clone/cluster/run-sweep" "$clone/scripts/ensure-build"
given=$TMP/bin$hostile/fusebench
mkdir -p "$(dirname "$given")"
printf '%s' "$stub" > "$given"
chmod +x "$given"
export FB_TEST_CALLS=$TMP/calls HOME=$TMP/home FB_RFM_VENV=$venv

config="cluster/configs/c$hostile.ini"
dtype="fp16$hostile"
results=$TMP/results$hostile
option="-Dx=\$(touch pwned)"
render() { # PREFIX RFM-OPTIONS...: ReFrame writes the job scripts under PREFIX/stage
    local prefix=$1
    shift
    FB_RFM_PREFIX=$prefix FB_RFM_CONFIGS="$config" FB_RFM_DTYPES="$dtype" \
        "$clone/cluster/rfm" --system laptop --dry-run \
        -S "FusebenchSweep.results_root=$results" "$@" >"$prefix.log" 2>&1
}
run_jobs() { # PREFIX: each job script, run from a scratch directory
    local script
    rm -f "$TMP"/calls/*
    while IFS= read -r -d '' script; do
        (cd "$TMP/job" && bash "$script") >/dev/null 2>&1
    done < <(find "$1/stage" -name rfm_job.sh -print0)
}
expect_call() { # NAME WORD...: one recorded call has exactly these words
    local name=$1 f
    shift
    for f in "$TMP"/calls/call.*; do
        [ -f "$f" ] || continue
        local -a got=()
        mapfile -d '' -t got < "$f"
        if [ "${#got[@]}" = $# ] && [ "$(printf '%s\0' "${got[@]}" | md5sum)" = \
                                      "$(printf '%s\0' "$@" | md5sum)" ]; then
            ok
            return
        fi
    done
    fail "$name: no call with these words: $(printf '[%q] ' "$@")"
    for f in "$TMP"/calls/call.*; do
        [ -f "$f" ] && echo "  recorded: $(tr '\0' '\n' < "$f" | while IFS= read -r w; do printf '[%q] ' "$w"; done)"
    done
}
no_canary() { # WHAT
    if find "$TMP" -name pwned -type f | grep -q .; then
        fail "$1: a \$(touch pwned) ran"
        find "$TMP" -name pwned -type f -delete
    else
        ok
    fi
}

# 1. The build job (ensure-build, then the built fusebench's --version) and the sweep.
if render "$TMP/rfm1" -S "FusebenchBuild.meson_options=$option -Dy=2"; then :; fi
run_jobs "$TMP/rfm1"
build=$clone/build-cluster/laptop-default
expect_call "build job" "$clone/scripts/ensure-build" "$build" "-Dx=\$(touch" "pwned)" "-Dy=2"
expect_call "built fusebench --version" "$build/fusebench" --version
expect_call "sweep job" "$clone/cluster/run-sweep" --fusebench "$build/fusebench" \
    --config "$clone/$config" --backend cpu --dtype "$dtype" --results "$results/laptop/default"
no_canary "build and sweep jobs"

# 2. A given fusebench (-S FusebenchBuild.fusebench=PATH): its --version and the sweep.
render "$TMP/rfm2" -S "FusebenchBuild.fusebench=$given"
run_jobs "$TMP/rfm2"
expect_call "given fusebench --version" "$given" --version
expect_call "sweep job with a given fusebench" "$clone/cluster/run-sweep" --fusebench "$given" \
    --config "$clone/$config" --backend cpu --dtype "$dtype" --results "$results/laptop/default"
no_canary "jobs of a given fusebench"

# 3. A site whose partitions lack the `cpu` and `cuda` features selects no sweep: it fails.
sed 's/"features": \["cpu"\]/"features": ["login"]/' "$SRC/cluster/config/local.py" \
    > "$TMP/nofeature.py"
status=0
FB_RFM_PREFIX=$TMP/rfm3 "$SRC/cluster/rfm" --site "$TMP/nofeature.py" --system laptop -r \
    >"$TMP/rfm3.log" 2>&1 || status=$?
if [ "$status" != 0 ] && grep -q 'has the feature `cpu` or `cuda`' "$TMP/rfm3.log" &&
   ! grep -q 'PASSED' "$TMP/rfm3.log"; then
    ok
else
    fail "a site without cpu/cuda partitions: exit $status, no failure saying why:"
    grep -v '^  ' "$TMP/rfm3.log" | tail -n 8 | sed 's/^/  /'
fi

# 4. A clone whose location ReFrame would expand: refused before ReFrame starts.
dollar=$TMP/dollar$hostile
mkdir -p "$dollar"
cp -R "$clone/cluster" "$dollar/cluster"
status=0
(cd "$TMP/job" && FB_RFM_PREFIX=$TMP/rfm4 "$dollar/cluster/rfm" --system laptop -r) \
    >"$TMP/rfm4.log" 2>&1 || status=$?
if [ "$status" = 2 ] && grep -q 'which expands it' "$TMP/rfm4.log"; then ok; else
    fail "a clone at a path with \$(...): exit $status (want 2):"; sed 's/^/  /' "$TMP/rfm4.log"
fi
no_canary "a clone at a path with \$(...)"

echo "job scripts under a canary: $passed passed, $failed failed"
[ "$failed" = 0 ]
