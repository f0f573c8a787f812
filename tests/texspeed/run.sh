#!/bin/sh
# Dense TikZ figures (issue 40): they compile, fit, take their restyling,
# and a restyled class leaves none of its old colour.
#
#   sh tests/texspeed/run.sh TRACEFIG
#
#   1. the four dense real figures of issue 40 (hta-mtia-inference,
#      hta-dist-rank0, kineto-resnet50-nw0, hta-diff-control in
#      ../shared/real-traces; SKIP when absent, and two dense traces of
#      gendense.py instead) \input at \columnwidth in a two-column article
#      with pdflatex: no errors, each box \columnwidth wide within 1pt; the
#      time each adds is printed beside the seed figure's (not checked);
#   2. a generated figure of 24 lanes x 6 rows (gendense.py 24 6, --height
#      20cm) at \textwidth compiles with TeX Live's default memory in
#      pdflatex, lualatex and xelatex, and is as wide as \textwidth;
#   3. restyling: with \tikzset{tracefig/cat/kernel/.style={fill=red}}
#      (hta-dist-rank0, else a generated trace), the PNG at 100 dpi
#      (pdftoppm) holds no pixel of the kernels' old colour, slices, busy
#      shares and legend alike, and some red; without it, the old colour is
#      there.  And a class restyled into something the fast path does not
#      draw (a shading) still compiles.
# Ends with "N passed, N failed".  SKIPs (exit 0) without pdflatex; the
# restyle test SKIPs without pdftoppm.
# REAL_TRACES=DIR reads the real traces from DIR instead of ../shared.
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
real=${REAL_TRACES:-$root/../shared/real-traces}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
out=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-texspeed.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL texspeed: $*"
}
if ! command -v pdflatex >/dev/null 2>&1; then
    echo "SKIP texspeed: pdflatex is not installed"
    echo "texspeed: 0 passed, 0 failed"
    exit 0
fi

# compile ENGINE FILE: in $out; 0 when it compiled without errors
compile() {
    (cd "$out" && "$1" -interaction=nonstopmode -halt-on-error "$2" >"$2.$1.out" 2>&1)
    rc=$?
    cp "$out/${2%.tex}.log" "$out/${2%.tex}.$1.log" 2>/dev/null
    [ $rc -eq 0 ] && ! grep -q '^!' "$out/${2%.tex}.$1.log"
}
# widths LOG N: N lines "TFWIDTH name box wanted", each box within 1pt
widths() {
    n=$(grep -c '^TFWIDTH' "$1")
    if [ "$n" -ne "$2" ]; then
        bad "$(basename "$1"): $n of $2 widths measured"
        return
    fi
    wrong=$(awk '/^TFWIDTH/ { w = $3; t = $4; sub(/pt/, "", w); sub(/pt/, "", t);
                 d = w - t; if (d < 0) d = -d; if (d > 1) print $2 ": " $3 " for " $4 }' "$1")
    if [ -n "$wrong" ]; then bad "$(basename "$1"): box width off by more than 1pt: $wrong"; else ok; fi
}
preamble() { # CLASS-OPTIONS
    printf '%s\n' "\\documentclass[$1]{article}" '\usepackage{tikz}' '\newsavebox\tfbox' \
        '\newcommand\tfmeasure[2]{\sbox\tfbox{\input{#1}}\typeout{TFWIDTH #1 \the\wd\tfbox\space\the\dimexpr#2\relax}\noindent\usebox\tfbox\par}'
}

# --- 1. the dense figures, side by side with the seed's ----------------------
"$bin" "$root/examples/overlap_timeline_v2.json" --breakdown "$root/examples/candidate_breakdown.json" \
    -o "$out/seed.tex" || bad "tracefig failed on the seed's sample"
dense=""
if [ -d "$real" ]; then
    for n in hta-mtia-inference.json.gz hta-dist-rank0.json.gz kineto-resnet50-nw0.pt.trace.json.gz \
        hta-diff-control.json.gz; do
        name=${n%%.*}
        if "$bin" "$real/$n" -o "$out/$name.tex" 2>"$out/err"; then
            dense="$dense $name"
        else
            bad "$n: tracefig failed: $(cat "$out/err")"
        fi
    done
else
    echo "SKIP texspeed: real figures ($real not found): generated dense traces instead"
    for shape in "12 6" "24 4"; do
        set -- $shape
        name=dense-$1x$2
        if "$py" "$here/gendense.py" "$1" "$2" "$out/$name.json" &&
            "$bin" "$out/$name.json" -o "$out/$name.tex" 2>"$out/err"; then
            dense="$dense $name"
        else
            bad "$name: $(cat "$out/err")"
        fi
    done
