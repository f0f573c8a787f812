#!/bin/sh
# bench.sh TRACEFIG: milliseconds per figure for each example, and the ratio
# against the reference script when it is installed.
#
# Figures (as examples/render.sh): v1, v2 (+ breakdown), v2-timeline,
# pytorch, kineto; with ../shared/real-traces also two real Chrome traces,
# every real trace as SVG (its time, and the bytes of every real trace's
# default SVG, every format), and each Chrome figure's time against the
# pipelined v2 figure's.  tracefig writes one SVG per run (and a PDF when cairo is built
# in); hyperfine measures it (>= 50 runs, 5 warm-ups, no shell), else a
# shell loop of 50 runs.  The reference
# (../shared/reference/plot_io_trace.py from the repository root, run with
# /usr/bin/python3 and matplotlib) renders the same figure as SVG 3 times.
# Prints one line per figure: "NAME FORMAT  tracefig X ms  reference Y ms  Zx".
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
ex="$root/examples"
ref="$root/../shared/reference/plot_io_trace.py"
py=/usr/bin/python3
runs=${BENCH_RUNS:-50}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

have_ref=
if [ ! -f "$ref" ]; then
    echo "bench: reference ratios: SKIP ($ref not found)"
elif [ ! -x "$py" ] || ! "$py" -c 'import matplotlib, seaborn' 2>/dev/null; then
    echo "bench: reference ratios: SKIP (needs $py with python3-matplotlib python3-seaborn)"
else
    have_ref=1
fi
have_hf=
command -v hyperfine >/dev/null 2>&1 && have_hf=1

# mean_ms N CMD...: mean wall time of CMD in ms over N runs.
mean_ms() {
    n=$1
    shift
    if [ -n "$have_hf" ]; then
        hyperfine -N --warmup $(( n > 5 ? 5 : 1 )) --runs "$n" --export-csv "$tmp/hf.csv" \
            -- "$*" >/dev/null 2>&1 || { echo "?"; return; }
        # mean is in seconds, second column
        sed -n '2p' "$tmp/hf.csv" | cut -d, -f2 | awk '{ printf "%.2f", $1 * 1000 }'
    else
        t0=$(date +%s%N)
        i=0
        while [ $i -lt "$n" ]; do "$@" >/dev/null 2>&1; i=$((i + 1)); done
        t1=$(date +%s%N)
        awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / n / 1e6 }'
    fi
}

formats="svg"
"$bin" --version | grep -q ' pdf ' && formats="svg pdf"

# bench NAME ref|ours ARGS...: "ours" for figures the reference cannot draw
# (Chrome traces other than its PyTorch ones).
bench() {
    name=$1
    with_ref=$2
    shift 2
    for fmt in $formats; do
        if ! "$bin" "$@" -o "$tmp/$name.$fmt" >/dev/null 2>&1; then
            echo "$name $fmt: tracefig cannot render it (skipped)"
            continue
        fi
        ours=$(mean_ms "$runs" "$bin" "$@" -o "$tmp/$name.$fmt")
        line=$(printf '%-12s %-4s tracefig %8s ms' "$name" "$fmt" "$ours")
        if [ -n "$have_ref" ] && [ "$fmt" = svg ] && [ "$with_ref" = ref ]; then
            refms=$(mean_ms 3 "$py" "$ref" "$@" --output "$tmp/ref-$name.svg")
            ratio=$(awk -v a="$refms" -v b="$ours" 'BEGIN { if (b > 0) printf "%.0fx", a / b; else print "?" }')
            line="$line   reference $refms ms   $ratio faster"
        fi
        echo "$line"
    done
}

cd "$ex" || exit 1
echo "bench: ms per figure (mean of $runs runs; reference: 3 runs)"
bench v1 ref --trace overlap_timeline_v1.json
bench v2 ref --trace overlap_timeline_v2.json --breakdown candidate_breakdown.json --min_runtime_pct 1
bench v2-timeline ref --trace overlap_timeline_v2.json
bench pytorch ref --trace pytorch_chrome_trace.json
bench kineto ours --trace kineto_trace.json --window-event 'ProfilerStep#4'
real="$root/../shared/real-traces"
if [ -d "$real" ]; then
    bench real-clang ours --trace "$real/clang-ftime-trace.json"
    bench real-dist ours --trace "$real/hta-dist-rank0.json.gz" --window-event 'ProfilerStep#551'
else
    echo "bench: real traces: SKIP (no $real)"
fi

# Every real trace, as SVG: the default figure (issue 18: none may get
# slower by more than 10 % from one build to the next).
if [ -d "$real" ]; then
    echo "bench: real traces, ms per SVG (mean of $runs runs)"
    for c in "$real"/*.json "$real"/*.json.gz; do
        [ -f "$c" ] || continue
        "$bin" --trace "$c" -o "$tmp/r.svg" >/dev/null 2>&1 || { echo "bench: $(basename "$c"): cannot render (skipped)"; continue; }
        printf 'bench: %-40s %8s ms\n' "$(basename "$c")" "$(mean_ms "$runs" "$bin" --trace "$c" -o "$tmp/r.svg")"
    done
fi

# Every real trace tracefig reads (Chrome JSON, gzip'd or not, Nsight
# Systems exports, OTF2 archives, rocpd databases): the bytes of its
# default SVG, against issue 40's limit of 150 KB.
if [ -d "$real" ]; then
    echo "bench: real traces, bytes of the default SVG (limit 150 KB = 153600)"
    for c in "$real"/*.json "$real"/*.json.gz "$real"/nsys/*.sqlite "$real"/otf2/*/traces.otf2 \
        "$real"/rocpd/*.db; do
        [ -f "$c" ] || continue
        rel=${c#"$real"/}
        if ! "$bin" "$c" -o "$tmp/b.svg" >/dev/null 2>&1; then
            echo "bench: $rel: cannot render (skipped)"
            continue
        fi
        bytes=$(wc -c <"$tmp/b.svg")
        printf 'bench: %-44s SVG %7d bytes %s\n' "$rel" "$bytes" \
            "$([ "$bytes" -le 153600 ] && echo ok || echo OVER)"
    done
else
    echo "bench: real traces' SVG bytes: SKIP (no $real)"
fi

# Chrome-mode figures against the pipelined one (its input is 8 KB): small
# real traces, up to 16 KB, within 1 ms of it; for scale, larger ones (the
# time grows with the events and bars) and our own Kineto example.
v2=$(mean_ms "$runs" "$bin" --trace overlap_timeline_v2.json --breakdown candidate_breakdown.json \
    -o "$tmp/c-v2.svg")
for c in "$real/perfetto-flow-v2.json" "$real/hta-cpu-only.pt.trace.json.gz" \
    "$real/tf1-timeline.ctf.json" "$real/clang-ftime-trace.json" kineto_trace.json; do
    [ -f "$c" ] || continue
    ms=$(mean_ms "$runs" "$bin" --trace "$c" -o "$tmp/c.svg")
    kb=$(( $(wc -c <"$c") / 1024 ))
    awk -v n="$(basename "$c")" -v kb="$kb" -v a="$ms" -v b="$v2" 'BEGIN {
        d = a - b
        t = (kb <= 16) ? ((d <= 1) ? "target within 1 ms: ok" : "target within 1 ms: OVER") : "larger: no target"
        printf "bench: %s (%d KB) SVG %.2f ms, pipelined v2 SVG %.2f ms: %+.2f ms (%s)\n",
            n, kb, a, b, d, t }'
done
