#!/usr/bin/env bash
# The words and ticks gnuplot is given to draw (the SVG's text, not its pixels): ours_ratio's
# ticks at 1, 2, 5 x 10^k and what a ratio means; the timeline's µs; the glance figure's pair
# names, drawn at every size preset with no gnuplot warning (a dropped key is one); the audit
# chart of tests/plots/data/audit-add-relu.csv at every preset in every format.
# Exit 77 (meson: skipped) with a reason when gnuplot is not installed.
set -u
FB=${1:?usage: test_chart_text.sh FUSEBENCH}
src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
data=$src/tests/plots/data
if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    echo "SKIP: gnuplot is not installed (apt-get install gnuplot-nox)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/fb-test-text.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failures=0
check() { local what=$1; shift; if "$@"; then echo "ok - $what"; else echo "not ok - $what"; failures=$((failures + 1)); fi; }

for size in "" column double slide; do
    opt=(); [ -n "$size" ] && opt=(--size "$size")
    out=$work/${size:-own}
    timeout 300 "$FB" --plot "$data/sample-inprocess.csv" --plot-dir "$out" \
        --charts ours_ratio,glance --formats svg "${opt[@]}" >/dev/null 2>"$out.err"
    check "${size:-own page}: ours_ratio and glance drawn without a gnuplot warning" \
        bash -c "[ -s '$out/sample-inprocess-glance.svg' ] && ! grep -qi 'warning' '$out.err'"
    timeout 300 "$FB" --plot "$data/sample-cpu.csv" --plot-dir "$out" --charts glance \
        --formats svg "${opt[@]}" >/dev/null 2>"$out.err"
    check "${size:-own page}: the glance of a fitted run without a gnuplot warning (no key dropped)" \
        bash -c "[ -s '$out/sample-cpu-glance.svg' ] && ! grep -qi 'warning' '$out.err'"
done
# the audit chart of a checked-in audit (tools/torch_audit.py --output, add, relu at 4096 on a
# CPU) in every format at every size: drawn, no gnuplot warning, its words
for size in "" column double slide; do
    opt=(); [ -n "$size" ] && opt=(--size "$size")
    out=$work/audit-${size:-own}
    timeout 300 "$FB" --plot "$data/audit-add-relu.csv" --plot-dir "$out" --charts audit \
        --formats png,svg,pdf "${opt[@]}" >/dev/null 2>"$out.err"
    check "${size:-own page}: the audit chart in png, svg and pdf without a gnuplot warning" \
        bash -c "[ -s '$out/audit-add-relu-audit.png' ] && [ -s '$out/audit-add-relu-audit.svg' ] && [ -s '$out/audit-add-relu-audit.pdf' ] && ! grep -qi 'warning' '$out.err'"
done
# and every other chart of it: its rows have no model count (the launches chart's marks) and
# no label above the bars, and a clause with no point is a gnuplot warning
timeout 300 "$FB" --plot "$data/audit-add-relu.csv" --plot-dir "$work/audit-all" --formats svg \
    >/dev/null 2>"$work/audit-all.err"
check "an audit's file: every chart drawn without a gnuplot warning" \
    bash -c "[ -s '$work/audit-all/audit-add-relu-launches.svg' ] && ! grep -qi 'warning' '$work/audit-all.err'"
check "audit: each mode named on its ticks, the time in µs" \
    bash -c "grep -q '>torch.compile<' '$work/audit-own/audit-add-relu-audit.svg' && grep -q 'fusebench' '$work/audit-own/audit-add-relu-audit.svg' && grep -q '(µs)' '$work/audit-own/audit-add-relu-audit.svg'"
check "audit: says why no DRAM bytes were measured" \
    grep -q 'measured: none (the CPU backend has no DRAM counters)' "$work/audit-own/audit-add-relu-audit.svg"
timeout 300 "$FB" --plot "$data/sample-cpu.csv" --plot-dir "$work/audit-skip" --charts audit \
    >"$work/audit-skip.out" 2>&1
check "audit: a sweep is not an audit, and the chart says so instead of drawing" \
    bash -c "grep -q 'left out: audit (not an audit' '$work/audit-skip.out' && [ ! -e '$work/audit-skip/sample-cpu-audit.svg' ]"

svg=$work/own/sample-inprocess-ours_ratio.svg
# every plain number drawn (the y ticks; the x ticks are 10 with a raised exponent) is
# 1, 2 or 5 x 10^k
nice_ticks() { python3 - "$1" <<'PY'
import math, re, sys
nums = [float(t) for t in re.findall(r">\s*([0-9]*\.?[0-9]+)</tspan></text>", open(sys.argv[1]).read())]
bad = [x for x in nums if x > 0 and x != 10 and
       round(x / 10 ** math.floor(math.log10(x) + 1e-9), 6) not in (1, 2, 5)]
print("ticks not at 1, 2, 5 x 10^k:", bad) if bad else None
sys.exit(1 if bad or not nums else 0)
PY
}
for size in own column double slide; do
    check "ours_ratio ($size): ticks at 1, 2, 5 x 10^k, never 0.0625 or 0.0078125" \
        nice_ticks "$work/$size/sample-inprocess-ours_ratio.svg"
