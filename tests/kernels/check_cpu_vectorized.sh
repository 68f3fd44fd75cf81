#!/usr/bin/env bash
# The CPU backend's loops must be vectorised (its kernels are "the same vector-friendly
# structure" as the GPU's): compile src/backends/cpu/cpu_loops.c once per instruction set, as
# the build does (src/backends/meson.build passes each set's flags here), and count the loops
# gcc reports vectorised at the set's width ("loop vectorized using N byte vectors": 16 for
# baseline SSE2, 32 for AVX2, 64 for AVX-512; a second report at a smaller width is the
# loop's epilogue). The loops are generated from the op table (kernels/op_table.h), so they
# share source lines: the count, not the lines, is checked. Expected, from the table:
#   one loop per pair of ops (cpu_loops.c: a first op of either arity, a unary second one),
#     every pair, the transcendental ones included: their exp is plain arithmetic
#     (src/backends/cpu/cpu_math.h), which vectorises like the exact ops
#   the handwritten add_relu loop                       1
#   the portable 16-bit conversions                      4 (widen and narrow, fp16 and bf16)
#   the 16-bit copy (its bits moved)                     1
#   the transcendental ops' exp alone (for its test)     1
#   the exact chains' strips in registers: one loop of one vector per op of the strip's
#     switches and vector of the strip (FB_CPU_STRIP_VECTORS, read from cpu_loops.c): the
#     exact ops as a chain's first op, the exact unary ones as a later op, copy left out in
#     both (its input unchanged is no loop to vectorise)
# Every pass is made of these: an eager op is the pair (op, copy); a chain is pairs or a
# strip; 16-bit passes add the conversions (fp16's F16C path is written with intrinsics); the
# streaming store layer's movntdq loop is written with intrinsics, in cpu_store.c.
#   check_cpu_vectorized.sh CC SOURCE_ROOT BUILD_ROOT NAME:BYTES:FLAGS...
# (one NAME:BYTES:FLAGS per set: its name, its vector width in bytes, its compiler flags).
# Exit 77 (skip) when the compiler is not gcc (-fopt-info is gcc's).
set -u
cc=$1 root=$2 build=$3
shift 3
if ! "$cc" --version 2>/dev/null | grep -qi 'gcc\|free software foundation'; then
    echo "skip: $cc is not gcc; -fopt-info-vec is gcc's report"
    exit 77
fi
# X(name, arity, n_params, "param names", ulp_bound) lines of the table
table=$(sed -n 's/^ *X(\([a-z_0-9]*\), *\([0-9]*\), *[0-9]*, *"[^"]*", *\([0-9]*\)).*/\1 \2 \3/p' \
    "$root/kernels/op_table.h")
count() { printf '%s\n' "$table" | awk "$1" | grep -c .; }
all=$(count '{print $1}') unary=$(count '$2 == 1 {print $1}')
exact=$(count '$3 == 0 {print $1}') exact_unary=$(count '$2 == 1 && $3 == 0 {print $1}')
[ "$exact" -ge 2 ] && [ "$unary" -ge 2 ] || { echo "FAIL: could not read the op table"; exit 1; }
strip_vectors=$(sed -n 's/^#define FB_CPU_STRIP_VECTORS \([0-9]*\).*/\1/p' \
    "$root/src/backends/cpu/cpu_loops.c")
[ -n "$strip_vectors" ] || { echo "FAIL: no FB_CPU_STRIP_VECTORS in cpu_loops.c"; exit 1; }
strips=$((strip_vectors * (exact - 1 + exact_unary - 1)))
gcc_major=$("$cc" -dumpversion | cut -d. -f1)
status=0
for spec in "$@"; do
    name=${spec%%:*} rest=${spec#*:}
    bytes=${rest%%:*} flags=${rest#*:}
    pairs=$((all * unary)) what="every pair: $all first ops x $unary unary second ops"
    expected=$((pairs + 1 + 4 + 1 + 1 + strips))
    # shellcheck disable=SC2086 # flags are words
    report=$("$cc" -std=c11 -O3 -fopenmp $flags -fopt-info-vec-optimized -I"$build" \
        -I"$root/src" -I"$root/kernels" -c "$root/src/backends/cpu/cpu_loops.c" -o /dev/null 2>&1) || {
        echo "$report"; echo "FAIL: cpu_loops.c did not compile for $name"; exit 1; }
    loops=$(printf '%s\n' "$report" | grep -c "loop vectorized using $bytes byte vectors")
    echo "$name: $loops loops vectorised with $bytes-byte vectors (expected $expected: $pairs pairs," \
         "$what; add_relu; 4 conversions; the 16-bit copy; the exp; $strips in the exact strips)"
    if [ "$loops" -lt "$expected" ] && [ $((expected - loops)) -le 2 ] &&
        [ "$gcc_major" -lt 12 ]; then
        # gcc 10 (Debian 11) leaves 2 of the loops unvectorised at every width (148 of 150
        # with SSE2, AVX2 and AVX-512: "control flow in loop" in one pair, "no vectype" in the
        # fp16 widening): a compiler limit, not this code's; gcc 12 vectorises them all and
        # CI checks that in its Debian 12 stages. More than 2 missing still fails.
        echo "note: gcc $gcc_major leaves $((expected - loops)) of $expected loops" \
             "unvectorised at $bytes bytes (gcc 12 and newer: none); not a failure"
    elif [ "$loops" -ne "$expected" ]; then
        echo "$report"
        echo "FAIL: $name"
        status=1
    fi
done
exit $status
