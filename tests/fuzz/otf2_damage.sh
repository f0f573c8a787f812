#!/bin/sh
# Damaged OTF2 archives, many of them: otf2_damage.sh TRACEFIG [N [SEED0]]
#
# N (default 300) seeded damages (tests/otf2/damage.py: bit flips, a cut,
# 32 or 64 zeroed bytes, inserted bytes, in an event file, the global
# definitions or the anchor) spread over four archives of
# tests/tools/genotf2.py (chunks, basic, nompi, renamed), each read under
# timeout ${OTF2_DAMAGE_TIMEOUT:-20}.  Each run must exit 0 or 1, print
# one line on exit 1, and write valid UTF-8 to stderr.  tests/otf2 runs a
# few dozen of the same damages; this is the long loop (make
# fuzz-otf2-damage).  Prints the failures, the slowest run and
# "otf2-damage: N passed, N failed".
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
count=${2:-300}
seed0=${3:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
if ! "$py" -c 'import otf2' 2>/dev/null; then
    echo "SKIP (no python3 with the otf2 module: install Debian's python3-otf2)"
    echo "otf2-damage: 0 passed, 0 failed"
    exit 0
fi
timeout=${OTF2_DAMAGE_TIMEOUT:-20}
# under ASan: libotf2's own leak on a damaged anchor (tests/otf2/lsan.supp)
LSAN_OPTIONS="suppressions=$root/tests/otf2/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-otf2-damage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
archives="chunks basic nompi renamed"
for a in $archives; do
    "$py" "$root/tests/tools/genotf2.py" "$a" "$tmp/$a" >/dev/null ||
        { echo "the generator failed on $a"; exit 1; }
done
pass=0
fail=0
slowest=0
slowest_what=
i=0
while [ $i -lt "$count" ]; do
    seed=$((seed0 + i))
    set -- $archives
    shift $((seed % 4))
    a=$1
    what=$("$py" "$root/tests/otf2/damage.py" "$tmp/$a" "$tmp/dmg" "$seed") || exit 1
    t0=$(date +%s)
    timeout "$timeout" "$bin" "$tmp/dmg/traces.otf2" -o "$tmp/out.svg" >/dev/null 2>"$tmp/err"
    rc=$?
    dt=$(($(date +%s) - t0))
    if [ $dt -ge $slowest ]; then
        slowest=$dt
        slowest_what="$a seed $seed ($what)"
    fi
    why=""
    case $rc in
    0) ;;
    1) [ "$(wc -l <"$tmp/err")" = 1 ] || why="$(wc -l <"$tmp/err") lines on exit 1;" ;;
    124) why="still running after ${timeout}s;" ;;
    *) why="exit $rc;" ;;
    esac
    "$py" -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$tmp/err" 2>/dev/null ||
        why="$why stderr is not valid UTF-8;"
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $a seed $seed ($what): $why $(head -c 300 "$tmp/err")"
    fi
    i=$((i + 1))
done
echo "slowest: ${slowest} s, $slowest_what"
echo "otf2-damage: $pass passed, $fail failed"
[ $fail = 0 ]
