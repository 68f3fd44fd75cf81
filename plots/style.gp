# style.gp: what every fusebench chart shares. Loaded by render.sh after the generated vars.gp
# (series arrays and metadata) and before the chart's own script; `fmt` (png|svg) and `chart`
# come from the command line.
#
# 1600x1000 with 20-point text stays readable when a slide shrinks it to a third of a screen;
# the summary chart, made to stand alone on a slide, uses 28-point text.

fontsize = (chart eq 'summary') ? 28 : 20
if (fmt eq 'svg') {
    set terminal svg size 1600,1000 dynamic enhanced background rgb 'white' \
        font sprintf('Sans,%d', fontsize) linewidth 2
} else {
    set terminal pngcairo size 1600,1000 enhanced background rgb 'white' \
        font sprintf('Sans,%d', fontsize) linewidth 2
}
set output sprintf('%s-%s.%s', outprefix, chart, fmt)

set datafile missing 'NaN'
set border 3 lw 1
set tics nomirror out scale 0.6
set grid xtics ytics mxtics lc rgb '#d8d8d8' lw 0.5 dt 1, lc rgb '#ececec' lw 0.5 dt 1
set key noenhanced Left reverse samplen 2.5 spacing 1.15 box lc rgb '#bbbbbb' opaque
set title noenhanced

# Every chart's title: what it shows, then the device and the date of the run. Charts set it
# noenhanced: device names carry characters that enhanced text would eat ("CPU @ 2.70GHz").
chart_title(what) = sprintf("%s\n%s%s", what, device, (strlen(day) > 0 ? ', '.day : ''))

# n spans 8 .. 1e8 elements: powers of ten on a log axis.
set logscale x 10
set format x '10^{%L}'
set xlabel 'n (elements per tensor, fp32)'
set xrange [nmin / 1.6 : nmax * 1.6]

# The eager chain touches a, b, tmp and c: 4 tensors x 4 bytes = 16 bytes per element, so it
# fits in the last-level cache up to n_cache = cache_bytes / 16 elements.
n_cache = (cache_bytes > 0) ? cache_bytes / 16.0 : -1
have_cache = (n_cache > nmin / 1.6 && n_cache < nmax * 1.6)
cache_text = (cache_bytes > 0) ? sprintf('%s %.0f MB', \
    (strlen(cache_name) > 0 ? cache_name : 'cache'), cache_bytes / 1048576.0) : ''
cache_colour = '#6a3d9a'

# Points another program disturbed (status noisy) are not drawn: say so on the chart, bottom
# left, rather than leave a gap that looks like a point never measured.
if (noisy_points > 0) {
    set label 9999 sprintf('%d noisy point%s not drawn (status noisy: %s)', noisy_points, \
        (noisy_points == 1 ? '' : 's'), 'another program disturbed them') \
        at screen 0.01, screen 0.015 left \
        tc rgb '#b22222' noenhanced font ',14'
}

# The fitted model of the first CSV (render.sh's fit_* variables, -1 when it has none):
#   t(n) = launches * L + bytes_per_element * n / B
# with B beyond the cache (fit_gbps) and, within it, B_c (fit_cache_gbps). The chart scripts
# draw it only when have_fit (L and B known); have_cache_fit adds the cache-resident curves.
have_fit = (fit_launch_s > 0 && fit_gbps > 0)
have_cache_fit = (have_fit && fit_cache_gbps > 0 && cache_bytes > 0)
model_t(launches, bpe, n, gbps) = launches * fit_launch_s + bpe * n / (gbps * 1e9)
# the cache-resident curve, drawn only where the call's bytes fit in the cache
model_tc(launches, bpe, n) = (bpe * n <= cache_bytes) ? model_t(launches, bpe, n, fit_cache_gbps) : NaN
seconds_text(t) = (t < 1e-6) ? sprintf('%.0f ns', t * 1e9) : sprintf('%.2f µs', t * 1e6)
cache_label = (strlen(cache_name) > 0) ? cache_name : 'cache'
gbps_text(b) = (b >= 100) ? sprintf('%.0f GB/s', b) : sprintf('%.3g GB/s', b)
# the fitted numbers, printed on the time and speedup charts
fit_text = !have_fit ? '' : sprintf("fit: t = launches·L + bytes/B\nL = %s per launch\nB = %s beyond the %s%s", \
    seconds_text(fit_launch_s), gbps_text(fit_gbps), cache_label, \
    have_cache_fit ? sprintf("\nB_c = %s in the %s", gbps_text(fit_cache_gbps), cache_label) : '')
set samples 400
