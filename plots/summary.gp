# summary.gp: the one chart for a slide: the fusion speedup of this run's eager variants over
# their fused pairs, with the regimes, the cache size and the two reference ratios (2: launches,
# 5/3: bytes). Overlays are left out so the picture stays simple.
set title chart_title('Fusion speedup: each eager chain over its fused kernel') noenhanced
set ylabel 'speedup (eager time / fused time)'
set key inside left bottom
set bmargin 4
load scriptdir.'/regimes.gp'

# On a CPU with normal stores every store first reads its line (write-allocate): eager moves
# 7 array-sized transfers (add: a, b, tmp read + tmp written; relu: tmp, c read + c written),
# fused 4, so the memory-bound speedup tends to 7/4 rather than 5/3; streaming stores read
# nothing (5/3 again). As in speedup.gp: 7/4 for CPU runs with normal-store rows.
both_stores = (backend eq 'cpu' && stores_streaming > 0)
cpu_model = (backend eq 'cpu' && stores_normal > 0) ? "7.0 / 4 with lines lc rgb '#8c564b' dt 3 lw 2 title (both_stores ? '7/4: write-allocate (normal stores)' : '7/4: traffic with write-allocate'), " : ""
traffic_title = (backend eq 'cpu' && stores_streaming > 0) ? '5/3: traffic (streaming stores)' : '5/3: traffic model'
plot 2 with lines lc rgb '#555555' dt 2 lw 2 title '2: launch-count limit', \
     5.0 / 3 with lines lc rgb '#555555' dt 4 lw 2 title traffic_title, \
     @cpu_model \
     for [i=1:NXPRIMARY] XF[i] using 1:2 with linespoints \
        lc rgb XC[i] pt XP[i] ps 1.6 lw 3 title XT[i]
