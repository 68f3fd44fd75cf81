#!/usr/bin/env bash
# End-to-end test of plots/render.sh on the CSVs in tests/plots/data (synthetic but shaped like
# real runs): every chart is drawn as a valid, non-trivial PNG and SVG; the GPU run gets the
# bytes chart and the CPU runs say why they do not; an older CSV (fewer columns, another order)
# still renders (without the fitted model: it has no # fit_* lines, while the sample runs
# have them and get the model curves and the fitted regime boundary); the exit codes for a
# missing gnuplot (3) and a bad CSV (2) hold; charts are
# replaced atomically (a gnuplot failure or a Ctrl-C keeps the previous ones); a run with
# normal and streaming stores draws them as separate series with the byte models of each; control
# characters in names from the CSV break neither the script nor the SVG.
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
expect_charts "$work/gpu" sample-gpu time speedup bandwidth copy_fraction bytes launches summary
check "every written file is listed on stdout" [ "$(wc -l <"$work/out")" -eq 14 ]
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
# the fitted model (# fit_* lines; this GPU run has L and B but no cache bandwidth)
check "the GPU time chart draws the fitted model" grep -q 'fitted model' "$work/gpu/sample-gpu-time.svg"
check "the fit's numbers are printed" grep -q 'B = 4339 GB/s beyond the L2' "$work/gpu/sample-gpu-time.svg"
check "no cache-resident model without fit_cache_bandwidth_gbps" \
    not_grep 'fitted, in the' "$work/gpu/sample-gpu-time.svg"
check "the GPU speedup chart draws the predicted speedup" \
    grep -q 'predicted by the fit' "$work/gpu/sample-gpu-speedup.svg"

"$render" "$data/sample-cpu.csv" -o "$work/cpu" >/dev/null 2>"$work/err"
rc=$?
check "CPU run renders (rc $rc)" [ $rc -eq 0 ]
expect_charts "$work/cpu" sample-cpu time speedup bandwidth copy_fraction launches summary
check "CPU run has no bytes chart" [ ! -e "$work/cpu/sample-cpu-bytes.png" ]
check "the skipped bytes chart is explained on stderr" \
    grep -q 'skipping the bytes chart' "$work/err"
check "regimes are labelled" grep -q 'memory-bound' "$work/cpu/sample-cpu-summary.svg"
check "the CPU time chart draws the model with B and with B_c" \
    grep -q 'fitted, in the L3' "$work/cpu/sample-cpu-time.svg"
check "the CPU speedup chart predicts with B and with B_c" \
    grep -q 'predicted, in the L3' "$work/cpu/sample-cpu-speedup.svg"
check "the launch-bound regime ends where the fit says" \
    grep -q 'fit: launches·L = bytes/B' "$work/cpu/sample-cpu-summary.svg"
check "a CPU run of normal stores only draws 7/4 as it always did" \
    grep -q '7/4: traffic with write-allocate (CPU)' "$work/cpu/sample-cpu-speedup.svg"
check "and says nothing of streaming stores" not_grep 'streaming' "$work/cpu/sample-cpu-speedup.svg"
check "its copy_fraction chart has the write-allocate model, 9/8" \
    grep -q '9/8: model, normal stores' "$work/cpu/sample-cpu-copy_fraction.svg"

# --- stores = normal, streaming (issue 12, item 4) ---------------------------------------------
# Streaming rows are series of their own, paired within their kind; the byte-model lines
# follow the store kinds the file has (7/4 with write-allocate, 5/3 without).
"$render" "$data/sample-stores.csv" -o "$work/stores" >/dev/null 2>"$work/err"
rc=$?
check "a run with both store kinds renders (rc $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || cat "$work/err"
expect_charts "$work/stores" sample-stores time speedup bandwidth copy_fraction launches summary
check "streaming rows are a series of their own, against their own pair" \
    grep -q 'eager_add_relu-streaming / fused' "$work/stores/sample-stores-speedup.svg"
check "7/4 is labelled for normal stores" \
    grep -q '7/4: write-allocate (normal stores)' "$work/stores/sample-stores-speedup.svg"
