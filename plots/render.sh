#!/usr/bin/env bash
# render.sh: draw every fusebench chart from results CSVs, without measuring again.
#
#   plots/render.sh RESULTS.csv [MORE.csv ...] [-o OUTDIR] [-n NAME]
#
# The first CSV is the run being charted: it names the outputs (<stem>-<chart>.png and .svg,
# stem = its basename without .csv, or NAME) and gives the titles' device and date, the cache size and
# the peak bandwidth. Further CSVs (e.g. the PyTorch peer's) are overlaid, dashed, on the
# time, speedup, bandwidth and launches charts. When the first CSV measured eager_add_relu in
# several dtypes, plots/dtypes.sh draws <stem>-dtypes.png|svg beside them (the speedup per dtype
# against n and against bytes per tensor). Only rows with status ok are drawn; rows with
# status noisy (disturbed by another program) are left out and every chart says how many.
#
# Each chart is drawn into a temporary directory inside OUTDIR and renamed over the old chart
# only when gnuplot succeeded: a failure or an interrupt (Ctrl-C) leaves the previous chart
# exactly as it was, never a truncated or missing one. Series names (variants) come from the
# CSV: control characters in them (a TAB...) are written as \t, \xHH by extract.awk.
#
# Exit status: 0 charts written; 1 gnuplot failed on a chart (or warned that a data file was
# missing: a chart without its series is a failure, not a chart); 2 usage error or a missing /
# unreadable / malformed CSV (the message names the file); 3 gnuplot (with pngcairo) is not
# installed; 130 interrupted.
# GNUPLOT=/path/to/gnuplot overrides the gnuplot found on PATH.
set -u
# Callers may run it as `sh render.sh` (src/app/plots.c does): re-run under bash, which the
# arrays below need. This block is plain POSIX sh so that dash gets this far.
if [ -z "${BASH_VERSION:-}" ]; then
    command -v bash >/dev/null 2>&1 || { echo "render: bash is required" >&2; exit 2; }
    exec bash "$0" "$@"
fi

here=$(cd "$(dirname "$0")" && pwd)
gnuplot=${GNUPLOT:-gnuplot}

usage() {
    echo "usage: $0 RESULTS.csv [MORE.csv ...] [-o OUTDIR] [-n NAME]" >&2
    echo "  OUTDIR default: $here; NAME (file name stem) default: the first CSV's name" >&2
    exit 2
}

outdir=$here
name=""
csvs=()
while [ $# -gt 0 ]; do
    case $1 in
        -o|--output-dir|--plot-dir)
            [ $# -ge 2 ] || usage
            outdir=$2; shift 2 ;;
        -n|--name)
            [ $# -ge 2 ] || usage
            name=$2; shift 2 ;;
        -h|--help) usage ;;
        --) shift; csvs+=("$@"); break ;;
        -*) echo "render: unknown option '$1'" >&2; usage ;;
        *) csvs+=("$1"); shift ;;
    esac
done
[ ${#csvs[@]} -gt 0 ] || usage

for f in "${csvs[@]}"; do
    if [ -d "$f" ]; then
        echo "render: '$f' is a directory, not a results CSV" >&2; exit 2
    elif [ ! -e "$f" ]; then
        echo "render: cannot read results CSV '$f': no such file" >&2; exit 2
    elif [ ! -r "$f" ]; then
        echo "render: cannot read results CSV '$f': permission denied" >&2; exit 2
    fi
done

if ! command -v "$gnuplot" >/dev/null 2>&1; then
    echo "render: gnuplot not found; install it (Debian/Ubuntu: apt-get install gnuplot-nox)" >&2
    exit 3
fi
if ! "$gnuplot" -e "set terminal pngcairo" >/dev/null 2>&1; then
    echo "render: '$gnuplot' has no pngcairo terminal; install gnuplot-nox" \
         "(apt-get install gnuplot-nox)" >&2
    exit 3
fi

mkdir -p "$outdir" || { echo "render: cannot create output directory '$outdir'" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fb-plots.XXXXXX") || exit 2
# gnuplot draws into $stage, on OUTDIR's file system, so that the final mv is an atomic rename.
stage=$(mktemp -d "$outdir/.render.XXXXXX") ||
    { echo "render: cannot write in the output directory '$outdir'" >&2; rm -rf "$tmp"; exit 2; }
trap 'rm -rf "$tmp" "$stage"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- extract: one tag per CSV (t1, t2, ...), .dat files sorted by n ---------------------------
i=0
for f in "${csvs[@]}"; do
    i=$((i + 1))
    awk -v out="$tmp" -v tag="t$i" -f "$here/extract.awk" "$f" || exit 2
    for d in "$tmp/t$i-"*.dat; do
        [ -e "$d" ] && sort -g -k1,1 -o "$d" "$d"
    done
done

# The value of KEY in tag T's metadata ("" when absent).
meta() { awk -F '\t' -v k="$2" '$1 == k { v = $2 } END { print v }' "$tmp/$1.meta"; }
# A number or the fallback -1 (gnuplot reads -1 as "unknown").
numeric() { case $1 in ''|*[!0-9.eE+-]*) echo -1 ;; *) echo "$1" ;; esac; }
# A gnuplot single-quoted string literal ('' stands for ').
gq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }

