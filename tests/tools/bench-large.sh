#!/bin/sh
# Large inputs: wall time and peak RSS of tracefig (and of the reference
# script, when matplotlib is installed) on
#   - a PyTorch Chrome trace from `gen_traces.py pytorch --large` (~130 MB),
#   - a pipelined timeline with 1e6 events (~136 MB; its metadata follows
#     the events, as the profiler writes it).
# The inputs are generated once into a cache folder and reused.
#
#   bench-large.sh TRACEFIG
#
# Environment: TRACEFIG_BENCH_CACHE (default build/bench-large, relative to
# the repository root), BENCH_REFERENCE=0 to skip the reference.
# Targets (issue 5, a 2-core machine): PyTorch <= 0.5 s and 32 MB, timeline
# <= 0.5 s and 64 MB.  Lines over a target say OVER; the exit status is 0
# unless a run fails.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=../shared/reference/gen_traces.py
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

pt="$cache/pytorch_large.json"
tl="$cache/timeline_1e6.json"
if [ ! -s "$pt" ]; then
    echo "bench-large: generating $pt ..."
    "$py" "$gen" pytorch --large --out "$pt.part" 2>/dev/null && mv "$pt.part" "$pt" || exit 1
fi
if [ ! -s "$tl" ]; then
    echo "bench-large: generating $tl ..."
    "$py" "$gen" timeline --version 2 --num-candidates 250000 --start-candidate 125000 \
        --record-from 0 --indent 0 --out "$tl.part" 2>/dev/null && mv "$tl.part" "$tl" || exit 1
fi

# measure LOG CMD...: runs CMD under /usr/bin/time -v; sets $wall (s) and
# $rss (MB), and $rc.
measure() {
    log=$1
    shift
    /usr/bin/time -v "$@" >/dev/null 2>"$log"
    rc=$?
    wall=$(sed -n 's/.*Elapsed (wall clock) time[^:]*: *//p' "$log" |
        awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }')
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$log" |
        awk '{ printf "%.1f", $1 / 1024 }')
}

have_ref=0
if [ "${BENCH_REFERENCE:-1}" != 0 ] && "$py" -c 'import matplotlib, seaborn' 2>/dev/null; then
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
    tr=$rss
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

status=0
echo "large inputs (cache: $cache)"
bench "pytorch --large" "$pt" 0.5 32 || status=1
bench "timeline 1e6 events" "$tl" 0.5 64 || status=1
[ $have_ref -eq 1 ] || echo "(reference not measured: needs python3-matplotlib python3-seaborn)"
exit $status
