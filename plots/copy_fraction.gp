# copy_fraction.gp: each fused series' bandwidth as a fraction of the copy ceiling's at the
# same n, store kind and cache mode (the copy_fraction fusebench derived: both count model
# bytes; a peer's fused rows against the charted run's copy ceiling). The model lines
# (copy_lines.tsv: where both kernels move at one memory rate, with and without
# write-allocate, and the target) come with their values and titles.
NF = rows_fused; NCL = rows_copy_lines
array FI[max1(NF)]
if (NF > 0) { stats 'fused.tsv' using (FI[int(column("j"))] = int(column("i")), 0) nooutput }
set title chart_title('Fused bandwidth / copy bandwidth (model bytes)') noenhanced
set ylabel 'fraction of the copy ceiling'
set yrange [0 : *]
set format y '%.0f%%'
eval cache_line  # (style.gp)
array CV[max1(NCL)]; array CT[max1(NCL)]; array CC[max1(NCL)]; array CD[max1(NCL)]
stats 'copy_lines.tsv' using (i = int(column("i")), CV[i] = column("value"), \
    CT[i] = strcol("title"), CC[i] = strcol("colour"), CD[i] = int(column("dt")), 0) nooutput
# The key in as many columns as the page holds, gnuplot's estimate of their width corrected;
# more than 6 series (a chain-length run's 13), each its name and count (style.gp's
# short_title), as the bandwidth chart's; else whole, cut to the page (key_title).
fused_key(t) = NF > 6 ? short_title(t) : key_title(t)
key_longest = have_cache ? strlen(cache_text) : 0
do for [i=1:NCL] { key_longest = strlen(CT[i]) > key_longest ? strlen(CT[i]) : key_longest }
do for [j=1:NF] { key_longest = strlen(fused_key(ST[FI[j]])) > key_longest ? strlen(fused_key(ST[FI[j]])) : key_longest }
eval key_auto(key_longest, NCL + NF + have_cache)
plot @cache_key for [i=1:NCL] CV[i] with lines lc rgb CC[i] dt CD[i] lw 2 title CT[i], \
     for [j=1:NF] series(FI[j]) using 1:($9 * 100) with linespoints \
        lc rgb SC[FI[j]] dt SD[FI[j]] pt SP[FI[j]] ps 1.2 lw 2 title fused_key(ST[FI[j]])
