# ours_ratio.gp: ours against a peer measured in the same process (tools/torch_inprocess.py):
# for each peer series with the column (ours.tsv: its index; s<i>.dat columns 11-13), the
# ratio fusebench derived, t(our mirrored variant) / t(peer variant) at the same n, with its
# interval (measure/pairing.h: from both medians' 95% intervals, >= 90% together). Below 1
# ours is faster: the chart says so. The sizes are few and decades apart, so the points are
# not joined (a line would invent the ratio between them).
NO = rows_ours
array OI[max1(NO)]
if (NO > 0) { stats 'ours.tsv' using (OI[int(column("j"))] = int(column("i")), 0) nooutput }
set title chart_title('Ours / the peer in one process: time ratio vs size') noenhanced
# short enough for a column's height; the bars are said in the key
set ylabel 'median time ratio, ours / the peer''s'
# The y range, from every bar's ends, to lay ticks at 1, 2, 5 x 10^k (never 0.0078125).
ylo = 1; yhi = 1
do for [j=1:NO] {
    stats series(OI[j]) using (valid(12) ? $12 : $11) nooutput
    ylo = STATS_min < ylo ? STATS_min : ylo
    stats series(OI[j]) using (valid(13) ? $13 : $11) nooutput
    yhi = STATS_max > yhi ? STATS_max : yhi
}
set logscale y 10
set yrange [ylo / 1.25 : yhi * 1.25]
set ytics () nomirror
set mytics 1
do for [k = floor(log10(ylo / 1.25)) : ceil(log10(yhi * 1.25))] {
    do for [m in "1 2 5"] {
        v = int(m) * 10.0 ** k
        if (v >= ylo / 1.25 && v <= yhi * 1.25) { set ytics add (sprintf('%g', v) v) }
    }
}
# Peers at one n side by side, a few percent apart on the log axis, so that equal ratios
# do not hide each other's markers and bars.
dodge(j) = 1.12 ** (j - (NO + 1) / 2.0)
plot 1 with lines lc rgb '#999999' dt 1 lw 1 title 'ratio 1: equal time; below 1: ours faster', \
     NaN with lines lc rgb '#999999' dt 1 lw 0 \
        title sprintf('bars: >= %g%% interval of the ratio', ours_level), \
     for [j=1:NO] series(OI[j]) using ($1 * dodge(j)):11:12:13 with yerrorbars \
        lc rgb SC[OI[j]] pt SP[OI[j]] ps 1.4 lw 2 title ST[OI[j]]