# Colours by role (extract.awk reads it from the CSV's role column), the i-th series of a role
# taking the i-th colour of its palette: eager reds and oranges, fused blues and greens, the
# copy ceiling black, the platform's reference grey, anything else browns and purples. No
# variant name is known here: pairs, roles and speedups are data (src/measure/pairing.h).
declare -A palette=(
    [eager]='#d62728 #ff7f0e #e377c2 #bcbd22 #8c2d04 #f768a1'
    [fused]='#1f77b4 #2ca02c #17becf #9467bd #08519c #006d2c'
    [copy_ceiling]='#000000 #404040'
    [platform_reference]='#7f7f7f #a6a6a6'
    [other]='#8c564b #6a3d9a #b15928 #525252'
)
declare -A role_count
# colour ROLE: the next colour of ROLE's palette.
colour() {
    local role=${1:-other} list
    [ -n "${palette[$role]:-}" ] || role=other
    read -r -a list <<<"${palette[$role]}"
    local k=${role_count[$role]:-0}
    role_count[$role]=$((k + 1))
    COLOUR=${list[$((k % ${#list[@]}))]}
}

# short_pair EAGER PAIR: PAIR less the "_..." ending it shares with EAGER, for the legend's
# width ("eager_x_y / fused_x_y" reads "eager_x_y / fused"); also when EAGER holds that
# ending before more of its own ("eager_x_y_graph / fused_x_y" reads "... / fused"); PAIR
# whole when none is shared.
short_pair() {
    local e=$1 rest=$2 best=$2 tail=""
    while [[ $rest == *_* ]]; do
        tail="_${rest##*_}$tail"
        rest=${rest%_*}
        [[ $e == *"$tail" ]] || break
        best=$rest
    done
    if [ "$best" = "$2" ] && [[ $2 == *_* ]] && [[ $e == *"_${2#*_}_"* ]]; then
        best=${2%%_*}
    fi
    printf '%s' "$best"
}

stem=$(basename "${csvs[0]}"); stem=${name:-${stem%.csv}}
{
    echo "outprefix = $(gq "$stage/$stem")"
    echo "scriptdir = $(gq "$here")"
    echo "device = $(gq "$(meta t1 device)")"
    date=$(meta t1 date)
    echo "day = $(gq "${date%%T*}")"
    echo "cache_name = $(gq "$(meta t1 cache_name)")"
    echo "backend = $(gq "$(meta t1 backend)")"
    echo "cache_bytes = $(numeric "$(meta t1 cache_bytes)")"
    echo "peak_gbps = $(numeric "$(meta t1 peak_bandwidth_gbps)")"
    echo "n_launch = $(numeric "$(meta t1 n_launch)")"
    echo "speedup_max = $(numeric "$(meta t1 speedup_max)")"
    echo "copy_max = $(numeric "$(meta t1 copy_bandwidth_max)")"
    echo "label = $(gq "$(meta t1 label)")"
    echo "noisy_points = $(numeric "$(meta t1 noisy_points)")"
    # Which store kinds the first CSV's rows have (extract.awk): the CPU's byte models differ.
    echo "stores_normal = $(numeric "$(meta t1 stores_normal)")"
    echo "stores_streaming = $(numeric "$(meta t1 stores_streaming)")"
    # The fitted model t = launches * L + bytes / B of the first CSV (src/measure/fit.h);
    # -1 where the CSV has none (older runs): the charts then draw no model.
    echo "fit_launch_s = $(numeric "$(meta t1 fit_launch_s)")"
    echo "fit_gbps = $(numeric "$(meta t1 fit_bandwidth_gbps)")"
    echo "fit_cache_gbps = $(numeric "$(meta t1 fit_cache_bandwidth_gbps)")"
    echo "n_launch_from = $(gq "$(meta t1 n_launch_from)")"
} >"$tmp/vars.gp"

# --- series tables (gnuplot arrays): S* every series, D* those with DRAM bytes, X* speedups,
# F* the first CSV's fused series with a copy_fraction ---
nf=0; ns=0; nd=0; nx=0; nxp=0; copyidx=0; nmin=""; nmax=""; bwmax=0
# M*: the series the time chart draws the model for (each eager and fused of the first CSV's
# speedup pairs); P*: the pairs the speedup chart predicts (launches and bytes per element).
nm=0; np=0
declare -A mseen pseen
# The fit is of one format (# fit_format: "dtype fp32, stores normal"): the model curves are
# drawn only for the series of its store kind (a streaming series is keyed "X-streaming").
fit_stores=$(meta t1 fit_format | sed -n 's/.*stores \([a-z]*\).*/\1/p')
fit_stores=${fit_stores:-normal}
series_stores() { case $1 in *-streaming|*-streaming-*) echo streaming ;; *) echo normal ;; esac; }
# Whether every argument is a positive number (a model input, not NaN).
positive() { local v; for v; do awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9.eE+-]+$/ && v + 0 > 0) }' || return 1; done; }
: >"$tmp/launches.dat"
declare -A seen series_colour
for ((t = 1; t <= ${#csvs[@]}; t++)); do
    tstem=$(basename "${csvs[t-1]}"); tstem=${tstem%.csv}
    lo=$(meta t$t n_min); hi=$(meta t$t n_max)
    nmin=$(awk -v a="$nmin" -v b="$lo" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
    nmax=$(awk -v a="$nmax" -v b="$hi" 'BEGIN { print (a == "" || b + 0 > a + 0) ? b : a }')
    bwmax=$(awk -v a="$bwmax" -v b="$(meta t$t bandwidth_max)" 'BEGIN { print (b + 0 > a + 0) ? b : a }')
    # The first CSV's series are solid with filled points, overlays dashed with open points.
    if [ "$t" -eq 1 ]; then dt=1; pts=(7 5 9 11 13 15); else dt=2; pts=(6 4 8 10 12 14); fi
    k=0
    while IFS=$'\t' read -r key dat _rows drows launches _bytes_per_element role model frows; do
        title=$key
        [ -n "${seen[$title]:-}" ] && title="$key ($tstem)"
        seen[$title]=1
        ns=$((ns + 1)); k=$((k + 1))
        colour "$role"; c=$COLOUR; pt=${pts[$(((k - 1) % 6))]}
        series_colour[$t/$key]=$c
        [ "$t" -eq 1 ] && [ "$role" = copy_ceiling ] && [ "$copyidx" -eq 0 ] && copyidx=$ns
        # the model's launches: only for the charted run (peers have their own counting)
        [ "$t" -eq 1 ] || model=-1
        printf 'SF[%d] = %s; ST[%d] = %s; SC[%d] = %s; SP[%d] = %d; SD[%d] = %d\n' \
            $ns "$(gq "$dat")" $ns "$(gq "$title")" $ns "$(gq "$c")" $ns "$pt" $ns $dt \
            >>"$tmp/series.gp"
        if [ "$drows" -gt 0 ]; then
            nd=$((nd + 1))
            printf 'DF[%d] = %s; DT[%d] = %s; DC[%d] = %s; DP[%d] = %d; DD[%d] = %d\n' \
                $nd "$(gq "$dat")" $nd "$(gq "$title")" $nd "$(gq "$c")" $nd "$pt" $nd $dt \
                >>"$tmp/series.gp"
        fi
        if [ "$t" -eq 1 ] && [ "$role" = fused ] && [ "${frows:-0}" -gt 0 ]; then
            nf=$((nf + 1))
            printf 'FF[%d] = %s; FT[%d] = %s; FC[%d] = %s; FP[%d] = %d\n' \
                $nf "$(gq "$dat")" $nf "$(gq "$title")" $nf "$(gq "$c")" $nf "$pt" \
                >>"$tmp/series.gp"
        fi
        if [ "$launches" != NaN ]; then
            # a double-quoted gnuplot data string: no '"' inside, and '\' doubled (gnuplot
            # reads backslash escapes there)
            label=$(printf '%s' "$title" | tr -d '"' | sed 's/\\/\\\\/g')
            printf '%d\t"%s"\t%s\t%s\t%s\n' "$(($(wc -l <"$tmp/launches.dat") + 1))" \
                "$label" "$launches" "${model:--1}" \
                "$((16#${c#\#}))" >>"$tmp/launches.dat"
        fi
    done <"$tmp/t$t.series"
    if [ -e "$tmp/t$t.speedup" ]; then
        while IFS=$'\t' read -r eager pair dat le be lf bf; do
            nx=$((nx + 1))
            [ "$t" -eq 1 ] && nxp=$nx
            title="$eager / $(short_pair "$eager" "$pair")"
            # The same launches on both sides (eager_add_relu_graph's 2 kernels go in 1 launch,
            # as fused's 1): its speedup is what fusion saves in bytes alone, beside the eager
            # series' launches and bytes together; the gap between the two is the launches.
            [ "$le" = "$lf" ] && [ "$le" != NaN ] && title="$title (bytes only)"
            [ "$t" -gt 1 ] && [ -n "${seen[$eager ($tstem)]:-}" ] && title="$title ($tstem)"
            printf 'XF[%d] = %s; XT[%d] = %s; XC[%d] = %s; XP[%d] = %d; XD[%d] = %d\n' \
                $nx "$(gq "$dat")" $nx "$(gq "$title")" $nx "$(gq "${series_colour[$t/$eager]}")" \
                $nx "${pts[$(((nx - 1) % 6))]}" $nx $dt >>"$tmp/series.gp"
            if [ "$t" -eq 1 ] && [ "$(series_stores "$eager")" = "$fit_stores" ] &&
                    positive "$le" "$be" "$lf" "$bf"; then
                for side in eager pair; do
                    if [ $side = eager ]; then mkey=$eager ml=$le mb=$be
                    else mkey=$pair ml=$lf mb=$bf; fi
                    [ -n "${mseen[$mkey]:-}" ] && continue
                    mseen[$mkey]=1; nm=$((nm + 1))
                    printf 'ML[%d] = %s; MB[%d] = %s; MC[%d] = %s\n' $nm "$ml" $nm "$mb" \
                        $nm "$(gq "${series_colour[$t/$mkey]}")" >>"$tmp/series.gp"
                done
                if [ -z "${pseen[$le $be $lf $bf]:-}" ]; then
                    pseen[$le $be $lf $bf]=1; np=$((np + 1))
                    printf 'PLE[%d] = %s; PBE[%d] = %s; PLF[%d] = %s; PBF[%d] = %s; PC[%d] = %s\n' \
                        $np "$le" $np "$be" $np "$lf" $np "$bf" $np "$(gq "${series_colour[$t/$eager]}")" \
                        >>"$tmp/series.gp"
                fi
            fi
        done <"$tmp/t$t.speedup"
    fi
done
{
    echo "NS = $ns; NDRAM = $nd; NX = $nx; NXPRIMARY = $nxp; COPYIDX = $copyidx; NF = $nf"
    for a in F T C P; do echo "array F${a}[$((nf > 0 ? nf : 1))]"; done
    echo "nmin = $nmin; nmax = $nmax; bandwidth_max = $bwmax"
    echo "launchesdat = $(gq "$tmp/launches.dat")"
    echo "array SF[$((ns > 0 ? ns : 1))]; array ST[$((ns > 0 ? ns : 1))]"
    echo "array SC[$((ns > 0 ? ns : 1))]; array SP[$((ns > 0 ? ns : 1))]"
    echo "array SD[$((ns > 0 ? ns : 1))]"
    for a in F T C P D; do echo "array D${a}[$((nd > 0 ? nd : 1))]; array X${a}[$((nx > 0 ? nx : 1))]"; done
    echo "NM = $nm; NP = $np"
    for a in ML MB MC; do echo "array ${a}[$((nm > 0 ? nm : 1))]"; done
    for a in PLE PBE PLF PBF PC; do echo "array ${a}[$((np > 0 ? np : 1))]"; done
    [ -e "$tmp/series.gp" ] && cat "$tmp/series.gp"
} >>"$tmp/vars.gp"

# --- draw ---------------------------------------------------------------------------------------
charts="time speedup bandwidth copy_fraction bytes launches summary"
written=0
for chart in $charts; do
    case $chart in
        bytes) if [ "$nd" -eq 0 ]; then
                   echo "render: skipping the bytes chart: no measured DRAM bytes" \
                        "(no dram_bytes_per_element values in ${csvs[*]})" >&2
                   continue
               fi ;;
        speedup|summary) if [ "$nx" -eq 0 ]; then
                   echo "render: skipping the $chart chart: no eager/fused pair at a common n" >&2
                   continue
               fi ;;
        copy_fraction) if [ "$nf" -eq 0 ]; then
                   echo "render: skipping the copy_fraction chart: no fused series with a" \
                        "copy_fraction in ${csvs[0]}" >&2
                   continue
               fi ;;
        launches) if [ ! -s "$tmp/launches.dat" ]; then
                   echo "render: skipping the launches chart: no launches column" >&2
                   continue
               fi ;;
    esac
    for fmt in png svg; do
        file=$stem-$chart.$fmt
        rm -f "$stage/$file"
        "$gnuplot" -e "fmt = '$fmt'; chart = '$chart'" "$tmp/vars.gp" "$here/style.gp" \
            "$here/$chart.gp" 2>"$tmp/gnuplot.err"
        rc=$?
        # A data file that gnuplot cannot open is one of ours (extract.awk wrote them all): the
        # chart would silently lack series, so it counts as a failure.
        if [ $rc -ne 0 ] || grep -q 'Cannot find or open file' "$tmp/gnuplot.err" ||
                [ ! -s "$stage/$file" ]; then
            cat "$tmp/gnuplot.err" >&2
            echo "render: gnuplot failed on $here/$chart.gp ($fmt, exit $rc);" \
                 "$outdir/$file is left as it was" >&2
            exit 1
        fi
        # gnuplot warns, e.g. about an empty overlay series; pass that on, it is worth seeing.
        [ -s "$tmp/gnuplot.err" ] && sed "s|^|render: $chart.gp: |" "$tmp/gnuplot.err" >&2
        # rename(2): a reader sees the old chart or the new one, never a partial file
        mv -f "$stage/$file" "$outdir/$file" ||
            { echo "render: cannot replace $outdir/$file" >&2; exit 1; }
        echo "$outdir/$file"
        written=$((written + 1))
    done
done
[ "$written" -gt 0 ] || { echo "render: no chart could be drawn" >&2; exit 2; }

# The storage-type chart (plots/dtypes.sh: the add_relu speedup per dtype, against n and
# against bytes per tensor), when the first CSV measured eager_add_relu in several dtypes.
dtypes=$(awk -F, '/^#/ { next }
    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    ("dtype" in c) && $c["variant"] == "eager_add_relu" && !seen[$c["dtype"]]++ { k++ }
    END { print k + 0 }' "${csvs[0]}")
if [ "$dtypes" -gt 1 ]; then
    bash "$here/dtypes.sh" "${csvs[0]}" -o "$outdir" >/dev/null ||
        { echo "render: plots/dtypes.sh failed on ${csvs[0]}" >&2; exit 1; }
    echo "$outdir/$(basename "${csvs[0]}" .csv)-dtypes.png"
fi
exit 0
