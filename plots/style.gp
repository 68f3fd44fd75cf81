# style.gp: what every fusebench chart shares. fusebench (src/chart/runner.c) runs gnuplot in a
# staging directory that holds the tables it derived (src/chart/tables.h lists the run's,
# src/chart/<chart>.c each chart's own), with
# this script first and then the chart's own. Everything drawn comes from those tables: the
# scripts compute no number and read no results CSV, and text from the results (device,
# variant names) is only ever read as data (strcol) and drawn noenhanced, never run.
#
# The page (format, size, type, line width) is page.tsv, one per chart and format
# (src/chart/page.h: each chart's own 1600x1000 px, or the column, double and slide presets).
# Every series has one identity in every chart (src/chart/identity.h: an Okabe-Ito colour, a
# marker and a dash, by variant): the scripts draw the colour, point and dash of the tables.
# Legends go outside the plot, under it, in as many columns as their labels leave room for:
# never over the data, never cut at the page's edge.

set datafile separator "\t"
set datafile columnheaders
set datafile missing 'NaN'

stats 'page.tsv' using (fmt = strcol("format"), page_w = column("width"), \
    page_h = column("height"), fontsize = column("font"), smallsize = column("small"), \
    rowsize = column("rows"), \
    page_lw = column("lw"), page_ps = column("ps"), 0) nooutput
# Smaller type, for annotations and keys: 85% of the main type, never under 7 points.
small_font = sprintf(',%.3g', smallsize)
# The em of the main type in the page's units (px: pngcairo draws a point as 1/96 inch of
# its pixels; inches in a pdf), and an average character of it, as drawn and as gnuplot
# estimates it (0.64 em): for the estimates that keep text within its room.
em = fontsize * (fmt eq 'pdf' ? 1 / 72.0 : 96.0 / 72.0)
char_w = 0.64 * em
stats 'numbers.tsv' using (nmin = column("nmin"), nmax = column("nmax"), \
    cache_bytes = column("cache_bytes"), n_cache = column("n_cache"), \
    peak_gbps = column("peak_gbps"), bandwidth_max = column("bandwidth_max"), \
    copy_max = column("copy_max"), speedup_max = column("speedup_max"), \
    n_launch = column("n_launch"), n_launch_fit = int(column("n_launch_fit")), \
    noisy = int(column("noisy")), speedup_level = column("speedup_level"), \
    ours_level = column("ours_level"), 0) nooutput
stats 'labels.tsv' using (device = strcol("device"), day = strcol("day"), \
    cache_text = strcol("cache_text"), cache_label = strcol("cache_name"), \
    noisy_text = strcol("noisy_text"), 0) nooutput
# Each table's rows, which fusebench gives as rows_<table> (gnuplot -e: src/chart/table.h):
# the run's here, each chart's own in its script.
NS = rows_series; NX = rows_pairs; NFIT = rows_fit; NNT = rows_noisy_time
NNX = rows_noisy_speedup
array FIT[4] = ['', '', '', '']
if (NFIT > 0) { stats 'fit.tsv' using (FIT[int($0) + 1] = strcol("text"), 0) nooutput }
fit1 = FIT[1]; fit2 = FIT[2]; fit3 = FIT[3]; fit4 = FIT[4]

if (fmt eq 'svg') {
    set terminal svg size int(page_w), int(page_h) dynamic enhanced background rgb 'white' \
        font sprintf('Sans,%.3g', fontsize) linewidth page_lw
    set output 'chart.svg'
} else {
    if (fmt eq 'png') {
        set terminal pngcairo size int(page_w), int(page_h) enhanced background rgb 'white' \
            font sprintf('Sans,%.3g', fontsize) linewidth page_lw pointscale page_ps
        set output 'chart.png'
    } else {
        if (fmt eq 'pdf') {
            # vector; cairo embeds the fonts it uses (subsets). pdfcairo draws a font's
            # point as pango's 1/96 inch times its fontscale (0.5 unless said: 12 points
            # came out 8): 0.75 draws points as points, as the PNG does.
            set terminal pdfcairo size page_w, page_h enhanced background rgb 'white' \
                font sprintf('Sans,%.3g', fontsize) fontscale 0.75 linewidth page_lw \
                pointscale page_ps
            set output 'chart.pdf'
        } else {
            print 'style.gp: page.tsv names no format this script draws'
            exit status 1
        }
    }
}

