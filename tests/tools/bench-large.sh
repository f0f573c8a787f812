#!/bin/sh
# Large inputs: wall time and peak RSS of tracefig (and of the reference
# script, when it and matplotlib are installed) on inputs made by
# tests/tools/gentrace.py:
#   - a legacy PyTorch Chrome trace of ~130 MB (`pytorch --size 130e6`),
#   - a pipelined timeline with 1e6 events (~134 MB; its metadata follows
#     the events, as the profiler writes it),
#   - a Kineto-style Chrome trace of ~1 GB (`kineto --size 1e9`), and the
#     same gzip'd (gzip -6): a figure of a 100 ms window (targets 1.5 s and
#     2.5 s, 64 MB), and of the whole trace;
#   - the cost of the statistics: the same runs with TRACEFIG_STATS=off
#     (target: the statistics add at most 10 %);
#   - the machine's limits on the same 1 GB trace: `cat` of it and
#     `igzip -dc` of its gzip'd copy (ISA-L's own tool, Debian's isal), and
#     tracefig's times as multiples of them (targets: a 100 ms window
#     <= 4x cat, gzip'd <= 1.5x igzip -dc, the whole trace <= 8x cat, each
#     under 64 MB), with the best scanner kernels and the portable ones
#     (TRACEFIG_SIMD=portable);
#   - the floors: the same trace's scan alone, tracefig's scanner with no
#     converter behind it (scan_floor, built by make bench) and simdjson's
#     On Demand parser (floor_simdjson.cpp; needs g++ and libsimdjson-dev),
#     each against cat;
#   - a peer doing the same work on the 1 GB trace: Python's json module
#     (what HTA, TensorBoard's plugin and most scripts start with) loading
#     it and picking the window's events (tests/tools/peer_window.py;
#     BENCH_PEER=0 skips it; it needs about 10 GB of memory).
# The inputs are generated once into a cache folder and reused; each has a
# FILE.how beside it (the generator's arguments and checksum), and a change
# of either regenerates it.  Times are the best of BENCH_LARGE_RUNS runs
# (default 3), peak RSS the largest.
#
#   bench-large.sh TRACEFIG
#
# Environment: TRACEFIG_BENCH_CACHE (default build/bench-large, relative to
# the repository root), BENCH_REFERENCE=0 to skip the reference.
# Targets (a 2-core machine): PyTorch <= 0.5 s and 32 MB, timeline <= 0.5 s
# and 64 MB, Kineto as above.  Lines over a target say OVER; the exit
# status is 0 unless a run fails.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/gentrace.py
ref=../shared/reference/plot_io_trace.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
tmp=${TMPDIR:-/tmp}/tracefig-bench-large.$$
mkdir -p "$cache" "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ ! -x /usr/bin/time ]; then
    echo "bench-large: SKIP (needs /usr/bin/time: apt-get install -y time)"
    exit 0
fi
if [ ! -x "$py" ]; then
    echo "bench-large: SKIP (needs $py to generate the inputs)"
    exit 0
fi

# input FILE ARGS...: make FILE with gentrace.py ARGS unless the cached copy
# was made by the same generator with the same arguments.
input() {
    file=$1
    shift
    how="$* $(cksum <"$gen")"
    if [ -s "$file" ] && [ -f "$file.how" ] && [ "$(cat "$file.how")" = "$how" ]; then
        return 0
    fi
    echo "bench-large: generating $file ..."
    rm -f "$file" "$file.how"
    if "$py" "$gen" "$@" --out "$file.part" && mv "$file.part" "$file"; then
        printf '%s\n' "$how" >"$file.how"
    else
        rm -f "$file.part"
        echo "bench-large: gentrace.py $* failed"
        return 1
    fi
}

pt="$cache/pytorch_130MB.json"
tl="$cache/timeline_1e6.json"
kt="$cache/kineto_1GB.json"
input "$pt" pytorch --size 130e6 --trsm-kernels 60 || exit 1
input "$tl" timeline --version 2 --num-candidates 250000 --start-candidate 125000 \
    --record-from 0 --indent 0 --metadata-last || exit 1
