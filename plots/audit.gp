# audit.gp: the audit of a user's function (tools/torch_audit.py --output; src/chart/audit.h),
# three panels side by side, one bar group per mode (audit.tsv: torch eager, torch.compile,
# and fusebench's eager and fused where the function is one of its chains): kernels per call
# predicted (light) beside counted (solid); bytes per call predicted beside measured DRAM
# bytes (NA where none was measured, and the note under the panels says why); time per call,
# the median with its 95% interval. Each mode in its variant's colour. The notes and the key
# have strips of their own at the bottom, sized from the page, so that nothing overlaps at
# any size. Every number is fusebench's (audit_labels.tsv, audit.tsv); this draws.
NA = rows_audit
stats 'audit_labels.tsv' using (audit_title = strcol("title"), \
    bytes_unit = strcol("bytes_unit"), bytes_note = strcol("bytes_note"), \
    time_note = strcol("time_note"), 0) nooutput
array MN[NA]
stats 'audit.tsv' using (MN[int(column("i"))] = strcol("name"), 0) nooutput
# a number cell not measured (NaN, which `set datafile missing` makes an empty text): $N of
# it drops the whole row whichever branch of ?: it is in: such a cell is asked first and read
# with column(N)
na(c) = strlen(strcol(c)) == 0 || strcol(c) eq 'NaN'
# (an empty text cell is a space: chart/table.h)
blank(s) = strlen(s) == 0 || s eq ' ' || s eq '-'

# The page in one unit (points for pdf, pixels otherwise) and a line of type, as a fraction
# of the page (as glance.gp does).
unit_w = fmt eq 'pdf' ? page_w * 72 : page_w
unit_h = fmt eq 'pdf' ? page_h * 72 : page_h
font_u = fmt eq 'pdf' ? fontsize : fontsize * 96 / 72.0
line_h = 1.3 * font_u / unit_h
narrow = unit_w / font_u < 45
audit_font = narrow ? sprintf(',%.3g', fontsize) : small_font
small_w = 0.5 * (narrow ? 1 : smallsize / fontsize) * font_u / unit_w   # a character, roughly

# A mode's name on its tick, on two lines at its space ("torch" over "eager"); where four
# such names would run into each other in a third of the page (a plot fills about 3/4 of its
# panel), they stand upright on one line instead.
tick_name(s) = strstrt(s, ' ') > 0 ? s[1:strstrt(s, ' ') - 1]."\n".s[strstrt(s, ' ') + 1:] : s
tick_chars(s) = strstrt(s, ' ') > 0 ? (strstrt(s, ' ') - 1 > strlen(s) - strstrt(s, ' ') ? \
    strstrt(s, ' ') - 1 : strlen(s) - strstrt(s, ' ')) : strlen(s)
name_w = 0
longest_name = 0
do for [i=1:NA] {
    name_w = tick_chars(MN[i]) > name_w ? tick_chars(MN[i]) : name_w
    longest_name = strlen(MN[i]) > longest_name ? strlen(MN[i]) : longest_name
}
upright = name_w * small_w * NA * 1.15 > 0.75 / 3
tick_h = upright ? (longest_name * 0.45 + 1.2) * line_h : 2.6 * line_h

# A note wider than the page goes on two lines, at its "; " or at its " (".
two_lines(s) = strlen(s) * small_w <= 0.96 ? s : (strstrt(s, '; ') > 0 ? \
    s[1:strstrt(s, '; ')]."\n".s[strstrt(s, '; ') + 2:] : (strstrt(s, ' (') > 0 ? \
    s[1:strstrt(s, ' (') - 1]."\n".s[strstrt(s, ' ('):] : s))
lines_of(s) = blank(s) ? 0 : (strstrt(s, "\n") > 0 ? 2 : 1)
bnote = blank(bytes_note) ? '' : two_lines(bytes_note)
tnote = blank(time_note) ? '' : two_lines(time_note)
notes_h = (lines_of(bnote) + lines_of(tnote)) * line_h * (narrow ? 1 : smallsize / fontsize) \
    + (lines_of(bnote) + lines_of(tnote) > 0 ? 0.5 * line_h : 0)
# the key: three entries, in one row where the page holds them
key_cols = 0.94 / (48 * small_w) >= 3 ? 3 : 1
key_h = ((key_cols == 3 ? 1 : 3) * (narrow ? 0.95 : smallsize / fontsize) + 1.0) * line_h
title_lines = 2 + (strlen(audit_title) > title_chars) + \
    (strlen(device . ', ' . day) > title_chars)
title_h = (title_lines + 0.6) * line_h
bottom = foot_h + key_h + notes_h

