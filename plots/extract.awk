# extract.awk: turn one fusebench results CSV into small whitespace-separated .dat files that
# the gnuplot scripts read, so that the chart scripts never parse CSV themselves.
#
# Usage: awk -v out=DIR -v tag=TAG -f plots/extract.awk RESULTS.csv
#
# Columns are looked up by header name, never by position: an older CSV with fewer columns or
# another order gives the same .dat files (a column it lacks becomes NaN, which gnuplot skips).
# Only rows with status "ok" are kept (every row when the CSV has no status column). Rows with
# status "noisy" (another program disturbed their samples: their times are not the kernels')
# are not drawn either, but counted, so that every chart can say how many were left out. When
# the same series has two rows at one n (a resumed sweep), the later row wins.
#
# Writes, under DIR:
#   TAG.meta        "key<TAB>value": the "# key: value" metadata lines, plus derived values
#                   n_min, n_max (plotted sizes), n_launch (end of the launch-bound regime),
#                   n_launch_from ("fit" or "data": see below), speedup_max, has_dram (1 when
#                   any dram_bytes_per_element is present), bandwidth_max, copy_bandwidth_max
#                   (GB/s, of the copy ceiling; 0 when none), noisy_points (rows with status
#                   noisy, not drawn), stores_normal and stores_streaming (1 when the rows
#                   drawn include normal-store / streaming-store rows: the byte models differ)
#   TAG.series      "key<TAB>dat file<TAB>rows<TAB>dram rows<TAB>launches<TAB>bytes per
#                   element<TAB>role<TAB>model launches<TAB>copy fraction rows": one line per
#                   series (launches and bytes_model / n of its last row that has them, NaN
#                   when none: the fitted model's inputs; role: copy_ceiling,
#                   platform_reference, eager, fused, or "" when unknown; model launches -1
#                   when there is none; the rows with a copy_fraction)
#   TAG-s<i>.dat    n  t_median_s  t_p10_s  t_p90_s  bandwidth_gbps  dram_elems_per_elem
#                   launches  kernel_time_s  copy_fraction     (sorted by n by the caller)
#   TAG.speedup     "eager key<TAB>pair key<TAB>dat file<TAB>eager launches<TAB>eager bytes
#                   per element<TAB>pair launches<TAB>pair bytes per element": one line per
#                   speedup series; its launches are the fitted model's, the host_launches
#                   column (launches the host issues: 1 for eager_add_relu_graph, whose 2
#                   kernels go in one launch), or launches where the CSV has no such cell
#   TAG-x<i>.dat    n  speedup  speedup_lo  speedup_hi
#
# Pairs and speedups are data (src/measure/pairing.h): a series of role eager is drawn against
# the series its `pair` column names, with the `speedup` column as written (t_eager / t_fused,
# computed once by fusebench; an empty cell - a noisy or failed pair - is no point). The band
# pairs the eager p10 with the pair's p90 and vice versa, a deliberately wide one. Nothing
# here knows a variant's name.
# Older files (no pair column, written before fusebench wrote pairs) fall back to names, and
# only they: a series whose name holds "eager" is eager and is paired with the series named the
# same with "fused" (then "compile") in place of "eager", else with the first series whose name
# has the same text before "eager" followed by "fused" or "compile"; their speedup is
# t_eager / t_fused of the medians; the copy ceiling is the series whose copy_fraction is 1 at
# every n (the writer measured every row against it).
# Exit status 2 (message on stderr naming the file) when the CSV has no header, lacks a
# required column (variant, n, time_median_s) or has no plottable row.

BEGIN {
    FS = ","
    have_header = 0
    nseries = 0
    rows_ok = 0
    noisy = 0
    bad = 0
    bwmax = 0; copymax = 0
    # Control characters as visible escapes (see printable); codes 1-31 and 127.
    for (i = 1; i < 32; i++) esc[sprintf("%c", i)] = sprintf("\\x%02x", i)
    esc["\t"] = "\\t"
    esc[sprintf("%c", 127)] = "\\x7f"
}

function fail(msg) {
    printf "render: %s: %s\n", FILENAME, msg > "/dev/stderr"
    bad = 1
    exit 2
}

