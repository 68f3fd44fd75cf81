#!/usr/bin/env bash
# cluster/local-slurm's refusals, which start nothing: no command or an unknown one (exit 2,
# its usage), stop without SLURM_CONF or with one it did not make (exit 2, the directory left
# as it was), and without root a skip (exit 77) that says root is needed (as root: run as
# the user nobody through setpriv). Each run has a hang guard (HANG s; a refusal takes well
# under a second).
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
script=$SRC/cluster/local-slurm
HANG=60
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-local-slurm.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0 untried=
expect() { # NAME STATUS PATTERN -- COMMAND...: COMMAND exits STATUS, stderr matches PATTERN
    local name=$1 want=$2 pattern=$3
    shift 4
    local got=0
    timeout "$HANG" "$@" >"$TMP/out" 2>"$TMP/err" || got=$?
    if [ "$got" = "$want" ] && grep -q -e "$pattern" "$TMP/err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name: exit $got (want $want), stderr:"
        sed 's/^/  /' "$TMP/err"
    fi
}
expect "no command" 2 "local-slurm start" -- "$script"
expect "unknown command" 2 "local-slurm stop" -- "$script" restart
expect "stop without SLURM_CONF" 2 "SLURM_CONF is not set" -- env -u SLURM_CONF "$script" stop
mkdir "$TMP/other"
echo "keep" > "$TMP/other/slurm.conf"
expect "stop of a Slurm it did not start" 2 "was not made by" -- \
    env SLURM_CONF="$TMP/other/slurm.conf" "$script" stop
if [ -f "$TMP/other/slurm.conf" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: stop removed a directory it did not make"; fi
if [ "$(id -u)" = 0 ]; then
    # As nobody, from a copy nobody can reach: the checkout may sit in a directory only root
    # enters (a clone under /root, mode 0700), and so may TMPDIR's parents.
    as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
    chmod 0755 "$TMP"
    mkdir -m 0755 "$TMP/bin"
    cp "$script" "$TMP/bin/local-slurm"
    chmod 0755 "$TMP/bin/local-slurm"
    if "${as_nobody[@]}" test -x "$TMP/bin/local-slurm"; then
        expect "without root" 77 "needs root" -- "${as_nobody[@]}" "$TMP/bin/local-slurm" start
    else
        untried="the user nobody cannot enter $TMP (a parent directory is closed to other"
        untried+=" users), so the refusal without root was not tried"
    fi
else
    expect "without root" 77 "needs root" -- "$script" start
fi
echo "local-slurm refusals: $passed passed, $failed failed"
[ "$failed" = 0 ] || exit 1
if [ -n "${untried:-}" ]; then echo "skipped: $untried"; exit 77; fi
