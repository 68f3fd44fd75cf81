# dtypes.gp: the storage-type chart, one eager variant's speedup over its pair at fp32, fp16
# and bf16 side by side (dtypes.tsv, d<i>.dat), two panels:
#   left:  against n, one line per dtype;
#   right: against the bytes of one tensor (n x the element size): if what fusion saves is
#          bytes and launches, the dtypes' curves line up here. The cache mark is where the
#          eager chain's arrays fill the cache (dtype_labels.tsv's cache_text), named in the
#          key, not in the panel, whose lower left the curves and the axis title fill.
# Each panel is half the page: at a column's width the words shorten, the ticks go every
# other decade, and the y axis is titled once.
NDT = rows_dtypes
stats 'dtype_labels.tsv' using (dtype_variant = strcol("variant"), dtype_pair = strcol("pair"), \
    dtype_cache_x = column("cache_x"), dtype_cache_text = strcol("cache_text"), 0) nooutput
set xrange [*:*]
array DT[max1(NDT)]; array DC[max1(NDT)]; array DP[max1(NDT)]
stats 'dtypes.tsv' using (i = int(column("i")), DT[i] = strcol("dtype"), \
    DC[i] = strcol("colour"), DP[i] = int(column("pt")), 0) nooutput
narrow = page_w / em < 60
set logscale x 10
set format x '10^{%L}'
if (narrow) { set xtics 100 }
set yrange [0:*]
set ylabel 'speedup (eager time / fused time, medians)'
# One key, under the right panel (the dtypes and the cache mark), two rows on a wide page, a
# column on a narrow one; both panels take the same bottom margin (axis, its title, the key,
# the noisy footnote's strip: style.gp's foot_h, in lines of the main type; a key line 1.1 of
# them, where 0.95 left the last one's letters 10 px above a column's bottom edge), so that
# they are as tall as each other and the footnote has its line.
key_rows = narrow ? NDT + (dtype_cache_x > 0) : 2
set bmargin 3.6 + 1.1 * key_rows + (noisy > 0 ? 2.6 : 0)
# (placed under the right panel's axis title, in screen units from the margin's lines of
# about 1.15 em: a key "below" would go to the page's bottom, on the footnote)
set key maxrows key_rows at screen 0.75, \
    screen (1.1 * key_rows + (noisy > 0 ? 2.6 : 0) + 0.4) * 1.15 * em / page_h center top
# (a narrow page's column of key lines in half the page: gnuplot refuses a column as wide as
# its estimate of the cache mark's line, which is drawn in less)
# (and a wide page's in two columns, said outright: gnuplot's own count, at a key placed `at`,
# was one, and the rows past the second ran off the page's bottom)
if (narrow) { set key maxcols 1 width -int(0.3 * strlen(dtype_cache_text)) } else { set key vertical maxrows 2 }
cache_mark = dtype_cache_x > 0 ? "keyentry with lines dt 2 lw 1.5 lc rgb '#777777' title dtype_cache_text, " : ""
set multiplot layout 1,2 title (narrow ? \
    sprintf("Fusion speedup by storage type\n%s vs %s\n%s%s", dtype_variant, dtype_pair, \
        device, strlen(day) > 0 ? ', '.day : '') : \
    sprintf("Fusion speedup by storage type: %s vs %s\n%s%s", dtype_variant, dtype_pair, \
        device, strlen(day) > 0 ? ', '.day : '')) noenhanced
set xlabel 'n (elements per tensor)'
set title 'against n'
plot for [i=1:NDT] sprintf('d%d.dat', i) using 1:3 with linespoints pt DP[i] ps 1.3 lw 2 \
    lc rgb DC[i] notitle
set xlabel (narrow ? 'bytes per tensor (B)' : 'bytes per tensor (B: n x the element size)')
set title (page_w / em < 90 ? 'against bytes per tensor' : 'against bytes per tensor: the curves line up if the story is bytes')
if (narrow) { unset ylabel }
if (dtype_cache_x > 0) {
    set arrow 1 from dtype_cache_x, graph 0 to dtype_cache_x, graph 1 nohead dt 2 lw 1.5 \
        lc rgb '#777777'
}
plot @cache_mark for [i=1:NDT] sprintf('d%d.dat', i) using 2:3 with linespoints pt DP[i] \
    ps 1.3 lw 2 lc rgb DC[i] title DT[i]
unset multiplot
