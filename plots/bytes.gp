# bytes.gp: DRAM traffic per output element, model against measured (CUPTI dram__bytes_read
# + dram__bytes_write over n, in elements of the row's dtype: dram_bytes_per_element). The
# model lines (bytes_lines.tsv) are each series' arrays moved per call. Below the cache size
# the measured value falls under the model: the data never leaves the cache.
ND = rows_dram; NBL = rows_bytes_lines
array DI[max1(ND)]
if (ND > 0) { stats 'dram.tsv' using (DI[int(column("j"))] = int(column("i")), 0) nooutput }
set title chart_title('DRAM traffic per element: model vs measured (CUPTI)') noenhanced
set ylabel 'DRAM traffic per element (elements)'
set yrange [0 : *]
set ytics 1

eval cache_line  # (style.gp)
array BV[max1(NBL)]; array BT[max1(NBL)]; array BC[max1(NBL)]; array BD[max1(NBL)]
if (NBL > 0) {
    stats 'bytes_lines.tsv' using (i = int(column("i")), BV[i] = column("value"), \
        BT[i] = strcol("title"), BC[i] = strcol("colour"), BD[i] = int(column("dt")), \
        0) nooutput
}
model_lines = NBL > 0 ? "for [i=1:NBL] BV[i] with lines lc rgb BC[i] dt BD[i] lw 1.5 title BT[i], " : ""
plot @cache_key @model_lines \
     for [j=1:ND] series(DI[j]) using 1:6 with linespoints \
        lc rgb SC[DI[j]] dt SD[DI[j]] pt SP[DI[j]] ps 1.4 lw 1.5 title ST[DI[j]]
