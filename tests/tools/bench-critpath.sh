#!/bin/sh
# bench-critpath.sh TRACEFIG: what --critical-path costs (issue 47): one
# step's figure of the ~1 GB Kineto trace (gentrace.py kineto --size 1e9,
# the cache bench-large.sh fills) with and without --critical-path, and of
# the real kineto-resnet50 trace of ../shared when it is there.  Prints
# for each the wall time, the CPU time (user + sys: the machine is shared,
# so the ratio of CPU times is the steadier one) and the peak RSS, and the
# ratios with the path against without.
# Targets: CPU time with the path <= 1.5x without; peak RSS no more than
# the window's events need (the line says the growth in MB).  Lines over
# the time target say OVER; the exit status is 0 unless a run fails.
#
# Environment: TRACEFIG_BENCH_CACHE (default build/bench-large),
# BENCH_CRITPATH_RUNS (default 3; the best time, the largest RSS).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/gentrace.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
runs=${BENCH_CRITPATH_RUNS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench-critpath.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ ! -x /usr/bin/time ]; then
    echo "bench-critpath: SKIP (needs /usr/bin/time: apt-get install -y time)"
    exit 0
fi

# one FILE ARGS...: the best wall and CPU time and the largest RSS of
# `tracefig FILE ARGS -o x.svg` over $runs runs into $wall $cpu $rss.
one() {
    wall=""
    cpu=""
    rss=0
    k=0
    while [ $k -lt "$runs" ]; do
        if ! /usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$bin" "$@" -o "$tmp/x.svg" \
            >/dev/null 2>"$tmp/err"; then
            echo "bench-critpath: tracefig $* failed: $(head -n 1 "$tmp/err")"
            return 1
        fi
        read -r w u s m <"$tmp/time"
        c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
        wall=$(awk -v a="$wall" -v b="$w" 'BEGIN { print (a == "" || b < a) ? b : a }')
        cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN { print (a == "" || b < a) ? b : a }')
        rss=$(awk -v a="$rss" -v b="$m" 'BEGIN { print (b > a) ? b : a }')
        k=$((k + 1))
    done
    rss=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
}

# case NAME FILE ARGS...: the figure with and without --critical-path.
case_() {
    name=$1
    shift
    one "$@" || return 1
    w0=$wall c0=$cpu r0=$rss
    one "$@" --critical-path || return 1
    verdict=$(awk -v a="$cpu" -v b="$c0" 'BEGIN { print (b > 0 && a / b <= 1.5) ? "ok" : "OVER" }')
    printf '%-16s without: %6ss wall %6ss cpu %8s MB | with: %6ss wall %6ss cpu %8s MB\n' \
        "$name" "$w0" "$c0" "$r0" "$wall" "$cpu" "$rss"
    printf '%-16s cpu ratio %s (target <= 1.5: %s), wall ratio %s, RSS +%s MB\n' "" \
        "$(awk -v a="$cpu" -v b="$c0" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')" "$verdict" \
        "$(awk -v a="$wall" -v b="$w0" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')" \
        "$(awk -v a="$rss" -v b="$r0" 'BEGIN { printf "%.1f", a - b }')"
}

real=../shared/real-traces/kineto-resnet50-nw0.pt.trace.json.gz
if [ -f "$real" ]; then
    case_ resnet50-step "$real" --window-event 'ProfilerStep*'
else
    echo "bench-critpath: resnet50: SKIP ($real not found)"
fi

kt="$cache/kineto_1GB.json"
how="kineto --size 1e9 $(cksum <"$gen")"
if [ ! -s "$kt" ] || [ "$(cat "$kt.how" 2>/dev/null)" != "$how" ]; then
    if [ ! -x "$py" ]; then
        echo "bench-critpath: kineto 1 GB: SKIP (needs $py to generate it)"
        exit 0
    fi
    echo "bench-critpath: generating $kt ..."
    mkdir -p "$cache"
    rm -f "$kt" "$kt.how"
    "$py" "$gen" kineto --size 1e9 --out "$kt.part" && mv "$kt.part" "$kt" &&
        printf '%s\n' "$how" >"$kt.how" || { echo "bench-critpath: gentrace.py failed"; exit 1; }
fi
case_ kineto-1GB-step "$kt" --window-event 'ProfilerStep*' --occurrence 2
exit 0
