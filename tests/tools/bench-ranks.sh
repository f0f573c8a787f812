#!/bin/sh
# A job of thousands of ranks in one figure (issue 39), for make bench:
# wall time, CPU time and peak RSS of
#   - the figure of 1024 and of 4096 per-rank models (each rank's model of
#     its own trace, made once with --format json, 2 at a time, as a
#     job array or xargs -P would): the overview;
#   - the same ranks' traces given directly;
#   - an OTF2 archive of 4096 locations (ranks).
# The jobs are made by tests/tools/gentrace.py job (Kineto traces with
# distributedInfo, varied busy shares, one straggler) and
# tests/tools/genotf2job.c (built here against libotf2), once, into the
# cache folder (TRACEFIG_BENCH_CACHE, default build/bench-large, with a
# NAME.how beside each).  Targets: peak RSS at most 128 MB, and the time
# per rank at 4096 within 25 % of that at 1024 (time linear in the ranks).
# Times are the best of BENCH_LARGE_RUNS runs (default 3), RSS the
# largest.  Lines over a target say OVER; the exit status is 0 unless a
# run fails.
#
#   bench-ranks.sh TRACEFIG
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$root"
gen=tests/tools/gentrace.py
py=/usr/bin/python3
cache=${TRACEFIG_BENCH_CACHE:-build/bench-large}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench-ranks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$cache"
runs=${BENCH_LARGE_RUNS:-3}
if [ ! -x /usr/bin/time ] || [ ! -x "$py" ]; then
    echo "bench-ranks: SKIP (needs /usr/bin/time and $py)"
    exit 0
fi
. "$(dirname "$0")/measure.sh"
cores=$(nproc)
step="--window-event ProfilerStep#* --occurrence 2"

# cpu_of LOG: user + sys seconds of a /usr/bin/time -v log, into $cpu.
cpu_of() {
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$1")
}

# best LOG CMD...: $runs runs: the best wall and CPU time, the largest RSS.
best() {
    bw="" bc="" br=0
    k=0
    while [ $k -lt "$runs" ]; do
        measure1 "$@"
        [ $rc -eq 0 ] || return
        cpu_of "$1"
        bw=$(smaller "$bw" "$wall")
        bc=$(smaller "$bc" "$cpu")
        br=$(awk -v a="$br" -v b="$rss" 'BEGIN { print (b > a) ? b : a }')
        k=$((k + 1))
    done
    wall=$bw cpu=$bc rss=$br
}

# job N: DIR of N ranks' traces and their models, made unless cached.
job() {
    dir="$cache/job$1"
    how="job $1 $(cksum <"$gen") $(cksum <tests/tools/gentrace_job.py)"
    if [ -f "$dir.how" ] && [ "$(cat "$dir.how")" = "$how" ] && [ -s "$dir/models/rank$(($1 - 1)).model.json" ]; then
        return 0
    fi
    echo "bench-ranks: generating $dir ($1 ranks' traces and models) ..."
    rm -rf "$dir" "$dir.how"
    "$py" "$gen" job --world-size "$1" --straggler 617 --out-dir "$dir/traces" \
        --truth "$dir/truth.jsonl" || return 1
    mkdir -p "$dir/models"
    i=0
    while [ $i -lt "$1" ]; do echo $i; i=$((i + 1)); done |
        xargs -P "$cores" -I R "$bin" "$dir/traces/rankR.json" --window-event 'ProfilerStep#*' \
            --occurrence 2 --format json -o "$dir/models/rankR.model.json" || return 1
    printf '%s\n' "$how" >"$dir.how"
}

# line NAME RANKS: the measure, per rank, and the memory target.
line() {
    per=$(awk -v w="$wall" -v n="$2" 'BEGIN { printf "%.2f", 1000 * w / n }')
    cper=$(awk -v c="$cpu" -v n="$2" 'BEGIN { printf "%.2f", 1000 * c / n }')
    ok=$(awk -v r="$rss" 'BEGIN { print (r <= 128) ? "ok" : "OVER" }')
    printf '%-40s %6ss %6ss CPU %7s MB  %5s / %5s ms a rank  (<= 128 MB: %s)\n' "$1" "$wall" \
        "$cpu" "$rss" "$per" "$cper" "$ok"
}

status=0
echo "a job of many ranks in one figure ($cores cores; wall, CPU, peak RSS; per rank: wall / CPU)"
for n in 1024 4096; do
    job $n || { echo "bench-ranks: generating $n ranks failed"; status=1; continue; }
    dir="$cache/job$n"
    # the models in a shell's order, as models/*.json lists them
    set -- "$dir"/models/*.model.json
    best "$tmp/m$n.log" "$bin" "$@" -o "$tmp/m$n.json" -o "$tmp/m$n.png"
    if [ $rc -eq 0 ]; then
        line "$n per-rank models (JSON + PNG)" $n
        eval "mcpu$n=$cpu"
    else
        echo "bench-ranks: $n models failed"; tail -3 "$tmp/m$n.log"; status=1
    fi
    set -- "$dir"/traces/rank*.json
    best "$tmp/t$n.log" "$bin" "$@" $step -o "$tmp/t$n.png"
    if [ $rc -eq 0 ]; then
        line "$n ranks' traces given directly (PNG)" $n
    else
        echo "bench-ranks: $n traces failed"; tail -3 "$tmp/t$n.log"; status=1
    fi
done
if [ -n "${mcpu1024:-}" ] && [ -n "${mcpu4096:-}" ]; then
    awk -v a="$mcpu1024" -v b="$mcpu4096" 'BEGIN {
        r = (b / 4096) / (a / 1024);
        printf "CPU time per rank, 4096 models against 1024: %.2f (within 25 %%: %s)\n", r,
            (r >= 0.75 && r <= 1.25) ? "ok" : "OVER" }'
fi

# An OTF2 archive of 4096 locations.
if "$bin" /nonexistent.otf2 2>&1 | grep -q "built without OTF2"; then
    echo "bench-ranks: OTF2 SKIP (tracefig built without libotf2-trace-dev)"
    exit $status
fi
g="$cache/genotf2job"
src=tests/tools/genotf2job.c
if [ ! -x "$g" ] || [ "$src" -nt "$g" ]; then
    ${CC:-cc} -std=c11 -O2 $(otf2-config --cppflags 2>/dev/null) -o "$g" "$src" -lotf2 ||
        { echo "bench-ranks: OTF2 SKIP (cannot build $src against libotf2)"; exit $status; }
fi
arch="$cache/otf2job4096"
how="4096 200 617 $(cksum <"$src")"
if [ ! -f "$arch/traces.otf2" ] || [ "$(cat "$arch.how" 2>/dev/null)" != "$how" ]; then
    echo "bench-ranks: generating $arch (4096 ranks x 200 steps) ..."
    rm -rf "$arch" "$arch.how"
    "$g" "$arch" 4096 200 617 && printf '%s\n' "$how" >"$arch.how" || { echo "bench-ranks: genotf2job failed"; exit 1; }
fi
best "$tmp/o.log" "$bin" "$arch" --window-event step --occurrence 100 -o "$tmp/o.png"
if [ $rc -eq 0 ]; then
    line "OTF2, 4096 locations x 1200 events (PNG)" 4096
else
    echo "bench-ranks: the OTF2 archive failed"; tail -3 "$tmp/o.log"; status=1
fi
exit $status
