#!/bin/sh
# XPlane profiles (make bench): the read speed of an XPlane file made by
# tests/tools/genxplane.py (`big`: N events on 8 host threads, as
# pfwrite.py's `big` writes the same N slices to a Perfetto protobuf trace)
# against that Perfetto trace, in one run: the ratio XPlane time / Perfetto
# time (target <= 2); and a 1 GB XPlane file (the same layout, each event
# with a string stat of 100 bytes, as kernel details are) drawn whole
# (peak memory reported: the statistics keep each lane's busy intervals)
# and in a step window (--window-event 'step', the "Steps" line): peak
# memory (target <= 64 MB for the window).  The files are made once into
# the cache (TRACEFIG_BENCH_CACHE, default build/bench-large) with a
# FILE.how beside them; times are the best of BENCH_LARGE_RUNS runs
# (default 3), peak RSS the largest.  XPLANE_BENCH_N (default 3000000) and
# XPLANE_BENCH_BIG (default 8000000 events) set the sizes.
#
#   bench-xplane.sh TRACEFIG
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/genxplane.py
pfgen=tests/tools/pfwrite.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
runs=${BENCH_LARGE_RUNS:-3}
n=${XPLANE_BENCH_N:-3000000}
nbig=${XPLANE_BENCH_BIG:-8000000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench-xplane.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$cache"
if [ ! -x /usr/bin/time ] || [ ! -x "$py" ]; then
    echo "bench-xplane: SKIP (needs /usr/bin/time and $py)"
    exit 0
fi
# make FILE HOW CMD...: CMD writes FILE unless the cache holds it as HOW made it
make_once() {
    f=$1
    how=$2
    shift 2
    if ! { [ -s "$f" ] && [ -f "$f.how" ] && [ "$(cat "$f.how")" = "$how" ]; }; then
        echo "bench-xplane: generating $f ..."
        rm -f "$f" "$f.how"
        "$@" || { echo "bench-xplane: $* failed"; exit 1; }
        printf '%s\n' "$how" >"$f.how"
    fi
}
xp="$cache/xplane_$n.xplane.pb"
pf="$cache/xplane_$n.pftrace"
big="$cache/xplane_big_$nbig.xplane.pb"
make_once "$xp" "big $n $(cksum <"$gen")" "$py" "$gen" big "$n" "$xp"
make_once "$pf" "big $n $(cksum <"$pfgen")" "$py" "$pfgen" big "$n" "$pf"
make_once "$big" "big $nbig 100 $(cksum <"$gen")" "$py" "$gen" big "$nbig" "$big" 100
. "$(dirname "$0")/measure.sh"
status=0
echo "XPlane profiles (cache: $cache)"
measure "$tmp/x.log" "$bin" "$xp" -o "$tmp/x.svg"
[ $rc -eq 0 ] || { echo "  xplane: tracefig failed"; exit 1; }
tx=$wall
rx=$rss
measure "$tmp/p.log" "$bin" "$pf" -o "$tmp/p.svg"
[ $rc -eq 0 ] || { echo "  perfetto: tracefig failed"; exit 1; }
tp=$wall
rp=$rss
ratio=$(awk -v a="$tx" -v b="$tp" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
echo "  $n events: XPlane $(du -m "$xp" | cut -f1) MB ${tx} s ${rx} MB peak; Perfetto $(du -m "$pf" | cut -f1) MB ${tp} s ${rp} MB peak; XPlane/Perfetto time ${ratio}x (target <= 2)"
awk -v r="$ratio" 'BEGIN { exit !(r <= 2) }' || status=1
measure "$tmp/a.log" "$bin" "$big" -o "$tmp/a.svg"
[ $rc -eq 0 ] || { echo "  big: tracefig failed"; exit 1; }
echo "  $(du -m "$big" | cut -f1) MB drawn whole: ${wall} s ${rss} MB peak (the lanes' busy sets for --stats' overlaps: not bounded)"
measure "$tmp/w.log" "$bin" "$big" --window-event step -o "$tmp/w.svg"
[ $rc -eq 0 ] || { echo "  big: tracefig failed"; exit 1; }
echo "  $(du -m "$big" | cut -f1) MB, a step window: ${wall} s ${rss} MB peak (target <= 64 MB)"
awk -v r="$rss" 'BEGIN { exit !(r <= 64) }' || status=1
exit $status
