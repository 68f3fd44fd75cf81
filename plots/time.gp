# time.gp: time per call against n, log-log, every series; error bars span p10..p90.
# copy (2 elements moved per element, 1 launch) is the reference: drawn thick and black, no
# variant that moves more bytes can beat it at large n.
set title chart_title('Time per call vs size') noenhanced
set ylabel 'time per call (median; bars: p10..p90)'
set logscale y 10
set ytics ('1 ns' 1e-9, '10 ns' 1e-8, '100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, \
           '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 1e-1, '1 s' 1, '10 s' 10)
set key outside right top

if (have_cache) {
    set arrow from n_cache, graph 0 to n_cache, graph 1 nohead lc rgb cache_colour lw 1.5 dt 3
    set label cache_text at n_cache, graph 0.97 right rotate by 90 offset -1.0, 0 \
        tc rgb cache_colour noenhanced font ',16'
}

# The fitted model (style.gp) for the eager and fused variants: dashed, in each variant's
# colour, over the whole range with B (memory); dotted with B_c where the bytes fit the cache.
# One legend entry each; the lines of further variants carry none.
model_plot = have_fit ? "for [i=1:NM] model_t(ML[i], MB[i], x, fit_gbps) with lines lc rgb MC[i] dt 2 lw 2 title (i == 1 ? 'fitted model' : ''), " : ""
cache_model_plot = have_cache_fit ? "for [i=1:NM] model_tc(ML[i], MB[i], x) with lines lc rgb MC[i] dt 3 lw 2 title (i == 1 ? 'fitted, in the '.cache_label : ''), " : ""
if (have_fit) {
    set label 10 fit_text at graph 0.03, graph 0.95 left front noenhanced tc rgb '#333333' \
        font sprintf(',%d', int(fontsize * 0.75))
}
plot @model_plot @cache_model_plot \
     for [i=1:NS] SF[i] using 1:2:3:4 with yerrorlines \
        lc rgb SC[i] dt SD[i] pt SP[i] ps 1.1 lw (i == COPYIDX ? 3 : 1.5) title ST[i]
