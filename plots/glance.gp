# glance.gp: the at-a-glance figure (src/chart/glance.h). Top: per pair, what each side
# launches and moves per call: kernels and array-sized transfers of the model
# (glance_pairs.tsv; measured DRAM traffic, where the run has counters, as a black mark on
# the arrays). Below, one panel per regime (glance.tsv, g<j>.dat): each side's time per call
# as the fit splits it, launch time (host launches x L, solid) under bytes time (bytes / B,
# light), beside the measured median (open bar). Every number is fusebench's; this draws.
stats 'glance_pairs.tsv' using 1 nooutput
NGP = STATS_records
stats 'glance.tsv' using 1 nooutput
NGS = STATS_records
array GT[max1(NGS)]; array GU[max1(NGS)]; array GF[max1(NGS)]
stats 'glance.tsv' using (j = int(column("j")), GT[j] = strcol("title"), \
    GU[j] = strcol("unit"), GF[j] = int(column("fitted")), 0) nooutput
have_dram = 0
stats 'glance_pairs.tsv' using (have_dram = have_dram || valid(9), 0) nooutput
array PT[max1(NGP)]; array PC[max1(NGP)]
stats 'glance_pairs.tsv' using (k = int(column("k")), PT[k] = strcol("title"), \
    PC[k] = int(column("ec")), 0) nooutput

unset logscale x
unset grid
set grid ytics lc rgb '#d8d8d8' lw 0.5
set format x '%g'
unset xlabel
set style fill solid 1.0 noborder
set multiplot title chart_title('At a glance: what fusion removes, and where a call''s time goes') \
    noenhanced

# --- top: kernels and arrays per call, pair k over x = 5k-4 .. 5k-0.5 ------------------------
set origin 0, 0.5
set size 1, 0.44
set xrange [0 : 5 * NGP + 0.5]
stats 'glance_pairs.tsv' using 7 nooutput
set yrange [0 : STATS_max * 1.15]
set ylabel 'per call'
set xtics scale 0 nomirror
set xtics ()
do for [k=1:NGP] { set xtics add (sprintf('%d', k) 5 * k - 2.25) }
# The key beside the plot, one line per pair (its number is under its bars and the panels').
set key outside right top vertical Left reverse font small_font
# Measured DRAM traffic, only where counters ran (a macro: gnuplot warns of an empty file).
dram = have_dram ? "'' using (5 * $1 - 1.5):9:(0.22):(0) with xerrorbars pt 0 lw 3 lc rgb '#000000' title 'measured (DRAM, in arrays)', '' using (5 * $1 - 0.5):10:(0.22):(0) with xerrorbars pt 0 lw 3 lc rgb '#000000' notitle, " : ""
plot 'glance_pairs.tsv' using (5 * $1 - 4):3:(0.45):11 with boxes lc rgb variable notitle, \
     '' using (5 * $1 - 4):3:(sprintf('%g', $3)) with labels offset 0, 0.7 notitle, \
     '' using (5 * $1 - 3):4:(0.45):12 with boxes lc rgb variable notitle, \
     '' using (5 * $1 - 3):4:(sprintf('%g', $4)) with labels offset 0, 0.7 notitle, \
     '' using (5 * $1 - 1.5):7:(0.45):11 with boxes lc rgb variable fs solid 0.45 notitle, \
     '' using (5 * $1 - 1.5):7:(sprintf('%g', $7)) with labels offset 0, 0.7 notitle, \
     '' using (5 * $1 - 0.5):8:(0.45):12 with boxes lc rgb variable fs solid 0.45 notitle, \
     '' using (5 * $1 - 0.5):8:(sprintf('%g', $8)) with labels offset 0, 0.7 notitle, \
     @dram \
     for [k=1:NGP] NaN with boxes lc rgb PC[k] title sprintf('%d: %s', k, PT[k]), \
     NaN with boxes lc rgb '#555555' title 'above: kernels per call; below: launch time (fit: host launches x L)', \
     NaN with boxes lc rgb '#555555' fs solid 0.35 title 'above: array transfers per call; below: bytes time (fit: bytes / B)', \
     NaN with boxes lc rgb '#ffffff' title 'eager left, fused right of each pair, in its colours', \
     NaN with boxes fs empty border lc rgb '#000000' lw 1.5 title 'measured (median)'
unset label
do for [k=1:NGP] { unset label 100 + k }

# --- below: one panel per regime, pair k's sides at x = 3k-1.6 (eager), 3k-0.6 (fused) -----
set xrange [0.6 : 3 * NGP + 0.2]
set xtics ()
do for [k=1:NGP] { set xtics add (sprintf('%d', k) 3 * k - 1.1) }
unset key
w = 0.18
do for [j=1:NGS] {
    set origin (j - 1) / 3.0, 0
    set size 1 / 3.0, 0.5
    set title GT[j].(GF[j] ? '' : ' (L not fitted)') noenhanced font small_font
    set ylabel sprintf('time per call (%s)', GU[j]) noenhanced
    set yrange [0 : *]
    data = sprintf('g%d.dat', j)
    plot data using ($1 - w):(0):($1 - 2 * w):($1):(0):2:5 \
            with boxxyerror lc rgb variable notitle, \
         '' using ($1 - w):(0):($1 - 2 * w):($1):2:($2 + $3):5 \
            with boxxyerror lc rgb variable fs solid 0.35 notitle, \
         '' using ($1 + w):(0):($1):($1 + 2 * w):(0):4 with boxxyerror \
            fs empty border lc rgb '#000000' lc rgb '#000000' lw 1.5 notitle
}
unset multiplot
