#!/bin/sh
# OTF2 archives (make bench): archives written by tests/tools/genotf2big.c
# with libotf2's own writer (built here: cc genotf2big.c -lotf2):
#   - 8 ranks x 1 M events: tracefig's figure against `otf2-print >
#     /dev/null` on the same archive, as the ratio of their best user+sys
#     CPU times (target <= 1: as fast or faster; CPU time, not wall time, as
#     other work shares the machine);
#   - 64 ranks x 1 M events (64 M events, ~620 MB): the default figure's
#     peak RSS (target <= 64 MB) and the ratio to otf2-print's time;
#   - the same archive with --lanes 'rank 1?': only 10 of its 64 event
#     files are read (the time says so).
# Archives are made once into the cache (TRACEFIG_BENCH_CACHE, default
# build/bench-large) with a FILE.how beside each; BENCH_LARGE_RUNS runs
# (default 3) of each measure.
#
#   bench-otf2.sh TRACEFIG
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench-otf2.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$cache"
runs=${BENCH_LARGE_RUNS:-3}

if [ ! -x /usr/bin/time ] || ! command -v otf2-print >/dev/null 2>&1; then
    echo "bench-otf2: SKIP (needs /usr/bin/time and otf2-print: Debian's otf2-tools)"
    exit 0
fi
if "$bin" /nonexistent.otf2 2>&1 | grep -q "built without OTF2"; then
    echo "bench-otf2: SKIP (tracefig built without libotf2-trace-dev)"
    exit 0
fi
gen="$cache/genotf2big"
src=tests/tools/genotf2big.c
if [ ! -x "$gen" ] || [ "$src" -nt "$gen" ]; then
    ${CC:-cc} -std=c11 -O2 $(otf2-config --cppflags 2>/dev/null) -o "$gen" "$src" -lotf2 ||
        { echo "bench-otf2: SKIP (cannot build $src against libotf2)"; exit 0; }
fi

# archive DIR RANKS EVENTS: made unless cached
archive() {
    how="$2 $3 $(cksum <"$src")"
    if [ -f "$1/traces.otf2" ] && [ "$(cat "$1.how" 2>/dev/null)" = "$how" ]; then
        return 0
    fi
    echo "bench-otf2: generating $1 ($2 ranks x $3 events) ..."
    rm -rf "$1" "$1.how"
    "$gen" "$1" "$2" "$3" && printf '%s\n' "$how" >"$1.how"
}

# cpu LOG CMD...: the best user+sys seconds of $runs runs ($cpu), the
# largest peak RSS ($rss, MB)
cpu() {
    log=$1
    shift
    cpu=""
    rss=0
    k=0
    while [ $k -lt "$runs" ]; do
        /usr/bin/time -v "$@" >/dev/null 2>"$log" || { cpu=fail; return; }
        c=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$log")
        r=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$log" | awk '{ printf "%.1f", $1 / 1024 }')
        cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN { print (a == "" || b < a) ? b : a }')
        rss=$(awk -v a="$rss" -v b="$r" 'BEGIN { print (b > a) ? b : a }')
        k=$((k + 1))
    done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

small="$cache/otf2_8x1M"
big="$cache/otf2_64x1M"
archive "$small" 8 1000000 || exit 1
archive "$big" 64 1000000 || exit 1

cpu "$tmp/p8" otf2-print "$small/traces.otf2"
p8=$cpu
cpu "$tmp/t8" "$bin" "$small/traces.otf2" -o "$tmp/a.json"
t8=$cpu
r8=$rss
echo "bench-otf2: 8 ranks x 1M events: tracefig $t8 s (peak $r8 MB), otf2-print > /dev/null $p8 s: ratio $(ratio "$t8" "$p8") (target <= 1)"

runs=1 cpu "$tmp/p64" otf2-print "$big/traces.otf2"
p64=$cpu
cpu "$tmp/t64" "$bin" "$big/traces.otf2" -o "$tmp/b.svg"
t64=$cpu
r64=$rss
echo "bench-otf2: 64 ranks x 1M events: tracefig $t64 s, peak $r64 MB (target <= 64 MB: ratio $(ratio "$r64" 64)); otf2-print $p64 s: time ratio $(ratio "$t64" "$p64") (target <= 1)"

cpu "$tmp/t10" "$bin" "$big/traces.otf2" --lanes 'rank 1?' -o "$tmp/c.svg"
echo "bench-otf2: 64 ranks x 1M events, --lanes 'rank 1?' (10 ranks read): tracefig $cpu s, peak $rss MB"
