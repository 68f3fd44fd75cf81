# launches.gp: kernel launches per call, as counted (CPU: parallel passes; CUDA: CUPTI kernel
# records), one bar per series, with the model's count (launches.tsv's model column: fused 1,
# copy ceiling 1, eager one per op, the platform's copy 0; none for overlays) as a black
# mark. A bar that disagrees with its mark means the variant did not do what its model says.
# The bars lie flat, the series' labels (in words) beside them, read without tilting the head.
set title chart_title('Kernel launches per call (counted) vs model') noenhanced
set xlabel 'launches per call'
unset logscale x
set format x '%g'
set style fill solid 0.75 noborder
stats 'launches.tsv' using 3 nooutput
set xrange [0 : (STATS_max > 2 ? STATS_max : 2) + 1]
set yrange [NLB + 0.7 : 0.3]
set xtics 1
set grid xtics noytics nomxtics
set ytics noenhanced nomirror scale 0
set key outside below center

plot 'launches.tsv' using (0):1:(0):3:($1 - 0.3):($1 + 0.3):5:yticlabels(2) with boxxyerror \
        lc rgb variable notitle, \
     '' using 3:1:(sprintf(' %g', $3)) with labels left notitle, \
     '' using ($4 >= 0 ? $4 : NaN):($1 - 0.38):(0):(0.76) with vectors nohead lc rgb '#000000' \
        lw 4 title 'model (fused 1, eager 1 per op)'
