#!/usr/bin/env bash
# dtypes.sh: the storage-type chart, fusion's speedup at fp32, fp16 and bf16 side by side.
#
#   plots/dtypes.sh RESULTS.csv [-o OUTDIR] [-v EAGER_VARIANT]
#
# Reads a results CSV with several dtypes (configs/dtypes.ini) and draws <stem>-dtypes.png
# and .svg, two panels:
#   left:  the measured speedup of EAGER_VARIANT (default eager_add_relu) over its pair (the
#          CSV's `speedup` column of the eager row: eager time / fused time, medians of one
#          run) against n, one line per dtype;
#   right: the same points against the bytes of one tensor, n x the dtype's element size
#          (4 fp32, 2 fp16 and bf16). If what fusion saves is bytes and launches, the curves
#          of the three dtypes line up here: a 16-bit array of 2n elements is the same bytes as
#          an fp32 one of n, so it should sit in the same regime (launch-bound, in cache,
#          memory-bound). The last-level cache (the CSV's cache_bytes) is marked on it, as the
#          size where the eager chain's four arrays (a, b, tmp, c) fill it: cache / 4 per tensor.
# Rows whose status is not ok, other variants, and eager rows without a speedup (pair missing,
# noisy or failed) are left out. A dtype column absent or empty reads as fp32.
#
# The chart is drawn into a temporary directory beside the target and renamed over it only
# when gnuplot succeeded. Exit status: 0 written; 1 gnuplot failed or nothing to draw; 2 usage
# or an unreadable CSV; 3 no gnuplot.
set -u
here=$(cd "$(dirname "$0")" && pwd)
gnuplot=${GNUPLOT:-gnuplot}
usage() { echo "usage: $0 RESULTS.csv [-o OUTDIR] [-v EAGER_VARIANT]" >&2; exit 2; }

csv="" outdir=$here variant=eager_add_relu
while [ $# -gt 0 ]; do
    case $1 in
        -o|--plot-dir) [ $# -ge 2 ] || usage; outdir=$2; shift 2 ;;
        -v|--variant) [ $# -ge 2 ] || usage; variant=$2; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "dtypes: unknown option '$1'" >&2; usage ;;
        *) [ -z "$csv" ] || usage; csv=$1; shift ;;
    esac
done
[ -n "$csv" ] || usage
[ -f "$csv" ] && [ -r "$csv" ] || { echo "dtypes: cannot read '$csv'" >&2; exit 2; }
command -v "$gnuplot" >/dev/null 2>&1 || { echo "dtypes: gnuplot is not installed" >&2; exit 3; }
mkdir -p "$outdir" || exit 2

tmp=$(mktemp -d "$outdir/.dtypes.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One line per point: dtype index (0 fp32, 1 fp16, 2 bf16), n, bytes per tensor, speedup,
# the fused pair's name; sorted by dtype then n. Columns by header name (csv.c's schema).
awk -F, -v want="$variant" -v out="$tmp/points.dat" -v meta="$tmp/meta.txt" '
    /^#/ { if ($0 ~ /^# (device|backend|date|cache_bytes|cache_name):/) { sub(/^# /, ""); print > meta }; next }
    !header {
        for (i = 1; i <= NF; i++) col[$i] = i
        header = 1
        if (!("variant" in col) || !("n" in col) || !("speedup" in col)) {
            print "dtypes: '"$csv"' has no variant, n or speedup column" > "/dev/stderr"; bad = 1; exit 2
        }
        next
    }
    {
        if (("status" in col) && $col["status"] != "ok") next
        if ($col["variant"] != want || $col["speedup"] == "") next
        dt = ("dtype" in col) ? $col["dtype"] : ""
        if (dt == "" || dt == "float32") dt = "fp32"
        if (dt == "float16") dt = "fp16"
        if (dt == "bfloat16") dt = "bf16"
        if (dt == "fp32") { d = 0; size = 4 } else if (dt == "fp16") { d = 1; size = 2 }
        else if (dt == "bf16") { d = 2; size = 2 } else next
        if (("stores" in col) && $col["stores"] != "" && $col["stores"] != "normal") next
        n = $col["n"] + 0
        printf "%d %.17g %.17g %s %s\n", d, n, n * size, $col["speedup"], \
            (("pair" in col) ? $col["pair"] : "-") > out
    }
    END { if (bad) exit 2 }' "$csv" || exit 2
[ -s "$tmp/points.dat" ] || {
    echo "dtypes: no ok row of $variant with a speedup in $csv" >&2; exit 1; }
sort -k1,1n -k2,2g "$tmp/points.dat" > "$tmp/sorted.dat"
device=$(sed -n 's/^device: //p' "$tmp/meta.txt" | head -1)
day=$(sed -n 's/^date: //p' "$tmp/meta.txt" | head -1 | cut -c1-10)
cache_bytes=$(sed -n 's/^cache_bytes: //p' "$tmp/meta.txt" | head -1)
cache_name=$(sed -n 's/^cache_name: //p' "$tmp/meta.txt" | head -1)
pair=$(awk '{print $5}' "$tmp/sorted.dat" | head -1)
stem=$(basename "$csv" .csv)
case $cache_bytes in ''|*[!0-9]*) cache_bytes=0 ;; esac