input "$kt" kineto --size 1e9 || exit 1
if [ ! -s "$kt.gz" ] || [ "$(cat "$kt.gz.how" 2>/dev/null)" != "$(cat "$kt.how")" ]; then
    echo "bench-large: compressing $kt ..."
    gzip -6 -n -c "$kt" >"$kt.gz.part" && mv "$kt.gz.part" "$kt.gz" && cp "$kt.how" "$kt.gz.how"
fi
runs=${BENCH_LARGE_RUNS:-3}

. "$(dirname "$0")/measure.sh"

have_ref=0
if [ "${BENCH_REFERENCE:-1}" = 0 ]; then
    echo "bench-large: reference: SKIP (BENCH_REFERENCE=0)"
elif [ ! -f "$ref" ]; then
    echo "bench-large: reference: SKIP ($ref not found)"
elif ! "$py" -c 'import matplotlib, seaborn' 2>/dev/null; then
    echo "bench-large: reference: SKIP (needs python3-matplotlib python3-seaborn)"
else
    have_ref=1
fi

# bench NAME FILE MAX_S MAX_MB
bench() {
    name=$1
    file=$2
    max_s=$3
    max_mb=$4
    mb=$(du -m "$file" | cut -f1)
    measure "$tmp/tf.log" "$bin" "$file" -o "$tmp/out.svg"
    if [ $rc -ne 0 ]; then
        echo "bench-large: $name: tracefig failed (rc=$rc)"
        tail -n 30 "$tmp/tf.log"
        return 1
    fi
    verdict=$(awk -v w="$wall" -v r="$rss" -v mw="$max_s" -v mr="$max_mb" \
        'BEGIN { print (w <= mw && r <= mr) ? "ok" : "OVER" }')
    printf '%-22s %4s MB  tracefig  %6ss %8s MB   (target <= %ss, %s MB: %s)\n' \
        "$name" "$mb" "$wall" "$rss" "$max_s" "$max_mb" "$verdict"
    tw=$wall
    if [ $have_ref -eq 1 ]; then
        measure "$tmp/ref.log" "$py" "$ref" --trace "$file" --output "$tmp/ref.pdf"
        if [ $rc -eq 0 ]; then
            ratio=$(awk -v a="$wall" -v b="$tw" 'BEGIN { printf "%.1f", (b > 0) ? a / b : 0 }')
            printf '%-22s %4s     reference %6ss %8s MB   (tracefig %sx faster)\n' \
                "" "" "$wall" "$rss" "$ratio"
        else
            echo "  reference failed (rc=$rc)"
        fi
    fi
    return 0
}

# generic NAME FILE MAX_S MAX_MB ARGS...: a Chrome-mode figure of FILE
# (MAX_S "-": no target).
generic() {
    name=$1
    file=$2
    max_s=$3
    max_mb=$4
    shift 4
    mb=$(du -m "$file" | cut -f1)
    measure "$tmp/tf.log" "$bin" "$file" "$@" -o "$tmp/out.svg"
    if [ $rc -ne 0 ]; then
        echo "bench-large: $name: tracefig failed (rc=$rc)"
        tail -n 30 "$tmp/tf.log"
        return 1
    fi
    verdict=""
    if [ "$max_s" != "-" ]; then
        verdict=$(awk -v w="$wall" -v r="$rss" -v mw="$max_s" -v mr="$max_mb" \
            'BEGIN { print (w <= mw && r <= mr) ? "ok" : "OVER" }')
        verdict="(target <= ${max_s}s, $max_mb MB: $verdict)"
    fi
    printf '%-22s %4s MB  tracefig  %6ss %8s MB   %s\n' "$name" "$mb" "$wall" "$rss" "$verdict"
    return 0
}

# stats_cost NAME ARGS...: the figure with and without the statistics, the
# two runs alternating (best of $runs each), so that a slow spell of the
# machine falls on both rather than on one.
stats_cost() {
    name=$1
    shift
    on=""
    off=""
    _k=0
    while [ $_k -lt "$runs" ]; do
        measure1 "$tmp/on.log" "$bin" "$@"
        [ $rc -eq 0 ] || { echo "bench-large: $name: tracefig failed"; return 1; }
        on=$(smaller "$on" "$wall")
        measure1 "$tmp/off.log" env TRACEFIG_STATS=off "$bin" "$@"
        [ $rc -eq 0 ] || { echo "bench-large: $name: tracefig failed"; return 1; }
        off=$(smaller "$off" "$wall")
        _k=$((_k + 1))
    done
    awk -v n="$name" -v a="$on" -v b="$off" 'BEGIN {
        p = (b > 0) ? 100 * (a - b) / b : 0
        printf "%-30s with %6ss  without %6ss  %+5.1f %%  (target <= 10 %%: %s)\n", n, a, b, p,
            (p <= 10) ? "ok" : "OVER" }'
}