# The series (series.tsv; data in s<i>.dat) and the rows of the other tables, as arrays.
max1(k) = k > 0 ? k : 1
array ST[max1(NS)]; array SC[max1(NS)]; array SP[max1(NS)]; array SD[max1(NS)]
array SCOPY[max1(NS)]
if (NS > 0) {
    stats 'series.tsv' using (i = int(column("i")), ST[i] = strcol("title"), \
        SC[i] = strcol("colour"), SP[i] = int(column("pt")), SD[i] = int(column("dt")), \
        SCOPY[i] = int(column("copy")), 0) nooutput
}
array XT[max1(NX)]; array XC[max1(NX)]; array XP[max1(NX)]; array XD[max1(NX)]
if (NX > 0) {
    stats 'pairs.tsv' using (i = int(column("i")), XT[i] = strcol("title"), \
        XC[i] = strcol("colour"), XP[i] = int(column("pt")), XD[i] = int(column("dt")), \
        0) nooutput
}
series(i) = sprintf('s%d.dat', i)
pair_data(i) = sprintf('x%d.dat', i)
have_fit = (NFIT > 0)
have_cache_fit = (NFIT > 3)
fit_text = have_fit ? fit1."\n".fit2."\n".fit3.(have_cache_fit ? "\n".fit4 : '') : ''

set border 3 lw 1
set tics nomirror out scale 0.6
set grid xtics ytics mxtics lc rgb '#d8d8d8' lw 0.5 dt 1, lc rgb '#ececec' lw 0.5 dt 1
# The key under the plot, its columns as wide as its longest label (gnuplot sizes them).
set key noenhanced outside below center horizontal Left reverse samplen 2.5 spacing 1.0 \
    nobox font small_font
set title noenhanced

# gnuplot sizes a key column as (characters + 5.3 + width) of its estimate of the key's type,
# 0.637 em of it a character, while a character is drawn in about 0.52 em (measured in the
# PDFs): key_width's `width` makes gnuplot's column what its text, sample and gaps take,
# key_em(longest) in ems of the main type (small_k: the small type against 85% of the main,
# 1 but where the 7 pt floor raised it): 0.65 em of the main type a character of the key's
# width as pngcairo sizes it (measured at a column's width: 0.637 left two columns of the time
# chart's key 1.6 em wider than the page, its first samples cut at the left edge), and
# key_width whole characters, as gnuplot takes it. key_cols counts the columns the page holds
# (key_room: the page less the plot's right margin). gnuplot centres the key on the plot,
# whose left margin is about 6 em wider than its right: a key wider than the page less 6 em
# is aligned to the plot's right instead, or its last column runs past the page (key_at).
# A line longer than the key's room (key_chars; a pair's "<eager> / fused (1 kernel)" at a
# column's width) drops its last "(...)", the fused side's count or a series' count
# (key_title), then if need be its eager side's count; an overlay's "[name]" stays.
small_k = smallsize / (0.85 * fontsize)
key_em(longest) = small_k * 0.5525 * (longest + 5.3 + key_width(longest))
key_width(longest) = -int(0.18 * longest)
key_room = page_w / em - 2
key_at(longest, cols) = cols * key_em(longest) <= page_w / em - 6 ? 'below center' : 'below right'
key_cols(longest) = (key_c = int(key_room / key_em(longest)), \
    key_c < 1 ? 1 : key_c > 4 ? 4 : key_c)
key_chars = int((key_room / small_k - 2.87) / 0.444)
# (pngcairo refuses a column sooner: 'difficulty fitting plot titles into key' past about
# 1.75 characters an em of the plot's width, the page less 7 em)
key_png = int(((page_w / em - 7) * 1.75 / small_k - 5.3) / 0.82)
key_chars = key_png < key_chars ? key_png : key_chars
# the longest line of a key in two columns
key_chars2 = int((key_room / 2 / small_k - 2.87) / 0.444)
last_open(t, from) = (key_k = strstrt(t[from + 1:], ' ('), key_k > 0 ? last_open(t, from + key_k) : from)
drop_last(t) = last_open(t, 0) > 0 ? t[1:last_open(t, 0) - 1] : t
key_title(t) = strlen(t) <= key_chars || last_open(t, 0) <= strstrt(t, ' / ') ? t : \
    strlen(drop_last(t)) <= key_chars ? drop_last(t) : key_bare(t)
