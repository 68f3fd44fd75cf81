# regimes.gp: the three regimes of the fusion speedup, shaded and labelled, plus the cache
# line; shared by speedup.gp and summary.gp (run before them). The bounds are fusebench's
# (numbers.tsv): n_launch, where the launch-bound regime ends (from the fit when n_launch_fit,
# else from the data), and n_cache, where the main eager chain's arrays fill the cache.
#   launch-bound    n <= n_launch: a call costs its launches
#   cache-resident  n_launch < n <= n_cache: bytes matter, but the temporaries stay cached
#   memory-bound    n > n_cache: DRAM traffic decides
xlo = nmin / 1.6; xhi = nmax * 1.6
b1 = (n_launch > xlo && n_launch < xhi) ? n_launch : xlo
b2 = have_cache ? n_cache : xhi
if (b1 > b2) b1 = b2
# Neighbouring regions can be narrow (a decade or less): the outer labels hug the plot's
# edges, the middle one sits lower, and each label is boxed so it reads across the cache line.
regime_y1 = 0.95; regime_y2 = 0.87
set style textbox opaque fc rgb '#ffffff' noborder margins 2, 1
if (b1 > xlo) {
    set object 1 rect from xlo, graph 0 to b1, graph 1 behind fc rgb '#e8f0fb' fs solid 1 noborder
    set label 1 'launch-bound' at xlo, graph regime_y1 left offset 0.8, 0 boxed tc rgb '#2b5c9e'
}
if (b2 > b1) {
    set object 2 rect from b1, graph 0 to b2, graph 1 behind fc rgb '#eaf6ea' fs solid 1 noborder
    set label 2 'cache-resident' at sqrt(b1 * b2), graph regime_y2 center boxed tc rgb '#2f7d32'
}
if (n_launch_fit && b1 > xlo && b1 < b2) {
    set arrow 2 from b1, graph 0 to b1, graph 1 nohead lc rgb '#2b5c9e' lw 1.5 dt 3
    set label 5 'fit: launches·L = bytes/B' at b1, graph 0.03 left rotate by 90 \
        offset 0.9, 0 tc rgb '#2b5c9e' font small_font
}
if (have_cache) {
    set object 3 rect from b2, graph 0 to xhi, graph 1 behind fc rgb '#fbf1e4' fs solid 1 noborder
    set label 3 'memory-bound' at xhi, graph regime_y1 right offset -0.8, 0 boxed tc rgb '#a0560f'
    set arrow 1 from n_cache, graph 0 to n_cache, graph 1 nohead lc rgb cache_colour lw 2 dt 3
    set label 4 sprintf('%s = %.3g M elements', cache_text, n_cache / 1e6) \
        at n_cache, graph 0.03 left rotate by 90 offset 0.9, 0 tc rgb cache_colour noenhanced \
        font small_font
}
# Headroom above the highest model line and the p90 bars for the regime labels.
ytop = speedup_max * 1.3
# (a line far above every point, as a long chain's launch limit, is left off the scale)
do for [i=1:NSL] { if (LV[i] * 1.25 > ytop && LV[i] <= 2 * speedup_max) { ytop = LV[i] * 1.25 } }
set yrange [0 : (ytop > 2.8 ? ytop : 2.8)]
