# summary.gp: the one chart for a slide: the fusion speedup of every eager series over its
# pair (overlays dashed), with the regimes, the cache size and each pair's model lines.
set title chart_title('Fusion speedup: eager time / fused time') noenhanced
set ylabel 'speedup (eager time / fused time)'
model_lines = NSL > 0 ? "for [i=1:NSL] LV[i] with lines lc rgb LC[i] dt LD[i] lw 2 title LT[i], " : ""
# one column of key lines: the bounds', the models', the pairs'
key_longest = strlen(bound_keys) > 0 ? 46 : 0  # the bounds' key lines
do for [i=1:NSL] { key_longest = strlen(LT[i]) > key_longest ? strlen(LT[i]) : key_longest }
do for [i=1:NX] { key_longest = strlen(key_title(XT[i])) > key_longest ? strlen(key_title(XT[i])) : key_longest }
eval key_one_column(key_longest)
plot @bound_keys @model_lines \
     for [i=1:NX] pair_data(i) using 1:2 with linespoints \
        lc rgb XC[i] dt XD[i] pt XP[i] ps 1.6 lw 3 title key_title(XT[i])
