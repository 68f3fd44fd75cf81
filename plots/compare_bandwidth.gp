# compare_bandwidth.gp: each run's copy ceiling (solid) and fused kernel (dashed) bandwidth
# against n (r<i>.dat columns copy_gbps, fused_gbps: the model's bytes over the median time).
set title compare_title('Bandwidth vs size, per run: copy (solid), fused (dashed)') noenhanced
set ylabel 'bandwidth (GB/s, bytes of the model per call)'
set yrange [0:*]
plot for [i=1:NR] run_data(i) using 1:7 with linespoints \
        lc rgb RC[i] pt RP[i] ps 1.2 lw 2 title RT[i].' copy', \
     for [i=1:NR] run_data(i) using 1:8 with linespoints \
        lc rgb RC[i] pt RP[i] ps 1 lw 1.5 dt 2 title RT[i].' fused'
