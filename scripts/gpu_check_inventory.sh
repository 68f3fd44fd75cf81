# gpu_check_inventory.sh: sourced by scripts/gpu-check (bash). The first step of the check:
# what this machine has, printed in full to the log and condensed as "key: value" lines that
# summary.txt repeats, so that even a check that fails at the build says what to fix.
#
#   gc_find_tool NAME            the path of ncu / compute-sanitizer / nvcc, or nothing
#   gc_inventory PY FILE         prints the inventory; writes FILE (key: value lines)
#
# Costs (estimated for the node): nvidia-smi twice ~1 s, ncu and compute-sanitizer --version
# ~1 s each, the python import of torch and triton ~5-10 s; about 10 s in all.

# Where the tools live besides PATH: the toolkit's bin/ (a runfile install keeps
# compute-sanitizer in <cuda>/compute-sanitizer/), Nsight Compute's own directory under
# /opt/nvidia/nsight-compute/<version>/ (where the node has ncu), and the CUDA 13 wheels'
# nvidia/cu13/bin (nvcc from pip).
gc_find_tool() {
    local name=$1 nvcc_dir="" c
    command -v "$name" 2>/dev/null && return 0
    if command -v nvcc >/dev/null 2>&1; then nvcc_dir=$(dirname "$(command -v nvcc)"); fi
    local candidates=()
    [ -n "$nvcc_dir" ] && candidates+=("$nvcc_dir/$name" "$nvcc_dir/../$name/$name")
    candidates+=("/usr/local/cuda/bin/$name" "/usr/local/cuda/$name/$name"
        "/opt/nvidia/$name/$name")
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

# nvcc from the pip wheels of PY (site-packages/nvidia/cu13/bin), when none is on PATH.
gc_pip_nvcc_dir() {
    "$1" - <<'EOF' 2>/dev/null
import os, sys
for p in sys.path:
    d = os.path.join(p, "nvidia", "cu13", "bin")
    if os.path.isfile(os.path.join(d, "nvcc")):
        print(d)
        break
EOF
}

gc_inventory() {
    local py=$1 file=$2 root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    : > "$file"
    kv() { printf '%s: %s\n' "$1" "$2" >> "$file"; printf '  %-22s %s\n' "$1" "$2"; }
    first_line() { "$@" 2>&1 | grep -m 1 . | cut -c1-160; }
    version_of() { "$@" 2>&1 | grep -m 1 -iE 'version|release|[0-9]+\.[0-9]+' | cut -c1-120; }

    echo "--- nvidia-smi"
    if command -v nvidia-smi >/dev/null; then
        timeout 30 nvidia-smi 2>&1
        echo "--- nvidia-smi -q (head)"
        timeout 30 nvidia-smi -q 2>&1 | head -n 60
        kv gpu "$(timeout 30 nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version \
            --format=csv,noheader 2>&1 | head -n 1)"
        kv cuda_driver "$(timeout 30 nvidia-smi -q 2>/dev/null | sed -n 's/^ *CUDA Version *: *//p' | head -n 1)"
    else
        echo "(nvidia-smi not found)"
        kv gpu "none (nvidia-smi not found)"
    fi
    if [ -r /proc/driver/nvidia/params ]; then
        # 1: only administrators may read the performance counters (ncu, CUPTI's profiler).
        kv profiling_admin_only "$(sed -n 's/^RmProfilingAdminOnly: *//p' /proc/driver/nvidia/params)"
    fi
    kv user "$(id -un 2>/dev/null || id -u) (uid $(id -u))"

    echo "--- CUDA toolkit, CUPTI, libnvperf (scripts/find_cuda_libs.py, as meson.build)"
    local nvcc
    nvcc=$(command -v nvcc || true)
    kv nvcc "${nvcc:-not found}${nvcc:+ ($(version_of "$nvcc" --version | sed 's/^.*release //'))}"
    if [ -n "$nvcc" ]; then
        local where
        where=$(python3 "$root/scripts/find_cuda_libs.py" --nvcc "$nvcc" 2>&1 || true)
        printf '%s\n' "$where" | sed 's/^/  /'
        local key val
        while IFS=$'\t' read -r key val; do
            case $key in
                cudart_lib|cupti_lib|nvperf_host|nvperf_target)
                    # The real file's name carries the full version (libcudart.so.13.0.96).
                    kv "$key" "${val:-not found}${val:+ -> $(basename "$(readlink -f "$val")")}" ;;
                cupti_layout) kv "$key" "$val" ;;
            esac
        done <<< "$where"
    fi
    local tool path
    for tool in ncu compute-sanitizer; do
        path=$(gc_find_tool "$tool" || true)
        kv "$tool" "${path:-not found}${path:+ ($(version_of timeout 30 "$path" --version | sed 's/^.*[Vv]ersion //'))}"
    done

    echo "--- build tools"
    kv meson "$(command -v meson || echo 'not found') $(meson --version 2>/dev/null)"
    kv ninja "$(command -v ninja || echo 'not found') $(ninja --version 2>/dev/null)"
    kv cc "$(first_line cc --version)"
    kv python3 "$(command -v python3 || echo 'not found') $(python3 -c 'import platform; print(platform.python_version())' 2>/dev/null)"
    kv pkg-config "$(command -v pkg-config || echo absent)"
    kv gnuplot "$(command -v gnuplot || echo 'absent (charts are drawn later with ./sweep --plot)')"
    # inih and cmocka as meson will find them: pkg-config, else the compiler's search path,
    # else the bundle (meson.build; the build step prints meson's own answer).
    local lib header system
    for lib in inih cmocka; do
        header=ini.h
        [ $lib = cmocka ] && header=cmocka.h
        system=absent
        if command -v pkg-config >/dev/null && pkg-config --exists $lib 2>/dev/null; then
            system="system (pkg-config $(pkg-config --modversion $lib))"
        elif [ "$(cc -print-file-name=lib$lib.so 2>/dev/null)" != "lib$lib.so" ] \
                && printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <%s>\n' "$header" \
                   | cc -E -x c - >/dev/null 2>&1; then
            system="system ($(cc -print-file-name=lib$lib.so))"
        elif [ -f "$root/.gpu-bundle/lib/lib$lib.so" ]; then
            system="bundle ($root/.gpu-bundle)"
        fi
        kv "$lib" "$system"
    done
    if [ -f "$root/.gpu-bundle/MANIFEST" ]; then
        kv bundle "$root/.gpu-bundle: $(sed -n 's/^packages: //p' "$root/.gpu-bundle/MANIFEST")"
    else
        kv bundle "none (scripts/gpu-check --prepare makes one on a networked machine)"
    fi

    echo "--- python ($py): torch, triton"
    local tv
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
        print("%s: not importable (%s)" % (name, str(e).splitlines()[0][:100] if str(e) else type(e).__name__))
EOF
    )
    local t
    for t in torch triton; do
        kv $t "$(printf '%s\n' "$tv" | sed -n "s/^$t: //p" | head -n 1 | grep . \
            || echo "not importable: '$py' did not answer")"
    done
}
