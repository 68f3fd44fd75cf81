# speedup.gp: what fusion saves, as a ratio: each eager series over its pair (pairs.tsv,
# x<i>.dat: the speedup fusebench derived, t(eager) / t(pair) at the same n, with its 95%
# confidence interval from the paired rounds as error bars, where the file has one). Each pair's model lines (speedup_lines.tsv:
# its launch limit, its traffic ratio, with write-allocate where its stores read their lines)
# come with their values and titles, as does the speedup the fit predicts (predicted.tsv,
# p<i>.dat: dashed with B, dotted with B_c where the eager chain's bytes fit the cache).
# Noisy points (noisy_speedup.dat: a side of the pair was disturbed) are drawn hollow.
NP = rows_predicted
array PC[max1(NP)]
if (NP > 0) { stats 'predicted.tsv' using (PC[int(column("i"))] = strcol("colour"), 0) nooutput }
set title chart_title('Fusion speedup vs size: eager / fused') noenhanced
# The fit's numbers in the band under speedup 1, at the left, on two lines so that they fit
# it at a column's size; its formula is in the key, on the predicted curve's line. The band
# is empty unless fusion loses, which an overlay's pairs (a peer's eager against its
# compiler, below 1 at small n) do: with overlays, the numbers go into the key instead.
fit_lines = fit2.', '.fit3.(have_cache_fit ? "\n".fit4 : '')
overlaid = 0
if (NX > 0) { stats 'pairs.tsv' using (overlaid = overlaid || int(column("primary")) == 0, 0) nooutput }
fit_keys = have_fit && overlaid ? "keyentry title fit2, keyentry title fit3, " . \
    (have_cache_fit ? "keyentry title fit4, " : "") : ""
if (have_fit && !overlaid) {
    set label 10 fit_lines at graph 0.02, first 0.78 left front noenhanced tc rgb '#333333' \
        font small_font
}
# Optional clauses as macros of this script's own text (style.gp says why).
predicted = NP > 0 ? "for [i=1:NP] sprintf('p%d.dat', i) using 1:2 with lines lc rgb PC[i] dt 2 lw 2.5 title (i == 1 ? predicted_key : ''), " : ""
cache_predicted = NP > 0 && have_cache_fit ? "for [i=1:NP] sprintf('p%d.dat', i) using 1:3 with lines lc rgb PC[i] dt 3 lw 2.5 title (i == 1 ? 'model: predicted, in the '.cache_label : ''), " : ""
noisy_points = NNX > 0 ? "'noisy_speedup.tsv' using 1:2:4:3 with points pt variable lc rgb variable ps 1.6 lw 2 notitle, " : ""
# past 6 pairs (style.gp's many) no model line per pair: the speedup-k chart draws each
# length against its own
model_lines = NSL > 0 && !many ? "for [i=1:NSL] model_line(i, x) with lines lc rgb LC[i] dt LD[i] lw 1.5 title LT[i], " : ""
# the bounds', the models', the pairs' key lines
key_longest = NP > 0 && bound_longest < 49 ? 49 : bound_longest  # the fit's, the bounds'
do for [i=1:NSL] { if (!many) { key_longest = strlen(LT[i]) > key_longest ? strlen(LT[i]) : key_longest } }
do for [i=1:NX] { key_longest = strlen(pair_key(XT[i])) > key_longest ? strlen(pair_key(XT[i])) : key_longest }
key_n = n_bound_keys + (NP > 0) * (1 + have_cache_fit) + \
    (strlen(fit_keys) > 0) * (2 + have_cache_fit) + (many ? 0 : n_line_keys) + 1 + NX
eval key_auto(key_longest, key_n)
# A key that leaves the plot under 8 em (an overlay at a column's width: 17 lines, a plot of
# some 5 em) gives up the fit's numbers, which the time chart's key and the report carry.
predicted_key = 'model: predicted by the fit, launches·L + bytes/B'
if (strlen(fit_keys) > 0 && plot_room(key_rows(key_longest, key_n)) < 8) {
    key_n = key_n - 2 - have_cache_fit
    fit_keys = ''
    predicted_key = 'model: predicted by the fit (numbers: time chart)'
    eval key_auto(key_longest, key_n)
}
y_top = regime_top(key_rows(key_longest, key_n))  # (regimes.gp)
set yrange [0 : y_top]
eval y_ticks(y_top, key_rows(key_longest, key_n))
# the y axis titled in fewer words where the plot is short (a short page, a tall key)
set ylabel y_title(page_h / em < 40 || many ? 'speedup (eager / fused time)' : \
    sprintf('speedup (median time ratio; bars: %g%% CI)', speedup_level), 'speedup', \
    key_rows(key_longest, key_n))
plot @bound_keys @predicted @fit_keys @cache_predicted @model_lines @noisy_points \
     1 with lines lc rgb '#999999' dt 1 lw 1 title 'no gain', \
     for [i=1:NX] pair_data(i) using 1:2:(valid(3) ? $3 : $2):(valid(4) ? $4 : $2) with yerrorbars \
        lc rgb XC[i] pt 0 ps 0 lw 1.5 notitle, \
     for [i=1:NX] pair_data(i) using 1:2 with linespoints \
        lc rgb XC[i] dt XD[i] pt XP[i] ps 1.2 lw 2 title pair_key(XT[i])
