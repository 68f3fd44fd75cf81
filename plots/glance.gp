# glance.gp: the at-a-glance figure (src/chart/glance.h). Top: per pair, what each side
# launches and moves per call: kernels and array-sized transfers of the model
# (glance_pairs.tsv; measured DRAM traffic, where the run has counters, as a black mark on
# the arrays). Below, one panel per regime (glance.tsv, g<j>.dat): each side's time per call
# as the fit splits it, launch time (host launches x L, solid) under bytes time (bytes / B,
# light), beside the measured median (open bar). Each side is drawn in its series' identity
# (glance_pairs.tsv: colour, marker, dash, as on every chart): the bars in its colour, its
# marker on each bar, both in the key. Every number is fusebench's; this draws.
stats 'glance_pairs.tsv' using 1 nooutput
NGP = STATS_records
stats 'glance.tsv' using 1 nooutput
NGS = STATS_records
array GT[max1(NGS)]; array GU[max1(NGS)]; array GF[max1(NGS)]
stats 'glance.tsv' using (j = int(column("j")), GT[j] = strcol("title"), \
    GU[j] = strcol("unit"), GF[j] = int(column("fitted")), 0) nooutput
have_dram = 0
stats 'glance_pairs.tsv' using (have_dram = have_dram || valid(9), 0) nooutput
array PT[max1(NGP)]; array PC[max1(NGP)]; array PP[max1(NGP)]; array PD[max1(NGP)]
array FT[max1(NGP)]; array FC[max1(NGP)]; array FP[max1(NGP)]; array FD[max1(NGP)]
array FK[max1(NGP)]
stats 'glance_pairs.tsv' using (k = int(column("k")), PT[k] = strcol("title"), \
    PC[k] = int(column("ec")), PP[k] = int(column("ep")), PD[k] = int(column("edt")), \
    FT[k] = strcol("ftitle"), FC[k] = int(column("fc")), FP[k] = int(column("fp")), \
    FD[k] = int(column("fdt")), FK[k] = strcol("fpairs"), 0) nooutput
# A side's marker on its bar: filled in its colour, ringed in black (its open form, one
# less) so that it shows on a bar of the same colour.
ring = '#000000'

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
set yrange [0 : STATS_max * 1.25]
set ylabel 'per call'
set xtics scale 0 nomirror
set xtics ()
do for [k=1:NGP] { set xtics add (sprintf('%d', k) 5 * k - 2.25) }
# The key beside the plot, one line per side of a pair (its number is under its bars and the
# panels'); a fused side several pairs share, once, with their numbers.
set key outside right top vertical Left reverse font small_font
# Measured DRAM traffic, only where counters ran (a macro: gnuplot warns of an empty file).
dram = have_dram ? "'' using (5 * $1 - 1.5):9:(0.22):(0) with xerrorbars pt 0 lw 3 lc rgb '#000000' title 'measured (DRAM, in arrays)', '' using (5 * $1 - 0.5):10:(0.22):(0) with xerrorbars pt 0 lw 3 lc rgb '#000000' notitle, " : ""
# Columns: the eager side's kernels (3) and arrays (7) in its colour (11) and marker (13); the
# fused side's (4, 8) in its own (12, 14).
plot 'glance_pairs.tsv' using (5 * $1 - 4):3:(0.45):11 with boxes lc rgb variable notitle, \
     '' using (5 * $1 - 3):4:(0.45):12 with boxes lc rgb variable notitle, \
     '' using (5 * $1 - 1.5):7:(0.45):11 with boxes lc rgb variable fs solid 0.45 notitle, \
     '' using (5 * $1 - 0.5):8:(0.45):12 with boxes lc rgb variable fs solid 0.45 notitle, \
     for [c=3:7:4] '' using (5 * $1 - (c == 3 ? 4 : 1.5)):c:13:11 \
        with points pt variable lc rgb variable ps 2 notitle, \
     for [c=3:7:4] '' using (5 * $1 - (c == 3 ? 4 : 1.5)):c:($13 - 1) \
        with points pt variable lc rgb ring ps 2 notitle, \
     for [c=4:8:4] '' using (5 * $1 - (c == 4 ? 3 : 0.5)):c:14:12 \
        with points pt variable lc rgb variable ps 2 notitle, \
     for [c=4:8:4] '' using (5 * $1 - (c == 4 ? 3 : 0.5)):c:($14 - 1) \
        with points pt variable lc rgb ring ps 2 notitle, \
     '' using (5 * $1 - 4):3:(sprintf('%g', $3)) with labels offset 0, 1.6 notitle, \
     '' using (5 * $1 - 3):4:(sprintf('%g', $4)) with labels offset 0, 1.6 notitle, \
     '' using (5 * $1 - 1.5):7:(sprintf('%g', $7)) with labels offset 0, 1.6 notitle, \
     '' using (5 * $1 - 0.5):8:(sprintf('%g', $8)) with labels offset 0, 1.6 notitle, \
     @dram \
     for [k=1:NGP] NaN with linespoints lc rgb PC[k] pt PP[k] dt PD[k] lw 2 ps 1.5 \
        title sprintf('%d: %s', k, PT[k]), \
     for [k=1:NGP] NaN with linespoints lc rgb FC[k] pt FP[k] dt FD[k] lw 2 ps 1.5 \
        title (strlen(FK[k]) > 0 ? FK[k].': '.FT[k] : ''), \
     NaN with boxes lc rgb '#555555' title 'above: kernels per call; below: launch time (fit: host launches x L)', \
     NaN with boxes lc rgb '#555555' fs solid 0.35 title 'above: array transfers per call; below: bytes time (fit: bytes / B)', \
     NaN with boxes lc rgb '#ffffff' title 'eager left, fused right of each pair, in their colours and markers', \
     NaN with boxes fs empty border lc rgb '#000000' lc rgb '#000000' lw 1.5 \
        title 'measured (median)'
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
         '' using ($1 - w):($2 + $3):8:5 with points pt variable lc rgb variable ps 1.6 \
            notitle, \
         '' using ($1 - w):($2 + $3):($8 - 1) with points pt variable lc rgb ring ps 1.6 \
            notitle, \
         '' using ($1 + w):(0):($1):($1 + 2 * w):(0):4 with boxxyerror \
            fs empty border lc rgb '#000000' lc rgb '#000000' lw 1.5 notitle
}
unset multiplot
