#!/bin/sh
# Perfetto protobuf traces (make bench): the read speed of a protobuf trace
# made by tests/tools/pfwrite.py (`big`: 3 million track-event slices on 8
# threads, names interned, about 110 MB) against the same events written as
# Chrome JSON (B/E pairs, about 325 MB), in one run: the ratio JSON time /
# protobuf time (target >= 1), and peak memory: the loader's alone
# (TRACEFIG_STATS=off: the statistics keep each lane's intervals, whatever
# the format) and a 1 ms window (targets <= 64 MB).  The traces are made
# once into the cache (TRACEFIG_BENCH_CACHE, default build/bench-large) with
# a FILE.how beside them; times are the best of BENCH_LARGE_RUNS runs
# (default 3), peak RSS the largest.
#
#   bench-perfetto.sh TRACEFIG
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/pfwrite.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
runs=${BENCH_LARGE_RUNS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench-perfetto.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$cache"
if [ ! -x /usr/bin/time ] || [ ! -x "$py" ]; then
    echo "bench-perfetto: SKIP (needs /usr/bin/time and $py)"
    exit 0
fi
pb="$cache/perfetto_3M.pftrace"
js="$cache/perfetto_3M.json"
how="big 3000000 $(cksum <"$gen")"
if ! { [ -s "$pb" ] && [ -s "$js" ] && [ -f "$pb.how" ] && [ "$(cat "$pb.how")" = "$how" ]; }; then
    echo "bench-perfetto: generating $pb and $js ..."
    rm -f "$pb" "$js" "$pb.how"
    "$py" "$gen" big 3000000 "$pb" "$js" || { echo "bench-perfetto: pfwrite.py failed"; exit 1; }
    printf '%s\n' "$how" >"$pb.how"
fi
. "$(dirname "$0")/measure.sh"
status=0
echo "Perfetto protobuf traces (cache: $cache)"
measure "$tmp/p.log" "$bin" "$pb" -o "$tmp/p.svg"
[ $rc -eq 0 ] || { echo "  protobuf: tracefig failed"; exit 1; }
tp=$wall
rp=$rss
measure "$tmp/j.log" "$bin" "$js" -o "$tmp/j.svg"
[ $rc -eq 0 ] || { echo "  json: tracefig failed"; exit 1; }
tj=$wall
rj=$rss
ratio=$(awk -v a="$tj" -v b="$tp" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
echo "  whole trace: protobuf $(du -m "$pb" | cut -f1) MB ${tp} s ${rp} MB peak; JSON $(du -m "$js" | cut -f1) MB ${tj} s ${rj} MB peak; JSON/protobuf time ${ratio}x (target >= 1)"
awk -v r="$ratio" 'BEGIN { exit !(r >= 1) }' || status=1
TRACEFIG_STATS=off measure "$tmp/s.log" "$bin" "$pb" -o "$tmp/s.svg"
echo "  whole trace, statistics off: ${wall} s ${rss} MB peak (target <= 64 MB)"
awk -v r="$rss" 'BEGIN { exit !(r <= 64) }' || status=1
measure "$tmp/w.log" "$bin" "$pb" --from 0 --to 1ms -o "$tmp/w.svg"
echo "  a 1 ms window: ${wall} s ${rss} MB peak (target <= 64 MB)"
awk -v r="$rss" 'BEGIN { exit !(r <= 64) }' || status=1
exit $status
