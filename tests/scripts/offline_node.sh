#!/usr/bin/env bash
# offline_node.sh CMD [ARGS...]: runs CMD as on the offline GPU node, where inih, cmocka,
# pkg-config and gnuplot are absent (CUDA13-NOTES.md), without touching this machine: in a
# private mount namespace (unshare -m), overlays on the system directories hide those files
# behind whiteouts (a 0/0 character device in the overlay's upper directory) for CMD alone.
#
#   /usr/include                  ini.h INIReader.h cmocka.h cmocka_pbc.h cmockery/
#   /usr/lib/<multiarch>          libinih* libINIReader* libcmocka* libcmockery*,
#                                 pkgconfig/{inih,INIReader,cmocka}.pc, cmake/cmocka/
#   /usr/bin                      pkg-config pkgconf *-pkg-config gnuplot*
#
# Before CMD runs it checks that the compiler finds neither header nor library and that
# pkg-config and gnuplot are gone; it stops (exit 1) naming what is still visible.
# Exit status: CMD's; 77 with the reason when this machine cannot do it (not root, or unshare
# or overlay mounts refused, e.g. in an unprivileged container).
set -u
skip() { echo "skip: offline-node simulation impossible here: $*"; exit 77; }

if [ -z "${FB_OFFLINE_NODE_INNER:-}" ]; then
    [ $# -ge 1 ] || { echo "usage: $0 CMD [ARGS...]" >&2; exit 2; }
    [ "$(id -u)" = 0 ] || skip "needs root (unshare -m and overlay mounts), running as uid $(id -u)"
    command -v unshare >/dev/null || skip "no unshare command (util-linux)"
    unshare -m true 2>/dev/null || skip "unshare -m refused (no CAP_SYS_ADMIN?)"
    # Mount propagation private (unshare's default): nothing done inside leaks out.
    exec env FB_OFFLINE_NODE_INNER=1 unshare -m --propagation private bash "$0" "$@"
fi
unset FB_OFFLINE_NODE_INNER

multiarch=$(cc -print-multiarch 2>/dev/null)
[ -n "$multiarch" ] || multiarch=$(uname -m)-linux-gnu
libdir=/usr/lib/$multiarch

T=$(mktemp -d "${TMPDIR:-/tmp}/offline-node.XXXXXX") || exit 1
# The namespace's end unmounts everything, but the mount point itself is a directory of the
# real file system: removed on the way out (hence no exec of CMD below).
trap 'umount -l "$T" 2>/dev/null; rmdir "$T"' EXIT
# Upper and work directories on a tmpfs (an overlay cannot stack its upper on another
# overlay, which / may be in a container).
mount -t tmpfs tmpfs "$T" || skip "cannot mount a tmpfs"

n=0
# hide ROOT NAME...: an overlay on ROOT whose upper directory whites out each NAME (a path
# relative to ROOT; parent directories stay merged with the lower ones).
hide() {
    local root=$1; shift
    [ -d "$root" ] || return 0
    n=$((n + 1))
    local up=$T/up$n work=$T/work$n name any=0
    mkdir -p "$up" "$work"
    for name in "$@"; do
        [ -e "$root/$name" ] || [ -L "$root/$name" ] || continue
        mkdir -p "$up/$(dirname "$name")"
        mknod "$up/$name" c 0 0 || skip "mknod (whiteout) refused"
        any=1
    done
    [ $any -eq 1 ] || return 0
    mount -t overlay overlay -o "lowerdir=$root,upperdir=$up,workdir=$work" "$root" \
        || skip "overlay mount on $root refused"
}
names_in() { # DIR GLOB...: the names in DIR that match (relative), or nothing
    local dir=$1 g f; shift
    for g in "$@"; do
        for f in "$dir"/$g; do [ -e "$f" ] || [ -L "$f" ] && echo "${f#"$dir"/}"; done
    done
}

hide /usr/include ini.h INIReader.h cmocka.h cmocka_pbc.h cmockery
# shellcheck disable=SC2046
hide "$libdir" $(names_in "$libdir" 'libinih*' 'libINIReader*' 'libcmocka*' 'libcmockery*') \
    pkgconfig/inih.pc pkgconfig/INIReader.pc pkgconfig/cmocka.pc cmake/cmocka
# shellcheck disable=SC2046
hide /usr/bin $(names_in /usr/bin pkg-config pkgconf '*-pkg-config' 'gnuplot*')

# The premise, checked: nothing of the four is reachable any more.
still=()
for prog in pkg-config pkgconf gnuplot; do
    command -v "$prog" >/dev/null 2>&1 && still+=("$(command -v "$prog")")
done
hash -r
for h in ini.h cmocka.h; do
    printf '#include <%s>\n' "$h" | cc -E -x c - >/dev/null 2>&1 && still+=("<$h>")
done
for l in inih cmocka; do
    f=$(cc -print-file-name="lib$l.so")
    [ "$f" = "lib$l.so" ] || still+=("$f")
done
if [ ${#still[@]} -gt 0 ]; then
    echo "offline_node: still visible after hiding: ${still[*]}" >&2
    exit 1
fi
echo "offline_node: hidden: inih, cmocka (headers, libraries, .pc, cmake), pkg-config, gnuplot"
"$@"
