#!/usr/bin/env bash
# scripts/gpu-check refuses what it cannot use before its first step, with exit 2, the reason,
# and nothing written: usage errors, and an OUTDIR that is a file, not empty, read-only or on a
# full file system (issue 19 item 4: the old script ran the whole check into such an OUTDIR,
# minutes on a GPU node, and called a file "not empty"). The read-only and full cases need a
# private mount namespace (root); elsewhere they are said to be skipped. Each run has a hang
# guard (HANG s, the refusal takes well under a second); the clock decides nothing else.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
script=$SRC/scripts/gpu-check
HANG=120
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-gpu-check-usage.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { # NAME CONDITION...
    local name=$1; shift
    if "$@"; then echo "ok   $name"; passed=$((passed + 1))
    else echo "FAIL $name"; failed=$((failed + 1)); fi
}
# refused NAME PATTERN ARGS...: gpu-check ARGS exits 2 at once, saying PATTERN, no step begun.
refused() {
    local name=$1 pattern=$2
    shift 2
    timeout -k 5 "$HANG" "$script" "$@" > "$TMP/out.txt" 2>&1
    local rc=$?
    if [ $rc -eq 2 ] && grep -qE -- "$pattern" "$TMP/out.txt" && ! grep -q '====' "$TMP/out.txt"; then
        echo "ok   $name"; passed=$((passed + 1))
    else
        echo "FAIL $name: exit $rc, expected 2 and /$pattern/; output:"; head -n 5 "$TMP/out.txt"
        failed=$((failed + 1))
    fi
}

"$script" --help > "$TMP/help.txt" 2>&1
check help_exits_0_and_prints_usage test $? -eq 0 -a -n "$(grep '^usage: scripts/gpu-check' "$TMP/help.txt")"
check help_explains_prepare_and_quick grep -q -- '--quick' "$TMP/help.txt"
refused missing_outdir_is_a_usage_error 'missing OUTDIR'
refused unknown_option_is_a_usage_error "unknown option '--frobnicate'" --frobnicate "$TMP/x"
refused missing_config_is_a_usage_error 'not found' --cpu-rehearsal --config "$TMP/missing.ini" "$TMP/y"
refused prepare_takes_no_outdir 'takes no OUTDIR' --prepare "$TMP/z"
refused bundle_dir_goes_with_prepare 'goes with --prepare' --bundle-dir "$TMP/b" "$TMP/z"
refused a_time_limit_under_60_s_is_a_usage_error 'at least 60' --cpu-rehearsal --time-limit 5 "$TMP/z"
refused caps_is_enforce_or_report 'enforce or report' --cpu-rehearsal --caps sometimes "$TMP/z"
check refusals_create_no_outdir test ! -e "$TMP/x" -a ! -e "$TMP/y" -a ! -e "$TMP/z"

mkdir "$TMP/full"; touch "$TMP/full/keep"
refused non_empty_outdir_is_refused 'is not empty' --cpu-rehearsal "$TMP/full"
check non_empty_outdir_is_left_alone test "$(ls -A "$TMP/full")" = keep
echo data > "$TMP/file"
refused a_file_as_outdir_is_not_a_directory "OUTDIR '.*/file' is not a directory" --cpu-rehearsal "$TMP/file"
check the_file_is_left_alone test "$(cat "$TMP/file")" = data
refused outdir_under_a_file_cannot_be_made 'cannot create OUTDIR .*Not a directory' --cpu-rehearsal "$TMP/file/out"
mkdir "$TMP/empty"
refused a_usage_error_with_an_empty_outdir 'at least 60' --cpu-rehearsal --time-limit 1 "$TMP/empty"
check a_usage_error_leaves_the_empty_outdir_empty test -z "$(ls -A "$TMP/empty")"

# Read-only and full file systems, in a private mount namespace: a read-only bind mount, a
# 1 MiB tmpfs filled up, and an 8 MiB one (room for a probe, not for a check). Each case's
# output, exit status and what OUTDIR holds afterwards go to TMP/NAME.txt.
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
    mkdir "$TMP/ro" "$TMP/tiny" "$TMP/small"
    unshare -m --propagation private bash -s -- "$TMP" "$script" "$HANG" > "$TMP/ns.txt" 2>&1 <<'EOF'
T=$1 script=$2 hang=$3
try() { # NAME OUTDIR
    { timeout -k 5 "$hang" "$script" --cpu-rehearsal "$2"; echo "rc=$?"; echo "left: $(ls -A "$2")"; } > "$T/$1.txt" 2>&1
}
mount --bind "$T/ro" "$T/ro" && mount -o remount,ro,bind "$T/ro" || { echo "no read-only bind mount"; exit 0; }
mount -t tmpfs -o size=1M tmpfs "$T/tiny" && mount -t tmpfs -o size=8M tmpfs "$T/small" || { echo "no tmpfs"; exit 0; }
mkdir "$T/tiny/out"; head -c 2M /dev/zero > "$T/tiny/ballast" 2>/dev/null
try ro "$T/ro"; try full "$T/tiny/out"; try small "$T/small"
EOF
    if [ -s "$TMP/ns.txt" ]; then
        echo "note: read-only and full cases skipped: $(cat "$TMP/ns.txt")"
    else
        check a_read_only_outdir_is_refused grep -q "^gpu-check: OUTDIR '.*/ro' is not writable: Read-only file system" "$TMP/ro.txt"
        check a_full_outdir_is_refused grep -q "^gpu-check: OUTDIR '.*/tiny/out' is not writable: No space left on device" "$TMP/full.txt"
        check a_nearly_full_outdir_is_refused grep -qE "^gpu-check: OUTDIR '.*/small' has [0-9]+ KiB free, the check needs [0-9]+ KiB" "$TMP/small.txt"
        for c in ro full small; do
            check "${c}_outdir_exits_2_before_any_step" grep -qx 'rc=2' "$TMP/$c.txt"
            check "${c}_outdir_is_left_as_it_was" grep -qx 'left: ' "$TMP/$c.txt"
            check "${c}_outdir_no_step_began" test -z "$(grep '====' "$TMP/$c.txt")"
        done
    fi
else
    echo "note: read-only and full cases skipped: they need root and unshare -m (a private mount namespace)"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
