# timeline.gp: --profile --trace's timeline, one lane per variant (the first at the top), the
# median call of each as bars on a time axis from that call's launch: kernels (and the
# platform's memcpy) as boxes coloured by name, host launches as black triangles above them,
# and the lane's counts per call (from the records, src/chart/timeline.c) under its name.
# Everything comes from timeline.tsv, the table --profile --trace writes beside the trace
# (FILE-timeline.tsv), its tables as index blocks; names are drawn as data.
stats 'timeline.tsv' index 4 using (NT = int(column("ntracks")), NK = int(column("nkinds")), \
    NB = int(column("nbars")), NL = int(column("nlaunches")), xmax = column("xmax"), \
    device = strcol("device"), tl_title = strcol("title"), tl_timing = strcol("timing"), 0) \
    nooutput
array TN[max1(NT)]; array TY[max1(NT)]; array TNOTE[max1(NT)]
if (NT > 0) {
    stats 'timeline.tsv' index 3 using (i = int(column("i")), TN[i] = strcol("name"), \
        TY[i] = column("y"), TNOTE[i] = strcol("note"), 0) nooutput
}
array KN[max1(NK)]; array KC[max1(NK)]
if (NK > 0) {
    stats 'timeline.tsv' index 2 using (k = int(column("k")), KN[k] = strcol("name"), \
        KC[k] = strcol("colour"), 0) nooutput
}

unset logscale x
set format x '%g'
# µs as in every chart (the cairo and svg terminals take UTF-8)
set xlabel "time from the call's first launch (µs)"
set xrange [0 : (xmax > 0 ? xmax * 1.04 : 1)]
set yrange [0.35 : NT + 0.75]
unset ylabel
set ytics () noenhanced nomirror scale 0
do for [i = 1 : NT] { set ytics add (TN[i] TY[i]) }
set grid xtics noytics nomxtics
set key outside bottom center horizontal noenhanced
set bmargin 6
# room for the longest lane name, in characters (a margin's unit: it scales with the type)
lane_chars = 8
do for [i = 1 : NT] { lane_chars = strlen(TN[i]) > lane_chars ? strlen(TN[i]) : lane_chars }
set lmargin lane_chars + 3
# The title is centred over the plot: its lines wrap at the plot's width (style.gp's wrap),
# which the lane names narrow.
wrap_at = int(page_w / (0.5 * em)) - lane_chars - 10
wrap_at = wrap_at < 24 ? 24 : wrap_at
set title wrap('Timeline: ' . tl_title, wrap_at) . "\n" . wrap(tl_timing, wrap_at) . "\n" . \
    wrap(device, wrap_at) noenhanced
do for [i = 1 : NT] {
    set label 100 + i TNOTE[i] at graph 0.005, first TY[i] - 0.36 left noenhanced \
        tc rgb '#444444' font small_font
}

# Boxes: x = the middle, y, x from x0 to x1, y within 0.25 of the lane.
plot for [k = 1 : NK] 'timeline.tsv' index 0 using ($4 == k ? ($1 + $2) / 2 : NaN):3:1:2: \
        ($3 - 0.25):($3 + 0.25) with boxxyerror fs solid 0.85 noborder lc rgb KC[k] \
        title KN[k], \
     'timeline.tsv' index 1 using 1:($2 + 0.34) with points pt 11 ps 1.6 \
        lc rgb '#000000' title 'host launch'