done
check "ours_ratio: says what a ratio means" grep -q 'below 1: ours faster' "$svg"
check "ours_ratio: sizes decades apart are not joined by lines" \
    bash -c "! grep -q 'yerrorlines' '$src/plots/ours_ratio.gp'"
# a title that wraps is cut into lines of about one length (at a column's width the glance's
# left "goes" alone on its second line)
check "glance at column width: no title line of one word" \
    bash -c "! grep -q '<text>goes</text>' '$work/column/sample-cpu-glance.svg'"
# a device name with a word longer than half the title's width: each title line within the
# page (the even cut took a width under that word, where wrap leaves the line whole)
sed 's/^# device: .*/# device: AMD-EPYC-9B14-96-Core-Processor-with-a-very-long-name b c d/' \
    "$data/sample-cpu.csv" >"$work/longname.csv"
timeout 300 "$FB" --plot "$work/longname.csv" --charts time --size column --formats png,pdf \
    --plot-dir "$work/ln" >/dev/null 2>&1
check "a title with a long word at column width: nothing drawn at the page's edges" \
    python3 "$src/tests/plots/check_chart.py" --edges "$work/ln/longname-time.png"
if command -v pdftotext >/dev/null 2>&1; then
    check "a title with a long word at column width: every word within the page" \
        python3 "$src/tests/plots/check_chart.py" --in-page "$work/ln/longname-time.pdf"
fi
check "glance: the x ticks name the pairs" grep -q '>add, relu<' "$work/own/sample-cpu-glance.svg"
check "glance: kernels and transfers are named" \
    bash -c "grep -q 'kernels (solid)' '$work/own/sample-cpu-glance.svg' && grep -q 'array-sized transfers' '$work/own/sample-cpu-glance.svg'"

# an overlay at a column's width: its key (11 lines) leaves the plot short, and the y tick
# labels gnuplot spaced by the range alone ran into each other
timeout 300 "$FB" --plot "$src/results/cpu-intel-xeon/default.csv" \
    "$src/results/cpu-intel-xeon/torch.csv" --plot-config "$src/configs/default.ini" \
    --charts summary,speedup --size column --formats svg --plot-dir "$work/ov" >/dev/null 2>"$work/ov.err"
for chart in summary speedup; do
    check "overlay at column width ($chart): y tick labels a line apart" \
        python3 "$src/tests/plots/svg_text.py" y-ticks-apart "$work/ov/default-vs-torch-$chart.svg"
    # the regimes' labels above the data: their headroom is their ems over the short plot's
    # (a fraction of the range left "cache-resident" on the points)
    check "overlay at column width ($chart): the regime labels on no data point" \
        python3 "$src/tests/plots/svg_text.py" clear-of-points \
        "$work/ov/default-vs-torch-$chart.svg" launch- cache- resident memory- bound
done

# its speedup chart's key (17 lines left a plot of some 5 em) gives up the fit's numbers
check "overlay at column width (speedup): the fit's numbers left to the time chart" \
    bash -c "grep -q 'numbers: time chart' '$work/ov/default-vs-torch-speedup.svg' && ! grep -q 'L = 1.18' '$work/ov/default-vs-torch-speedup.svg'"
# a fresh --profile table of the CPU backend: its subtitle in plain words, whole, and µs
timeout 300 "$FB" "$src/configs/default.ini" --profile 1K --variants eager_add_relu,fused_add_relu \
    --trace "$work/t.json" --no-plot >"$work/profile.out" 2>&1
check "timeline: the profile wrote its table" [ -s "$work/t-timeline.tsv" ]
check "timeline: the timing subtitle in plain words, not cut" \
    bash -c "grep -q \"kernels timed by the host's clock\" '$work/t-timeline.tsv' && ! grep -q 'marks inside\\|…' '$work/t-timeline.tsv'"
timeout 300 "$FB" --plot "$work/t-timeline.tsv" --plot-dir "$work/tl" >/dev/null 2>"$work/tl.err"
check "timeline: its time axis in µs, as every chart" grep -q '(µs)' "$work/tl/t-timeline.svg"
check "timeline: never in us" bash -c "! grep -q '(us)' '$work/tl/t-timeline.svg'"
check "timeline: drawn without a gnuplot warning" bash -c "! grep -qi warning '$work/tl.err'"
check "timeline: its title on one line on its own page" \
    grep -q '>Timeline: n = 1000 elements, the median call of 20 per variant<' "$work/tl/t-timeline.svg"