status=0
echo "large inputs (cache: $cache)"
bench "pytorch 130 MB" "$pt" 0.5 32 || status=1
bench "timeline 1e6 events" "$tl" 0.5 64 || status=1
win="--from 1000ms --to 1100ms"
# shellcheck disable=SC2086
generic "kineto 1 GB, 100 ms" "$kt" 1.5 64 $win || status=1
# shellcheck disable=SC2086
generic "kineto 1 GB gz, 100 ms" "$kt.gz" 2.5 64 $win || status=1
generic "kineto 1 GB, whole" "$kt" - - || status=1

# limits NAME BASE_NAME TARGET CMD...: the last measure's wall time and RSS
# (tracefig's), and the wall time as a multiple of CMD's (best of $runs).
limits() {
    name=$1
    base=$2
    target=$3
    shift 3
    tw=$wall
    tr=$rss
    measure "$tmp/base.log" "$@"
    [ $rc -eq 0 ] || { echo "bench-large: $base failed (rc=$rc)"; return 1; }
    awk -v n="$name" -v b="$base" -v t="$tw" -v r="$tr" -v w="$wall" -v x="$target" 'BEGIN {
        k = (w > 0) ? t / w : 0
        printf "%-30s tracefig %6ss %6s MB  %-10s %6ss  = %5.1fx  (target <= %sx, 64 MB: %s)\n",
            n, t, r, b, w, k, x, (k <= x && r <= 64) ? "ok" : "OVER" }'
}

echo "against the machine: best of $runs runs (cat, igzip -dc: the same file to /dev/null)"
# shellcheck disable=SC2086
for simd in "" portable; do
    label=${simd:+" ($simd)"}
    measure "$tmp/tf.log" env ${simd:+TRACEFIG_SIMD=$simd} "$bin" "$kt" $win -o "$tmp/out.svg" &&
        limits "kineto 1 GB, 100 ms$label" cat 4 cat "$kt" || status=1
    if command -v igzip >/dev/null 2>&1; then
        measure "$tmp/tf.log" env ${simd:+TRACEFIG_SIMD=$simd} "$bin" "$kt.gz" $win -o "$tmp/out.svg" &&
            limits "kineto 1 GB gz, 100 ms$label" "igzip -dc" 1.5 igzip -dc "$kt.gz" || status=1
    else
        echo "kineto 1 GB gz: igzip: SKIP (needs igzip: apt-get install -y isal)"
    fi
    measure "$tmp/tf.log" env ${simd:+TRACEFIG_SIMD=$simd} "$bin" "$kt" -o "$tmp/out.svg" &&
        limits "kineto 1 GB, whole$label" cat 8 cat "$kt" || status=1
done
# The same with the scanner on the caller's thread (no pipe: src/load/pipe.c).
# shellcheck disable=SC2086
measure "$tmp/tf.log" env TRACEFIG_PIPE=off "$bin" "$kt" $win -o "$tmp/out.svg" &&
    limits "kineto 1 GB, 100 ms (one thread)" cat 4 cat "$kt" || status=1
measure "$tmp/tf.log" env TRACEFIG_PIPE=off "$bin" "$kt" -o "$tmp/out.svg" &&
    limits "kineto 1 GB, whole (one thread)" cat 8 cat "$kt" || status=1

