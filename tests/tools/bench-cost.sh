#!/bin/sh
# bench-cost.sh TRACEFIG: what one small figure costs, this build against a
# baseline build, in instructions (callgrind) and wall time (hyperfine).
#
# The figure is the v2 + breakdown example, as SVG, TikZ, JSON and PDF; the
# start-up alone is `tracefig --version`.  The baseline is the commit
# BENCH_BASE (default bc2e831, the tree the "figure's own cost" issue
# measured), built once into build/bench-base from `git archive`; without
# git or that commit, only this build is measured.  Instructions need
# valgrind, wall times hyperfine (BENCH_COST_RUNS runs, default 200); each is
# skipped with a note when missing.  Prints one line per command and build,
# then the layout plan's share of the instructions of a few figures.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
base_rev=${BENCH_BASE:-bc2e831}
runs=${BENCH_COST_RUNS:-200}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-cost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

base=""
basedir="$root/build/bench-base"
if [ -x "$basedir/build/tracefig" ] && [ "$(cat "$basedir/REV" 2>/dev/null)" = "$base_rev" ]; then
    base="$basedir/build/tracefig"
elif command -v git >/dev/null 2>&1 && git -C "$root" cat-file -e "$base_rev^{commit}" 2>/dev/null; then
    echo "bench-cost: building the baseline $base_rev into build/bench-base"
    rm -rf "$basedir" && mkdir -p "$basedir"
    if git -C "$root" archive "$base_rev" | tar -x -C "$basedir" &&
        make -C "$basedir" -j2 all >"$tmp/base-build.log" 2>&1; then
        echo "$base_rev" >"$basedir/REV"
        base="$basedir/build/tracefig"
    else
        echo "bench-cost: the baseline does not build (skipped): $(tail -3 "$tmp/base-build.log")"
    fi
else
    echo "bench-cost: baseline $base_rev: SKIP (no git checkout holding it)"
fi

have_vg=
command -v valgrind >/dev/null 2>&1 && have_vg=1
[ -n "$have_vg" ] || echo "bench-cost: instructions: SKIP (apt-get install valgrind)"
have_hf=
command -v hyperfine >/dev/null 2>&1 && have_hf=1
[ -n "$have_hf" ] || echo "bench-cost: wall time: SKIP (apt-get install hyperfine)"

# instr BIN ARGS...: instructions executed (callgrind's "I refs").
instr() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
# loading BIN ARGS...: instructions spent inside tf_dl_load (the libraries
# this build loads when a format needs them: libxml2 for SVG, cairo for
# PDF/PNG); the baseline has no such function and loads them at start-up.
loading() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=tf_dl_load "$@" \
        2>&1 >/dev/null | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
# wall BIN ARGS...: mean wall time in ms.
wall() {
    hyperfine -N --warmup 10 --runs "$runs" --export-csv "$tmp/hf.csv" -- "$*" >/dev/null 2>&1 ||
        { echo "?"; return; }
    sed -n '2p' "$tmp/hf.csv" | cut -d, -f2 | awk '{ printf "%.2f", $1 * 1000 }'
}

cd "$root/examples" || exit 1
fig="--trace overlap_timeline_v2.json --breakdown candidate_breakdown.json --min_runtime_pct 1"
fmts="svg tex json"
"$bin" --version | grep -q ' pdf ' && fmts="$fmts pdf"
echo "bench-cost: v2 + breakdown; instructions (callgrind) and mean wall ms ($runs runs)"
echo "  own: the figure's instructions less --version's (start-up) and less the libraries"
echo "  loaded for its format (the baseline loads them all at start-up, inside --version)"
printf '%-10s %-8s %14s %12s %10s %10s\n' what build instructions "own" "loading" "wall ms"
line() { # WHAT BUILD BIN ARGS...
    what=$1
    build=$2
    shift 2
    i="-"
    w="-"
    own="-"
    ld="-"
    if [ -n "$have_vg" ]; then
        i=$(instr "$@")
        ld=$(loading "$@")
        eval "v=\${version_$build:-}"
        if [ "$what" = --version ]; then
            eval "version_$build=$i"
        elif [ -n "$v" ] && [ -n "$i" ] && [ -n "$ld" ]; then
            own=$((i - v - ld))
        fi
    fi
    [ -n "$have_hf" ] && w=$(wall "$@")
    printf '%-10s %-8s %14s %12s %10s %10s\n' "$what" "$build" "$i" "$own" "$ld" "$w"
}
for b in base this; do
    case $b in base) exe=$base ;; *) exe=$bin ;; esac
    [ -n "$exe" ] || continue
    line --version "$b" "$exe" --version
done
for f in $fmts; do
    for b in base this; do
        case $b in base) exe=$base ;; *) exe=$bin ;; esac
        [ -n "$exe" ] || continue
        # shellcheck disable=SC2086
        line "$f" "$b" "$exe" $fig -o "$tmp/f.$f"
    done
done

# The layout policy's own share (render/plan.c, tf_plan_make: every call,
# the CLI's and the back-end's), in a seed figure and in a Chrome one.
if [ -n "$have_vg" ]; then
    echo "bench-cost: the layout plan's instructions (tf_plan_make) in one figure"
    printf '%-34s %14s %12s %8s\n' figure instructions "plan" share
    plan_line() { # WHAT ARGS...
        what=$1
        shift
        all=$(instr "$bin" "$@")
        p=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=tf_plan_make \
            "$bin" "$@" 2>&1 >/dev/null | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,)
        share=$(awk -v p="${p:-0}" -v a="${all:-1}" 'BEGIN { printf "%.2f %%", 100 * p / a }')
        printf '%-34s %14s %12s %8s\n' "$what" "$all" "$p" "$share"
    }
    # shellcheck disable=SC2086
    plan_line "v2 + breakdown, svg" $fig -o "$tmp/p.svg"
    # shellcheck disable=SC2086
    plan_line "v2 + breakdown, --width 229.5pt svg" $fig --width 229.5pt -o "$tmp/p.svg"
    plan_line "kineto step, svg" kineto_trace.json --window-event 'ProfilerStep#4' -o "$tmp/p.svg"
    plan_line "kineto step, tikz" kineto_trace.json --window-event 'ProfilerStep#4' -o "$tmp/p.tex"
fi
