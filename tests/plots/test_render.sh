#!/usr/bin/env bash
# End-to-end test of plots/render.sh on the CSVs in tests/plots/data (synthetic but shaped like
# real runs): every chart is drawn as a valid, non-trivial PNG and SVG; the GPU run gets the
# bytes chart and the CPU runs say why they do not; an older CSV (fewer columns, another order)
# still renders; the exit codes for a missing gnuplot (3) and a bad CSV (2) hold.
# Exit 77 (meson: skipped) with a reason when gnuplot is not installed.
set -u

src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
render=$src/plots/render.sh
data=$src/tests/plots/data
work=$(mktemp -d "${TMPDIR:-/tmp}/fb-test-plots.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failures=0

ok() { echo "ok - $*"; }
fail() { echo "not ok - $*"; failures=$((failures + 1)); }
not_grep() { ! grep -q "$1" "$2"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }

# PNG: the 8-byte signature 89 50 4E 47 0D 0A 1A 0A, and more than 10 KB (an empty chart with
# axes alone is a few KB at 1600x1000).
is_png() {
    [ -f "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
        [ "$(wc -c <"$1")" -gt 10240 ]
}
# SVG: starts with <?xml or <svg, ends with </svg>, and holds more than a bare frame.
is_svg() {
    [ -f "$1" ] || return 1
    local head tail
    head=$(tr -d '\n' <"$1" | sed 's/^[[:space:]]*//' | head -c 5)
    tail=$(tr -d '\n' <"$1" | sed 's/[[:space:]]*$//' | tail -c 6)
    { [ "$head" = '<?xml' ] || [ "${head:0:4}" = '<svg' ]; } && [ "$tail" = '</svg>' ] &&
        [ "$(wc -c <"$1")" -gt 10240 ]
}

# --- exit codes that need no gnuplot -----------------------------------------------------------
GNUPLOT=$work/no-such-gnuplot "$render" "$data/sample-cpu.csv" -o "$work/x" >/dev/null \
    2>"$work/err"
rc=$?
check "missing gnuplot exits 3 (got $rc)" [ $rc -eq 3 ]
check "missing gnuplot names the package" grep -q 'apt-get install gnuplot-nox' "$work/err"

"$render" "$work/nothere.csv" -o "$work/x" >/dev/null 2>"$work/err"
rc=$?
check "missing CSV exits 2 (got $rc)" [ $rc -eq 2 ]
check "missing CSV is named in the message" grep -q 'nothere.csv' "$work/err"

"$render" >/dev/null 2>&1
rc=$?
check "no argument exits 2 (got $rc)" [ $rc -eq 2 ]

if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    echo "SKIP: gnuplot is not installed (apt-get install gnuplot-nox); charts not rendered"
    [ $failures -eq 0 ] && exit 77
    exit 1
fi

# --- malformed CSV (gnuplot present: the CSV is read after the gnuplot check) -----------------
printf 'a,b,c\n1,2,3\n' >"$work/bad.csv"
"$render" "$work/bad.csv" -o "$work/x" >/dev/null 2>"$work/err"
rc=$?
check "CSV without the fusebench header exits 2 (got $rc)" [ $rc -eq 2 ]
check "bad CSV is named in the message" grep -q 'bad.csv' "$work/err"
check "bad CSV leaves no chart behind" [ -z "$(ls -A "$work/x" 2>/dev/null)" ]

# --- rendering ---------------------------------------------------------------------------------
# TMPDIR inside $work, to see that render.sh removes its temporary directory.
mkdir -p "$work/tmp"
expect_charts() { # OUTDIR STEM CHART...
    local out=$1 stem=$2 chart; shift 2
    for chart in "$@"; do
        check "$stem-$chart.png is a PNG over 10 KB" is_png "$out/$stem-$chart.png"
        check "$stem-$chart.svg is a complete SVG" is_svg "$out/$stem-$chart.svg"
    done
}

TMPDIR=$work/tmp "$render" "$data/sample-gpu.csv" "$data/sample-torch.csv" -o "$work/gpu" \
    >"$work/out" 2>"$work/err"
rc=$?
check "GPU run with the torch overlay renders (rc $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || cat "$work/err"
expect_charts "$work/gpu" sample-gpu time speedup bandwidth bytes launches summary
check "every written file is listed on stdout" [ "$(wc -l <"$work/out")" -eq 12 ]
check "the overlay's series are on the time chart" \
    grep -q 'torch_compile_add_relu' "$work/gpu/sample-gpu-time.svg"
check "the overlay's speedups are on the speedup chart" \
    grep -q 'torch_eager_threshold / torch_compile' "$work/gpu/sample-gpu-speedup.svg"
check "the summary leaves the overlay out" \
    not_grep torch_ "$work/gpu/sample-gpu-summary.svg"
check "titles carry device and date" \
    grep -q 'NVIDIA H200, 2025-11-30' "$work/gpu/sample-gpu-speedup.svg"
check "the cache line is labelled with cache name and MB" \
    grep -q 'L2 60 MB' "$work/gpu/sample-gpu-speedup.svg"
check "the theoretical peak is drawn" grep -q '4800 GB/s' "$work/gpu/sample-gpu-bandwidth.svg"
check "render.sh removes its temporary directory" [ -z "$(ls -A "$work/tmp")" ]

"$render" "$data/sample-cpu.csv" -o "$work/cpu" >/dev/null 2>"$work/err"
rc=$?
check "CPU run renders (rc $rc)" [ $rc -eq 0 ]
expect_charts "$work/cpu" sample-cpu time speedup bandwidth launches summary
check "CPU run has no bytes chart" [ ! -e "$work/cpu/sample-cpu-bytes.png" ]
check "the skipped bytes chart is explained on stderr" \
    grep -q 'skipping the bytes chart' "$work/err"
check "regimes are labelled" grep -q 'memory-bound' "$work/cpu/sample-cpu-summary.svg"

# Through sh, as src/app/plots.c runs it: render.sh must re-run itself under bash.
sh "$render" "$data/older-run.csv" -o "$work/old" >/dev/null 2>"$work/err"
rc=$?
check "older CSV (fewer columns, other order) renders (rc $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || cat "$work/err"
expect_charts "$work/old" older-run time speedup bandwidth launches summary
check "older CSV: device from its metadata" \
    grep -q 'Xeon(R) Platinum 8481C' "$work/old/older-run-time.svg"

echo "$failures failure(s)"
[ $failures -eq 0 ]
