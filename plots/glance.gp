# glance.gp: the at-a-glance figure (src/chart/glance.h). Top: per pair, what each side
# launches and moves per call, in two panels: kernels, and array-sized transfers of the model
# (glance_pairs.tsv; measured DRAM traffic, where the run has counters, as a black mark on
# the arrays). Below, one panel per regime (glance.tsv, g<j>.dat): each side's time per call
# as the fit splits it, launch time (host launches x L, solid) under bytes time (bytes / B,
# light), beside the measured median (open bar); a regime without a panel is said under them.
# Each side is drawn in its series' identity (glance_pairs.tsv: colour, marker, dash, as on
# every chart), eager left of fused, the pair's name under them. The key and the footnote
# have strips of their own at the bottom, sized from the page, so that at every size nothing
# overlaps and no key is dropped. Every number is fusebench's; this draws.
stats 'glance_pairs.tsv' using 1 nooutput
NGP = STATS_records
stats 'glance.tsv' using 1 nooutput
NGR = STATS_records
array GT[max1(NGR)]; array GU[max1(NGR)]; array GJ[max1(NGR)]
r = 0
stats 'glance.tsv' using (r = r + 1, GJ[r] = int(column("j")), GT[r] = strcol("title"), \
    GU[r] = strcol("unit"), 0) nooutput
NGS = 0
missing = ''
do for [r=1:NGR] {
    if (GJ[r] > 0) { NGS = NGS + 1 } else { missing = missing.(strlen(missing) ? '; ' : '').GT[r] }
}
have_dram = 0
stats 'glance_pairs.tsv' using (have_dram = have_dram || valid(9), 0) nooutput
array PT[max1(NGP)]; array PC[max1(NGP)]; array PP[max1(NGP)]; array PD[max1(NGP)]
array FT[max1(NGP)]; array FC[max1(NGP)]; array FP[max1(NGP)]; array FD[max1(NGP)]
array FK[max1(NGP)]; array PN[max1(NGP)]
stats 'glance_pairs.tsv' using (k = int(column("k")), PT[k] = strcol("title"), \
    PC[k] = int(column("ec")), PP[k] = int(column("ep")), PD[k] = int(column("edt")), \
    FT[k] = strcol("ftitle"), FC[k] = int(column("fc")), FP[k] = int(column("fp")), \
    FD[k] = int(column("fdt")), FK[k] = strcol("fpairs"), PN[k] = strcol("name"), 0) nooutput
# A side's marker on its bar: filled in its colour, ringed in black (its open form, one
# less) so that it shows on a bar of the same colour.
ring = '#000000'

# The page in one unit (points for pdf, pixels otherwise) and a line of type, as a fraction
# of the page: the strips below are sized with it, not with fixed fractions that only fit
# the chart's own page.
unit_w = fmt eq 'pdf' ? page_w * 72 : page_w
unit_h = fmt eq 'pdf' ? page_h * 72 : page_h
font_u = fmt eq 'pdf' ? fontsize : fontsize * 96 / 72.0
line_h = 1.3 * font_u / unit_h
# The figure's small type: style.gp's, but on a page a column wide (under 45 characters of
# the main type across) the main type itself, which there is the smallest a print can take.
narrow = unit_w / font_u < 45
glance_font = narrow ? sprintf(',%.3g', fontsize) : small_font
small_w = 0.5 * (narrow ? 1 : smallsize / fontsize) * font_u / unit_w   # a character of it, roughly

# A pair's name on its tick, on two lines at its colon ("eager graph:" over "add, relu"),
# and the longer of those lines, in characters.
tick_name(s) = strstrt(s, ': ') > 0 ? s[1:strstrt(s, ': ')]."\n".s[strstrt(s, ': ') + 2:] : s
tick_chars(s) = strstrt(s, ': ') > 0 ? (strstrt(s, ': ') > strlen(s) - strstrt(s, ': ') - 1 ? \
    strstrt(s, ': ') : strlen(s) - strstrt(s, ': ') - 1) : strlen(s)