# The floors: what the 1 GB trace's scan alone costs, tracefig's scanner
# with nothing behind it (tests/tools/scan_floor.c, built by make bench)
# and simdjson's On Demand parser (tests/tools/floor_simdjson.cpp, built
# here when g++ and Debian's libsimdjson-dev are installed), each against
# cat.  They tell the scan's share of the window's time from the rest, and
# how far the fastest JSON parser known gets on this machine's one core.
measure "$tmp/base.log" cat "$kt"
cat_s=$wall
mem_gb=$(awk '/MemAvailable/ { printf "%d", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
floor() { # NAME SECONDS NOTE: one line against cat
    awk -v n="$1" -v s="$2" -v c="$cat_s" -v note="$3" 'BEGIN {
        printf "%-34s %6.3fs = %5.1fx cat  %s\n", n, s, (c > 0) ? s / c : 0, note }'
}
echo "floors: the 1 GB trace's scan alone, best of $runs (cat: ${cat_s}s)"
scan_floor=$(dirname "$bin")/scan_floor
if [ -x "$scan_floor" ]; then
    out=$("$scan_floor" "$kt" "$runs") || status=1
    # shellcheck disable=SC2086
    set -- $out
    [ "${1:-}" = scan ] && floor "tracefig's scanner alone" "$2" \
        "(each event validated, its 16 members located; file read ahead on a thread)"
    out=$(TRACEFIG_SIMD=portable "$scan_floor" "$kt" "$runs") || status=1
    # shellcheck disable=SC2086
    set -- $out
    [ "${1:-}" = scan ] && floor "  the same, portable kernels" "$2" ""
else
    echo "scanner alone: SKIP ($scan_floor not built: make bench builds it)"
fi
if ! command -v g++ >/dev/null 2>&1 || [ ! -f /usr/include/simdjson.h ]; then
    echo "simdjson: SKIP (needs g++ and libsimdjson-dev: apt-get install -y g++ libsimdjson-dev)"
elif [ "${mem_gb:-0}" -lt 8 ]; then
    echo "simdjson: SKIP (it holds the whole 1 GB trace, its index and its DOM: about 5 GB; ${mem_gb:-?} GB available)"
elif ! g++ -O3 -march=native -std=c++17 -o "$tmp/floor_simdjson" tests/tools/floor_simdjson.cpp \
    -lsimdjson 2>"$tmp/sj.log"; then
    echo "simdjson: SKIP (tests/tools/floor_simdjson.cpp did not build: $(head -1 "$tmp/sj.log"))"
elif out=$("$tmp/floor_simdjson" "$kt" "$runs"); then
    # shellcheck disable=SC2086
    set -- $out
    v=$(dpkg-query -W -f='${Version}' libsimdjson-dev 2>/dev/null)
    floor "simdjson ${v%%-*} On Demand, stage 1" "$2" "(UTF-8 and the structural index; kernel ${12})"
    floor "  + reading each event's ts" "$(awk -v a="$2" -v b="$4" 'BEGIN { print a + b }')" \
        "(one core, the file in memory; values it passes over are not validated)"
    floor "  + reading every value instead" "$6" "(each number as a double, each string decoded)"
    floor "simdjson ${v%%-*} DOM parse" "$8" "(every value validated, numbers and strings converted)"
else
    echo "simdjson: failed"
    status=1
fi

echo "statistics: best of $runs runs with and without (TRACEFIG_STATS=off)"
stats_cost "timeline 1e6 events" "$tl" -o "$tmp/s.svg" || status=1
# shellcheck disable=SC2086
stats_cost "kineto 1 GB, 100 ms" "$kt" $win -o "$tmp/s.svg" || status=1
stats_cost "kineto 1 GB, whole" "$kt" -o "$tmp/s.svg" || status=1
# shellcheck disable=SC2086
stats_cost "kineto 1 GB, trace scope" "$kt" $win --stats-scope trace -o "$tmp/s.svg" || status=1

# The peer: Python's json module on the same file, the same window.
if [ "${BENCH_PEER:-1}" = 0 ]; then
    echo "peer: SKIP (BENCH_PEER=0)"
elif [ "${mem_gb:-0}" -lt 14 ]; then
    echo "peer: SKIP (Python's json needs about 10 GB for the 1 GB trace; ${mem_gb:-?} GB available)"
else
    runs_save=$runs
    runs=1
    measure "$tmp/peer.log" "$py" tests/tools/peer_window.py "$kt" 1000 1100
    runs=$runs_save
    if [ $rc -eq 0 ]; then
        printf '%-22s %4s MB  peer      %6ss %8s MB   (Python json: load, pick the window)\n' \
            "kineto 1 GB, 100 ms" "$(du -m "$kt" | cut -f1)" "$wall" "$rss"
    else
        echo "peer: failed (rc=$rc): $(tail -3 "$tmp/peer.log")"
    fi
fi
exit $status
