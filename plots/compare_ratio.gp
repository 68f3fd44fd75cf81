# compare_ratio.gp: each run's fused median time over the first run's at every common n
# (q<i>.dat: ratio, and the verdict's interval run p10 / first p90 .. run p90 / first p10),
# with the verdict's threshold above and below 1 when one was asked for (threshold < 0: none).
set title compare_title(sprintf('Fused time per call, each run / %s', RT[1])) noenhanced
set ylabel 'time ratio (above 1: slower than the first run)'
set logscale y 2
if (threshold > 0) {
    set arrow 2 from graph 0, first (1 + threshold) to graph 1, first (1 + threshold) \
        nohead lc rgb '#b2182b' dt 2 lw 1.5
    set arrow 3 from graph 0, first 1 / (1 + threshold) to graph 1, first 1 / (1 + threshold) \
        nohead lc rgb '#2166ac' dt 2 lw 1.5
    set label 2 sprintf('regressed beyond %.3g%%', threshold * 100) at graph 0.02, \
        first (1 + threshold) offset 0, 0.6 left tc rgb '#b2182b' font small_font
}
plot 1 with lines lc rgb '#999999' dt 1 lw 1 title RT[1], \
     for [i=2:NR] ratio_data(i) using 1:2:3:4 with yerrorlines \
        lc rgb RC[i] pt RP[i] ps 1.2 lw 2 title RT[i]
