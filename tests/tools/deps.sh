#!/bin/sh
# Installs the Debian packages tracefig needs, only those that are missing.
#
#   deps.sh build   what `make` / `make demo` need
#   deps.sh test    what `make check` needs as well (with what HTA itself
#                   needs for tests/hta: pandas, plotly, networkx, psutil, yaml)
#   deps.sh bench   what `make bench` needs as well (hyperfine; g++ and
#                   libsimdjson-dev for the scan's floor, bench-large.sh)
#
# As root it runs apt-get; otherwise it prints the exact command and fails,
# so nothing half-works silently.
set -eu
# libotf2-trace-dev: OTF2 archives (src/load/otf2.c; optional: a build
# without it still succeeds); otf2-tools (otf2-print, make bench) and
# python3-otf2 (tests/tools/genotf2.py writes the test archives) for the tests.
# libbabeltrace2-dev: CTF traces (src/load/ctf.c; optional likewise);
# babeltrace2 (tests/ctf counts the real samples' switches) and python3-bt2.
# protobuf-compiler and python3-protobuf: tests/xplane/pbcheck.py reads the
# XPlane files with protobuf's own parser.
build="gcc make pkg-config libjansson-dev libxml2-dev zlib1g-dev libisal-dev libsqlite3-dev libcairo2-dev
       fonts-dejavu-core libotf2-trace-dev libbabeltrace2-dev"
test="$build isal libxml2-utils librsvg2-bin poppler-utils valgrind python3 locales
      texlive-latex-base texlive-pictures texlive-latex-extra texlive-luatex texlive-xetex
      chromium python3-pip python3-setuptools python3-wheel jupyter-nbconvert
      python3-ipykernel python3-pandas python3-plotly python3-networkx python3-psutil python3-yaml
      otf2-tools python3-otf2 groff-base man-db babeltrace2 python3-bt2
      protobuf-compiler python3-protobuf"
bench="$test hyperfine g++ libsimdjson-dev"
# Installed when the archive has them; their tests say SKIP otherwise.
optional_test="python3-torch"
optional=""
case ${1:-build} in
build) want=$build ;;
test) want=$test optional=$optional_test ;;
bench) want=$bench optional=$optional_test ;;
*) echo "usage: deps.sh build|test|bench" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; install the equivalents of: $want" >&2
    exit 0
fi
missing=""
for p in $want; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case $status in *" installed") ;; *) missing="$missing $p" ;; esac
done
# The optional ones, best effort, as root only.
for p in $optional; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case $status in *" installed") continue ;; esac
    if [ "$(id -u)" = 0 ]; then
        echo "deps: installing $p (optional)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" \
            >/dev/null 2>&1 || echo "deps: $p cannot be installed; its tests will SKIP" >&2
    else
        echo "deps: optional $p is missing (its tests will SKIP)" >&2
    fi
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
    echo "deps: missing packages:$missing" >&2
    echo "deps: run as root:  apt-get update && $cmd" >&2
    exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
