#!/usr/bin/env bash
# scripts/gpu-check in GPU mode on a stand-in node: nvidia-smi, nvcc and meson are scripts on
# PATH that answer as a GPU machine's would (nvidia-smi: the driver's CUDA version, the
# compute capability; nvcc: its release and --list-gpu-code; meson: its version, and a
# refusal to set up that stops the check right after the build step, after recording what it
# was asked). Checks: a driver older than the toolkit stops the check naming the driver and
# cuda-compat, before meson runs (unless LD_LIBRARY_PATH holds a compat libcuda); an 8.9
# device is built for the audited sm_80; a failed command's own last error line reaches the
# summary, not only "exited N". Seconds; no GPU, compiler or network needed.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-gpu-node.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { # NAME CONDITION...
    local name=$1; shift
    if "$@"; then echo "ok   $name"; passed=$((passed + 1))
    else echo "FAIL $name"; failed=$((failed + 1)); fi
}
mkdir "$TMP/bin"
cat > "$TMP/bin/nvidia-smi" <<'SH'
#!/bin/sh
case "$*" in
    -q) printf '==============NVSMI LOG==============\n\nDriver Version                            : %s\nCUDA Version                              : %s\n' "$FAKE_DRIVER" "$FAKE_CUDA" ;;
    *name,compute_cap*) echo "NVIDIA Stand-in, $FAKE_CC, 24564 MiB, $FAKE_DRIVER" ;;
    *compute_cap*) echo "$FAKE_CC" ;;
    *driver_version*) echo "$FAKE_DRIVER" ;;
    *) echo "NVIDIA-SMI $FAKE_DRIVER   Driver Version: $FAKE_DRIVER   CUDA Version: $FAKE_CUDA" ;;
esac
SH
cat > "$TMP/bin/nvcc" <<'SH'
#!/bin/sh
case "$1" in
    --version) echo "Cuda compilation tools, release 13.0, V13.0.88" ;;
    --list-gpu-code) printf 'sm_75\nsm_80\nsm_86\nsm_87\nsm_88\nsm_89\nsm_90\nsm_100\nsm_110\nsm_103\nsm_120\nsm_121\n' ;;
    *) exit 1 ;;
esac
SH
cat > "$TMP/bin/meson" <<'SH'
#!/bin/sh
[ "$1" = --version ] && { echo 1.0.1; exit 0; }
echo "$*" >> "$FAKE_MESON_LOG"
echo "ERROR: stand-in meson: not building here"
exit 1
SH
chmod +x "$TMP/bin"/*
export FAKE_MESON_LOG=$TMP/meson-args.txt FB_PYTHON=python3
node() { # NAME DRIVER CUDA CC [VAR=VALUE...]: gpu-check on the stand-in node into $TMP/NAME
    local name=$1
    env PATH="$TMP/bin:$PATH" FAKE_DRIVER="$2" FAKE_CUDA="$3" FAKE_CC="$4" "${@:5}" \
        "$SRC/scripts/gpu-check" --build-dir "$TMP/build-$name" "$TMP/$name" > "$TMP/$name.txt" 2>&1
}

: > "$FAKE_MESON_LOG"
node old 550.54.15 12.4 8.9
check old_driver_exits_1 test $? -eq 1
S=$TMP/old/summary.txt
check old_driver_names_the_driver_and_both_versions \
    grep -qE '^  problem: build: the NVIDIA driver \(550\.54\.15\) supports CUDA 12\.4, older than the CUDA 13\.0 toolkit' "$S"
check old_driver_says_which_release_it_needs grep -q 'needs driver release 580 or newer' "$S"
check old_driver_names_cuda_compat grep -q 'forward-compatibility package cuda-compat-13-0' "$S"
check old_driver_stops_before_meson test ! -s "$FAKE_MESON_LOG"

mkdir -p "$TMP/cuda-13.0/compat" && : > "$TMP/cuda-13.0/compat/libcuda.so.1"
node compat 550.54.15 12.4 8.9 LD_LIBRARY_PATH="$TMP/cuda-13.0/compat"
check compat_libcuda_goes_on_to_the_build grep -q -- '-Dgpu_archs=' "$FAKE_MESON_LOG"

: > "$FAKE_MESON_LOG"
node ada 580.82.07 13.0 8.9
check build_failure_exits_1 test $? -eq 1
check sm_89_is_built_as_the_audited_sm_80 grep -q -- '-Dgpu_archs=80$' "$FAKE_MESON_LOG"
check build_failure_quotes_the_commands_error \
    grep -qE '^  problem: build: meson setup exited 1: ERROR: stand-in meson: not building here$' "$TMP/ada/summary.txt"

: > "$FAKE_MESON_LOG"
node hopper 580.82.07 13.0 9.0
check sm_90_is_built_as_sm_90 grep -q -- '-Dgpu_archs=90$' "$FAKE_MESON_LOG"

for f in old ada; do [ $failed -eq 0 ] || { echo "--- $f: summary.txt"; cat "$TMP/$f/summary.txt"; }; done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
