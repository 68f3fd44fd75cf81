# compare_common.gp: what every --compare chart shares, run after style.gp (src/compare/runs.h
# lists the tables: cmp_numbers.tsv, cmp_labels.tsv, cmp_runs.tsv, r<i>.dat, q<i>.dat). One
# curve per run, in its colour and point type, titled by its device and date (read as data,
# drawn noenhanced). The x range spans every run's sizes.
NR = rows_cmp_runs
stats 'cmp_numbers.tsv' using (cmp_nmin = column("nmin"), \
    cmp_nmax = column("nmax"), ws_min = column("ws_min"), ws_max = column("ws_max"), \
    cache_axis = int(column("cache_axis")), threshold = column("threshold"), 0) nooutput
stats 'cmp_labels.tsv' using (pair_title = strcol("pair"), fused_key = strcol("fused"), \
    copy_key = strcol("copy"), 0) nooutput
array RT[max1(NR)]; array RC[max1(NR)]; array RP[max1(NR)]
stats 'cmp_runs.tsv' using (i = int(column("i")), RT[i] = strcol("title"), \
    RC[i] = strcol("colour"), RP[i] = int(column("pt")), 0) nooutput
run_data(i) = sprintf('r%d.dat', i)
ratio_data(i) = sprintf('q%d.dat', i)
compare_title(what) = sprintf("%s\n%d runs: %s", what, NR, pair_title)

unset label 9999
set xrange [cmp_nmin / 1.6 : cmp_nmax * 1.6]
# Labels ("DEVICE, DATE (stem)") are long: the key goes under the graph, which keeps the
# page's width.
set key below center vertical maxrows 5 font small_font nobox noopaque height 1
set rmargin 4
