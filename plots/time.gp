# time.gp: time per call against n, log-log, every series; error bars span p10..p90. The copy
# ceiling (series.tsv's copy column) is drawn thick. With a fit (# fit_* lines of the run),
# the fitted model of each eager and fused series the fit covers (curves.tsv, m<i>.dat:
# t with B, dashed; t with B_c where the bytes fit the cache, dotted), in its colour.
NM = rows_curves
array MC[max1(NM)]
if (NM > 0) { stats 'curves.tsv' using (MC[int(column("i"))] = strcol("colour"), 0) nooutput }
set title chart_title('Time per call vs size') noenhanced
set ylabel 'time per call (median; bars: p10..p90)'
set logscale y 10
set ytics ('1 ns' 1e-9, '10 ns' 1e-8, '100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, \
           '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1, '10 s' 10)

eval cache_line  # (style.gp)
# Optional clauses as macros of this script's own text (gnuplot opens the first file of an
# empty `for` all the same).
# The fit's text at the plot's top left, above the data (times at small n are the run's
# lowest), where it takes at most half the plot (style.gp's plot_room: the plot's ems, given
# the key's rows; a line of the small type about 1.15 em of it). An overlay at a column's
# width has a key of 15 lines and a plot of some 9 em, and the four lines sat on the data:
# there, the numbers go into the key in fewer words, on the fitted curves' own lines (the
# formula is the curve's; no line of their own, which would leave the plot shorter still).
fit_short(t) = word(t, 1).' = '.word(t, 3).' '.word(t, 4)
fit_em = (3 + have_cache_fit) * 1.15 * 0.85 * small_k
model_key = 'fitted model'
cache_model_key = 'fitted, in the '.cache_label
curves = NM > 0 ? "for [i=1:NM] sprintf('m%d.dat', i) using 1:2 with lines lc rgb MC[i] dt 2 lw 2 title (i == 1 ? model_key : ''), " : ""
cache_curves = NM > 0 && have_cache_fit ? "for [i=1:NM] sprintf('m%d.dat', i) using 1:3 with lines lc rgb MC[i] dt 3 lw 2 title (i == 1 ? cache_model_key : ''), " : ""
noisy_points = NNT > 0 ? "'noisy_time.tsv' using 1:2:5:4 with points pt variable lc rgb variable ps 1.5 lw 2 notitle, " : ""
# Each key line its series' whole label, but past 6 series (a chain-length run's 25) its name
# and count (short_title); in as many columns as the page holds (style.gp's key_auto: within
# the page, where gnuplot's own centred key ran its first column's samples past the page's
# left edge at a column's width); gnuplot would otherwise drop a long key.
series_key(t) = NS > 6 ? short_key(t) : t
key_longest = have_cache ? strlen(cache_text) : 0
do for [i=1:NS] { key_longest = strlen(series_key(ST[i])) > key_longest ? strlen(series_key(ST[i])) : key_longest }
key_n = NS + (NM > 0) + (NM > 0 && have_cache_fit) + have_cache
eval key_auto(key_longest, key_n)
if (have_fit && NM > 0 && fit_em + 0.05 * plot_room(key_rows(key_longest, key_n)) > \
        0.5 * plot_room(key_rows(key_longest, key_n))) {
    model_key = model_key.': '.fit_short(fit2).', '.fit_short(fit3)
    cache_model_key = cache_model_key.': '.fit_short(fit4)
    key_longest = strlen(model_key) > key_longest ? strlen(model_key) : key_longest
    key_longest = have_cache_fit && strlen(cache_model_key) > key_longest ? \
        strlen(cache_model_key) : key_longest
    eval key_auto(key_longest, key_n)
} else {
    if (have_fit) {
        set label 10 fit_text at graph 0.03, graph 0.95 left front noenhanced \
            tc rgb '#333333' font small_font
    }
}
eval key_series(key_longest, key_n, NS)  # (style.gp: past 6 series, two columns)
# (in fewer words where the key leaves the plot short)
set ylabel y_title('time per call (median; bars: p10..p90)', 'time per call (median)', \
    key_rows(key_longest, key_n))
# a plot that a long key leaves short (an overlay at a column's width: room for less than 8
# labels 1.4 em apart) is ticked every third decade, where eleven labels touched
if (plot_room(key_rows(key_longest, key_n)) < 8 * 1.4) {
    set ytics ('1 ns' 1e-9, '1 µs' 1e-6, '1 ms' 1e-3, '1 s' 1)
}
plot @cache_key @curves @cache_curves @noisy_points \
     for [i=1:NS] series(i) using 1:2:3:4 with yerrorlines \
        lc rgb SC[i] dt SD[i] pt SP[i] ps 1.1 lw (SCOPY[i] ? 3 : 1.5) title series_key(ST[i])