# and one still too long, its eager side's count too ("torch eager, out=: add, relu /
# torch.compile, out="; label_first and last_open on the label's parts), and no further
key_bare(t) = (key_e = label_first(t), key_f = t[strstrt(t, ' / ') + 3:], \
    drop_last(key_e).' / '.drop_last(key_f))
key_one_column(longest) = sprintf("set key %s maxcols 1 width %d", key_at(longest, 1), \
    key_width(longest))
key_columns(longest, entries) = sprintf("set key %s vertical maxrows %d width %d", \
    key_at(longest, key_cols(longest)), key_rows(longest, entries), key_width(longest))
key_rows(longest, entries) = int(ceil(entries * 1.0 / key_cols(longest)))
# The y axis' title: `long` where the plot is tall enough for it (a character about 0.55 em;
# the plot: the page less about 9 em of title and x axis and the key's `rows` lines), else
# `short`: a title longer than the plot runs off the page's top.
plot_room(rows) = page_h / em - 9 - 0.85 * small_k * rows
y_title(long, short, rows) = 0.55 * strlen(long) <= plot_room(rows) ? \
    long : short
# Ticks on a linear y axis from 0 to `top` on a plot that a long key leaves short (room for
# less than 8 labels 1.4 em apart: a column's overlaid summary): every 1, 2 or 5 x 10^k that
# keeps them 1.4 em apart, where gnuplot's own step (it looks at the range only) ran them
# into each other. A plot with room keeps gnuplot's.
nice_step(x) = (tick_p = 10 ** floor(log10(x)), x <= tick_p ? tick_p : x <= 2 * tick_p ? \
    2 * tick_p : x <= 5 * tick_p ? 5 * tick_p : 10 * tick_p)
y_ticks(top, rows) = plot_room(rows) >= 8 * 1.4 ? 'set ytics autofreq' : \
    sprintf('set ytics %g', nice_step(top / (plot_room(rows) > 2.8 ? plot_room(rows) / 1.4 : 2)))
# A key of `entries` lines up to `longest` characters: in columns where the page holds two
# or more (a wide page: the key would otherwise take half its height), else in one.
key_auto(longest, entries) = key_cols(longest) >= 2 ? \
    key_columns(longest, entries) : key_one_column(longest)
# A key of `series` lines and others: past 6 series, where one column would leave no plot,
# two (gnuplot drops a key of 25 lines), with short samples (at gnuplot's 2.5 characters a
# column's width ran the first column's past the page's left edge; colour and marker tell
# the series apart), else key_auto.
key_series(longest, entries, series) = series > 6 && key_cols(longest) < 2 && \
    plot_room(entries) < 4 ? sprintf("set key below right vertical samplen 1.2 maxrows %d width %d", \
    int(ceil(entries / 2.0)), key_width(longest)) : key_auto(longest, entries)
# On a wide page (a slide, a figure across two columns) a key of one column took half the
# height: there key_title cuts its lines to half the page, so that they take two columns.
if (page_w > 1.5 * page_h) { key_chars = key_chars2 }
# A series' or a pair's label in short, for a key of more than 6 ("eager add_k3: add, relu,
# ... (4 kernels) / fused (1 kernel)" -> "eager add_k3 (4 kernels)"): a chain's name and its
# count; a built-in variant, whose "how" is one word ("eager: add, relu (2 kernels)"), keeps
# its words up to 36 characters, half a column's width ("copy (1 kernel)" past them).
label_first(t) = strstrt(t, ' / ') > 0 ? t[1:strstrt(t, ' / ') - 1] : t
label_how(t) = strstrt(t, ':') == 0 ? '' : t[1:strstrt(t, ':') - 1]
label_count(t) = label_first(t)[last_open(label_first(t), 0):]
short_title(t) = strlen(label_how(t)) == 0 ? label_first(t) : \
    strstrt(label_how(t), ' ') == 0 && strlen(label_first(t)) <= 36 ? label_first(t) : \
    label_how(t).label_count(t)
# and for a key in two columns, without its count where the line is longer than they hold
# ("eager graph (2 kernels, 1 launch)" at a column's width)
short_key(t) = strlen(short_title(t)) <= key_chars2 || last_open(short_title(t), 0) == 0 ? \
    short_title(t) : short_title(t)[1:last_open(short_title(t), 0) - 1]
