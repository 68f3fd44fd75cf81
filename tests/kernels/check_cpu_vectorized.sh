#!/usr/bin/env bash
# The CPU backend's loops must be vectorised (its kernels are "the same vector-friendly
# structure" as the GPU's): compile src/backends/cpu/cpu_kernels.c as the build does
# (-O3 -fopenmp) and ask gcc which loops it vectorised. One loop per operation: 5.
#   check_cpu_vectorized.sh CC SOURCE_ROOT
# Exit 77 (skip) when the compiler is not gcc (-fopt-info is gcc's).
set -u
cc=$1 root=$2
if ! "$cc" --version 2>/dev/null | grep -qi 'gcc\|free software foundation'; then
    echo "skip: $cc is not gcc; -fopt-info-vec is gcc's report"
    exit 77
fi
report=$("$cc" -std=c11 -O3 -fopenmp -fopt-info-vec-optimized -I"$root/src" -I"$root/kernels" \
    -c "$root/src/backends/cpu/cpu_kernels.c" -o /dev/null 2>&1) || {
    echo "$report"; echo "FAIL: cpu_kernels.c did not compile"; exit 1; }
echo "$report"
loops=$(printf '%s\n' "$report" | grep 'loop vectorized' | cut -d: -f2 | sort -u | wc -l)
echo "vectorised loops: $loops (expected 5: copy, relu, threshold, add, add_relu)"
[ "$loops" -eq 5 ] || { echo "FAIL"; exit 1; }
