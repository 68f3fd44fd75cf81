# bandwidth.gp: achieved bandwidth = bytes_model / time per call (GB/s, 1 GB = 1e9 B): the
# model's bytes, not measured ones. The copy ceiling's best (copy_max) and the device's
# theoretical peak (the run's peak_bandwidth_gbps) are drawn where known.
set title chart_title('Achieved bandwidth vs size (model bytes / time)') noenhanced
set ylabel 'bandwidth (GB/s)'
ytop = (peak_gbps > bandwidth_max ? peak_gbps : bandwidth_max) * 1.1
set yrange [0 : (ytop > 0 ? ytop : 1)]

if (copy_max > 0) {
    set arrow from graph 0, first copy_max to graph 1, first copy_max nohead \
        lc rgb '#000000' dt 3 lw 1
    set label sprintf('copy ceiling (best copy) %.0f GB/s', copy_max) at graph 0.02, \
        first copy_max left offset 0, 0.7 font small_font
}
if (peak_gbps > 0) {
    set arrow from graph 0, first peak_gbps to graph 1, first peak_gbps nohead \
        lc rgb '#b2182b' dt 2 lw 1.5
    set label sprintf('theoretical peak %.0f GB/s', peak_gbps) at graph 0.02, \
        first peak_gbps left offset 0, 0.7 tc rgb '#b2182b' font small_font
}
# The cache's line is named in the key, not beside the line (time.gp says why).
cache_key = have_cache ? "keyentry with lines lc rgb cache_colour lw 1.5 dt 3 title cache_text, " : ""
if (have_cache) {
    set arrow from n_cache, graph 0 to n_cache, graph 1 nohead lc rgb cache_colour lw 1.5 dt 3
}

noisy_points = NNT > 0 ? "'noisy_time.tsv' using 1:3:5:4 with points pt variable lc rgb variable ps 1.5 lw 2 notitle, " : ""
# Each key line its series' whole label, but past 6 series (a chain-length run's 25) its name
# and count (short_title); in as many columns as the page holds, within it (style.gp's
# key_auto; time.gp says why).
series_key(t) = NS > 6 ? short_key(t) : t
key_longest = have_cache ? strlen(cache_text) : 0
do for [i=1:NS] { key_longest = strlen(series_key(ST[i])) > key_longest ? strlen(series_key(ST[i])) : key_longest }
eval key_auto(key_longest, NS + have_cache)
# (past 6 series, where one column would leave no plot, at least two columns, or gnuplot
# drops a key of 25 lines: at a column's width their samples still start at the page's edge)
if (NS > 6 && key_cols(key_longest) < 2 && plot_room(NS + have_cache) < 4) {
    eval sprintf("set key below right vertical maxrows %d width %d", int(ceil((NS + have_cache) / 2.0)), \
        key_width(key_longest))
}
plot @cache_key @noisy_points for [i=1:NS] series(i) using 1:5 with linespoints \
        lc rgb SC[i] dt SD[i] pt SP[i] ps 1.1 lw (SCOPY[i] ? 3 : 1.5) title series_key(ST[i])