# at column width the title wraps within the plot's width instead of running off the page
timeout 300 "$FB" --plot "$work/t.json" --size column --plot-dir "$work/tlc" >/dev/null 2>"$work/tlc.err"
check "timeline: drawn at --size column (the --plot options reach it)" \
    bash -c "[ \"\$(head -c 1000 '$work/tlc/t-timeline.svg' | grep -o 'width=\"[0-9]*' | head -1)\" = 'width=\"1050' ]"
check "timeline: at column width its title wraps" \
    bash -c "grep -q '>Timeline: n = 1000 elements, the median' '$work/tlc/t-timeline.svg' && ! grep -q 'the median call of 20 per variant<' '$work/tlc/t-timeline.svg' && ! grep -qi warning '$work/tlc.err'"
# the time, bandwidth and copy-fraction charts at a column's width, one run and an overlay: the cache's line
# named in the key, level (a vertical label beside it crossed the data), and the key within
# the page (gnuplot's centred key of two columns ran its samples off the page's left edge)
for ov in "" "$src/results/cpu-intel-xeon/torch.csv"; do
    timeout 300 "$FB" --plot "$src/results/cpu-intel-xeon/default.csv" $ov \
        --plot-config "$src/configs/default.ini" --charts time,bandwidth,copy_fraction \
        --size column --formats png,svg --plot-dir "$work/tc" >/dev/null 2>>"$work/tc.err"
done
for f in default-time default-bandwidth default-vs-torch-time default-vs-torch-bandwidth \
    default-copy_fraction default-vs-torch-copy_fraction; do
    check "$f at column width: the cache named level, in the key" \
        python3 "$src/tests/plots/svg_text.py" level "$work/tc/$f.svg" 'L3 48 MB'
    check "$f at column width: nothing drawn at the page's left or right edge" \
        python3 "$src/tests/plots/check_chart.py" --edges "$work/tc/$f.png"
done
check "time and bandwidth at column width: no gnuplot warning" bash -c "! grep -qi warning '$work/tc.err'"
# a chain-length run (26 series) at a column's width: every key line drawn (gnuplot dropped
# the first 14 of a key two columns could not hold, saying nothing), none at the page's edge,
# and the copy ceiling named in the key, not on the data its line crosses
timeout 300 "$FB" --plot "$src/results/cpu-amd-epyc/chain-length.csv" \
    --plot-config "$src/configs/chain-length.ini" --charts time,bandwidth --size column \
    --formats png,svg --plot-dir "$work/cl" >/dev/null 2>"$work/cl.err"
for f in chain-length-time chain-length-bandwidth; do
    check "$f at column width: all 16 add_k lines in the key" \
        python3 "$src/tests/plots/svg_text.py" count "$work/cl/$f.svg" 'add_k' 16
    check "$f at column width: the references' lines in the key" \
        python3 "$src/tests/plots/svg_text.py" count "$work/cl/$f.svg" 'memcpy (no kernel of ours)' 1
    check "$f at column width: nothing drawn at the page's left or right edge" \
        python3 "$src/tests/plots/check_chart.py" --edges "$work/cl/$f.png"
done
# its launches chart: 26 bars named beside the axis in short ("eager add_k3"), not above each
# bar, where the labels ran into the counts and the model's marks
timeout 300 "$FB" --plot "$src/results/cpu-amd-epyc/chain-length.csv" \
    --plot-config "$src/configs/chain-length.ini" --charts launches --size column \
    --formats png,svg --plot-dir "$work/cl" >/dev/null 2>>"$work/cl.err"
check "chain-length launches at column width: the bars named beside the axis" \
    python3 "$src/tests/plots/svg_text.py" tick-labels "$work/cl/chain-length-launches.svg" 'add_k'
check "chain-length launches at column width: 16 add_k names, each once" \
    python3 "$src/tests/plots/svg_text.py" count "$work/cl/chain-length-launches.svg" 'add_k' 16
check "chain-length launches at column width: nothing at the page's edges" \
    python3 "$src/tests/plots/check_chart.py" --edges "$work/cl/chain-length-launches.png"
# at every preset its 26 labels a row each, on a page made taller for them where 7 points
# need it (a column's, a double's) and in smaller type on a slide (there the underscores ran
# into the row below)
for size in column double slide; do
    timeout 300 "$FB" --plot "$src/results/cpu-amd-epyc/chain-length.csv" \
        --plot-config "$src/configs/chain-length.ini" --charts launches --size $size \
        --formats svg --plot-dir "$work/cl-$size" >/dev/null 2>>"$work/cl.err"
    check "chain-length launches at $size: the bars' labels a line apart" \
        python3 "$src/tests/plots/svg_text.py" lines-apart \
        "$work/cl-$size/chain-length-launches.svg" 'add_'