check "5/3 is labelled for streaming stores" \
    grep -q 'traffic model 5/3 (streaming stores)' "$work/stores/sample-stores-speedup.svg"
check "the summary names the store kinds too" \
    grep -q '5/3: traffic (streaming stores)' "$work/stores/sample-stores-summary.svg"
check "the copy_fraction chart draws fused with and without streaming stores" \
    grep -q 'fused_add_relu-streaming' "$work/stores/sample-stores-copy_fraction.svg"
check "with both models and the 90% target" \
    grep -q '1: model, streaming stores' "$work/stores/sample-stores-copy_fraction.svg"
awk -v out="$work" -v tag=st -f "$src/plots/extract.awk" "$data/sample-stores.csv"
check "extract.awk says which store kinds the rows have" \
    grep -q "^stores_streaming	1$" "$work/st.meta"
check "a streaming row is paired with the streaming fused row" \
    grep -q "^eager_add_relu-streaming	fused_add_relu-streaming	" "$work/st.speedup"
# A streaming-only run: no write-allocate line at all.
grep -v ',normal$' "$data/sample-stores.csv" >"$work/streaming-only.csv"
"$render" "$work/streaming-only.csv" -o "$work/stores-nt" >/dev/null 2>"$work/err"
rc=$?
check "a streaming-only run renders (rc $rc)" [ $rc -eq 0 ]
check "a streaming-only run draws no 7/4 line" \
    not_grep '7/4' "$work/stores-nt/streaming-only-speedup.svg"
check "nor the 9/8 model" not_grep '9/8' "$work/stores-nt/streaming-only-copy_fraction.svg"

# extract.awk: n_launch = launches * L * B_c / (bytes per element) of fused_add_relu:
# 1 * 1.597e-06 s * 63.72e9 B/s / 12 B = 8480 elements
awk -v out="$work" -v tag=fit -f "$src/plots/extract.awk" "$data/sample-cpu.csv"
check "n_launch comes from the fit (got $(awk -F '\t' '$1 == "n_launch" { print $2 }' "$work/fit.meta"))" \
    awk -F '\t' '$1 == "n_launch" { found = ($2 > 8470 && $2 < 8490) } END { exit !found }' \
    "$work/fit.meta"
check "n_launch_from says fit" grep -q "^n_launch_from	fit$" "$work/fit.meta"

# The one-launch variant (eager_add_relu_graph: 2 kernels, 1 host launch), made from the
# sample's eager rows with the columns the sweep writes now (role, pair, speedup,
# host_launches): a speedup series of its own whose model launches are its host launches
# (1, as fused's), while the launches chart keeps its 2 counted kernels.
awk -F, -v OFS=, '
    NR == FNR { if ($3 == "fused_add_relu") tf[$5] = $10; next }
    /^#/ { print; next }
    !h { print $0 ",role,pair,speedup,host_launches"; h = 1; next }
    $3 == "eager_add_relu" {
        print $0, "eager", "fused_add_relu", $10 / tf[$5], 2
        $3 = "eager_add_relu_graph"; $10 = 0.8 * $10
        print $0, "eager", "fused_add_relu", $10 / tf[$5], 1; next }
    $3 == "fused_add_relu" { print $0, "fused", "", "", 1; next }
    $3 == "copy" { print $0, "copy_ceiling", "", "", 1; next }
    { print $0, "", "", "", "" }' "$data/sample-cpu.csv" "$data/sample-cpu.csv" \
    >"$work/graph-cpu.csv"
awk -v out="$work" -v tag=graph -f "$src/plots/extract.awk" "$work/graph-cpu.csv"
check "the one-launch series is paired with fused on 1 launch against 1" \
    awk -F '\t' '$1 == "eager_add_relu_graph" && $2 == "fused_add_relu" && $4 == 1 && $6 == 1 \
        { found = 1 } END { exit !found }' "$work/graph.speedup"
check "the eager series keeps its 2 launches against 1" \
    awk -F '\t' '$1 == "eager_add_relu" && $4 == 2 && $6 == 1 { found = 1 } END { exit !found }' \
    "$work/graph.speedup"
