#!/usr/bin/env bash
# The unit suite built with clang and its UndefinedBehaviorSanitizer, for the check GCC's
# -fsanitize=undefined leaves out: float-cast-overflow (a double outside an integer type's
# range converted to it is undefined; the trace reader did it with 1e300, issue 34 item 14).
# clang 14's -fsanitize=undefined includes it (`clang -fsanitize=undefined -### -c x.c` lists
# it); it is named again so that a clang that leaves it out of the group still checks it.
#
#   .ci/clang-ubsan.sh [BUILD_DIR]     (default build-clang-ubsan; set up when missing)
#
# Needs clang with its sanitizer runtimes and OpenMP (Debian: clang, libclang-rt-N-dev,
# libomp-N-dev). Prints the tests' log to stderr and the closing "tests: N passed, N failed,
# N skipped" line (as .ci/run's meson_tests) to stdout; exits with meson test's status.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-clang-ubsan}
command -v clang >/dev/null || {
    echo "clang-ubsan: clang not found (Debian: apt-get install clang)" >&2
    exit 2
}
flags=-fsanitize=float-cast-overflow
# b_lundef=false: clang links no sanitizer runtime into libfbpeer.so, so its __ubsan_*
# symbols stay undefined there until the program (or the preloaded runtime) provides them.
[ -d "$build" ] || CC=clang meson setup "$build" -Dcuda=disabled -Db_sanitize=undefined \
    -Db_lundef=false -Dbuildtype=debugoptimized -Dc_args="$flags" -Dc_link_args="$flags" \
    >/dev/null
ninja -C "$build" >/dev/null
# halt_on_error: a report fails its test rather than scrolling past. -t 3: the sanitized
# test_runner took 130 s of its 120 s limit on a loaded 2-core machine.
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C "$build" --suite unit --print-errorlogs -t 3 | tee /dev/stderr | awk '
    /^Ok:/ {ok = $2} /^Expected Fail:/ {xf = $3} /^Fail:/ {f = $2}
    /^Unexpected Pass:/ {up = $3} /^Skipped:/ {s = $2} /^Timeout:/ {t = $2}
    END {printf "tests: %d passed, %d failed, %d skipped\n", ok + xf, f + up + t, s}'
exit "${PIPESTATUS[0]}"
