# launches.gp: kernel launches per call, as counted (CPU: parallel passes; CUDA: CUPTI kernel
# records), one bar per series, with the model's count (launches.tsv's model column: fused 1,
# copy ceiling 1, eager one per op, the platform's copy 0; none for overlays) as a black
# mark. A bar that disagrees with its mark means the variant did not do what its model says.
# The bars lie flat, the series' labels (in words) beside them, read without tilting the head.
NLB = rows_launches
set xlabel 'launches per call'
unset logscale x
set format x '%g'
set style fill solid 0.75 noborder
stats 'launches.tsv' using (strlen(strcol(2))) nooutput name 'LAB'
# (the labels in fewer words, below: before the ranges are set, which stats would filter by)
labels_room = 0.4 * page_w / char_w
no_count(t) = last_open(t, 0) > 0 ? t[1:last_open(t, 0) - 1] : t
short_label(t) = strlen(no_count(t)) <= labels_room ? no_count(t) : \
    strlen(no_count(short_title(t))) <= labels_room || label_how(t) eq '' ? \
    no_count(short_title(t)) : label_how(t)
stats 'launches.tsv' using (strlen(short_label(strcol(2)))) nooutput name 'SHORT'
stats 'launches.tsv' using 3 nooutput
# the model's count, where a series has one (an audit's or a peer's rows have none: no mark,
# no key line, and no gnuplot warning of a clause with no point)
stats 'launches.tsv' using 4 nooutput name 'MODEL'
set xrange [0 : (STATS_max > 2 ? STATS_max : 2) + 1]
set yrange [NLB + 0.7 : 0.3]
set xtics 1
set grid xtics noytics nomxtics
set key outside below center height 1
# The series' labels go beside the bars as y tick labels. When the longest would take more
# than 40% of the page's width and there are more than 12 bars (a chain-length run's 26),
# each without the count its bar shows, and where still too long by its name alone ("eager
# add_k3": style.gp's short_title; "torch.compile"); fewer bars are a line apart above their
# bars, and their names in short could be alike ("torch eager"). Else above each bar, so the
# plot keeps its room (there, 26 bars' labels ran into their counts and the model's marks).
# The title, centred on the plot, which the labels move right, is moved back to the page's
# centre.
labels_short = LAB_max > labels_room && SHORT_max <= labels_room && NLB > 12
labels_above = LAB_max > labels_room && !labels_short
bar_label(t) = labels_short ? short_label(t) : t
# The labels beside the bars and the counts in the type that fits a row each (page.tsv's
# rows, src/chart/page.c: smaller than the main type on a slide's 26 rows)
row_font = sprintf(',%.3g', rowsize)
set title chart_title('Kernel launches per call (counted) vs model') noenhanced \
    offset (labels_short ? -0.5 * SHORT_max : 0), 0
if (labels_above) {
    unset ytics
    set lmargin 2
    set yrange [NLB + 0.6 : 0.1]
} else {
    set ytics noenhanced nomirror scale 0 font row_font
}
half = labels_above ? 0.18 : 0.3

labels_over = labels_above ? ", '' using (0):($1 - half - 0.2):2 with labels left noenhanced font small_font notitle" : ""
model_marks = MODEL_max < 0 ? "" : ", 'launches.tsv' using ($4 >= 0 ? $4 : NaN):($1 - half - 0.08):(0):(2 * half + 0.16) with vectors nohead lc rgb '#000000' lw 4 title 'model (fused 1, eager 1 per op)'"
plot 'launches.tsv' using (0):1:(0):3:($1 - half):($1 + half):5:yticlabels(bar_label(strcol(2))) \
        with boxxyerror lc rgb variable notitle, \
     '' using 3:1:(sprintf(' %g', $3)) with labels left font row_font notitle @labels_over @model_marks
