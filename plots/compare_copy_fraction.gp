# compare_copy_fraction.gp: each run's fused kernel bandwidth as a percentage of its own copy
# ceiling at the same n (r<i>.dat column copy_fraction, in percent as fusebench wrote it).
set title compare_title('Fused kernel vs copy ceiling, per run') noenhanced
set ylabel 'fused bandwidth / copy bandwidth (%)'
set yrange [0:*]
plot 100 with lines lc rgb '#999999' dt 2 lw 1 title 'copy ceiling', \
     for [i=1:NR] run_data(i) using 1:6 with linespoints \
        lc rgb RC[i] pt RP[i] ps 1.2 lw 2 title RT[i]