name_w = 0
do for [k=1:NGP] { name_w = tick_chars(PN[k]) > name_w ? tick_chars(PN[k]) : name_w }
# Where the names would run into each other (a plot fills about 3/4 of its panel's width),
# the ticks are left bare: the bars are told by their sides' colours and markers, which the
# key names.
names_fit(panels) = name_w * small_w * NGP * panels < 0.7

# The key: one entry per side (a fused side several pairs share, once) and the three parts.
# On a narrow page with more than 4 sides (a chain-length run's 7), in fewer words and two
# columns: each side by its name (style.gp's short_title, without its count past 27
# characters), the parts shorter; in one column of 10 lines the panels were some 2 em tall.
nkey = 3 + have_dram
do for [k=1:NGP] { nkey = nkey + 1 + (strlen(FK[k]) > 0) }
squeeze = narrow && nkey - 3 - have_dram > 4
side_short(t) = (side_u = short_title(t), strlen(side_u) <= 27 || last_open(side_u, 0) == 0 ? \
    side_u : side_u[1:last_open(side_u, 0) - 1])
side_title(t) = squeeze ? side_short(t) : t
launch_part = squeeze ? 'launches x L (fit)' : 'launch time (fit: host launches x L)'
bytes_part = squeeze ? 'bytes / B (fit)' : 'bytes time (fit: bytes / B)'
measured_part = squeeze ? 'measured (median)' : 'measured time (median)'
dram_part = squeeze ? 'measured DRAM (arrays)' : 'measured DRAM traffic (in arrays)'
longest = squeeze ? strlen(dram_part) : 34
do for [k=1:NGP] {
    longest = strlen(side_title(PT[k])) > longest ? strlen(side_title(PT[k])) : longest
    longest = strlen(side_title(FT[k])) > longest ? strlen(side_title(FT[k])) : longest
}
key_cols = int(0.94 / ((longest + 6) * small_w))
key_cols = key_cols < 1 ? 1 : key_cols > 3 ? 3 : key_cols
key_rows = int((nkey + key_cols - 1) / key_cols)
key_h = (key_rows * (narrow ? 0.95 : smallsize / fontsize) + 1.2) * line_h
# The footnote (style.gp's, a label at the page's bottom edge) gets a strip of its own,
# on two lines where one would run past the page's edge.
unset label 9999
foot = noisy > 0 ? noisy_text : ''
split = strstrt(foot, '; ')
if (strlen(foot) * small_w > 0.96 && split > 0) { foot = foot[1:split]."\n".foot[split + 2:] }
foot_lines = strlen(foot) == 0 ? 0 : (strstrt(foot, "\n") > 0 ? 2 : 1)
foot_h = foot_lines * line_h
# the note of a missing panel wrapped at a space, each of its lines within the page (one line
# ran past both edges at a column's width)
miss_chars = int(0.85 * 0.96 / small_w)  # (small_w is short of the drawn width by some 10%)
missing = wrap(missing, miss_chars)
miss_lines = 1
do for [c=1:strlen(missing)] { if (missing[c:c] eq "\n") { miss_lines = miss_lines + 1 } }
miss_h = strlen(missing) > 0 ? line_h * (0.6 + miss_lines) : 0
title_h = 2.2 * line_h
bottom = foot_h + key_h + miss_h
panels_h = 1 - title_h - bottom
top_h = 0.45 * panels_h
low_h = panels_h - top_h

unset logscale x
unset grid
unset xlabel
set grid ytics lc rgb '#d8d8d8' lw 0.5
set format x '%g'
set xtics scale 0 nomirror noenhanced
set tics font glance_font
set style fill solid 1.0 noborder
set multiplot title chart_title('At a glance: what fusion removes, and where a call''s time goes') \
    noenhanced
unset key
set title noenhanced font glance_font offset 0, -0.4

