# summary.gp: the one chart for a slide: the fusion speedup of every eager series over its
# pair (overlays dashed), with the regimes, the cache size and each pair's model lines where
# each applies (launch limits in the launch-bound regime, traffic ratios in the memory-bound
# one: speedup_lines.tsv's from and to).
# More than 6 pairs (a chain-length run) would bury the data under a model line per pair and
# a legend of whole sentences: then the pairs' key lines are their names and counts only, in
# columns, and the models are left to the speedup-k chart, which draws each length against
# its own.
set title chart_title('Fusion speedup: eager time / fused time') noenhanced
model_lines = NSL > 0 && !many ? "for [i=1:NSL] model_line(i, x) with lines lc rgb LC[i] dt LD[i] lw 2 title LT[i], " : ""
# the bounds', the models', the pairs' key lines
key_longest = bound_longest
do for [i=1:NSL] { if (!many) { key_longest = strlen(LT[i]) > key_longest ? strlen(LT[i]) : key_longest } }
do for [i=1:NX] { key_longest = strlen(pair_key(XT[i])) > key_longest ? strlen(pair_key(XT[i])) : key_longest }
key_n = n_bound_keys + (many ? 0 : n_line_keys) + NX
eval key_auto(key_longest, key_n)
y_top = regime_top(key_rows(key_longest, key_n))  # (regimes.gp)
set yrange [0 : y_top]
eval y_ticks(y_top, key_rows(key_longest, key_n))
set ylabel y_title('speedup (eager / fused time)', 'speedup', key_rows(key_longest, key_n))
plot @bound_keys @model_lines \
     for [i=1:NX] pair_data(i) using 1:2 with linespoints \
        lc rgb XC[i] dt XD[i] pt XP[i] ps 1.6 lw 3 title pair_key(XT[i])
