#!/bin/sh
# Renders every example input with every back-end tracefig was built with.
#
#   render.sh TRACEFIG
#
# Figures (NAME: inputs and flags):
#   v1          overlap_timeline_v1.json
#   v2          overlap_timeline_v2.json + candidate_breakdown.json
#   v2-timeline overlap_timeline_v2.json alone (bottom legend)
#   v2-annotated  the same with --annotate (the statistics' summary line)
#   pytorch     pytorch_chrome_trace.json
#   kineto      kineto_trace.json (made by tests/tools/gentrace.py kineto --seed 7
#               --steps 2 --layers 4 --devices 2), one profiler step, lanes renamed
#   counters    counters_trace.json (gentrace.py counters --seed 11 --samples 150
#               --processes 1): counter tracks beside a thread's slices
#   busy-shares, busy-zoomed  a dense GPU stream (tests/busy/gen.py gpu) drawn
#               whole (busy shares) and zoomed in to 0.6 ms (whole kernels)
#   ranks       8 ranks of one job from gentrace.py ranks, one lane each (SVG, PNG)
#   ranks64     64 ranks, their GPU stream 7 at --width 229.5pt, one step (PNG)
#   ranks1024   the overview of a job of 1024 ranks from gentrace.py job (rank
#               617 the straggler), one step, at 3.3 in and at 7 in (PNG);
#               job.svg: the whole run at 3.3 in (the README's recipe)
#   nsys        an Nsight Systems export made here by tests/tools/gennsys.py
#               full (in $TMPDIR: SQLite files are not committed), one step
#               by its NVTX range, with flows and OS runtime calls; skipped
#               without python3's sqlite3
#   step3, step4  the same trace's two steps as paper.tex's figures: lanes as
#               the profiler names them (a header per process), TikZ only;
#               step4-column.svg/.png: --width 229.5pt, a LaTeX column;
#               step-column.svg: the first step at 3.3 in (the README's recipe)
#   marks       the README's recipe of marks
# Each becomes NAME.json, NAME.svg, NAME.tex, and NAME.pdf / NAME.png when
# cairo is built in.  paper.tex, a two-column demo paper that \inputs the
# .tex figures, is built into paper.pdf when pdflatex is installed.
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")"

exts="json svg tex"
if "$bin" --version | grep -q ' pdf '; then exts="$exts pdf png"; fi

render() {
    name=$1
    shift
    set -- "$@"
    outs=""
    for ext in $exts; do outs="$outs -o $name.$ext"; done
    # shellcheck disable=SC2086
    if "$bin" "$@" $outs; then
        echo "examples: $name.{$(echo $exts | tr ' ' ',')}"
    else
        echo "examples: $name failed" >&2
        return 1
    fi
}

status=0
render v1 --trace overlap_timeline_v1.json || status=1
render v2 --trace overlap_timeline_v2.json --breakdown candidate_breakdown.json \
    --min-runtime-pct 1 || status=1
render v2-timeline --trace overlap_timeline_v2.json || status=1
render v2-annotated --trace overlap_timeline_v2.json --annotate || status=1
render pytorch --trace pytorch_chrome_trace.json || status=1
render kineto --trace kineto_trace.json --window-event 'ProfilerStep#4' \
    --lanes '*(python3)=Main thread,*pt_autograd_0*=Autograd thread,GPU*' || status=1
render counters --trace counters_trace.json \
    --lanes '*memory allocated,*memory reserved,*queue id: 1*,*main=main thread,*temperature*' || status=1
if /usr/bin/python3 -c 'import sqlite3' 2>/dev/null; then
    # Made and read as "report.sqlite" in a scratch folder, so that the
    # figures' "Made with" line does not name the scratch folder.
    here=$(pwd)
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-example.XXXXXX")
    outs=""
    for ext in $exts; do outs="$outs -o $here/nsys.$ext"; done
    # shellcheck disable=SC2086
    if /usr/bin/python3 ../tests/tools/gennsys.py full --out "$scratch/report.sqlite" &&
        (cd "$scratch" && "$bin" report.sqlite --window-event train_step --occurrence 2 \
            --flows --osrt $outs); then
        echo "examples: nsys.{$(echo $exts | tr ' ' ',')}"
    else
        echo "examples: nsys failed" >&2
        status=1
    fi
    rm -rf "$scratch"
else
    echo "examples: nsys: SKIP (needs /usr/bin/python3 with sqlite3)"
fi

# paper.tex's real-trace-shaped figures: TikZ fit to the column or the
# subfigure when the paper compiles; and the column figure as SVG and PNG.
for n in 3 4; do
    if "$bin" kineto_trace.json --window-event "ProfilerStep#$n" -o step$n.tex; then
        echo "examples: step$n.tex"
    else
        status=1
    fi
done
# The README's first recipe: the first profiler step in a 3.3 in column.
if "$bin" kineto_trace.json --window-event 'ProfilerStep#*' --width 3.3in -o step-column.svg; then
    echo "examples: step-column.svg"
else
    status=1