check "the launches chart counts the one-launch series' 2 kernels" \
    awk -F '\t' '$1 == "eager_add_relu_graph" && $5 == 2 { found = 1 } END { exit !found }' \
    "$work/graph.series"
"$render" "$work/graph-cpu.csv" -o "$work/graph" >/dev/null 2>"$work/err"
rc=$?
check "a run with the one-launch variant renders (rc $rc)" [ $rc -eq 0 ]
check "its speedup is drawn as the byte share alone" \
    grep -q 'eager_add_relu_graph / fused (bytes only)' \
    "$work/graph/graph-cpu-speedup.svg"
check "beside eager's" grep -q '>eager_add_relu / fused<' "$work/graph/graph-cpu-speedup.svg"

# Through sh, as src/app/plots.c runs it: render.sh must re-run itself under bash.
sh "$render" "$data/older-run.csv" -o "$work/old" >/dev/null 2>"$work/err"
rc=$?
check "older CSV (fewer columns, other order) renders (rc $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || cat "$work/err"
expect_charts "$work/old" older-run time speedup bandwidth launches summary
check "older CSV: device from its metadata" \
    grep -q 'Xeon(R) Platinum 8481C' "$work/old/older-run-time.svg"
check "older CSV without fit lines: no model on the time chart" \
    not_grep 'fitted model' "$work/old/older-run-time.svg"
check "older CSV without fit lines: no predicted speedup" \
    not_grep 'predicted by the fit' "$work/old/older-run-speedup.svg"
check "older CSV without fit lines: the regimes come from the data" \
    not_grep 'fit: launches' "$work/old/older-run-summary.svg"

# --- pairs are data (issue 11, item 4) ----------------------------------------------------------
# extract.awk's tables for one CSV: TAG.speedup (eager, pair, dat) and the speedup dat files.
extract() { # CSV DIR
    rm -rf "$2"; mkdir -p "$2"
    awk -v out="$2" -v tag=t1 -f "$src/plots/extract.awk" "$1"
}
# speedup_at DIR EAGER N: the speedup extract.awk charts for EAGER at size N ("" when none).
speedup_at() {
    local dat
    dat=$(awk -F '\t' -v e="$2" '$1 == e { print $3 }' "$1/t1.speedup")
    [ -n "$dat" ] && awk -v n="$3" '$1 == n { print $2 }' "$dat"
}
pair_of() { awk -F '\t' -v e="$2" '$1 == e { print $2 }' "$1/t1.speedup"; }

# Several chains, each row naming its pair and carrying the speedup fusebench computed.
extract "$data/chains.csv" "$work/ex-chains"
check "chains: every eager chain is charted against its own pair" \
    [ "$(cut -f1,2 "$work/ex-chains/t1.speedup" | tr '\t\n' '>;')" = \
      "eager_add_relu>fused_add_relu;eager_mul_relu>fused_mul_relu;eager_scale_bias_sigmoid>fused_scale_bias_sigmoid;" ]
check "chains: eager_mul_relu's speedup is the CSV's (3 over fused_mul_relu, not 6 over fused_add_relu)" \
    [ "$(speedup_at "$work/ex-chains" eager_mul_relu 1000)" = 3 ]
check "chains: no point where the pair failed (empty speedup)" \
    [ -z "$(speedup_at "$work/ex-chains" eager_mul_relu 100000000)" ]
check "chains: the generic fused kernel is not an eager/fused speedup series" \
    not_grep fused_generic "$work/ex-chains/t1.speedup"
check "chains: model launches by role (eager: one per op; the platform's copy 0)" \
    [ "$(awk -F '\t' '{ printf "%s=%s ", $1, $8 }' "$work/ex-chains/t1.series")" = \
      "copy=1 eager_add_relu=2 fused_add_relu=1 memcpy=0 fused_generic_add_relu=1 eager_mul_relu=2 fused_mul_relu=1 eager_scale_bias_sigmoid=3 fused_scale_bias_sigmoid=1 " ]
check "chains: the copy ceiling is found by role" \
    grep -q '^copy_bandwidth_max.2487' "$work/ex-chains/t1.meta"

