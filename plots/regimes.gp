# regimes.gp: the three regimes of the fusion speedup, shaded and labelled, plus the cache
# line; shared by speedup.gp and summary.gp (run before them). The bounds are fusebench's
# (numbers.tsv): n_launch, where the launch-bound regime ends (from the fit when n_launch_fit,
# else from the data), and n_cache, where the main eager chain's arrays fill the cache.
#   launch-bound    n <= n_launch: a call costs its launches
#   cache-resident  n_launch < n <= n_cache: bytes matter, but the temporaries stay cached
#   memory-bound    n > n_cache: DRAM traffic decides
# The pairs' model lines (speedup_lines.tsv): value, title ("" for none), colour, dash type,
# and the n from and to which the model applies (model_line(i, x): there, nothing elsewhere).
NSL = rows_speedup_lines
array LV[max1(NSL)]; array LT[max1(NSL)]; array LC[max1(NSL)]; array LD[max1(NSL)]
array LF[max1(NSL)]; array LTO[max1(NSL)]
if (NSL > 0) {
    stats 'speedup_lines.tsv' using (i = int(column("i")), LV[i] = column("value"), \
        LT[i] = strcol("title"), LC[i] = strcol("colour"), LD[i] = int(column("dt")), \
        LF[i] = column("from"), LTO[i] = column("to"), 0) nooutput
}
model_line(i, x) = x >= LF[i] && x <= LTO[i] ? LV[i] : NaN
# the model lines with a key entry
n_line_keys = 0
do for [i=1:NSL] { n_line_keys = n_line_keys + (strlen(LT[i]) > 0) }
xlo = nmin / 1.6; xhi = nmax * 1.6
b1 = (n_launch > xlo && n_launch < xhi) ? n_launch : xlo
b2 = have_cache ? n_cache : xhi
if (b1 > b2) b1 = b2
# Neighbouring regions can be narrow (a decade or less): the outer labels hug the plot's
# edges, the middle one sits lower, each label is boxed, and a label wider than its region
# (as estimated from the page: plot about 80% of it, a character about 0.62 of the type)
# breaks after its hyphen, so that it never reaches a neighbour's line.
regime_y1 = 0.95; regime_y2 = 0.87
set style textbox opaque fc rgb '#ffffff' noborder margins 2, 1
region_chars(a, b) = log(b / a) / log(xhi / xlo) * 0.8 * page_w / char_w
regime_text(t, a, b) = region_chars(a, b) >= strlen(t) + 3 ? t : \
    (regime_lines = 2, t[1:strstrt(t, '-')]."\n".t[strstrt(t, '-') + 1:])
regime_lines = 1
# a region too narrow even for half its label (a chain-length run's launch-bound one) is
# shaded but not named: a label there would sit on its neighbour
named(a, b) = region_chars(a, b) >= 9
if (b1 > xlo) {
    set object 1 rect from xlo, graph 0 to b1, graph 1 behind fc rgb '#e8f0fb' fs solid 1 noborder
    if (named(xlo, b1)) {
        set label 1 regime_text('launch-bound', xlo, b1) at xlo, graph regime_y1 left \
            offset 0.8, 0 boxed tc rgb '#2b5c9e'
    }
}
if (b2 > b1) {
    set object 2 rect from b1, graph 0 to b2, graph 1 behind fc rgb '#eaf6ea' fs solid 1 noborder
    if (named(b1, b2)) {
        set label 2 regime_text('cache-resident', b1, b2) at sqrt(b1 * b2), graph regime_y2 \
            center boxed tc rgb '#2f7d32'
    }
}
# The two bounds' lines are named in the key (bound_keys, a clause for the chart's plot),
# not beside the lines: any place in the plot is some chart's data or fit text at some page
# size, and a vertical label crossed the data.
bound_keys = ''; n_bound_keys = 0; bound_longest = 0  # (its longest line, for the key)
if (n_launch_fit && b1 > xlo && b1 < b2) {
    set arrow 2 from b1, graph 0 to b1, graph 1 nohead lc rgb '#2b5c9e' lw 1.5 dt 3
    bound_keys = bound_keys."keyentry with lines lc rgb '#2b5c9e' lw 1.5 dt 3 title 'launch-bound ends (fit): launches·L = bytes/B', "
    n_bound_keys = n_bound_keys + 1; bound_longest = 45
}
if (have_cache) {
    set object 3 rect from b2, graph 0 to xhi, graph 1 behind fc rgb '#fbf1e4' fs solid 1 noborder
    if (named(b2, xhi)) {
        set label 3 regime_text('memory-bound', b2, xhi) at xhi, graph regime_y1 right \
            offset -0.8, 0 boxed tc rgb '#a0560f'
    }
    set arrow 1 from n_cache, graph 0 to n_cache, graph 1 nohead lc rgb cache_colour lw 2 dt 3
    cache_title = sprintf('%s: n = %.3g M', cache_text, n_cache / 1e6)
    bound_keys = bound_keys."keyentry with lines lc rgb cache_colour lw 2 dt 3 title cache_title, "
    n_bound_keys = n_bound_keys + 1
    bound_longest = strlen(cache_title) > bound_longest ? strlen(cache_title) : bound_longest
}
# Headroom above the highest model line and the p90 bars for the regime labels. The labels
# take a fixed number of ems (the middle one's top line at graph regime_y2, each line about
# 1.3 em with its box, and an em to spare), and a key of many lines leaves the plot short (an
# overlay at a column's width: some 7 em): the headroom is their ems over the plot's
# (style.gp's plot_room, given the key's rows), a fraction of the axis, at least the 30%
# (55% for labels on two lines) a tall plot has always had. The key's rows are known only
# to the chart's own script, which sets the range: y_top = regime_top(rows), then
# `set yrange [0 : y_top]`.
regime_f(rows) = (1 - regime_y2) + (regime_lines * 1.3 + 1) / plot_room(rows)
regime_room(rows) = (reg_f = regime_f(rows), reg_f < 0.85 ? speedup_max / (1 - reg_f) : \
    speedup_max / 0.15)
regime_min = speedup_max * (regime_lines > 1 ? 1.55 : 1.3)
# (a line far above every point, as a long chain's launch limit, is left off the scale)
line_top = 0
do for [i=1:NSL] { if (LV[i] * 1.25 > line_top && LV[i] <= 2 * speedup_max) { line_top = LV[i] * 1.25 } }
max2(a, b) = a > b ? a : b
regime_top(rows) = max2(max2(max2(regime_room(rows), regime_min), line_top), 2.8)
