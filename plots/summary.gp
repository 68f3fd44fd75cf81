# summary.gp: the one chart for a slide: the fusion speedup of every eager series over its
# pair (overlays dashed), with the regimes, the cache size and each pair's model lines where
# each applies (launch limits in the launch-bound regime, traffic ratios in the memory-bound
# one: speedup_lines.tsv's from and to).
# More than 6 pairs (a chain-length run) would bury the data under a model line per pair and
# a legend of whole sentences: then the pairs' key lines are their names and counts only, in
# columns, and the models are left to the speedup-k chart, which draws each length against
# its own.
set title chart_title('Fusion speedup: eager time / fused time') noenhanced
set ylabel 'speedup (eager time / fused time)'
many = NX > 6
# "eager add_k3: add, relu, ... (4 kernels) / fused (1 kernel)" -> "eager add_k3 (4 kernels)"
pair_eager(t) = strstrt(t, ' / ') > 0 ? t[1:strstrt(t, ' / ') - 1] : t
# (a built-in variant, whose "how" is one word, "eager: add, relu (2 kernels)", keeps its ops)
pair_how(t) = strstrt(t, ':') == 0 ? '' : t[1:strstrt(t, ':') - 1]
pair_short(t) = strstrt(pair_how(t), ' ') == 0 ? pair_eager(t) : \
    pair_how(t).pair_eager(t)[last_open(pair_eager(t), 0):]
pair_key(t) = many ? pair_short(t) : key_title(t)
model_lines = NSL > 0 && !many ? "for [i=1:NSL] model_line(i, x) with lines lc rgb LC[i] dt LD[i] lw 2 title LT[i], " : ""
if (many) {
    # as many columns as the page holds (a key line in the small type about 0.45 em a
    # character, its sample 6 more), gnuplot's wider estimate corrected as for one column
    key_longest = 0
    do for [i=1:NX] { key_longest = strlen(pair_short(XT[i])) > key_longest ? strlen(pair_short(XT[i])) : key_longest }
    key_cols = int(0.9 * page_w / ((key_longest + 6) * 0.45 * em))
    key_cols = key_cols < 1 ? 1 : key_cols > 4 ? 4 : key_cols
    set key vertical maxrows int(ceil((NX + 1.0) / key_cols)) width -int(0.15 * key_longest)
} else {
    # one column of key lines: the bounds', the models', the pairs'
    key_longest = strlen(bound_keys) > 0 ? 46 : 0  # the bounds' key lines
    do for [i=1:NSL] { key_longest = strlen(LT[i]) > key_longest ? strlen(LT[i]) : key_longest }
    do for [i=1:NX] { key_longest = strlen(key_title(XT[i])) > key_longest ? strlen(key_title(XT[i])) : key_longest }
    eval key_one_column(key_longest)
}
plot @bound_keys @model_lines \
     for [i=1:NX] pair_data(i) using 1:2 with linespoints \
        lc rgb XC[i] dt XD[i] pt XP[i] ps 1.6 lw 3 title pair_key(XT[i])
