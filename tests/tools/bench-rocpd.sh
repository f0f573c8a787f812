#!/bin/sh
# rocpd databases (make bench): figures of a database made by
# tests/tools/genrocpd.py (python3's sqlite3; its rows made by SQLite
# itself): 10 million kernels on 4 queues of 2 GPUs, about 1.6 GB, with
# 1 000 roctx "step" ranges (`bench-kernels`):
#   - a window by roctx range and by kernel name (its 1000th occurrence:
#     only the 1 000 earliest go through the view's joins), and by
#     --from/--to (every row's time first, from the table's view, to find
#     the first drawable event): targets <= 64 MB peak;
#   - the whole database (every row's time, then every row through the
#     kernels view's joins): target <= 64 MB, the statistics folded as the
#     rows come in start order.
# The database is generated once into the cache (TRACEFIG_BENCH_CACHE,
# default build/bench-large) with a FILE.how beside it; times are the best
# of BENCH_LARGE_RUNS runs (default 3; 1 for the whole database, which
# takes long), peak RSS the largest.
#
#   bench-rocpd.sh TRACEFIG
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/genrocpd.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench-rocpd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$cache"

if [ ! -x /usr/bin/time ] || [ ! -x "$py" ] || ! "$py" -c 'import sqlite3' 2>/dev/null; then
    echo "bench-rocpd: SKIP (needs /usr/bin/time and $py with sqlite3)"
    exit 0
fi

big="$cache/rocpd_kernels_10M.db"
how="bench-kernels --kernels 10000000 $(cksum <"$gen")"
if ! { [ -s "$big" ] && [ -f "$big.how" ] && [ "$(cat "$big.how")" = "$how" ]; }; then
    echo "bench-rocpd: generating $big ..."
    rm -f "$big" "$big.how"
    if "$py" "$gen" bench-kernels --kernels 10000000 --out "$big.part" && mv "$big.part" "$big"; then
        printf '%s\n' "$how" >"$big.how"
    else
        rm -f "$big.part"
        echo "bench-rocpd: genrocpd.py bench-kernels failed"
        exit 1
    fi
fi

. "$(dirname "$0")/measure.sh"
status=0
echo "rocpd databases (cache: $cache)"

# large NAME MAX_MB ARGS... ($runs runs)
large() {
    name=$1
    max_mb=$2
    shift 2
    mb=$(du -m "$big" | cut -f1)
    measure "$tmp/t.log" "$bin" "$big" "$@" -o "$tmp/big.svg"
    if [ $rc -ne 0 ]; then
        echo "bench-rocpd: $name: tracefig failed (rc=$rc)"
        tail -n 5 "$tmp/t.log"
        status=1
        return
    fi
    v=$(awk -v r="$rss" -v mr="$max_mb" 'BEGIN { print (r <= mr) ? "ok" : "OVER" }')
    [ "$v" = ok ] || status=1
    printf '%-38s %6s MB  tracefig %6ss %7s MB   (target <= %s MB: %s)\n' "$name" "$mb" "$wall" \
        "$rss" "$max_mb" "$v"
}

runs=${BENCH_LARGE_RUNS:-3}
large "10M kernels, roctx step #500" 64 --window-event step --occurrence 500
large "10M kernels, a kernel's #1000" 64 \
    --window-event Cijk_Alik_Bljk_SB_MT128x128x16_MI32x32x2x1 --occurrence 1000
large "10M kernels, --from 4s --to 4.01s" 64 --from 4s --to 4.01s
runs=1
large "10M kernels, whole database" 64
exit $status