# --- top: per call, kernels (left panel) and array transfers (right), pair k's sides at
# x = 3k-1.6 (eager), 3k-0.6 (fused) -------------------------------------------------------
set xrange [0.6 : 3 * NGP + 0.2]
set xtics ()
# (bare: no label at all, not gnuplot's numbers)
if (names_fit(2)) {
    do for [k=1:NGP] { set xtics add (tick_name(PN[k]) 3 * k - 1.1) }
} else {
    set format x ''
}
set size 0.5, top_h
set yrange [0 : *]
set offsets 0, 0, graph 0.4, 0
# the counts are written on the bars: no y axis
unset ytics
unset grid
set border 1
# Measured DRAM traffic on the arrays panel, where counters ran; elsewhere the same marks in
# a transparent colour on the bars' tops (a clause with no valid point makes gnuplot warn).
do for [c=0:1] {
    set origin 0.5 * c, bottom + low_h
    set title (c == 0 ? 'kernels (solid)' : 'array-sized transfers (light)')
    e = c == 0 ? 3 : 7
    f = e + 1
    shade = c == 0 ? 1.0 : 0.45
    dram = c == 1 && have_dram
    plot 'glance_pairs.tsv' using (3 * $1 - 1.6):e:(0.8):11 with boxes lc rgb variable \
            fs solid shade notitle, \
         '' using (3 * $1 - 0.6):f:(0.8):12 with boxes lc rgb variable fs solid shade notitle, \
         for [s=0:1] '' using (3 * $1 - 1.6 + s):(dram ? column(9 + s) : column(e + s)):(0.3): \
            (dram ? 0 : 0xFF000000) with xerrorbars pt 0 lw 3 lc rgb variable notitle, \
         '' using (3 * $1 - 1.6):e:13:11 with points pt variable lc rgb variable ps 1.6 notitle, \
         '' using (3 * $1 - 1.6):e:($13 - 1) with points pt variable lc rgb ring ps 1.6 notitle, \
         '' using (3 * $1 - 0.6):f:14:12 with points pt variable lc rgb variable ps 1.6 notitle, \
         '' using (3 * $1 - 0.6):f:($14 - 1) with points pt variable lc rgb ring ps 1.6 notitle, \
         '' using (3 * $1 - 1.6):e:(sprintf('%g', column(e))) with labels offset 0, 0.9 font glance_font notitle, \
         '' using (3 * $1 - 0.6):f:(sprintf('%g', column(f))) with labels offset 0, 0.9 font glance_font notitle
}

