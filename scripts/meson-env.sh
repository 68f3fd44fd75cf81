# scripts/meson-env.sh: which meson this checkout builds with (sourced by scripts/ensure-build,
# tests/run and .ci/run). The floor is meson.build's `meson_version`, read from there. When the
# system's meson is older, scripts/ensure-build installs a pinned one into .meson-venv/;
# sourcing this file then puts that one first on PATH (a folder holding only `meson`, so the
# venv's python does not shadow the system's), for this script and every command it starts.

fb_meson_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fb_meson_venv=$fb_meson_root/.meson-venv
# The meson installed when the system's is too old: a version this project's CI builds and
# tests with in a Debian 11 system (.ci/fresh-system).
fb_meson_pinned=1.5.2

fb_meson_floor() { # the x.y.z of meson.build's meson_version: '>=x.y.z'
    sed -n "s/^ *meson_version: *'>= *\([0-9.]*\)'.*/\1/p" "$fb_meson_root/meson.build" | head -n 1
}

fb_have_meson() { command -v meson >/dev/null; }

fb_meson_recent() { # the meson on PATH is at least the floor
    local have
    have=$(meson --version 2>/dev/null) || return 1
    [ "$(printf '%s\n%s\n' "$(fb_meson_floor)" "$have" | sort -V | head -n 1)" = "$(fb_meson_floor)" ]
}

fb_use_project_meson() { # put .meson-venv's meson first on PATH, when it is there
    if [ -x "$fb_meson_venv/fb-bin/meson" ]; then
        case ":$PATH:" in *":$fb_meson_venv/fb-bin:"*) ;; *) PATH="$fb_meson_venv/fb-bin:$PATH" ;; esac
        export PATH
    fi
}

fb_meson_venv_install() { # make .meson-venv with meson $fb_meson_pinned (needs PyPI)
    # fb-bin/meson is made last: a venv cut short is never used, and is made anew here.
    rm -rf "$fb_meson_venv"
    if ! python3 -m venv "$fb_meson_venv" 2>/dev/null; then
        rm -rf "$fb_meson_venv"
        # Debian and Ubuntu ship venv's pip apart, in python3-venv.
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            echo "fusebench: installing python3-venv (apt-get)"
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                --no-install-recommends python3-venv >/dev/null || return 1
            python3 -m venv "$fb_meson_venv" || return 1
        else
            echo "fusebench: python3 -m venv failed: install python3-venv" \
                 "(sudo apt-get install python3-venv)"
            return 1
        fi
    fi
    "$fb_meson_venv/bin/python3" -m pip install -q --disable-pip-version-check \
        "meson==$fb_meson_pinned" &&
        mkdir "$fb_meson_venv/fb-bin" && ln -s ../bin/meson "$fb_meson_venv/fb-bin/meson"
}

fb_use_project_meson
