# gpu_check_inventory.sh: sourced by scripts/gpu-check (bash). The first step of the check:
# what this machine has, printed to the log and kept as "key: value" lines that summary.txt
# repeats, so that even a check that fails at the build says what to fix. Where inih,
# cmocka, the CUDA runtime, CUPTI and libnvperf come from is meson's own answer, which the
# build step adds (and ldd's, once fusebench is built).
#
#   gc_find_tool NAME            the path of ncu / compute-sanitizer / nvcc..., or nothing
#   gc_pip_nvcc_dir PY           nvcc's directory in the CUDA 13 wheels of PY, or nothing
#   gc_inventory PY FILE         prints the inventory; writes FILE (key: value lines)
#
# Costs (estimated for the node): nvidia-smi twice ~1 s, the tools' --version ~1 s each, the
# python import of torch and triton ~5-10 s; about 10 s in all.

# Where the tools live besides PATH: the toolkit's bin/ (a runfile install keeps
# compute-sanitizer in <cuda>/compute-sanitizer/), Nsight Compute's own directory under
# /opt/nvidia/nsight-compute/<version>/ (where the node has ncu), and the CUDA 13 wheels'
# nvidia/cu13/bin (nvcc from pip).
gc_find_tool() {
    local name=$1 c candidates=()
    command -v "$name" 2>/dev/null && return 0
    if command -v nvcc >/dev/null 2>&1; then
        c=$(dirname "$(command -v nvcc)")
        candidates+=("$c/$name" "$c/../$name/$name")
    fi
    candidates+=("/usr/local/cuda/bin/$name" "/usr/local/cuda/$name/$name" "/opt/nvidia/$name/$name")
    if [ "$name" = ncu ]; then
        # The newest version directory first (sort -V on the names, e.g. 2025.3.1).
        while IFS= read -r c; do candidates+=("$c"); done < <(
            ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/NVIDIA-Nsight-Compute*/ncu \
                /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | sort -rV)
        candidates+=(/opt/nvidia/nsight-compute/ncu)
    fi
    for c in "${candidates[@]}"; do
        if [ -x "$c" ] && [ -f "$c" ]; then
            (cd "$(dirname "$c")" && echo "$(pwd -P)/$(basename "$c")")
            return 0
        fi
    done
    return 1
}

gc_pip_nvcc_dir() {
    "$1" -c 'import os, sys
print(next(d for d in (os.path.join(p, "nvidia", "cu13", "bin") for p in sys.path)
           if os.path.isfile(os.path.join(d, "nvcc"))))' 2>/dev/null
}

gc_inventory() {
    local py=$1 file=$2 root tool path tv t
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    : > "$file"
    kv() { printf '%s: %s\n' "$1" "$2" >> "$file"; printf '  %-22s %s\n' "$1" "$2"; }
    if command -v nvidia-smi >/dev/null; then
        timeout 30 nvidia-smi 2>&1
        kv gpu "$(timeout 30 nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version \
            --format=csv,noheader 2>&1 | head -n 1)"
        kv cuda_driver "$(timeout 30 nvidia-smi -q 2>/dev/null | sed -n 's/^ *CUDA Version *: *//p' | head -n 1)"
    else
        kv gpu "none (nvidia-smi not found)"
    fi
    if [ -r /proc/driver/nvidia/params ]; then
        # 1: only administrators may read the performance counters (ncu, CUPTI's profiler).
        kv profiling_admin_only "$(sed -n 's/^RmProfilingAdminOnly: *//p' /proc/driver/nvidia/params)"
    fi
    kv user "$(id -un 2>/dev/null || id -u) (uid $(id -u))"
    # Each tool's path and the first line of its --version that names one.
    for tool in nvcc ncu compute-sanitizer meson ninja cc python3 pkg-config gnuplot; do
        path=$(gc_find_tool "$tool")
        kv "$tool" "${path:-absent}${path:+ $(timeout 30 "$path" --version 2>&1 \
            | grep -m 1 -iE 'version|release|[0-9]+\.[0-9]+' | sed 's/^.*\([Vv]ersion\|release\) //' | cut -c1-120)}"
    done
    if [ -f "$root/.gpu-bundle/MANIFEST" ]; then
        kv bundle "$root/.gpu-bundle: $(sed -n 's/^packages: //p' "$root/.gpu-bundle/MANIFEST")"
    else
        kv bundle "none (scripts/gpu-check --prepare makes one on a networked machine)"
    fi
    tv=$(timeout 60 "$py" - <<'EOF' 2>&1
import importlib
for name in ("torch", "triton"):
    try:
        m = importlib.import_module(name)
        extra = ""
        if name == "torch":
            extra = " (CUDA %s, device available: %s)" % (m.version.cuda, m.cuda.is_available())
        print("%s: %s%s" % (name, m.__version__, extra))
    except Exception as e:
        print("%s: not importable (%s)" % (name, (str(e).splitlines() or [type(e).__name__])[0][:100]))
EOF
    )
    for t in torch triton; do
        kv $t "$(printf '%s\n' "$tv" | sed -n "s/^$t: //p" | head -n 1 | grep . \
            || echo "not importable: '$py' did not answer")"
    done
}
