#!/bin/sh
# Nsight Systems exports (make bench): figures of SQLite exports made by
# tests/tools/gennsys.py (python3's sqlite3):
#   - about 2 MB with 13 000 NVTX ranges nested 4 deep, 33 000 driver calls
#     and 1 000 kernels (`bench-nvtx`): the default figure, mean of
#     BENCH_RUNS runs (target <= 50 ms);
#   - 10 million kernels on 4 streams, about 1 GB, with 1 000 NVTX "step"
#     ranges (`bench-kernels`): a figure of one window, by an NVTX range and
#     by --from/--to (targets <= 2 s and 64 MB peak); the same export with
#     an index on start, a window near its start (read through the index)
#     and in its middle (a scan: see src/load/nsys.c); the whole export
#     (every row twice; issue 24's targets <= 3 s and 64 MB: the
#     statistics fold their past as the rows come in start order), and
#     the same with its rows read on a second thread
#     (TRACEFIG_PIPE=on: src/load/nsys.c).
# Inputs are generated once into the cache (TRACEFIG_BENCH_CACHE, default
# build/bench-large) with a FILE.how beside each; times of the large ones
# are the best of BENCH_LARGE_RUNS runs (default 3), peak RSS the largest.
#
#   bench-nsys.sh TRACEFIG
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/gennsys.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench-nsys.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$cache"

if [ ! -x /usr/bin/time ] || [ ! -x "$py" ] || ! "$py" -c 'import sqlite3' 2>/dev/null; then
    echo "bench-nsys: SKIP (needs /usr/bin/time and $py with sqlite3)"
    exit 0
fi

# input FILE ARGS...: make FILE with gennsys.py ARGS unless cached.
input() {
    file=$1
    shift
    how="$* $(cksum <"$gen")"
    if [ -s "$file" ] && [ -f "$file.how" ] && [ "$(cat "$file.how")" = "$how" ]; then
        return 0
    fi
    echo "bench-nsys: generating $file ..."
    rm -f "$file" "$file.how"
    if "$py" "$gen" "$@" --out "$file.part" && mv "$file.part" "$file"; then
        printf '%s\n' "$how" >"$file.how"
    else
        rm -f "$file.part"
        echo "bench-nsys: gennsys.py $* failed"
        return 1
    fi
}

small="$cache/nsys_nvtx_13k.sqlite"
big="$cache/nsys_kernels_10M.sqlite"
bigi="$cache/nsys_kernels_10M_index.sqlite"
input "$small" bench-nvtx || exit 1
input "$big" bench-kernels --kernels 10000000 || exit 1
input "$bigi" bench-kernels --kernels 10000000 --index || exit 1

runs=${BENCH_RUNS:-50}
large_runs=${BENCH_LARGE_RUNS:-3}
status=0

# --- the small export: mean ms (hyperfine when installed)
if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 5 --runs "$runs" --export-csv "$tmp/hf.csv" \
        -- "$bin $small -o $tmp/small.svg" >/dev/null 2>&1
    ms=$(sed -n '2p' "$tmp/hf.csv" | cut -d, -f2 | awk '{ printf "%.1f", $1 * 1000 }')
else
    t0=$(date +%s%N)
    i=0
    while [ $i -lt "$runs" ]; do "$bin" "$small" -o "$tmp/small.svg"; i=$((i + 1)); done
    t1=$(date +%s%N)
    ms=$(awk -v a="$t0" -v b="$t1" -v n="$runs" 'BEGIN { printf "%.1f", (b - a) / n / 1e6 }')
fi
kb=$(( $(wc -c <"$small") / 1024 ))
verdict=$(awk -v m="$ms" 'BEGIN { print (m != "" && m <= 50) ? "ok" : "OVER" }')
[ "$verdict" = ok ] || status=1
echo "Nsight Systems exports (cache: $cache)"
printf '%-34s %6s KB  tracefig %7s ms (mean of %s)   (target <= 50 ms: %s)\n' \
    "13 000 NVTX ranges, default" "$kb" "$ms" "$runs" "$verdict"

# --- the large ones: best wall time and largest RSS of $large_runs runs
. "$(dirname "$0")/measure.sh"
runs=$large_runs

# large NAME FILE MAX_S MAX_MB ARGS... (MAX_S "-": no target)
large() {
    name=$1
    file=$2
    max_s=$3
    max_mb=$4
    shift 4
    mb=$(du -m "$file" | cut -f1)
    measure "$tmp/t.log" "$bin" "$file" "$@" -o "$tmp/big.svg"
    if [ $rc -ne 0 ]; then
        echo "bench-nsys: $name: tracefig failed (rc=$rc)"
        tail -n 5 "$tmp/t.log"
        status=1
        return
    fi
    verdict=""
    if [ "$max_s" != - ]; then
        v=$(awk -v w="$wall" -v r="$rss" -v mw="$max_s" -v mr="$max_mb" \
            'BEGIN { print (w <= mw && r <= mr) ? "ok" : "OVER" }')
        [ "$v" = ok ] || status=1
        verdict="(target <= ${max_s}s, $max_mb MB: $v)"
    fi
    printf '%-34s %6s MB  tracefig %6ss %7s MB   %s\n' "$name" "$mb" "$wall" "$rss" "$verdict"
}

large "10M kernels, NVTX step #500" "$big" 2 64 --window-event step --occurrence 500
large "10M kernels, --from 4s --to 4.01s" "$big" 2 64 --from 4s --to 4.01s
large "  indexed, --from 0.1s --to 0.11s" "$bigi" 2 64 --from 0.1s --to 0.11s
large "  indexed, NVTX step #500" "$bigi" 2 64 --window-event step --occurrence 500
large "10M kernels, whole export" "$big" 3 64
# the rows read on a second thread (no target: src/load/nsys.c's
# read_threaded says why it is not the default)
TRACEFIG_PIPE=on
export TRACEFIG_PIPE
large "  the same, read on a 2nd thread" "$big" - -
unset TRACEFIG_PIPE
exit $status