# Split a CSV line into f[1..]: handles "quoted, fields" and "" escapes; returns the count.
function csv_split(line, f,    n, i, c, cur, inq) {
    if (index(line, "\"") == 0)
        return split(line, f, ",")
    n = 0; cur = ""; inq = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (inq) {
            if (c == "\"") {
                if (substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ }
                else inq = 0
            } else cur = cur c
        } else if (c == "\"") inq = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}

# s with every control character written as \t or \xHH. Names and metadata from the CSV end
# up in TAB-separated tables, gnuplot strings and SVG text: a raw TAB would split a table row
# and a control byte makes the SVG invalid XML.
function printable(s,    out, i, c) {
    if (s !~ /[\001-\037\177]/) return s
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        out = out ((c in esc) ? esc[c] : c)
    }
    return out
}

function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }

# The value of column `name` in the current row, or "" when the CSV has no such column.
function col(name) { return (name in idx) ? trim(F[idx[name]]) : "" }

function num(s) { return (s == "" || s !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/) ? "NaN" : s + 0 }

function isnan(s) { return s == "NaN" }

# The number in metadata line `key`, NaN when absent or empty (without adding the key).
function metanum(key) { return (key in meta) ? num(meta[key]) : "NaN" }

function fmtv(x) { return isnan(x) ? "NaN" : sprintf("%.10g", x) }

{ sub(/\r$/, "") }

