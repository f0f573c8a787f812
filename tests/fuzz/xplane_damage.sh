#!/bin/sh
# Damaged XPlane files, many of them: xplane_damage.sh TRACEFIG [N [SEED0]]
#
# N (default 300) seeded damages (tests/xplane/damage.py: a cut, flipped
# bytes, zeroed bytes, inserted bytes, a varint made longer) spread over
# the files of tests/tools/genxplane.py (gpu, tpu, subns, gz) and, when
# ../shared/real-traces/xplane is there, its real files (read there, never
# copied into the project), each drawn to SVG and to JSON with --stats and
# --flows under timeout ${XPLANE_DAMAGE_TIMEOUT:-30}.  Each run must exit
# 0 or 1; on exit 1 print exactly one line and write no output; never a
# sanitizer report (run it on build-san/tracefig).  tests/xplane runs a
# few dozen of the same damages; this is the long loop.  Prints the
# failures and "xplane-damage: N passed, N failed".
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
count=${2:-300}
seed0=${3:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
timeout=${XPLANE_DAMAGE_TIMEOUT:-30}
# a sanitizer's report must not pass for the message's exit 1
ASAN_OPTIONS="exitcode=86${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="exitcode=87:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS UBSAN_OPTIONS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-xplane-damage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
files=
for c in gpu tpu subns gz; do
    python3 "$root/tests/tools/genxplane.py" $c "$tmp/$c.xplane.pb" ||
        { echo "the generator failed on $c"; exit 1; }
    files="$files $tmp/$c.xplane.pb"
done
real=$root/../shared/real-traces/xplane
for f in "$real"/*.xplane.pb; do
    [ -f "$f" ] && files="$files $f"
done
set -- $files
nf=$#
pass=0
fail=0
i=0
while [ $i -lt "$count" ]; do
    seed=$((seed0 + i))
    k=$((seed % nf + 1))
    eval "src=\${$k}"
    what=$(python3 "$root/tests/xplane/damage.py" "$src" "$tmp/d.xplane.pb" "$seed")
    for out in svg json; do
        rm -f "$tmp/o.$out"
        timeout "$timeout" "$bin" "$tmp/d.xplane.pb" --stats --flows -o "$tmp/o.$out" \
            >/dev/null 2>"$tmp/err"
        rc=$?
        lines=$(wc -l <"$tmp/err")
        if [ $rc -eq 0 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
            pass=$((pass + 1))
        elif [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ ! -e "$tmp/o.$out" ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL: seed $seed ($(basename "$src"): $what) -> $out: rc $rc, $lines lines:"
            head -5 "$tmp/err"
            cp "$tmp/d.xplane.pb" "$tmp/../xplane-damage-$seed.xplane.pb" 2>/dev/null
        fi
    done
    i=$((i + 1))
done
echo "xplane-damage: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
