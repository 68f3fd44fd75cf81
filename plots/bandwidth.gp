# bandwidth.gp: achieved bandwidth = bytes_model / time per call (GB/s, 1 GB = 1e9 B): the
# model's bytes, not measured ones. The copy ceiling's best (copy_max) and the device's
# theoretical peak (the run's peak_bandwidth_gbps) are drawn where known.
set title chart_title('Achieved bandwidth vs size (model bytes / time)') noenhanced
set ylabel 'bandwidth (GB/s)'
ytop = (peak_gbps > bandwidth_max ? peak_gbps : bandwidth_max) * 1.1
set yrange [0 : (ytop > 0 ? ytop : 1)]

# The ceiling's and the peak's lines are named in the key, as the cache's (style.gp's cache_key):
# a label beside the line sat on the data wherever the series cross it.
# (in fewer words past 6 series, whose key of two columns at a column's width holds 26 characters)
ceiling_text = sprintf(NS > 6 ? 'copy ceiling %.0f GB/s' : 'copy ceiling (best copy) %.0f GB/s', copy_max)
peak_text = sprintf('theoretical peak %.0f GB/s', peak_gbps)
have_ceiling = copy_max > 0
have_peak = peak_gbps > 0
if (have_ceiling) {
    set arrow from graph 0, first copy_max to graph 1, first copy_max nohead \
        lc rgb '#000000' dt 3 lw 1
}
if (have_peak) {
    set arrow from graph 0, first peak_gbps to graph 1, first peak_gbps nohead \
        lc rgb '#b2182b' dt 2 lw 1.5
}
lines_key = (have_ceiling ? "keyentry with lines lc rgb '#000000' dt 3 lw 1 title ceiling_text, " : "") . \
    (have_peak ? "keyentry with lines lc rgb '#b2182b' dt 2 lw 1.5 title peak_text, " : "")
eval cache_line  # (style.gp)

noisy_points = NNT > 0 ? "'noisy_time.tsv' using 1:3:5:4 with points pt variable lc rgb variable ps 1.5 lw 2 notitle, " : ""
# Each key line its series' whole label, but past 6 series (a chain-length run's 25) its name
# and count (short_title); in as many columns as the page holds, within it (style.gp's
# key_auto; time.gp says why).
series_key(t) = NS > 6 ? short_key(t) : t
key_longest = have_cache ? strlen(cache_text) : 0
key_longest = have_ceiling && strlen(ceiling_text) > key_longest ? strlen(ceiling_text) : key_longest
key_longest = have_peak && strlen(peak_text) > key_longest ? strlen(peak_text) : key_longest
do for [i=1:NS] { key_longest = strlen(series_key(ST[i])) > key_longest ? strlen(series_key(ST[i])) : key_longest }
key_n = NS + have_cache + have_ceiling + have_peak
eval key_series(key_longest, key_n, NS)  # (style.gp: past 6 series, two columns)
plot @cache_key @lines_key @noisy_points for [i=1:NS] series(i) using 1:5 with linespoints \
        lc rgb SC[i] dt SD[i] pt SP[i] ps 1.1 lw (SCOPY[i] ? 3 : 1.5) title series_key(ST[i])
