# copy_fraction.gp: each fused series' bandwidth as a fraction of the copy ceiling's at the
# same n, store kind and cache mode (the copy_fraction column, written by fusebench: both
# bandwidths count model bytes, 3N for fused add_relu and 2N for copy). The first CSV only.
# Reference lines, the ratio the traffic model predicts when both kernels run at the same
# memory bandwidth:
#   1    both move exactly their model bytes: a GPU, or a CPU with streaming (non-temporal)
#        stores, which write no line they have not read;
#   9/8  a CPU with normal stores: each store first reads its line (write-allocate), so copy
#        really moves 3 arrays for its 2 model ones and fused 4 for 3:
#        (3/4) / (2/3) = 9/8 = 1.125;
# and the target, 0.9 (fused moves at least 90% of copy's bandwidth).
set title chart_title('Fused bandwidth / copy bandwidth (model bytes: 3N and 2N)') noenhanced
set ylabel 'fraction of the copy ceiling'
set key inside right top font ',16'
set yrange [0 : *]
set format y '%.0f%%'
if (have_cache) {
    set arrow from n_cache, graph 0 to n_cache, graph 1 nohead lc rgb cache_colour lw 1.5 dt 3
    set label cache_text at n_cache, graph 0.97 right rotate by 90 offset -1.0, 0 \
        tc rgb cache_colour noenhanced font ',16'
}
cpu = (backend eq 'cpu')
wa_line = (cpu && stores_normal > 0) ? "112.5 with lines lc rgb '#8c564b' dt 3 lw 2 title '9/8: model, normal stores (write-allocate)', " : ""
nt_title = cpu ? (stores_streaming > 0 ? '1: model, streaming stores (no write-allocate)' : '1: model without write-allocate') : '1: traffic model'
plot @wa_line \
     100 with lines lc rgb '#555555' dt 4 lw 2 title nt_title, \
     90 with lines lc rgb '#b2182b' dt 2 lw 1.5 title 'target 90%', \
     for [i=1:NF] FF[i] using 1:($9 * 100) with linespoints \
        lc rgb FC[i] pt FP[i] ps 1.2 lw 2 title FT[i]