# An older file (no pair column) holding mul_relu: pairs by name, eager_X with fused_X.
extract "$data/mul-relu-older.csv" "$work/ex-older"
check "older file: eager_mul_relu is paired with fused_mul_relu (got $(pair_of "$work/ex-older" eager_mul_relu))" \
    [ "$(pair_of "$work/ex-older" eager_mul_relu)" = fused_mul_relu ]
check "older file: its speedup is t_eager / t_fused_mul_relu" \
    [ "$(speedup_at "$work/ex-older" eager_mul_relu 1000)" = 3 ]
check "older file: eager_add_relu keeps fused_add_relu" \
    [ "$(pair_of "$work/ex-older" eager_add_relu)" = fused_add_relu ]
extract "$data/sample-torch.csv" "$work/ex-torch"
check "older peer file: each eager series over the compiled one" \
    [ "$(pair_of "$work/ex-torch" torch_eager_threshold)" = torch_compile_add_relu ]

"$render" "$data/chains.csv" "$data/mul-relu-older.csv" -o "$work/chains" >/dev/null 2>"$work/err"
rc=$?
check "several chains render, with an older file overlaid (rc $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || cat "$work/err"
expect_charts "$work/chains" chains time speedup bandwidth launches summary
for e in eager_add_relu eager_mul_relu eager_scale_bias_sigmoid; do
    check "the speedup chart has $e over its pair" \
        grep -q "$e / fused" "$work/chains/chains-speedup.svg"
done
# --- noisy points (issue 12, item 1): left out of the lines, and said so on every chart -----
# Two fused rows turned noisy, with the preempted column appended as the sweep writes it.
awk -F, -v OFS=, '/^#/ { print; next }
    !h { print $0 ",preempted"; h = 1; next }
    $3 == "fused_add_relu" && ($5 == 8 || $5 == 32) { $26 = "noisy"; $27 = "\"9 of 10 disturbed\""
                                                       print $0 ",0.9"; next }
    { print $0 ",0" }' "$data/sample-cpu.csv" >"$work/noisy.csv"
"$render" "$work/noisy.csv" -o "$work/noisy" >/dev/null 2>"$work/err"
rc=$?
check "a CSV with noisy rows renders (rc $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || cat "$work/err"
for chart in time speedup bandwidth launches summary; do
    check "the $chart chart says 2 noisy points were not drawn" \
        grep -q '2 noisy points not drawn' "$work/noisy/noisy-$chart.svg"
done
check "a run without noisy rows says nothing of them" \
    not_grep 'noisy point' "$work/cpu/sample-cpu-time.svg"
mkdir -p "$work/noisy-x"
awk -v out="$work/noisy-x" -v tag=t -f "$src/plots/extract.awk" "$work/noisy.csv"
awk -v out="$work/noisy-x" -v tag=o -f "$src/plots/extract.awk" "$data/sample-cpu.csv"
fused_rows() { awk -F '\t' '$1 == "fused_add_relu" { print $3 }' "$1"; }
check "extract.awk leaves the noisy rows out of the fused series" \
    [ "$(fused_rows "$work/noisy-x/t.series")" -eq "$(($(fused_rows "$work/noisy-x/o.series") - 2))" ]
check "extract.awk counts them in the metadata" grep -q "^noisy_points.2\$" "$work/noisy-x/t.meta"

# --- atomic charts (issue 10, item 8) --------------------------------------------------------
real_gnuplot=$(command -v "${GNUPLOT:-gnuplot}")
# fake_gnuplot NAME BODY: writes $work/NAME, a gnuplot that passes render.sh's pngcairo check
# to the real one and, when asked to draw, runs BODY with $out set to the chart it must write.
fake_gnuplot() {
    {
        echo '#!/usr/bin/env bash'
        echo "[ \$# -eq 2 ] && exec '$real_gnuplot' \"\$@\""
        echo "real_gnuplot='$real_gnuplot'"
        # drawing: -e "fmt = 'png'; chart = 'time'" vars.gp style.gp chart.gp
        echo 'prefix=$(sed -n "s/^outprefix = '"'"'\(.*\)'"'"'\$/\1/p" "$3")'
        echo 'fmt=$(printf "%s" "$2" | sed "s/.*fmt = '"'"'\([a-z]*\)'"'"'.*/\1/")'
        echo 'chart=$(printf "%s" "$2" | sed "s/.*chart = '"'"'\([a-z]*\)'"'"'.*/\1/")'
        echo 'out=$prefix-$chart.$fmt'
        echo "$2"
    } >"$work/$1"
    chmod +x "$work/$1"
}
same_charts() { diff -r "$1" "$2" >/dev/null; }
only_charts_in() { [ -z "$(ls -A "$1" | grep -v '^sample-cpu-')" ]; }
"$render" "$data/sample-cpu.csv" -o "$work/atomic" >/dev/null 2>&1
cp -r "$work/atomic" "$work/atomic.before"