# A pair's key line: in short past 6 pairs (a chain-length run's 13) and without the "eager"
# every line begins with (the title says it), else whole, cut to the page (key_title).
many = NX > 6
no_eager(t) = t[1:6] eq 'eager ' ? t[7:] : t[1:7] eq 'eager: ' ? t[8:] : t
pair_key(t) = many ? no_eager(short_key(t)) : key_title(t)

# Every chart's title: what it shows, then the device and the date of the run (noenhanced:
# device names carry characters that enhanced text would eat, "CPU @ 2.70GHz").
# Lines longer than the plot is wide wrap at a space (the title is centred over the plot, so
# a line wider than it runs off the page; the plot is the page less about 10 characters of
# margins; a character drawn is about half an em): at --size column a device name and date do
# not fit on one line.
last_space(s, w) = w < 1 ? 0 : (s[w:w] eq ' ' ? w : last_space(s, w - 1))
wrap(s, w) = strlen(s) <= w ? s : (last_space(s, w + 1) > 1 ? \
    s[1:last_space(s, w + 1) - 1] . "\n" . wrap(s[last_space(s, w + 1) + 1:], w) : s)
title_chars = int(page_w / (0.5 * em)) - 12
# A title that wraps is cut into lines of about one length: the narrowest width that takes no
# more lines than w does, none of them longer than w (wrapped at w, a column's glance title
# left "goes" alone on a line; wrap leaves a word longer than its width whole, with the rest
# of its line).
newlines(s) = strstrt(s, "\n") > 0 ? 1 + newlines(s[strstrt(s, "\n") + 1:]) : 0
widest(s, m) = strstrt(s, "\n") > 0 ? widest(s[strstrt(s, "\n") + 1:], \
    strstrt(s, "\n") - 1 > m ? strstrt(s, "\n") - 1 : m) : (strlen(s) > m ? strlen(s) : m)
even_w(s, w, v) = v >= w || newlines(wrap(s, v)) <= newlines(wrap(s, w)) && \
    widest(wrap(s, v), 0) <= w ? v : even_w(s, w, v + 1)
even_wrap(s, w) = strlen(s) <= w ? s : wrap(s, even_w(s, w, int(strlen(s) / (newlines(wrap(s, w)) + 1))))
chart_title(what) = even_wrap(what, title_chars) . "\n" . \
    even_wrap(device . (strlen(day) > 0 ? ', ' . day : ''), title_chars)

# n spans 8 .. 1e8 elements: powers of ten on a log axis.
set logscale x 10
set format x '10^{%L}'
set xlabel 'n (elements per tensor)'
set xrange [nmin / 1.6 : nmax * 1.6]

have_cache = (n_cache > nmin / 1.6 && n_cache < nmax * 1.6)
cache_colour = '#6a3d9a'
# The cache's line on a chart against n, named in the key (@cache_key), not beside the line: a
# vertical label there crossed the data at every page size.
cache_line = have_cache ? "set arrow from n_cache, graph 0 to n_cache, graph 1 nohead lc rgb cache_colour lw 1.5 dt 3" : ""
cache_key = have_cache ? "keyentry with lines lc rgb cache_colour lw 1.5 dt 3 title cache_text, " : ""

# Points another program disturbed (status noisy) are drawn hollow (noisy_time.tsv, noisy_speedup.tsv,
# by the charts that have them) and counted in a footnote. The footnote gets a strip of its
# own at the page's bottom, below the key and the axis titles: the plot, its margins and its
# key are drawn in the rest of the page (set origin/size; multiplot layouts take foot_h as
# their offset), so that it never sits on a legend line, a tick label or the data. Two lines,
# split after the "; ", so that it fits a column's width.
# one line of the small type as a fraction of the page (png and svg: 96 px per point's inch
# as pngcairo draws it; pdf: points over a page in inches)
foot_line = (fmt eq 'pdf' ? smallsize / 72.0 : smallsize * 96.0 / 72.0) * 1.25 / page_h
foot_h = 0
if (noisy > 0) {
    foot_cut = strstrt(noisy_text, '; ')
    foot_text = foot_cut > 0 ? noisy_text[1:foot_cut]."\n".noisy_text[foot_cut + 2:] : noisy_text
    foot_h = (foot_cut > 0 ? 2.4 : 1.4) * foot_line
    set label 9999 foot_text at screen 0.01, screen foot_h - 0.9 * foot_line left \
        tc rgb '#b22222' noenhanced font small_font
    set origin 0, foot_h
    set size 1, 1 - foot_h
}
set samples 400
