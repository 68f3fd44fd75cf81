# summary.gp: the one chart for a slide: the fusion speedup of every eager series over its
# pair (overlays dashed), with the regimes, the cache size and each pair's model lines where
# each applies (launch limits in the launch-bound regime, traffic ratios in the memory-bound
# one: speedup_lines.tsv's from and to).
# More than 6 pairs (a chain-length run) would bury the data under a model line per pair and
# a legend of whole sentences: then the pairs' key lines are their names and counts only, in
# columns, and the models are left to the speedup-k chart, which draws each length against
# its own.
set title chart_title('Fusion speedup: eager time / fused time') noenhanced
set ylabel 'speedup (eager / fused time)'
many = NX > 6
# (short_title, and without the "eager" every line begins with: the title says it)
no_eager(t) = t[1:6] eq 'eager ' ? t[7:] : t[1:7] eq 'eager: ' ? t[8:] : t
pair_key(t) = many ? no_eager(short_title(t)) : key_title(t)
model_lines = NSL > 0 && !many ? "for [i=1:NSL] model_line(i, x) with lines lc rgb LC[i] dt LD[i] lw 2 title LT[i], " : ""
if (many) {
    key_longest = have_cache ? strlen(cache_key) : 0  # the cache's key line
    do for [i=1:NX] { key_longest = strlen(pair_key(XT[i])) > key_longest ? strlen(pair_key(XT[i])) : key_longest }
    eval key_columns(key_longest, NX + 1)
} else {
    # the bounds', the models', the pairs' key lines
    key_longest = strlen(bound_keys) > 0 ? 46 : 0  # the bounds' key lines
    do for [i=1:NSL] { key_longest = strlen(LT[i]) > key_longest ? strlen(LT[i]) : key_longest }
    do for [i=1:NX] { key_longest = strlen(key_title(XT[i])) > key_longest ? strlen(key_title(XT[i])) : key_longest }
    eval key_auto(key_longest, n_bound_keys + n_line_keys + NX)
}
plot @bound_keys @model_lines \
     for [i=1:NX] pair_data(i) using 1:2 with linespoints \
        lc rgb XC[i] dt XD[i] pt XP[i] ps 1.6 lw 3 title pair_key(XT[i])
