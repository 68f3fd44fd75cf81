# ours_ratio.gp: ours against a peer measured in the same process (tools/torch_inprocess.py):
# for each peer series with the column (ours.tsv: its index; s<i>.dat columns 11-13), the
# ratio fusebench derived, t(our mirrored variant) / t(peer variant) at the same n, with its
# interval (measure/pairing.h: from both medians' 95% intervals, >= 90% together). Below 1
# ours is faster.
set title chart_title('Ours / the peer in one process: time ratio vs size') noenhanced
set ylabel sprintf('our time / the peer''s (median ratio; bars: >= %g%% interval)', ours_level)
set logscale y 2
set key outside right top
plot 1 with lines lc rgb '#999999' dt 1 lw 1 title 'equal', \
     for [j=1:NO] series(OI[j]) using 1:11:12:13 with yerrorlines \
        lc rgb SC[OI[j]] dt SD[OI[j]] pt SP[OI[j]] ps 1.2 lw 2 title ST[OI[j]]
