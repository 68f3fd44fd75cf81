# chain_length.gp: fusion's speedup against the number of ops in a chain (the chains of a run
# such as configs/chain-length.ini: eager k kernels, fused 1). chains.tsv, c<i>.dat: one line
# per size through the first chain of each length; chain_others.tsv: the other chains of a
# length, marked with their names and drawn in their size's colour (a transcendental chain, where the CPU computes more than
# it moves); chain_model.tsv: each length's own model, from its chain's launches and bytes
# (launch limit, traffic ratio, with write-allocate where the stores read their lines).
NCK = rows_chains; NKO = rows_chain_others
unset logscale x
set format x '%g'
set xrange [0.5 : *]
set xtics 1
set yrange [0 : *]
set grid xtics ytics lc rgb '#d8d8d8' lw 0.5
set title chart_title('Fusion speedup vs chain length: eager (k kernels) / fused (1)') noenhanced
set xlabel 'k: ops in the chain (kernels of the eager variant)'
set ylabel 'speedup (eager time / fused time, medians)'
array KT[max1(NCK)]; array KC[max1(NCK)]; array KP[max1(NCK)]
stats 'chains.tsv' using (i = int(column("i")), KT[i] = strcol("title"), \
    KC[i] = strcol("colour"), KP[i] = int(column("pt")), 0) nooutput
wa_line = rows_chain_model_wa > 0 ? "'chain_model_wa.tsv' using 1:4 with linespoints dt 4 lw 1.5 pt 1 lc rgb '#999999' title 'model: traffic with write-allocate', " : ""
# each other chain named once, at its highest point (chain_others.tsv's label), and the
# points in the key
others = NKO > 0 ? ", 'chain_others.tsv' using 1:2:5 with points pt 5 ps 2 lc rgb variable notitle, '' using 1:2:6 with labels left offset 1, 0 noenhanced font small_font notitle, keyentry with points pt 5 ps 2 lc rgb '#777777' title 'another chain of k ops, in its size''s colour'" : ""
# one column of key lines, the longest the launch limit's (48 characters)
eval key_one_column(48)
plot 'chain_model.tsv' using 1:2 with linespoints dt 2 lw 1.5 pt 1 lc rgb '#555555' \
        title 'model: launch limit of each chain (its launches)', \
     '' using 1:3 with linespoints dt 3 lw 2 pt 1 lc rgb '#555555' \
        title 'model: traffic ratio of each chain (its bytes)', \
     @wa_line \
     for [i=1:NCK] sprintf('c%d.dat', i) using 1:2 with linespoints pt KP[i] ps 1.4 lw 2 \
        lc rgb KC[i] title KT[i] @others
