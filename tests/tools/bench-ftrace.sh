#!/bin/sh
# ftrace text (make bench): peak memory of the whole trace's default figure
# for two sizes of the tracing file (tests/tools/genftrace.py big: 8 CPUs,
# 40 tasks of 8 processes, atrace B/E pairs; about 50 MB and 200 MB), the
# larger also gzip'd on standard input, and the same with the statistics'
# past kept whole (TRACEFIG_FOLD=off: every run's and slice's interval, as
# before the fold of nearly ordered traces).  Memory is flat when the
# 200 MB text peaks within 25 % of the 50 MB one (target), gzip'd and from
# standard input included.  The texts are made once into the cache
# (TRACEFIG_BENCH_CACHE, default build/bench-large) with a FILE.how beside
# them; times are the best of BENCH_LARGE_RUNS runs (default 3), peak RSS
# the largest.
#
#   bench-ftrace.sh TRACEFIG
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/genftrace.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
runs=${BENCH_LARGE_RUNS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench-ftrace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$cache"
if [ ! -x /usr/bin/time ] || [ ! -x "$py" ] || ! command -v gzip >/dev/null 2>&1; then
    echo "bench-ftrace: SKIP (needs /usr/bin/time, gzip and $py)"
    exit 0
fi
# make MB: the cached text of about MB megabytes ($txt), made when missing
make_text() {
    txt="$cache/ftrace_$1.txt"
    how="big $1 $(cksum <"$gen")"
    if ! { [ -s "$txt" ] && [ -f "$txt.how" ] && [ "$(cat "$txt.how")" = "$how" ]; }; then
        echo "bench-ftrace: generating $txt ..."
        rm -f "$txt" "$txt.how" "$txt.gz"
        "$py" "$gen" big "$txt" "$1" || { echo "bench-ftrace: genftrace.py failed"; exit 1; }
        printf '%s\n' "$how" >"$txt.how"
    fi
}
make_text 50
small=$txt
make_text 200
large=$txt
if ! [ -s "$large.gz" ] || [ "$large.gz" -ot "$large" ]; then
    echo "bench-ftrace: compressing $large ..."
    gzip -1 -c "$large" >"$large.gz.tmp" && mv "$large.gz.tmp" "$large.gz" ||
        { echo "bench-ftrace: gzip failed"; exit 1; }
fi
. "$(dirname "$0")/measure.sh"
status=0
echo "ftrace text, the whole trace's default figure (cache: $cache)"
row() { # LABEL FILE-SIZE-MB: prints the last measure
    [ $rc -eq 0 ] || { echo "  $1: tracefig failed"; status=1; return; }
    echo "  $1 ($2 MB): ${wall} s, ${rss} MB peak"
}
mb() { du -m "$1" | cut -f1; }
measure "$tmp/a.log" "$bin" "$small" -o "$tmp/a.svg"
row "text" "$(mb "$small")"
r_small=$rss
measure "$tmp/b.log" "$bin" "$large" -o "$tmp/b.svg"
row "text" "$(mb "$large")"
r_large=$rss
measure "$tmp/c.log" sh -c 'exec "$1" - -o "$2" <"$3"' sh "$bin" "$tmp/c.svg" "$large.gz"
row "gzip'd, standard input" "$(mb "$large.gz")"
r_gz=$rss
cmp -s "$tmp/b.svg" "$tmp/c.svg" || { echo "  the gzip'd input's figure differs from the text's"; status=1; }
TRACEFIG_FOLD=off measure "$tmp/d.log" "$bin" "$small" -o "$tmp/d.svg"
row "text, past kept whole (TRACEFIG_FOLD=off)" "$(mb "$small")"
TRACEFIG_FOLD=off measure "$tmp/e.log" "$bin" "$large" -o "$tmp/e.svg"
row "text, past kept whole (TRACEFIG_FOLD=off)" "$(mb "$large")"
cmp -s "$tmp/b.svg" "$tmp/e.svg" || { echo "  the folded figure differs from the whole one"; status=1; }
flat=$(awk -v a="$r_small" -v b="$r_large" -v g="$r_gz" \
    'BEGIN { m = b > g ? b : g; printf "%s (%+.0f %%)", (m <= 1.25 * a) ? "flat" : "NOT flat", 100 * (m - a) / a }')
echo "  memory from 50 to 200 MB of text: $flat (target: within 25 %)"
case $flat in flat*) ;; *) status=1 ;; esac
exit $status