done
# its glance: 7 sides and 3 parts in a key of two columns, in fewer words (one column of 10
# lines left the panels some 2 em tall)
timeout 300 "$FB" --plot "$src/results/cpu-amd-epyc/chain-length.csv" \
    --plot-config "$src/configs/chain-length.ini" --charts glance --size column \
    --formats svg --plot-dir "$work/cl" >/dev/null 2>>"$work/cl.err"
check "chain-length glance at column width: the key in fewer words, every side in it" \
    bash -c "grep -q '>launches x L (fit)<' '$work/cl/chain-length-glance.svg' && python3 '$src/tests/plots/svg_text.py' count '$work/cl/chain-length-glance.svg' 'add_k' 4"
check "chain-length bandwidth at column width: the copy ceiling named in the key" \
    python3 "$src/tests/plots/svg_text.py" in-key "$work/cl/chain-length-bandwidth.svg" \
    'copy ceiling'
check "chain-length time and bandwidth at column width: no gnuplot warning" \
    bash -c "! grep -qi warning '$work/cl.err'"
# the dtypes chart at every preset: each dtype's key line within the page (a wide page's key
# was one column under the right panel, fp16 and bf16 past the page's bottom: pdftotext lists
# only what is in the page), and nothing at its edges
for size in "" column double slide; do
    opt=(); [ -n "$size" ] && opt=(--size "$size")
    out=$work/dt-${size:-own}
    timeout 300 "$FB" --plot "$src/results/cpu-intel-xeon/dtypes.csv" \
        --plot-config "$src/configs/dtypes.ini" --charts dtypes --formats png,pdf "${opt[@]}" \
        --plot-dir "$out" >/dev/null 2>"$out.err"
    if command -v pdftotext >/dev/null 2>&1; then
        check "dtypes (${size:-own page}): fp32, fp16 and bf16 in the key, in the page" \
            bash -c "pdftotext '$out/dtypes-dtypes.pdf' - | tr -s ' \n' '\n\n' | grep -cx 'fp32\|fp16\|bf16' | grep -qx 3"
    fi
    check "dtypes (${size:-own page}): nothing at the page's left or right edge, no warning" \
        bash -c "python3 '$src/tests/plots/check_chart.py' --edges '$out/dtypes-dtypes.png' && ! grep -qi warning '$out.err'"
done
# the fit's text clear of the data: in the plot where it fits above the data (one run), in the
# key where a long key leaves the plot short (an overlay: its four lines sat on the data)
for f in default-time default-vs-torch-time; do
    check "$f at column width: the fit's text on no data point" \
        python3 "$src/tests/plots/svg_text.py" clear-of-points "$work/tc/$f.svg" \
        'fit: t' 'L = ' 'B = ' 'B_c = '
    check "$f at column width: the fit's numbers drawn" grep -q 'B_c = 49.3 GB/s' "$work/tc/$f.svg"
done
# the glance of the audit (one size: no in-cache and no memory-bound panel) at a column's width:
# the note of the missing panels wrapped within the page (one line ran past both edges)
timeout 300 "$FB" --plot "$data/audit-add-relu.csv" --charts glance --size column \
    --formats png --plot-dir "$work/gm" >/dev/null 2>&1
check "glance of one size at column width: the missing panels' note within the page" \
    python3 "$src/tests/plots/check_chart.py" --edges "$work/gm/audit-add-relu-glance.png"
# two machines' default.csv overlaid, at a column's width: the overlay's pairs named by their
# directory in the key (cut to fit, never dropped: "(default)" went with the counts), and the
# summary's and copy fraction's keys whole (no gnuplot warning)
mkdir -p "$work/two/cpu-intel-xeon" "$work/two/cpu-amd-epyc"
cp "$src/results/cpu-intel-xeon/default.csv" "$work/two/cpu-intel-xeon/"
cp "$src/results/cpu-amd-epyc/default.csv" "$work/two/cpu-amd-epyc/"
timeout 300 "$FB" --plot "$work/two/cpu-intel-xeon/default.csv" \
    "$work/two/cpu-amd-epyc/default.csv" --charts summary,copy_fraction --size column \
    --formats svg --plot-dir "$work/two/out" >/dev/null 2>"$work/two.err"
check "two default.csv overlaid at column width: the overlay's pairs named by their directory" \
    python3 "$src/tests/plots/svg_text.py" count "$work/two/out/default-vs-default-summary.svg" \
    '[cpu-amd-epyc]' 3
check "two default.csv overlaid at column width: no gnuplot warning" \
    bash -c "[ -s '$work/two/out/default-vs-default-copy_fraction.svg' ] && ! grep -qi warning '$work/two.err'"
echo "$failures failure(s)"
[ $failures -eq 0 ]
