#!/usr/bin/env bash
# The first-contact path of scripts/ensure-build and ./sweep, with every program they call
# replaced by a stub (so nothing is installed and nothing is built): a meson older than
# meson.build's floor is replaced by the pinned one in .meson-venv/ and used from then on (by
# ensure-build and by whoever sources scripts/meson-env.sh, as tests/run does); a recent one is
# used as it is; ./sweep builds the fusebench target alone (a test program that fails to
# build never stops a sweep) and runs it; a failing build exits 1 and says so. Each run works
# on a scratch copy of the scripts and meson.build.
set -u
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test-ensure-build.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { # NAME CONDITION...
    local name=$1; shift
    if "$@"; then echo "ok   $name"; passed=$((passed + 1))
    else echo "FAIL $name"; sed 's/^/    /' "$TMP/err" 2>/dev/null | head -n 20; failed=$((failed + 1)); fi
}
floor=$(sed -n "s/^ *meson_version: *'>= *\([0-9.]*\)'.*/\1/p" "$SRC/meson.build")
pinned=$(sed -n 's/^fb_meson_pinned=//p' "$SRC/scripts/meson-env.sh")

stub() { # NAME BODY: a program NAME on the stubs' PATH
    printf '#!/bin/sh\n%s\n' "$2" > "$TMP/bin/$1"
    chmod +x "$TMP/bin/$1"
}
fresh() { # MESON_VERSION: a scratch checkout, a configured build dir, stubs for every tool
    rm -rf "$TMP/src" "$TMP/bin" "$TMP/log"
    mkdir -p "$TMP/src/scripts" "$TMP/src/build" "$TMP/bin" "$TMP/log"
    cp "$SRC/scripts/ensure-build" "$SRC/scripts/meson-env.sh" "$TMP/src/scripts/"
    cp "$SRC/meson.build" "$SRC/sweep" "$TMP/src/"
    : > "$TMP/src/build/build.ninja"
    printf '#!/bin/sh\necho "fusebench ran: $*"\n' > "$TMP/src/build/fusebench"
    chmod +x "$TMP/src/build/fusebench"
    stub meson "[ \"\$1\" = --version ] && echo $1"
    stub ninja "echo \"\$*\" >> '$TMP/log/ninja'; exit \${STUB_NINJA_RC:-0}"
    for tool in pkg-config cc c++ gnuplot; do stub "$tool" 'exit 0'; done
    stub apt-get "echo \"apt-get \$*\" >> '$TMP/log/apt'; exit 1"
    # python3 -m venv DIR makes a venv whose pip "installs" meson==V as a stub printing V.
    stub python3 "[ \"\$1 \$2\" = '-m venv' ] || exit 1
mkdir -p \"\$3/bin\"
cat > \"\$3/bin/python3\" <<'PY'
#!/bin/sh
for a in \"\$@\"; do case \$a in meson==*) v=\${a#meson==} ;; esac; done
[ -n \"\$v\" ] || exit 1
printf '#!/bin/sh\necho %s\n' \"\$v\" > \"\$(dirname \"\$0\")/meson\"
chmod +x \"\$(dirname \"\$0\")/meson\"
PY
chmod +x \"\$3/bin/python3\""
}
run() { # COMMAND...: with only the stubs before the system's basic tools
    env PATH="$TMP/bin:/usr/bin:/bin" FB_BUILD_DIR="$TMP/src/build" "$@" \
        > "$TMP/out" 2> "$TMP/err"
}

fresh 1.0.1
run "$TMP/src/scripts/ensure-build" "$TMP/src/build"
check "a recent meson: built, everything" [ "$?" = 0 -a "$(cat "$TMP/log/ninja")" = "-C $TMP/src/build" ]
check "a recent meson: no venv made" [ ! -e "$TMP/src/.meson-venv" ]
check "nothing installed" [ ! -e "$TMP/log/apt" ]

fresh 1.0.1
run env FB_BUILD_TARGETS=fusebench "$TMP/src/scripts/ensure-build" "$TMP/src/build"
check "FB_BUILD_TARGETS: only those built" [ "$(cat "$TMP/log/ninja")" = "-C $TMP/src/build fusebench" ]

fresh 1.0.1
run env STUB_NINJA_RC=1 "$TMP/src/scripts/ensure-build" "$TMP/src/build"
check "a failing build: exit 1" [ "$?" = 1 ]
check "a failing build: says so" grep -q "build failed (ninja -C" "$TMP/err"

fresh 1.0.1
run "$TMP/src/sweep" --version
check "./sweep: exit 0" [ "$?" = 0 ]
check "./sweep builds fusebench alone" [ "$(cat "$TMP/log/ninja")" = "-C $TMP/src/build fusebench" ]
check "./sweep runs it" grep -qx "fusebench ran: --version" "$TMP/out"

fresh 0.56.2
run "$TMP/src/scripts/ensure-build" "$TMP/src/build"
check "an old meson: ensure-build goes on" [ "$?" = 0 -a -s "$TMP/log/ninja" ]
check "an old meson: one line says so" \
    [ "$(grep -c "meson 0.56.2 .* is older than the $floor this build needs; installing meson $pinned from PyPI into .meson-venv/" "$TMP/err")" = 1 ]
check "an old meson: the pinned one in .meson-venv" \
    [ "$("$TMP/src/.meson-venv/fb-bin/meson" --version)" = "$pinned" ]
check "an old meson: sourcing meson-env.sh gives the pinned one" \
    [ "$(env PATH="$TMP/bin:/usr/bin:/bin" bash -c ". '$TMP/src/scripts/meson-env.sh'; meson --version")" = "$pinned" ]
check "an old meson: nothing installed by apt" [ ! -e "$TMP/log/apt" ]

fresh "$floor"
run "$TMP/src/scripts/ensure-build" "$TMP/src/build"
check "meson at the floor: used as it is" [ "$?" = 0 -a ! -e "$TMP/src/.meson-venv" ]

echo "ensure-build: $passed passed, $failed failed"
[ "$failed" = 0 ]
