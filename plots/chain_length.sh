#!/usr/bin/env bash
# chain_length.sh: the chain-length chart, fusion's speedup against the number of fused ops.
#
#   plots/chain_length.sh RESULTS.csv [-o OUTDIR]
#
# Reads a results CSV of configs/chain-length.ini (chains "add then k unary ops") and draws
# <stem>-speedup-k.png and .svg: for every eager row that has a pair, the measured speedup
# (the CSV's `speedup` column: eager time over its fused pair's time, medians of one run)
# against k = the eager row's launches - 1 (the ops after the first), one line per size, with
# the two models that bound it:
#   launches: (k + 1) / 1               eager launches one kernel per op, fused one in all
#   traffic:  (3 + 2k) / 3              array transfers, eager over fused (bytes_model ratio)
# and, on a CPU (write-allocate: every store first reads its line), (4 + 3k) / 4.
# A pair whose chain holds a transcendental op (a chain of ops with a ULP bound, named with "trans" in it: the experiment's own
# naming convention, see configs/chain-length.ini) is drawn with its own marker: there the CPU
# computes more than it moves, and fusion's gain falls below the traffic model.
# Rows without a pair (copy, memcpy, fused rows), rows whose status is not ok, and eager rows
# whose pair is also another row's pair (the built-in add_relu variants, which repeat add_k1)
# are ignored.
#
# The chart is drawn into a temporary file beside the target and renamed over it only when
# gnuplot succeeded. Exit status: 0 written; 1 gnuplot failed or nothing to draw; 2 usage or an
# unreadable CSV; 3 no gnuplot.
set -u
here=$(cd "$(dirname "$0")" && pwd)
gnuplot=${GNUPLOT:-gnuplot}
usage() { echo "usage: $0 RESULTS.csv [-o OUTDIR]" >&2; exit 2; }

csv="" outdir=$here
while [ $# -gt 0 ]; do
    case $1 in
        -o|--plot-dir) [ $# -ge 2 ] || usage; outdir=$2; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "chain_length: unknown option '$1'" >&2; usage ;;
        *) [ -z "$csv" ] || usage; csv=$1; shift ;;
    esac
done
[ -n "$csv" ] || usage
[ -f "$csv" ] && [ -r "$csv" ] || { echo "chain_length: cannot read '$csv'" >&2; exit 2; }
command -v "$gnuplot" >/dev/null 2>&1 || { echo "chain_length: gnuplot is not installed" >&2; exit 3; }
mkdir -p "$outdir" || exit 2

