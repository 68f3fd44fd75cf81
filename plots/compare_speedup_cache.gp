# compare_speedup_cache.gp: each run's fusion speedup against the working set over its own
# last-level cache (r<i>.dat column ws = n / n_cache, fusebench's: 1 is where the eager
# chain's arrays fill that run's cache), so that devices of different cache sizes line up.
set title compare_title('Fusion speedup vs working set / last-level cache, per run') noenhanced
set ylabel 'speedup (median time ratio; bars: p10..p90)'
set xlabel 'working set / last-level cache (the eager chain''s arrays)'
set format x '10^{%L}'
set xrange [ws_min / 1.6 : ws_max * 1.6]
set arrow 1 from 1, graph 0 to 1, graph 1 nohead lc rgb cache_colour dt 2 lw 1.5
plot 1 with lines lc rgb '#999999' dt 1 lw 1 title 'no gain', \
     for [i=1:NR] run_data(i) using 2:3:4:5 with yerrorlines \
        lc rgb RC[i] pt RP[i] ps 1.2 lw 2 title RT[i]