# gnuplot fails after it has written part of a chart: exit 1, the previous chart kept
fake_gnuplot fails 'printf "\x89PNG truncated" >"$out"; echo "some error" >&2; exit 1'
GNUPLOT=$work/fails "$render" "$data/sample-cpu.csv" -o "$work/atomic" >/dev/null 2>"$work/err"
rc=$?
check "a gnuplot failure exits 1 (got $rc)" [ $rc -eq 1 ]
check "a gnuplot failure names the chart" grep -q 'gnuplot failed on .*time.gp' "$work/err"
check "a gnuplot failure keeps every previous chart" same_charts "$work/atomic" "$work/atomic.before"
check "a gnuplot failure leaves no temporary file" only_charts_in "$work/atomic"

# a chart whose series file gnuplot cannot open is a failure, not a chart missing a series
fake_gnuplot warns '"$real_gnuplot" "$@"; echo "warning: Cannot find or open file \"x\"" >&2'
GNUPLOT=$work/warns "$render" "$data/sample-cpu.csv" -o "$work/atomic" >/dev/null 2>"$work/err"
rc=$?
check "a missing series file exits 1 (got $rc)" [ $rc -eq 1 ]
check "a missing series file keeps the previous chart" \
    same_charts "$work/atomic" "$work/atomic.before"

# Ctrl-C while gnuplot is writing: render.sh exits 130 and the previous chart is intact
fake_gnuplot interrupted 'printf "\x89PNG trunc" >"$out"; kill -INT $PPID; sleep 0.2; exit 130'
GNUPLOT=$work/interrupted "$render" "$data/sample-cpu.csv" -o "$work/atomic" >/dev/null \
    2>"$work/err"
rc=$?
check "Ctrl-C while drawing exits 130 (got $rc)" [ $rc -eq 130 ]
check "Ctrl-C while drawing keeps every previous chart" \
    same_charts "$work/atomic" "$work/atomic.before"
check "Ctrl-C leaves no temporary file" only_charts_in "$work/atomic"

# --- names from the CSV that would break the chart script (issue 10, item 10) ----------------
# A TAB and a control byte in variant names, a control byte in the device name.
tab=$(printf '\t'); ctl=$(printf '\001')
sed -e "s/fused_add_relu/fused${tab}add_relu/g" -e "s/eager_add_relu/eager${ctl}add_relu/g" \
    -e "/^# device:/s/\$/${ctl}/" "$data/sample-cpu.csv" >"$work/names.csv"
"$render" "$work/names.csv" -o "$work/names" >/dev/null 2>"$work/err"
rc=$?
check "control characters in names render (rc $rc)" [ $rc -eq 0 ]
check "no series file went missing" not_grep 'Cannot find or open' "$work/err"
expect_charts "$work/names" names time speedup bandwidth launches summary
check "a TAB in a variant name is shown as \\t" \
    grep -qF 'fused\tadd_relu' "$work/names/names-time.svg"
check "a control byte is shown as \\x01" \
    grep -qF 'eager\x01add_relu' "$work/names/names-launches.svg"
no_control_bytes() { ! LC_ALL=C grep -q "[$(printf '\001-\010\013\014\016-\037')]" "$1"; }
for f in "$work/names/"*.svg; do
    check "$(basename "$f") holds no control byte (valid XML)" no_control_bytes "$f"
done

echo "$failures failure(s)"
[ $failures -eq 0 ]