# --- below: one panel per regime, the same x; each side's model bar left of its measured one
w = 0.18
set offsets 0, 0, 0, 0
set border 3
set ytics nomirror font glance_font
set grid ytics lc rgb '#d8d8d8' lw 0.5
# The pairs' names under these panels too, where they fit.
set xtics ()
if (names_fit(NGS)) {
    set format x '%g'
    do for [k=1:NGP] { set xtics add (tick_name(PN[k]) 3 * k - 1.1) }
} else {
    set format x ''
}
j = 0
do for [r=1:NGR] {
    if (GJ[r] > 0) {
        set origin j / (NGS * 1.0), bottom
        set size 1 / (NGS * 1.0), low_h
        j = j + 1
        # the fit's note, "(L not fitted)", on a line of its own; the size under the regime
        # where the line would be wider than the panel
        data = sprintf('g%d.dat', GJ[r])
        t = GT[r]
        note = strstrt(t, ' (') > 0 ? t[strstrt(t, ' (') + 1:] : ''
        t = strstrt(t, ' (') > 0 ? t[1:strstrt(t, ' (') - 1] : t
        if (strlen(t) * small_w > 0.55 / NGS && strstrt(t, ': ') > 0) {
            t = t[1:strstrt(t, ': ')]."\n".t[strstrt(t, ': ') + 2:]
        }
        # on a narrow page the unit goes in the title: a y label would outrun a short panel
        if (narrow) { t = t.', in '.GU[r] }
        set title t.(strlen(note) > 0 ? "\n".note : '')
        # a few ticks, 1, 2 or 5 x 10^k apart, as many as the panel's height has room for
        # (about 3 lines of type each, at most 3 ticks): more crowd a small panel's labels
        stats data using ($2 + $3 > $4 ? $2 + $3 : $4) nooutput
        n_ticks = int(low_h / (3.5 * line_h))
        n_ticks = n_ticks < 1 ? 1 : n_ticks > 3 ? 3 : n_ticks
        raw = (STATS_max > 0 ? STATS_max : 1) / n_ticks
        mag = 10.0 ** floor(log10(raw))
        ystep = (raw / mag <= 1 ? 1 : raw / mag <= 2 ? 2 : raw / mag <= 5 ? 5 : 10) * mag
        set ytics ystep
        if (narrow) { unset ylabel } else {
            set ylabel sprintf('time per call (%s)', GU[r]) noenhanced font glance_font
        }
        set yrange [0 : *]
        # the marker tops the model's bar, or the measured one where the fit has neither part
        plot data using ($1 - w):(0):($1 - 2 * w):($1):(0):2:5 \
                with boxxyerror lc rgb variable notitle, \
             '' using ($1 - w):(0):($1 - 2 * w):($1):2:($2 + $3):5 \
                with boxxyerror lc rgb variable fs solid 0.35 notitle, \
             '' using ($1 + w):(0):($1):($1 + 2 * w):(0):4 with boxxyerror \
                fs empty border lc rgb '#000000' lc rgb '#000000' lw 1.5 notitle, \
             '' using ($2 + $3 > 0 ? $1 - w : $1 + w):($2 + $3 > 0 ? $2 + $3 : $4):8:5 \
                with points pt variable lc rgb variable ps 1.6 notitle, \
             '' using ($2 + $3 > 0 ? $1 - w : $1 + w):($2 + $3 > 0 ? $2 + $3 : $4):($8 - 1) \
                with points pt variable lc rgb ring ps 1.6 notitle
    }
}

# --- the strips: what has no panel, the key, the footnote ----------------------------------
unset title
# the key fills this plot, the strip between the footnote and the note of a missing panel
set origin 0, foot_h
set size 1, key_h
set lmargin 0; set rmargin 0; set tmargin 0; set bmargin 0
unset border; unset tics; unset grid; unset ylabel
set xrange [0 : 1]; set yrange [0 : 1]
if (strlen(missing) > 0) {
    set label 1 missing at screen 0.5, screen bottom - (0.1 + 0.5 * miss_lines) * line_h center noenhanced \
        font glance_font
}
if (foot_lines > 0) {
    set label 2 foot at screen 0.01, screen foot_h - 0.55 * line_h left tc rgb '#b22222' \
        noenhanced font glance_font
}
# (gnuplot's estimate of a line, 0.64 em a character, brought to the type's 0.5 or less:
# a chain's long labels were refused at a column's width)
set key inside center center horizontal maxcols key_cols width -int(0.2 * longest) \
    Left reverse samplen 2 spacing 0.9 font glance_font noenhanced nobox
# (a macro: only a run with counters has the entry)
plot for [k=1:NGP] NaN with linespoints lc rgb PC[k] pt PP[k] dt PD[k] lw 2 ps 1.2 \
        title side_title(PT[k]), \
     for [k=1:NGP] NaN with linespoints lc rgb FC[k] pt FP[k] dt FD[k] lw 2 ps 1.2 \
        title (strlen(FK[k]) > 0 ? side_title(FT[k]) : ''), \
     NaN with boxes lc rgb '#555555' title launch_part, \
     NaN with boxes lc rgb '#555555' fs solid 0.35 title bytes_part, \
     NaN with boxes fs empty border lc rgb '#000000' lc rgb '#000000' lw 1.5 \
        title measured_part, \
     NaN with lines lw 3 lc rgb '#000000' title (have_dram ? dram_part : '')
unset multiplot
