#!/bin/sh
# Large inputs: wall time and peak RSS of tracefig (and of the reference
# script, when it and matplotlib are installed) on inputs made by
# tests/tools/gentrace.py:
#   - a legacy PyTorch Chrome trace of ~130 MB (`pytorch --size 130e6`),
#   - a pipelined timeline with 1e6 events (~134 MB; its metadata follows
#     the events, as the profiler writes it),
#   - a Kineto-style Chrome trace of ~1 GB (`kineto --size 1e9`), run as
#     `tracefig FILE --format json -o /dev/null`.  The generic Chrome mode
#     does not exist yet: tracefig exits 1 (no Candidate_Eval window) and
#     the line says "(generic mode pending)"; the time and memory of reading
#     the whole file are printed all the same.
# The inputs are generated once into a cache folder and reused; each has a
# FILE.how beside it (the generator's arguments and checksum), and a change
# of either regenerates it.
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

# generic NAME FILE: the Kineto trace, for the generic Chrome mode.  Until
# that mode exists tracefig rejects the file (exit 1, no Candidate_Eval
# window) after reading all of it; any other failure is one.
generic() {
    name=$1
    file=$2
    mb=$(du -m "$file" | cut -f1)
    measure "$tmp/tf.log" "$bin" "$file" --format json -o /dev/null
    note=""
    if [ $rc -eq 1 ] && grep -q 'Candidate_Eval' "$tmp/tf.log"; then
        note="(generic mode pending)"
    elif [ $rc -ne 0 ]; then
        echo "bench-large: $name: tracefig failed (rc=$rc)"
        tail -n 30 "$tmp/tf.log"
        return 1
    fi
    printf '%-22s %4s MB  tracefig  %6ss %8s MB   %s\n' "$name" "$mb" "$wall" "$rss" "$note"
    return 0
}

status=0
echo "large inputs (cache: $cache)"
bench "pytorch 130 MB" "$pt" 0.5 32 || status=1
bench "timeline 1e6 events" "$tl" 0.5 64 || status=1
generic "kineto 1 GB (json)" "$kt" || status=1
exit $status