for fmt in png svg; do
    if [ "$fmt" = svg ]; then
        term="set terminal svg size 2000,900 dynamic enhanced background rgb 'white' font 'Sans,18' linewidth 2"
    else
        term="set terminal pngcairo size 2000,900 enhanced background rgb 'white' font 'Sans,18' linewidth 2"
    fi
    "$gnuplot" > "$tmp/gnuplot.log" 2>&1 <<EOF || { cat "$tmp/gnuplot.log" >&2; exit 1; }
$term
set output '$tmp/chart.$fmt'
set border 3 lw 1
set tics nomirror out scale 0.6
set grid xtics ytics mxtics lc rgb '#d8d8d8' lw 0.5
set key noenhanced bottom left Left reverse box lc rgb '#bbbbbb' opaque
set logscale x 10
set format x '10^{%L}'
set yrange [0:*]
set ylabel noenhanced 'speedup = $variant time / $pair time (medians)'
name(d) = word('fp32 fp16 bf16', d + 1)
colour(d) = word('#1f77b4 #d62728 #2ca02c', d + 1)
marker(d) = d == 0 ? 7 : (d == 1 ? 5 : 9)
set multiplot layout 1,2 title noenhanced "Fusion speedup by storage type: $variant vs $pair\n$device${day:+, $day}"
set xlabel 'n (elements per tensor)'
set title 'against n'
plot for [d = 0:2] '$tmp/sorted.dat' using 2:(\$1 == d ? \$4 : NaN) \
         with linespoints pt marker(d) ps 1.3 lw 2 lc rgb colour(d) title name(d)
set xlabel 'bytes per tensor (n x 4 for fp32, n x 2 for fp16 and bf16)'
set title 'against bytes per tensor: the curves line up if the story is bytes'
$( [ "$cache_bytes" -gt 0 ] && echo "set arrow 1 from $cache_bytes / 4.0, graph 0 to $cache_bytes / 4.0, graph 1 nohead dt 2 lw 1.5 lc rgb '#777777'" )
$( [ "$cache_bytes" -gt 0 ] && echo "set label 1 '${cache_name:-cache} / 4 (eager: 4 tensors)' at $cache_bytes / 4.0, graph 0.05 right offset -0.5,0 tc rgb '#555555' noenhanced" )
plot for [d = 0:2] '$tmp/sorted.dat' using 3:(\$1 == d ? \$4 : NaN) \
         with linespoints pt marker(d) ps 1.3 lw 2 lc rgb colour(d) title name(d)
unset multiplot
EOF
    if grep -qi "warning\|error" "$tmp/gnuplot.log"; then cat "$tmp/gnuplot.log" >&2; exit 1; fi
    mv -f "$tmp/chart.$fmt" "$outdir/$stem-dtypes.$fmt" || exit 1
done
echo "chart: $outdir/$stem-dtypes.png (and .svg)"
