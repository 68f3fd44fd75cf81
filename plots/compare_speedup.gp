# compare_speedup.gp: each run's fusion speedup of the main pair against n (r<i>.dat: n,
# speedup and its band, eager p10 / fused p90 .. eager p90 / fused p10, as fusebench derived).
set title compare_title('Fusion speedup vs size, per run') noenhanced
set ylabel 'speedup (median time ratio; bars: p10..p90)'
plot 1 with lines lc rgb '#999999' dt 1 lw 1 title 'no gain', \
     for [i=1:NR] run_data(i) using 1:3:4:5 with yerrorlines \
        lc rgb RC[i] pt RP[i] ps 1.2 lw 2 title RT[i]