fi
# The README's last recipe: a figure with marks and a zoom.
if "$bin" kineto_trace.json --window-event 'ProfilerStep#*' --span 'nccl*Kernel*=all-reduce {dur}' \
        --measure 'end:Memcpy HtoD*@2..start:nccl*Kernel*=compute {dur}' \
        --highlight 'nccl*,Memcpy*' --zoom 'nccl*Kernel*' --width 3.3in -o marks.svg; then
    echo "examples: marks.svg"
else
    status=1
fi
if "$bin" kineto_trace.json --window-event 'ProfilerStep#4' --width 229.5pt -o step4-column.svg &&
    { ! echo "$exts" | grep -q png ||
        "$bin" kineto_trace.json --window-event 'ProfilerStep#4' --width 229.5pt --dpi 300 \
            -o step4-column.png; }; then
    echo "examples: step4-column.svg"
else
    status=1
fi

# Busy shares (README): a dense GPU stream made by tests/busy/gen.py, zoomed
# in (whole kernels) and zoomed out (each bin inked as high as its share).
if [ -x /usr/bin/python3 ]; then
    bz=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-busy.XXXXXX")
    if /usr/bin/python3 ../tests/busy/gen.py gpu "$bz" &&
        (cd "$bz" && "$bin" trace.json --lanes 'GPU*' --width 6in --height 1.5in -o shares.svg -o shares.png &&
            "$bin" trace.json --lanes 'GPU*' --width 6in --height 1.5in --from 49.9ms --to 50.5ms \
                -o zoomed.svg -o zoomed.png) &&
        cp "$bz/shares.svg" busy-shares.svg && cp "$bz/zoomed.svg" busy-zoomed.svg &&
        cp "$bz/shares.png" busy-shares.png && cp "$bz/zoomed.png" busy-zoomed.png; then
        echo "examples: busy-shares.svg, busy-zoomed.svg (.png)"
    else
        echo "examples: busy failed" >&2
        status=1
    fi
    rm -rf "$bz"
fi

# Several traces: the 8 ranks of one job, made by gentrace.py (rank 3 late
# every step), one lane each (ranks.svg, .png).
py=/usr/bin/python3
if [ -x "$py" ]; then
    rk=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-ranks.XXXXXX")
    if "$py" ../tests/tools/gentrace.py ranks --out-dir "$rk" --world-size 8 --steps 3 --layers 3 \
            --slow-rank 3 --slow-us 1500 &&
        (cd "$rk" && "$bin" rank*.json --lanes 'GPU*stream 7*' -o ranks.svg -o ranks.png) &&
        cp "$rk/ranks.svg" "$rk/ranks.png" .; then
        echo "examples: ranks.svg, ranks.png"
    else
        status=1
    fi
    rm -rf "$rk"
    # 64 ranks' GPU stream in a LaTeX column, their second step (rank 17 late).
    rk=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-ranks.XXXXXX")
    if "$py" ../tests/tools/gentrace.py ranks --out-dir "$rk" --world-size 64 --steps 3 \
            --slow-rank 17 &&
        (cd "$rk" && "$bin" rank*.json --lanes 'GPU*stream 7*' --window-event 'ProfilerStep#*' \
            --occurrence 2 --width 229.5pt -o ranks64.png) &&
        cp "$rk/ranks64.png" .; then
        echo "examples: ranks64.png"
    else
        status=1
    fi
    rm -rf "$rk"
    # 1024 ranks: the overview, at a column's width and at a page's.
    rk=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-ranks.XXXXXX")
    if "$py" ../tests/tools/gentrace.py job --out-dir "$rk" --world-size 1024 --straggler 617 &&
        (cd "$rk" && "$bin" rank*.json --window-event 'ProfilerStep#*' --occurrence 2 \
            --width 3.3in -o ranks1024.png 2>/dev/null &&
            "$bin" rank*.json --window-event 'ProfilerStep#*' --occurrence 2 --width 7in \
            -o ranks1024-wide.png 2>/dev/null &&
            "$bin" rank*.json --width 3.3in -o job.svg 2>/dev/null) &&
        cp "$rk/ranks1024.png" "$rk/ranks1024-wide.png" "$rk/job.svg" .; then
        echo "examples: ranks1024.png, ranks1024-wide.png, job.svg"
    else
        status=1
    fi
    rm -rf "$rk"
else
    echo "SKIP examples/ranks.svg: needs $py"
fi

# The README's pictures of other tools' traces (SKIP without them).
sh ./real.sh "$bin" || status=1

if [ -f paper.tex ] && command -v pdflatex >/dev/null 2>&1; then
    if pdflatex -interaction=nonstopmode -halt-on-error paper.tex >paper.build.log 2>&1 &&
        pdflatex -interaction=nonstopmode -halt-on-error paper.tex >paper.build.log 2>&1; then
        echo "examples: paper.pdf"
        rm -f paper.aux paper.log paper.build.log
        # The README's picture of the paper: its page 2 (the profiler step
        # at \columnwidth and two steps as a 0.48\columnwidth pair).
        if command -v pdftoppm >/dev/null 2>&1; then
            pdftoppm -r 110 -png -f 2 -l 2 -singlefile paper.pdf paper-page2 &&
                echo "examples: paper-page2.png"
        fi
    else
        echo "examples: paper.pdf failed; see examples/paper.build.log" >&2
        status=1
    fi
fi
exit $status
