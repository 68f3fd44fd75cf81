#!/usr/bin/env bash
# A CUDA build's programs find the CUDA runtime, CUPTI and libnvperf without LD_LIBRARY_PATH
# (meson.build): fusebench carries a RUNPATH (not an old DT_RPATH) holding every directory the
# build found them in, and lists libnvperf_host.so as needed, because libcupti dlopen()s it by
# bare name, which never searches the executable's RUNPATH. Where root can make a private
# mount namespace, it then runs with the loader's cache (/etc/ld.so.cache, which knows the
# toolkit here) hidden: fusebench --version must start, with libcudart, libcupti and
# libnvperf_host found through the RUNPATH, and CUPTI's host-side test (the one that makes
# libcupti dlopen libnvperf_host) must pass.
#   test_runpath.sh FUSEBENCH CUDA(0|1) CUPTI(0|1) DIRS   (DIRS: the RUNPATH dirs, ':'-joined)
set -u
exe=$1 cuda=$2 cupti=$3 dirs=$4
[ "$cuda" = 1 ] || { echo "SKIP: CUDA is not built here (-Dcuda=disabled or no nvcc)"; exit 77; }
command -v readelf >/dev/null || { echo "SKIP: readelf (binutils) is not installed"; exit 77; }
passed=0 failed=0
check() { # NAME CONDITION...
    local name=$1; shift
    if "$@"; then echo "ok   $name"; passed=$((passed + 1))
    else echo "FAIL $name"; failed=$((failed + 1)); fi
}
dyn=$(readelf -d "$exe")
runpath=$(sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p' <<< "$dyn")
echo "RUNPATH of $exe: ${runpath:-none}"
check "has_a_runpath" test -n "$runpath"
check "has_no_old_rpath" test -z "$(grep '(RPATH)' <<< "$dyn")"
IFS=: read -r -a want <<< "$dirs"
for d in "${want[@]}"; do
    check "runpath_holds_$d" grep -qx -- "$d" <<< "$(tr ':' '\n' <<< "$runpath")"
done
check "needs_libcudart" grep -q 'NEEDED.*\[libcudart\.so\.[0-9]*\]' <<< "$dyn"
if [ "$cupti" = 1 ]; then
    check "needs_libcupti" grep -q 'NEEDED.*\[libcupti\.so\.[0-9]*\]' <<< "$dyn"
    check "needs_libnvperf_host" grep -q 'NEEDED.*\[libnvperf_host\.so\]' <<< "$dyn"
fi

# At run time, without the loader's cache: only the RUNPATH (or the system's default
# directories, which hold no CUDA library) can find them.
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
    echo "note: run-time check skipped: needs root and unshare -m (to hide /etc/ld.so.cache)"
else
    build=$(dirname "$exe")
    host_test=$build/tests/cupti/test_cupti_counters_host
    out=$(env -u LD_LIBRARY_PATH unshare -m --propagation private bash -c '
        mount --bind /dev/null /etc/ld.so.cache || exit 3
        LD_DEBUG=libs "$1" --version 2>&1
        echo "exit=$?"
        if [ -x "$2" ]; then "$2" >/dev/null 2>&1; echo "host_test_exit=$?"; fi' _ "$exe" "$host_test")
    check "starts_without_ld_cache_or_ld_library_path" grep -q '^exit=0$' <<< "$out"
    for lib in libcudart libcupti libnvperf_host; do
        [ "$lib" = libcudart ] || [ "$cupti" = 1 ] || continue
        # LD_DEBUG=libs says "calling init: FILE" for each library it loaded.
        check "${lib}_loaded_from_a_runpath_dir" \
            grep -qE "calling init: ($(sed 's/[.]/\\./g; s/:/|/g' <<< "$dirs"))/$lib\.so" <<< "$out"
    done
    if [ "$cupti" = 1 ] && [ -x "$host_test" ]; then
        check "cupti_host_side_dlopens_libnvperf_without_ld_cache" grep -q '^host_test_exit=0$' <<< "$out"
    fi
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
