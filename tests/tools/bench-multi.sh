#!/bin/sh
# Several traces in one figure: wall time and peak RSS of tracefig on the
# 64 ranks of one job, 20 MB of Kineto trace each (1.28 GB), made by
# tests/tools/gentrace.py ranks, with a one-step window:
#   - the 64 traces at once (loaded in parallel, up to the cores), one lane
#     per rank and every lane of every rank;
#   - the same through per-rank figure models: each rank's model
#     (--format json; one process per rank, as a cluster's job array runs
#     them: their total, and 2 at a time as `make -j2` or `xargs -P2` would
#     on this machine), then the figure from the 64 models.
# Target (a 2-core machine): the 64 ranks in at most 1.2 s and 64 MB.
# The inputs are generated once into a cache folder and reused (RANKS.how
# holds the generator's arguments and checksum).  Times are the best of
# BENCH_LARGE_RUNS runs (default 3), peak RSS the largest.
#
#   bench-multi.sh TRACEFIG
#
# Environment: TRACEFIG_BENCH_CACHE (default build/bench-large, relative to
# the repository root).  Lines over a target say OVER; the exit status is 0
# unless a run fails.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/gentrace.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
tmp=${TMPDIR:-/tmp}/tracefig-bench-multi.$$
mkdir -p "$cache" "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ ! -x /usr/bin/time ] || [ ! -x "$py" ]; then
    echo "bench-multi: SKIP (needs /usr/bin/time and $py)"
    exit 0
fi

ranks="$cache/ranks64"
args="ranks --world-size 64 --size 20e6 --skew-us 3"
how="$args $(cksum <"$gen")"
if [ ! -f "$ranks.how" ] || [ "$(cat "$ranks.how")" != "$how" ] || [ ! -s "$ranks/rank63.json" ]; then
    echo "bench-multi: generating $ranks (64 x 20 MB) ..."
    rm -rf "$ranks" "$ranks.how"
    # shellcheck disable=SC2086
    "$py" "$gen" $args --out-dir "$ranks" && printf '%s\n' "$how" >"$ranks.how" ||
        { echo "bench-multi: gentrace.py failed"; exit 1; }
fi
files=""
i=0
while [ $i -lt 64 ]; do files="$files $ranks/rank$i.json"; i=$((i + 1)); done
step="--window-event ProfilerStep#40"
runs=${BENCH_LARGE_RUNS:-3}

. "$(dirname "$0")/measure.sh"

# line NAME [MAX_S MAX_MB]
line() {
    verdict=""
    if [ $# -ge 3 ]; then
        verdict=$(awk -v w="$wall" -v r="$rss" -v mw="$2" -v mr="$3" \
            'BEGIN { print (w <= mw && r <= mr) ? "ok" : "OVER" }')
        verdict="(target <= ${2}s, $3 MB: $verdict)"
    fi
    printf '%-44s %6ss %7s MB   %s\n' "$1" "$wall" "$rss" "$verdict"
}

status=0
echo "several traces: 64 ranks x 20 MB (1.28 GB), the window of ProfilerStep#40 ($(nproc) cores)"
# shellcheck disable=SC2086
measure "$tmp/a.log" "$bin" $files $step --lanes 'GPU*stream 7*' -o "$tmp/a.svg"
[ $rc -eq 0 ] && line "64 ranks, one lane each" 1.2 64 || { echo "bench-multi: failed"; tail "$tmp/a.log"; status=1; }
# shellcheck disable=SC2086
measure "$tmp/b.log" "$bin" $files $step -o "$tmp/b.svg"
[ $rc -eq 0 ] && line "64 ranks, every lane" 1.2 64 || { echo "bench-multi: failed"; tail "$tmp/b.log"; status=1; }
# shellcheck disable=SC2086
measure "$tmp/c.log" env TRACEFIG_THREADS=1 "$bin" $files $step --lanes 'GPU*stream 7*' -o "$tmp/c.svg"
[ $rc -eq 0 ] && line "64 ranks, one lane each, one thread" || status=1

# Per-rank models, as a job array makes them; then the figure of them all.
t0=$(date +%s.%N)
i=0
top=0
while [ $i -lt 64 ]; do
    measure1 "$tmp/m.log" "$bin" "$ranks/rank$i.json" $step --lanes 'GPU*stream 7*' \
        --format json -o "$tmp/rank$i.model.json"
    [ $rc -eq 0 ] || { echo "bench-multi: rank $i's model failed"; status=1; break; }
    top=$(awk -v a="$top" -v b="$rss" 'BEGIN { print (b > a) ? b : a }')
    i=$((i + 1))
done
t1=$(date +%s.%N)
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
rss=$top
line "64 per-rank models, one after another"
t0=$(date +%s.%N)
i=0
while [ $i -lt 64 ]; do echo $i; i=$((i + 1)); done |
    xargs -P 2 -I R "$bin" "$ranks/rankR.json" $step --lanes 'GPU*stream 7*' --format json \
        -o "$tmp/rankR.model.json" || status=1
t1=$(date +%s.%N)
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
line "64 per-rank models, 2 at a time (xargs -P2)"
models=""
i=0
while [ $i -lt 64 ]; do models="$models $tmp/rank$i.model.json"; i=$((i + 1)); done
# shellcheck disable=SC2086
measure "$tmp/d.log" "$bin" $models -o "$tmp/d.svg"
[ $rc -eq 0 ] && line "the figure of the 64 models" 1.2 64 || { echo "bench-multi: failed"; tail "$tmp/d.log"; status=1; }
exit $status
