# speedup.gp: what fusion saves, as a ratio: each eager series over the series its CSV row
# names as its pair, with the speedup fusebench wrote (t(eager) / t(fused) at the same n,
# src/measure/pairing.h). The legend drops the ending the pair shares with the eager name
# ("eager_add_relu / fused" is eager_add_relu over fused_add_relu). Reference lines: 2 (the
# eager add, relu chain launches twice as many kernels) and 5/3 (it moves 5N elements
# against 3N); on a CPU with normal stores also 7/4 (below). Streaming-store rows are series
# of their own ("eager_add_relu-streaming"), paired with their own fused row.
set title chart_title('Fusion speedup vs size: eager (2 kernels) / fused (1 kernel)') noenhanced
set ylabel 'speedup (median time ratio; bars: p10..p90)'
set key at screen 0.665, graph 1 left top font ",17" nobox
# gnuplot sizes the margin for the main font, not the key's: give the key a fixed share.
set rmargin at screen 0.655
load scriptdir.'/regimes.gp'

# On a CPU with normal stores every store first reads its line (write-allocate): eager moves
# 7 array-sized transfers (add: a, b, tmp read + tmp written; relu: tmp, c read + c written),
# fused 4, so the memory-bound speedup tends to 7/4 rather than 5/3. Streaming (non-temporal)
# stores read nothing, which brings the CPU back to 5/3. So 7/4 is drawn for CPU runs with
# normal-store rows, and the 5/3 line says when it is also the CPU's streaming-store model.
both_stores = (backend eq 'cpu' && stores_streaming > 0)
cpu_model = (backend eq 'cpu' && stores_normal > 0) ? "7.0 / 4 with lines lc rgb '#8c564b' dt 3 lw 1.5 title (both_stores ? '7/4: write-allocate (normal stores)' : '7/4: traffic with write-allocate (CPU)'), " : ""
traffic_title = both_stores ? 'traffic model 5/3 (streaming stores)' : 'traffic model 5/3'
# The speedup the fitted model predicts (style.gp) for each eager/fused pair:
#   (launches_e * L + bytes_e / B) / (launches_f * L + bytes_f / B)
# dashed with B; dotted with B_c where the eager chain's bytes fit the cache.
predicted(i, n, gbps) = model_t(PLE[i], PBE[i], n, gbps) / model_t(PLF[i], PBF[i], n, gbps)
predicted_c(i, n) = (PBE[i] * n <= cache_bytes) ? predicted(i, n, fit_cache_gbps) : NaN
model_plot = have_fit ? "for [i=1:NP] predicted(i, x, fit_gbps) with lines lc rgb PC[i] dt 2 lw 2.5 title (i == 1 ? 'predicted by the fit' : ''), " : ""
cache_model_plot = have_cache_fit ? "for [i=1:NP] predicted_c(i, x) with lines lc rgb PC[i] dt 3 lw 2.5 title (i == 1 ? 'predicted, in the '.cache_label : ''), " : ""
if (have_fit) {
    set label 10 fit_text at screen 0.68, graph 0.3 left front noenhanced tc rgb '#333333' \
        font sprintf(',%d', int(fontsize * 0.75))
}
plot @model_plot @cache_model_plot \
     2 with lines lc rgb '#555555' dt 2 lw 1.5 title 'launch limit 2', \
     5.0 / 3 with lines lc rgb '#555555' dt 4 lw 1.5 title traffic_title, \
     @cpu_model \
     1 with lines lc rgb '#999999' dt 1 lw 1 title 'no gain', \
     for [i=1:NX] XF[i] using 1:2:3:4 with yerrorlines \
        lc rgb XC[i] dt XD[i] pt XP[i] ps 1.2 lw 2 title XT[i]