tmp=$(mktemp -d "$outdir/.chain-length.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# k, n, speedup, eager launches, traffic ratio and write-allocate ratio of the rows (for
# checking them against the model lines, which assume add then k unary ops), transcendental
# (0/1): one line per eager row with a pair, sorted by n then k. The exact ops' points at one n
# are joined by a line; the model lines are the formulas above.
awk -F, -v out="$tmp/points.dat" -v meta="$tmp/meta.txt" '
    /^#/ { if ($0 ~ /^# (device|backend|date):/) { sub(/^# /, ""); print > meta }; next }
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
    {
        v = $col["variant"]; n = $col["n"]
        if ($col["status"] != "ok") next
        launches[v, n] = $col["launches"]; bytes[v, n] = $col["bytes_model"]
        if (("pair" in col) && $col["pair"] != "")
            paired_by[$col["pair"], n]++
        if (("pair" in col) && $col["pair"] != "" && ("speedup" in col) && $col["speedup"] != "") {
            eager[++count] = v; size[count] = n; pair[count] = $col["pair"]
            speedup[count] = $col["speedup"]
        }
    }
    END {
        for (i = 1; i <= count; i++) {
            e = eager[i]; f = pair[i]; n = size[i]
            if (!((f, n) in launches) || launches[e, n] < 2 || launches[f, n] != 1) continue
            # A chain'"'"'s fused variant is the pair of its eager variant alone; the built-in
            # fused_add_relu is also the reference of eager_add_threshold and of the generic
            # kernel, so the built-ins (which repeat add_k1) stay off this chart.
            if (paired_by[f, n] != 1) continue
            k = launches[e, n] - 1
            le = launches[e, n]; be = bytes[e, n] / (4 * n); bf = bytes[f, n] / (4 * n)
            # write-allocate: every store also reads its line; eager has le stores, fused 1
            printf "%d %s %s %g %g %g %d\n", k, n, speedup[i], le, be / bf, (be + le) / (bf + 1),
                (e ~ /trans/) > out
        }
    }' "$csv" || exit 2
[ -s "$tmp/points.dat" ] || { echo "chain_length: no eager row with a pair and a speedup in $csv" >&2; exit 1; }
sort -k7,7n -k2,2g -k1,1n "$tmp/points.dat" > "$tmp/sorted.dat"
device=$(sed -n 's/^device: //p' "$tmp/meta.txt" | head -1)
backend=$(sed -n 's/^backend: //p' "$tmp/meta.txt" | head -1)
day=$(sed -n 's/^date: //p' "$tmp/meta.txt" | head -1 | cut -c1-10)
sizes=$(awk '{print $2}' "$tmp/sorted.dat" | sort -g -u | tr '\n' ' ')
stem=$(basename "$csv" .csv)

for fmt in png svg; do
    if [ "$fmt" = svg ]; then
        term="set terminal svg size 1600,1000 dynamic enhanced background rgb 'white' font 'Sans,20' linewidth 2"
    else
        term="set terminal pngcairo size 1600,1000 enhanced background rgb 'white' font 'Sans,20' linewidth 2"
    fi
    "$gnuplot" > "$tmp/gnuplot.log" 2>&1 <<EOF || { cat "$tmp/gnuplot.log" >&2; exit 1; }
$term
set output '$tmp/chart.$fmt'
set border 3 lw 1
set tics nomirror out scale 0.6
set grid xtics ytics lc rgb '#d8d8d8' lw 0.5
set key noenhanced top left Left reverse box lc rgb '#bbbbbb' opaque
set title noenhanced "Fusion speedup against chain length: add, then k unary ops\n$device${day:+, $day}"
set xlabel 'k (unary ops after the add; eager launches k + 1 kernels, fused 1)'
set ylabel 'speedup = eager time / fused time (medians, same run)'
set xrange [0.5:8.5]
set xtics 1
set yrange [0:*]
sizes = '$sizes'
label(n) = (n >= 1e6 ? sprintf('n = %gM', n / 1e6) : (n >= 1e3 ? sprintf('n = %gK', n / 1e3) : sprintf('n = %g', n)))
colour(i) = word('#1f77b4 #2ca02c #d62728 #9467bd #ff7f0e', (i - 1) % 5 + 1)
set samples 8
plot x + 1 with lines dt 2 lw 1.5 lc rgb '#555555' title 'model: launches (k + 1)', \
     (3 + 2 * x) / 3 with lines dt 3 lw 2 lc rgb '#555555' title 'model: traffic (3 + 2k) / 3', \
     $( [ "$backend" = cpu ] && echo "(4 + 3 * x) / 4 with lines dt 4 lw 1.5 lc rgb '#999999' title 'model: traffic with write-allocate (4 + 3k) / 4'," ) \
     for [i = 1:words(sizes)] '$tmp/sorted.dat' using 1:((\$2 == word(sizes, i) + 0 && \$7 == 0) ? \$3 : NaN) \
         with linespoints pt 7 ps 1.4 lw 2 lc rgb colour(i) title label(word(sizes, i) + 0), \
     for [i = 1:words(sizes)] '$tmp/sorted.dat' using 1:((\$2 == word(sizes, i) + 0 && \$7 == 1) ? \$3 : NaN) \
         with points pt 5 ps 2 lc rgb colour(i) title label(word(sizes, i) + 0).', transcendental chain'
EOF
    if grep -qi "warning\|error" "$tmp/gnuplot.log"; then cat "$tmp/gnuplot.log" >&2; exit 1; fi
    mv -f "$tmp/chart.$fmt" "$outdir/$stem-speedup-k.$fmt" || exit 1
done
echo "chart: $outdir/$stem-speedup-k.png (and .svg)"
