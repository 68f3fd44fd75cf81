# summary.gp: the one chart for a slide: the fusion speedup of every eager series over its
# pair (overlays dashed), with the regimes, the cache size and each pair's model lines.
set title chart_title('Fusion speedup: each eager chain over its fused kernel') noenhanced
set ylabel 'speedup (eager time / fused time)'
unset xlabel  # (the key takes its place: the axis is n, elements per tensor, as on every chart)
model_lines = NSL > 0 ? "for [i=1:NSL] LV[i] with lines lc rgb LC[i] dt LD[i] lw 2 title LT[i], " : ""
plot @model_lines \
     for [i=1:NX] pair_data(i) using 1:2 with linespoints \
        lc rgb XC[i] dt XD[i] pt XP[i] ps 1.6 lw 3 title XT[i]