w = 0.36
unset logscale x
unset grid
unset xlabel
set format x '%g'
set xtics scale 0 nomirror noenhanced
set tics font audit_font
set style fill solid 1.0 noborder
set multiplot title chart_title(audit_title) noenhanced
unset key
set title noenhanced font audit_font offset 0, -0.4
set xrange [0.4 : NA + 0.6]
set xtics ()
do for [i=1:NA] { set xtics add ((upright ? MN[i] : tick_name(MN[i])) i) }
if (upright) { set xtics rotate by 90 right } else { set xtics norotate }
set border 3
set ytics nomirror font audit_font
set grid ytics lc rgb '#d8d8d8' lw 0.5
set yrange [0 : *]
# The numbers over the bars: level where two characters and a gap fit a bar's width (a
# plot about 3/4 of its third of the page), else upright, with more room over the bars.
cramped = 2.6 * small_w > w * 0.75 / 3 / (NA - 0.2)
bar_text = cramped ? 'rotate by 90 left offset 0, 0.3' : 'offset 0, 0.7'
set offsets 0, 0, graph (cramped ? 0.3 : 0.15), 0
set bmargin at screen bottom + tick_h
set tmargin at screen 1 - title_h - (narrow ? 2.8 : 1.6) * line_h
# a few ticks, 1, 2 or 5 x 10^k apart, at most 4: more crowd a short panel's labels
nice_step(top) = (raw = (top > 0 ? top : 1) / 4.0, mag = 10.0 ** floor(log10(raw)), \
    (raw / mag <= 1 ? 1 : raw / mag <= 2 ? 2 : raw / mag <= 5 ? 5 : 10) * mag)
ylab(what, unit) = narrow ? '' : sprintf('%s (%s)', what, unit)
ttl(what, unit) = narrow ? sprintf("%s\n(%s)", what, unit) : what

# --- (a) kernels per call, predicted beside counted ---------------------------------------
set origin 0, bottom
set size 1 / 3.0, 1 - bottom
stats 'audit.tsv' using ($4 > $5 ? $4 : $5) nooutput
kstep = STATS_max >= 4 ? nice_step(STATS_max) : 1
set ytics kstep
set format y '%g'
set title ttl('kernels per call', 'count')
set ylabel ylab('kernels per call', 'count') noenhanced font audit_font
plot 'audit.tsv' using ($1 - w / 2):4:(w):3 with boxes lc rgb variable fs solid 0.35 notitle, \
     '' using ($1 + w / 2):5:(w):3 with boxes lc rgb variable notitle, \
     '' using ($1 - w / 2):4:(sprintf('%g', $4)) with labels @bar_text font audit_font notitle, \
     '' using ($1 + w / 2):5:(sprintf('%g', $5)) with labels @bar_text font audit_font notitle

# --- (b) bytes per call, predicted beside measured (NA: none measured) ---------------------
set origin 1 / 3.0, bottom
stats 'audit.tsv' using (na(7) ? $6 : ($6 > column(7) ? $6 : column(7))) nooutput
set ytics nice_step(STATS_max)
set title ttl('bytes per call', bytes_unit)
set ylabel ylab('bytes per call', bytes_unit) noenhanced font audit_font
plot 'audit.tsv' using ($1 - w / 2):6:(w):3 with boxes lc rgb variable fs solid 0.35 notitle, \
     '' using ($1 + w / 2):(na(7) ? 0 : column(7)):(w):3 with boxes lc rgb variable notitle, \
     '' using ($1 - w / 2):6:(sprintf('%.3g', $6)) with labels @bar_text font audit_font notitle, \
     '' using ($1 + w / 2):(na(7) ? 0 : column(7)):(na(7) ? 'NA' : sprintf('%.3g', column(7))) \
        with labels @bar_text font audit_font notitle

# --- (c) time per call: the median, with its 95% interval where the file has one -----------
set origin 2 / 3.0, bottom
stats 'audit.tsv' using (na(11) ? (na(9) ? 0 : column(9)) : column(11)) nooutput
set ytics nice_step(STATS_max)
set title ttl('time per call', 'µs')
set ylabel ylab('time per call', 'µs') noenhanced font audit_font
set offsets 0, 0, graph 0.1, 0
plot 'audit.tsv' using 1:(na(9) ? 0 : column(9)):(2 * w):3 with boxes lc rgb variable notitle, \
     '' using 1:(na(10) ? 0 : column(9)):(na(10) ? 0 : column(10)):(na(11) ? 0 : column(11)):(na(10) ? 0xFF000000 : 0) \
        with yerrorbars pt 0 lw 2 lc rgb variable notitle, \
     '' using 1:(0):(na(9) ? 'not timed' : '') with labels @bar_text font audit_font notitle

# --- the strips: the notes, the key --------------------------------------------------------
unset title
set origin 0, foot_h
set size 1, key_h
set lmargin 0; set rmargin 0; set tmargin 0; set bmargin 0
unset border; unset tics; unset grid; unset ylabel
set xrange [0 : 1]; set yrange [0 : 1]
set offsets 0, 0, 0, 0
if (lines_of(bnote) > 0) {
    set label 1 bnote at screen 0.01, screen bottom - 0.6 * line_h left noenhanced \
        font audit_font
}
if (lines_of(tnote) > 0) {
    set label 2 tnote at screen 0.01, screen bottom - (0.6 + lines_of(bnote)) * line_h left \
        noenhanced font audit_font
}
set key inside center center horizontal maxcols key_cols Left reverse samplen 2 \
    spacing 0.9 font audit_font noenhanced nobox
plot NaN with boxes lc rgb '#555555' fs solid 0.35 title 'predicted (light)', \
     NaN with boxes lc rgb '#555555' title 'counted / measured (solid)', \
     NaN with lines lw 2 lc rgb '#000000' title 'time: its 95% interval (bar: median)'
unset multiplot
