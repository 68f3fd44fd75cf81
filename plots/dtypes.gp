# dtypes.gp: the storage-type chart, one eager variant's speedup over its pair at fp32, fp16
# and bf16 side by side (dtypes.tsv, d<i>.dat), two panels:
#   left:  against n, one line per dtype;
#   right: against the bytes of one tensor (n x the element size): if what fusion saves is
#          bytes and launches, the dtypes' curves line up here. The cache mark is where the
#          eager chain's arrays fill the cache (labels.tsv's dtype_cache_text).
set xrange [*:*]
array DT[max1(NDT)]; array DC[max1(NDT)]; array DP[max1(NDT)]
stats 'dtypes.tsv' using (i = int(column("i")), DT[i] = strcol("dtype"), \
    DC[i] = strcol("colour"), DP[i] = int(column("pt")), 0) nooutput
set logscale x 10
set format x '10^{%L}'
set yrange [0:*]
set ylabel sprintf('speedup = %s time / %s time (medians)', dtype_variant, dtype_pair) noenhanced
set multiplot layout 1,2 title sprintf("Fusion speedup by storage type: %s vs %s\n%s%s", \
    dtype_variant, dtype_pair, device, strlen(day) > 0 ? ', '.day : '') noenhanced
set xlabel 'n (elements per tensor)'
set title 'against n'
plot for [i=1:NDT] sprintf('d%d.dat', i) using 1:3 with linespoints pt DP[i] ps 1.3 lw 2 \
    lc rgb DC[i] title DT[i]
set xlabel 'bytes per tensor (n x the element size)'
set title 'against bytes per tensor: the curves line up if the story is bytes'
if (dtype_cache_x > 0) {
    set arrow 1 from dtype_cache_x, graph 0 to dtype_cache_x, graph 1 nohead dt 2 lw 1.5 \
        lc rgb '#777777'
    set label 1 dtype_cache_text at dtype_cache_x, graph 0.05 right offset -0.5, 0 \
        tc rgb '#555555' noenhanced
}
plot for [i=1:NDT] sprintf('d%d.dat', i) using 2:3 with linespoints pt DP[i] ps 1.3 lw 2 \
    lc rgb DC[i] title DT[i]
unset multiplot