/^[ \t]*#/ {
    if (!have_header && match($0, /^[ \t]*#[ \t]*[A-Za-z0-9_]+[ \t]*:/)) {
        line = $0
        sub(/^[ \t]*#[ \t]*/, "", line)
        key = line; sub(/[ \t]*:.*$/, "", key)
        val = line; sub(/^[^:]*:[ \t]*/, "", val)
        meta[key] = printable(trim(val))
    }
    next
}

/^[ \t]*$/ { next }

!have_header {
    nh = csv_split($0, H)
    for (i = 1; i <= nh; i++) idx[trim(H[i])] = i
    if (!("variant" in idx) || !("n" in idx) || !("time_median_s" in idx))
        fail("not a fusebench results CSV: the header needs the columns variant, n and " \
             "time_median_s (got: " $0 ")")
    have_header = 1
    has_pairs = ("pair" in idx)
    next
}

{
    csv_split($0, F)
    if (("status" in idx) && col("status") == "noisy") { noisy++; next }
    if (("status" in idx) && col("status") != "ok") next
    n = num(col("n")); t = num(col("time_median_s"))
    if (isnan(n) || isnan(t) || n <= 0 || t <= 0) next

    # A series is a variant; a non-fp32 dtype, streaming stores or a cold-cache run is a
    # series of its own (a missing or empty stores cell is normal stores, as the reader says).
    key = printable(col("variant"))
    dt = printable(col("dtype"))
    if (dt != "" && dt != "float32" && dt != "fp32" && dt != "f32") key = key "-" dt
    if (col("stores") == "streaming") { key = key "-streaming"; stores_streaming = 1 }
    else stores_normal = 1
    if (col("cache") == "cold") key = key "-cold"
    if (first_device == "") {
        first_device = printable(col("device")); first_backend = printable(col("backend"))
    }
    if (!(key in sid)) {
        sid[key] = ++nseries; skey[nseries] = key; sbase[nseries] = printable(col("variant"))
        # bytes per element of the series' dtype: 2 for fp16 and bf16 (float16, bfloat16)
        selem[nseries] = (dt ~ /^(fp16|bf16|float16|bfloat16|f16)$/) ? 2 : 4
    }
    s = sid[key]

    p10 = num(col("time_p10_s")); if (isnan(p10)) p10 = t
    p90 = num(col("time_p90_s")); if (isnan(p90)) p90 = t
    bw = num(col("bandwidth_gbps"))
    bm = num(col("bytes_model"))
    if (isnan(bw) && !isnan(bm)) bw = bm / t / 1e9     # GB/s = bytes / s / 1e9
    dram = num(col("dram_bytes_per_element"))
    launches = num(col("launches"))
    hostl = num(col("host_launches"))
    if (isnan(hostl)) hostl = launches   # older CSVs: every kernel was its own launch
    kt = num(col("kernel_time_s"))

    if (!((s, n) in row)) { ns[s]++; nlist[s, ns[s]] = n }
    suffix = substr(key, length(sbase[s]) + 1)
    if (has_pairs) {
        srole[s] = printable(col("role"))
        spair[s] = (col("pair") == "") ? "" : printable(col("pair")) suffix
        sp_read[s, n] = num(col("speedup"))
    } else if (num(col("copy_fraction")) != 1) {
        not_ceiling[s] = 1
    }
    cf = num(col("copy_fraction"))
    row[s, n] = fmtv(n) " " fmtv(t) " " fmtv(p10) " " fmtv(p90) " " fmtv(bw) " " fmtv(dram) \
        " " fmtv(launches) " " fmtv(kt) " " fmtv(cf)
    hascf[s, n] = !isnan(cf)
    tmed[s, n] = t; tlo[s, n] = p10; thi[s, n] = p90
    hasdram[s, n] = !isnan(dram)
    if (!isnan(launches)) lastlaunch[s] = launches
    if (!isnan(hostl)) lasthost[s] = hostl
    if (!isnan(bm)) lastbpe[s] = bm / n      # bytes_model per element: the model's bytes(n) / n
    if (!isnan(bw) && bw > bwmax) bwmax = bw
    rowbw[s, n] = bw
    rows_ok++
}

# The model's launches per call of series s (src/plan/variants.h), from its role and, for an
# eager series, from its model traffic: a chain of k ops moves 3 + 2 (k - 1) elements per
# element when its first op is binary, 2k when unary, so k = floor(elements / 2). -1: no model.
function model_launches(s) {
    if (srole[s] == "copy_ceiling" || srole[s] == "fused") return 1
    if (srole[s] == "platform_reference") return 0
    if (srole[s] == "eager" && (s in lastbpe)) return int(lastbpe[s] / selem[s] / 2) # elements
    return -1
}

END {
    if (bad) exit 2
    if (!have_header) fail("empty or no header line (expected the fusebench CSV header)")
    if (rows_ok == 0)
        fail("no row with status ok and a time to plot" \
             (noisy ? " (" noisy " noisy rows: another program disturbed the run)" : ""))

    # Roles (old files: from the names, see the top) and each series' pair.
    for (s = 1; s <= nseries; s++) {
        if (has_pairs) continue
        srole[s] = (sbase[s] ~ /eager/) ? "eager" : (sbase[s] ~ /fused|compile/) ? "fused" : \
                   (s in not_ceiling) ? "" : "copy_ceiling"
        spair[s] = ""
        if (srole[s] != "eager") continue
        suffix = substr(skey[s], length(sbase[s]) + 1)
        for (pass = 1; pass <= 3 && spair[s] == ""; pass++)
            for (c = 1; c <= nseries && spair[s] == ""; c++) {
                if (c == s || substr(skey[c], length(sbase[c]) + 1) != suffix) continue
                before = substr(sbase[s], 1, index(sbase[s], "eager") - 1)
                after = substr(sbase[s], index(sbase[s], "eager") + 5)
                if ((pass == 1 && sbase[c] == before "fused" after) ||
                    (pass == 2 && sbase[c] == before "compile" after) ||
                    (pass == 3 && index(sbase[c], before) == 1 &&
                     substr(sbase[c], length(before) + 1) ~ /^(fused|compile)/)) spair[s] = skey[c]
            }
    }
    # The copy ceiling's best bandwidth (the bandwidth chart's reference line).
    for (s = 1; s <= nseries; s++) {
        if (srole[s] != "copy_ceiling") continue
        for (j = 1; j <= ns[s]; j++) {
            bw = rowbw[s, nlist[s, j]]
            if (!isnan(bw) && bw > copymax) copymax = bw
        }
    }

    nmin = ""; nmax = ""
    for (s = 1; s <= nseries; s++) {
        dat = out "/" tag "-s" s ".dat"
        dr = 0; fr = 0
        for (j = 1; j <= ns[s]; j++) {
            n = nlist[s, j]
            print row[s, n] > dat
            dr += hasdram[s, n]
            fr += hascf[s, n]
            if (nmin == "" || n < nmin) nmin = n
            if (nmax == "" || n > nmax) nmax = n
        }
        close(dat)
        if (dr > 0) any_dram = 1
        printf "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%d\n", skey[s], dat, ns[s], dr, \
            ((s in lastlaunch) ? lastlaunch[s] : "NaN"), \
            ((s in lastbpe) ? fmtv(lastbpe[s]) : "NaN"), srole[s], model_launches(s), fr \
            > (out "/" tag ".series")
    }

    # Speedup series: every eager series against its pair, at the sizes where both are in.
    nx = 0; smax = 0; pair_main = 0
    for (e = 1; e <= nseries; e++) {
        if (srole[e] != "eager" || spair[e] == "" || !(spair[e] in sid)) continue
        f = sid[spair[e]]
        dat = out "/" tag "-x" (nx + 1) ".dat"
        points = 0
        for (j = 1; j <= ns[e]; j++) {
            n = nlist[e, j]
            if (!((f, n) in tmed)) continue
            sp = has_pairs ? sp_read[e, n] : tmed[e, n] / tmed[f, n]
            if (isnan(sp)) continue
            print fmtv(n), fmtv(sp), fmtv(tlo[e, n] / thi[f, n]), fmtv(thi[e, n] / tlo[f, n]) > dat
            points++
            if (sp > smax) smax = sp
        }
        if (!points) continue
        close(dat)
        nx++
        if (!pair_main) pair_main = f
        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", skey[e], skey[f], dat, \
            ((e in lasthost) ? lasthost[e] : "NaN"), ((e in lastbpe) ? fmtv(lastbpe[e]) : "NaN"), \
            ((f in lasthost) ? lasthost[f] : "NaN"), ((f in lastbpe) ? fmtv(lastbpe[f]) : "NaN") \
            > (out "/" tag ".speedup")
    }

    # End of the launch-bound regime. From the fitted model when the CSV has it (# fit_*
    # lines, src/measure/fit.h): the n at which the fused kernel's bytes take as long as its
    # launches, bytes(n) / B = launches * L, so n = launches * L * B / (bytes per element),
    # with the bandwidth at that size: the cache's (fit_cache_bandwidth_gbps) when fitted,
    # else fit_bandwidth_gbps. Otherwise (older CSVs) from the data: the largest n at which
    # the fused time is still within 2x of its time at the smallest n.
    nlaunch = ""; nlaunch_from = ""
    fitL = metanum("fit_launch_s")
    fitB = metanum("fit_cache_bandwidth_gbps")
    if (isnan(fitB)) fitB = metanum("fit_bandwidth_gbps")
    if (pair_main && !isnan(fitL) && !isnan(fitB) && fitL > 0 && fitB > 0 && \
        (pair_main in lasthost) && (pair_main in lastbpe) && lastbpe[pair_main] > 0) {
        nlaunch = lasthost[pair_main] * fitL * fitB * 1e9 / lastbpe[pair_main]
        nlaunch_from = "fit"
    } else if (pair_main) {
        nlaunch_from = "data"
        f = pair_main; n0 = ""
        for (j = 1; j <= ns[f]; j++) if (n0 == "" || nlist[f, j] < n0) n0 = nlist[f, j]
        for (j = 1; j <= ns[f]; j++) {
            n = nlist[f, j]
            if (tmed[f, n] <= 2 * tmed[f, n0] && (nlaunch == "" || n > nlaunch)) nlaunch = n
        }
    }

    # Older CSVs may lack the metadata lines: fall back to the first plotted row.
    if (!("device" in meta) || meta["device"] == "") meta["device"] = first_device
    if (!("backend" in meta) || meta["backend"] == "") meta["backend"] = first_backend
    m = out "/" tag ".meta"
    for (k in meta) printf "%s\t%s\n", k, meta[k] > m
    printf "n_min\t%s\nn_max\t%s\nn_launch\t%s\nspeedup_max\t%s\nhas_dram\t%d\n", \
        fmtv(nmin), fmtv(nmax), (nlaunch == "" ? "" : fmtv(nlaunch)), fmtv(smax), any_dram > m
    printf "n_launch_from\t%s\n", nlaunch_from > m
    printf "bandwidth_max\t%s\ncopy_bandwidth_max\t%s\n", fmtv(bwmax), fmtv(copymax) > m
    printf "noisy_points\t%d\n", noisy > m
    printf "stores_normal\t%d\nstores_streaming\t%d\n", stores_normal, stores_streaming > m
    close(m)
    if (nx == 0) close(out "/" tag ".speedup")
}
