# bytes.gp: DRAM traffic per output element, model against measured (CUPTI dram__bytes_read
# + dram__bytes_write over n, in elements of 4 bytes: the column dram_bytes_per_element).
# Model: eager moves 5 (a, b read, tmp written; tmp read, c written), fused 3, copy 2. Below
# the cache size the measured value falls under the model: the data never leaves the cache.
set title chart_title('DRAM traffic per element: model vs measured (CUPTI)') noenhanced
set ylabel 'DRAM traffic per element (elements of 4 B)'
set key outside right top
set yrange [0 : 6]
set ytics 1

if (have_cache) {
    set arrow from n_cache, graph 0 to n_cache, graph 1 nohead lc rgb cache_colour lw 1.5 dt 3
    set label cache_text at n_cache, graph 0.97 right rotate by 90 offset -1.0, 0 \
        tc rgb cache_colour noenhanced font ',16'
}

plot 5 with lines lc rgb '#d62728' dt 2 lw 1.5 title 'model eager: 5', \
     3 with lines lc rgb '#1f77b4' dt 2 lw 1.5 title 'model fused: 3', \
     2 with lines lc rgb '#000000' dt 3 lw 1 title 'model copy: 2', \
     for [i=1:NDRAM] DF[i] using 1:6 with linespoints \
        lc rgb DC[i] dt DD[i] pt DP[i] ps 1.4 lw 1.5 title DT[i]
