#!/usr/bin/env bash
# The CPU backend's loops must be vectorised (its kernels are "the same vector-friendly
# structure" as the GPU's): compile src/backends/cpu/cpu_kernels.c as the build does
# (-O3 -fopenmp) and count the loops gcc reports vectorised ("loop vectorized using 16 byte
# vectors": one per loop; a second report with 8-byte vectors is its epilogue). The loops
# are generated from the op table (kernels/op_table.h), so they share source lines: the
# count, not the lines, is checked. Expected, from the table:
#   one fp32 pass per op with ULP_BOUND 0            (fb_cpu_<name>_fp32)
#   one tile loop per op with ULP_BOUND 0            (the generic chain pass, chain_tile_op;
#                                                     the tile is fp32 whatever the storage)
#   one work-shared fp32 pass per op with ULP_BOUND 0 (fb_cpu_shared_<name>: the passes of
#                                                     one parallel region, run_group)
#   the handwritten add_relu pass (fp32)             1
#   its tile loop for streaming stores (fp32)        1
#   the tiled pass's conversions                     4 (widen and narrow, fp16 and bf16)
# fp16 and bf16 arrays run every op through the tiled pass (cpu_kernels.h): their loops are the
# tile loops and the conversions, whose integer and float operations and selects
# (kernels/dtype_convert.h) vectorise with SSE2; fp16's F16C path is written with intrinsics.
# With streaming stores a single op runs as a one-op chain, and a work-shared pass through
# the chain's tile loop, so they add no loop; the store layer's movntdq loop is
# written with intrinsics, in cpu_store.c.
# The transcendental ops (ULP_BOUND > 0) are left out of both: their loops
# call expf, and gcc vectorises a libm call only through glibc's vector math library
# (libmvec), whose declarations glibc's <math.h> makes only under -ffast-math, which the
# result contract forbids (kernels/elementwise_contract.h). They run scalar on the CPU.
#   check_cpu_vectorized.sh CC SOURCE_ROOT
# Exit 77 (skip) when the compiler is not gcc (-fopt-info is gcc's).
set -u
cc=$1 root=$2
if ! "$cc" --version 2>/dev/null | grep -qi 'gcc\|free software foundation'; then
    echo "skip: $cc is not gcc; -fopt-info-vec is gcc's report"
    exit 77
fi
# X(name, arity, n_params, "param names", ulp_bound) lines of the table
exact=$(sed -n 's/^ *X(\([a-z_0-9]*\), *[0-9]*, *[0-9]*, *"[^"]*", *\([0-9]*\)).*/\1 \2/p' \
    "$root/kernels/op_table.h" | awk '$2 == 0 { print $1 }')
transcendental=$(sed -n 's/^ *X(\([a-z_0-9]*\), *[0-9]*, *[0-9]*, *"[^"]*", *\([0-9]*\)).*/\1 \2/p' \
    "$root/kernels/op_table.h" | awk '$2 > 0 { print $1 }')
n_exact=$(printf '%s\n' $exact | grep -c .)
[ "$n_exact" -ge 2 ] || { echo "FAIL: could not read the op table ($n_exact exact ops)"; exit 1; }
expected=$((3 * n_exact + 2 + 4))
report=$("$cc" -std=c11 -O3 -fopenmp -fopt-info-vec-optimized -I"$root/src" -I"$root/kernels" \
    -c "$root/src/backends/cpu/cpu_kernels.c" -o /dev/null 2>&1) || {
    echo "$report"; echo "FAIL: cpu_kernels.c did not compile"; exit 1; }
echo "$report"
loops=$(printf '%s\n' "$report" | grep -c 'loop vectorized using 16 byte vectors')
echo "exact ops: " $exact
echo "not vectorised (expf, see above): " $transcendental
echo "vectorised loops: $loops (expected $expected: an fp32 pass, a chain tile loop and a work-shared fp32 pass per exact op, add_relu's pass and streaming tile loop, 4 tile conversions)"
[ "$loops" -eq "$expected" ] || { echo "FAIL"; exit 1; }
