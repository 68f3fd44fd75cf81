# launches.gp: kernel launches per call, as counted (CPU: parallel passes; CUDA: CUPTI kernel
# records), one bar per series, with the model's count (launches.tsv's model column: fused 1,
# copy ceiling 1, eager one per op, the platform's copy 0; none for overlays) as a black
# mark. A bar that disagrees with its mark means the variant did not do what its model says.
set title chart_title('Kernel launches per call (counted) vs model') noenhanced
set ylabel 'launches per call'
unset logscale x
set format x '%g'
unset xlabel
set style fill solid 0.75 noborder
set boxwidth 0.6
set key inside left top
stats 'launches.tsv' using 3 nooutput
set yrange [0 : (STATS_max > 2 ? STATS_max : 2) + 1]
set xrange [0.3 : NLB + 0.7]
set ytics 1
set grid noxtics nomxtics ytics
set xtics rotate by 25 right noenhanced nomirror scale 0

plot 'launches.tsv' using 1:3:5:xticlabels(2) with boxes lc rgb variable notitle, \
     '' using 1:3:(sprintf('%g', $3)) with labels offset 0, 0.8 notitle, \
     '' using ($4 >= 0 ? $1 - 0.35 : NaN):4:(0.7):(0) with vectors nohead lc rgb '#000000' \
        lw 4 title 'model (fused 1, eager 1 per op)'