fi
for f in seed $dense; do
    { preamble twocolumn; printf '%s\n' '\begin{document}' \
        "\\def\\tracefigwidth{\\columnwidth}\\tfmeasure{$f.tex}{\\columnwidth}" '\end{document}'; } >"$out/one-$f.tex"
    s=$(date +%s.%N)
    if compile pdflatex "one-$f.tex"; then
        e=$(date +%s.%N)
        ok
        widths "$out/one-$f.pdflatex.log" 1
        echo "$f $s $e" | awk '{ printf "texspeed: %-20s pdflatex %.2f s (the whole article)\n", $1, $3 - $2 }'
    else
        bad "$f: does not compile in a two-column article:"
        grep -A3 '^!' "$out/one-$f.pdflatex.log" | head -8
    fi
done

# --- 2. 24 lanes x 6 rows at \textwidth, in the three engines ------------------
if "$py" "$here/gendense.py" 24 6 "$out/d24.json" &&
    "$bin" "$out/d24.json" --height 20cm -o "$out/d24.tex" 2>"$out/err"; then
    n=$(grep -c '^\\tracefiglane{6}' "$out/d24.tex")
    if [ "$n" -eq 24 ]; then ok; else bad "d24: $n of 24 lanes drawn with 6 rows"; fi
    { preamble ''; printf '%s\n' '\begin{document}' "\\tfmeasure{d24.tex}{\\textwidth}" '\end{document}'; } >"$out/big.tex"
    for e in pdflatex lualatex xelatex; do
        if ! command -v $e >/dev/null 2>&1; then
            echo "SKIP texspeed: $e is not installed"
            continue
        fi
        if compile $e big.tex; then
            ok
            widths "$out/big.$e.log" 1
        else
            bad "$e: the 24 x 6 figure does not compile:"
            grep -A3 '^!' "$out/big.$e.log" | head -8
        fi
    done
else
    bad "d24: $(cat "$out/err")"
fi

# --- 3. a restyled class: none of its old colour left --------------------------
if command -v pdftoppm >/dev/null 2>&1; then
    if [ -d "$real" ]; then
        "$bin" "$real/hta-dist-rank0.json.gz" -o "$out/rs.tex" 2>/dev/null
    else
        "$py" "$here/gendense.py" 8 4 "$out/rs.json" && "$bin" "$out/rs.json" -o "$out/rs.tex" 2>/dev/null
    fi
    old=$(sed -n 's/^\\definecolor{tracefig-cat-kernel}{HTML}{\([0-9A-F]*\)}.*/\1/p' "$out/rs.tex")
    # the test is about busy shares too: the figure must have some
    if grep -q 'fill,tracefig/cat/kernel,tracefig/share' "$out/rs.tex"; then ok; else
        bad "restyle: the figure has no busy shares of the kernel class"
    fi
    if [ -z "$old" ]; then
        bad "restyle: the figure has no kernel class"
    else
        for v in plain red; do
            {
                printf '%s\n' '\documentclass{article}' '\usepackage{tikz}' '\pagestyle{empty}'
                [ $v = red ] && printf '%s\n' '\tikzset{tracefig/cat/kernel/.style={fill=red}}'
                printf '%s\n' '\begin{document}' '\noindent\input{rs.tex}' '\end{document}'
            } >"$out/rs-$v.tex"
            if compile pdflatex "rs-$v.tex" && pdftoppm -r 100 -singlefile "$out/rs-$v.pdf" "$out/rs-$v"; then
                eval "n_$v=\$(\"\$py\" \"\$here/pixels.py\" \"\$out/rs-$v.ppm\" \"\$old\")"
                eval "r_$v=\$(\"\$py\" \"\$here/pixels.py\" \"\$out/rs-$v.ppm\" FF0000)"
            else
                bad "restyle: rs-$v.tex does not compile"
                eval "n_$v=-1 r_$v=-1"
            fi
        done
        # shellcheck disable=SC2154
        if [ "$n_plain" -gt 0 ] && [ "$n_red" -eq 0 ] && [ "$r_red" -gt 0 ]; then
            ok
        else
            bad "restyle: #$old pixels: $n_plain as drawn, $n_red restyled red (want 0; red pixels: $r_red)"
        fi
        # a style the basic layer does not draw: the class falls back to TikZ paths
        sed 's/fill=red/top color=red, bottom color=white/' "$out/rs-red.tex" >"$out/rs-shade.tex"
        if compile pdflatex rs-shade.tex; then ok; else
            bad "restyle: a shaded class does not compile:"
            grep -A3 '^!' "$out/rs-shade.pdflatex.log" | head -6
        fi
    fi
else
    echo "SKIP texspeed: restyle: pdftoppm is not installed (poppler-utils)"
fi

if [ -n "${TEX_KEEP:-}" ]; then
    mkdir -p "$TEX_KEEP" && cp "$out"/*.tex "$out"/*.log "$TEX_KEEP"/ 2>/dev/null
fi
echo "texspeed: $pass passed, $fail failed"
[ $fail -eq 0 ]
