#!/bin/sh
# Chrome-mode suite: run.sh TRACEFIG [CASES NAME]
#
# CASES (default tests/chrome/cases) and NAME (default chrome) let another
# suite run its own folder of cases the same way (tests/nsys/run.sh); its
# KNOWN_FAILURES is the one beside CASES.  A setup script finds the
# repository in $TRACEFIG_ROOT (for tests/tools/gennsys.py).
#
# Every folder of tests/chrome/cases/ is a small hand-written trace in one of
# the forms real Trace Event Format files take, and what must hold of its
# figure:
#   trace*    the input (trace.json, trace.json.gz, ...: the first trace* file)
#   args      optional extra flags, one argument per line (a line starting
#             with '#' is a comment)
#   stdin     optional marker: the trace is read from standard input ('-')
#   setup     optional script run first in the scratch copy (for inputs
#             too large to commit, made at test time; "$PY" "$GENTRACE" runs
#             tests/tools/gentrace.py)
#   expect    optional: lines "exit N" (default 0), "stderr ERE" (some line
#             of stderr matches, case-insensitively), "nostderr ERE" (no line
#             does), "quiet" (stderr is empty)
#   check.py  optional: assertions on the JSON model (see lib.py)
# Each case is rendered as json, svg and tikz, each checked as one test:
#   NAME        expect + check.py on the JSON model
#   NAME/svg    same exit status as the JSON run; when 0, xmllint --noout
#   NAME/tikz   same exit status; when 0, one tikzpicture
#   NAME/stable the three outputs are the same bytes twice, and under
#               LC_ALL=de_DE.UTF-8 TZ=Pacific/Chatham when that locale exists
#   NAME/pdflatex  the TikZ fragment, \input into a plain article, compiles
#               with pdflatex (skipped without it)
#   NAME/browser  the SVG in headless Chromium (tests/svg/browser.sh): no
#               two texts overlap, none leaves the viewBox, every bar has a
#               tooltip (skipped without Chromium)
# Known bugs: tests/chrome/KNOWN_FAILURES, one "TEST: why" line each (TEST
# is NAME or NAME/svg ...; NAME@san: only for a sanitizer build).  A known failure is listed, and counted neither
# as passed nor as failed; one that passes is reported as fixed.
# Ends with "chrome: N passed, N failed"; exit 1 on an unknown failure.
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
cases=$here/cases
suite=chrome
if [ $# -ge 3 ]; then
    cases=$(cd "$2" && pwd)
    suite=$3
fi
TRACEFIG_ROOT=$(cd "$here/../.." && pwd)
export TRACEFIG_ROOT
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-$suite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
known_file=$(dirname "$cases")/KNOWN_FAILURES

have_de=
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$'; then have_de=1; fi
have_xmllint=
command -v xmllint >/dev/null 2>&1 && have_xmllint=1
[ -n "$have_xmllint" ] || echo "note: xmllint not installed: SVGs only checked for exit status"

pass=0
fail=0
nknown=0
known_lines=""
fixed_lines=""

# A sanitizer build also knows the "TEST@san:" lines (bugs only ASan or
# UBSan sees).
san=
grep -q __asan_init "$bin" 2>/dev/null && san=1
known_line() { # TEST: its KNOWN_FAILURES line, if any
    [ -f "$known_file" ] || return 1
    grep "^$1:" "$known_file" | head -n 1 | grep . ||
        { [ -n "$san" ] && grep "^$1@san:" "$known_file" | head -n 1 | grep .; }
}
is_known() { # TEST
    known_line "$1" >/dev/null
}

result() { # TEST OK(0/1) MESSAGE-FILE
    t=$1
    if [ "$2" = 0 ]; then
        pass=$((pass + 1))
        if is_known "$t"; then
            fixed_lines="$fixed_lines
FIXED $t (listed in KNOWN_FAILURES: remove the line)"
        fi
    elif is_known "$t"; then
        nknown=$((nknown + 1))
        known_lines="$known_lines
KNOWN $(known_line "$t")"
    else
        fail=$((fail + 1))
        echo "FAIL $suite/$t"
        [ -s "$3" ] && sed 's/^/  /' "$3" | head -n 20
    fi
}

# run DIR FORMAT OUT [VAR=VALUE...]: tracefig on the case in DIR (cwd DIR),
# the exit status in $rc, stderr in $DIR/.err.FORMAT.  The args file holds
# one argument per line (so a glob may hold spaces).
run() {
    d=$1
    fmt=$2
    out=$3
    shift 3
    envs=$*
    set --
    if [ -f "$d/args" ]; then
        while IFS= read -r a || [ -n "$a" ]; do
            case $a in '' | '#'*) continue ;; esac
            set -- "$@" "$a"
        done <"$d/args"
    fi
    if [ -f "$d/stdin" ]; then
        # shellcheck disable=SC2086
        (cd "$d" && env $envs "$bin" - "$@" --format "$fmt" -o "$out" <"$input") \
            >/dev/null 2>"$d/.err.$fmt"
    else
        # shellcheck disable=SC2086
        (cd "$d" && env $envs "$bin" "$input" "$@" --format "$fmt" -o "$out") \
            </dev/null >/dev/null 2>"$d/.err.$fmt"
    fi
    rc=$?
}

ncases=0
svgs=""
texs=""
for src in "$cases"/*/; do
    case=$(basename "$src")
    d=$tmp/$case
    mkdir -p "$d"
    cp -R "$src". "$d"/
    msg=$tmp/$case.msg
    : >"$msg"
    ncases=$((ncases + 1))
    if [ -f "$d/setup" ] && ! (cd "$d" && GENTRACE="$here/../tools/gentrace.py" PY="$py" sh ./setup) \
        >"$msg" 2>&1; then
        echo "setup failed" >>"$msg"
        result "$case" 1 "$msg"
        continue
    fi
    input=$(cd "$d" && ls trace* 2>/dev/null | head -n 1)
    if [ -z "$input" ]; then
        echo "no trace* input" >"$msg"
        result "$case" 1 "$msg"
        continue
    fi

    # --- the model: expect + check.py
    run "$d" json out.json
    json_rc=$rc
    ok=0
    want_rc=0
    if [ -f "$d/expect" ]; then
        w=$(sed -n 's/^exit[[:space:]]*//p' "$d/expect" | head -n 1)
        [ -n "$w" ] && want_rc=$w
    fi
    if [ "$json_rc" != "$want_rc" ]; then
        echo "exit $json_rc, want $want_rc; stderr: $(head -c 400 "$d/.err.json")" >>"$msg"
        ok=1
    fi
    if [ -f "$d/expect" ]; then
        while IFS= read -r line; do
            case $line in
            stderr\ *)
                re=${line#stderr }
                grep -Eiq -- "$re" "$d/.err.json" ||
                    { echo "stderr has no line matching /$re/: $(head -c 400 "$d/.err.json")" >>"$msg"; ok=1; } ;;
            nostderr\ *)
                re=${line#nostderr }
                ! grep -Eiq -- "$re" "$d/.err.json" ||
                    { echo "stderr should not match /$re/: $(head -c 400 "$d/.err.json")" >>"$msg"; ok=1; } ;;
            quiet)
                [ ! -s "$d/.err.json" ] ||
                    { echo "stderr should be empty: $(head -c 400 "$d/.err.json")" >>"$msg"; ok=1; } ;;
            esac
        done <"$d/expect"
    fi
    if [ "$json_rc" = 0 ] && [ -f "$d/out.json" ]; then
        "$py" -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$d/out.json" \
            >>"$msg" 2>&1 || { echo "the JSON model does not parse" >>"$msg"; ok=1; }
    fi

    # --- svg and tikz (the SVG also serves check.py)
    run "$d" svg out.svg
    svg_rc=$rc
    run "$d" tikz out.tex
    tikz_rc=$rc

    if [ -f "$d/check.py" ]; then
        [ -f "$d/out.json" ] || : >"$d/out.json"
        [ -f "$d/out.svg" ] || : >"$d/out.svg"
        (cd "$d" && PYTHONPATH="$here" "$py" ./check.py out.json .err.json "$json_rc" out.svg) \
            >>"$msg" 2>&1 || { echo "check.py failed" >>"$msg"; ok=1; }
    fi
    result "$case" $ok "$msg"

    : >"$msg"
    ok=0
    if [ "$svg_rc" != "$json_rc" ]; then
        echo "svg exit $svg_rc, json exit $json_rc: $(head -c 300 "$d/.err.svg")" >>"$msg"
        ok=1
    elif [ "$svg_rc" = 0 ]; then
        if [ ! -s "$d/out.svg" ]; then
            echo "empty SVG" >>"$msg"
            ok=1
        elif [ -n "$have_xmllint" ] && ! xmllint --noout "$d/out.svg" >>"$msg" 2>&1; then
            echo "xmllint rejects the SVG" >>"$msg"
            ok=1
        fi
    fi
    result "$case/svg" $ok "$msg"

    : >"$msg"
    ok=0
    if [ "$tikz_rc" != "$json_rc" ]; then
        echo "tikz exit $tikz_rc, json exit $json_rc: $(head -c 300 "$d/.err.tikz")" >>"$msg"
        ok=1
    elif [ "$tikz_rc" = 0 ]; then
        n=$(grep -c 'begin{tikzpicture}' "$d/out.tex")
        m=$(grep -c 'end{tikzpicture}' "$d/out.tex")
        if [ "$n" != 1 ] || [ "$m" != 1 ]; then
            echo "want one tikzpicture, got $n begin / $m end" >>"$msg"
            ok=1
        fi
    fi
    result "$case/tikz" $ok "$msg"

    # --- the same bytes again, and in another locale and time zone
    : >"$msg"
    ok=0
    if [ "$json_rc" = 0 ]; then
        for fmt in json svg tikz; do
            case $fmt in json) f=out.json ;; svg) f=out.svg ;; tikz) f=out.tex ;; esac
            run "$d" $fmt again.out
            if [ "$rc" != 0 ] || ! cmp -s "$d/$f" "$d/again.out"; then
                echo "$fmt: a second run differs (exit $rc)" >>"$msg"
                ok=1
            fi
            if [ -n "$have_de" ]; then
                run "$d" $fmt de.out LC_ALL=de_DE.UTF-8 TZ=Pacific/Chatham
                if [ "$rc" != 0 ] || ! cmp -s "$d/$f" "$d/de.out"; then
                    echo "$fmt: differs under LC_ALL=de_DE.UTF-8 TZ=Pacific/Chatham (exit $rc)" >>"$msg"
                    ok=1
                fi
            fi
        done
    fi
    result "$case/stable" $ok "$msg"
    [ "$svg_rc" = 0 ] && [ -s "$d/out.svg" ] && svgs="$svgs $d/out.svg"
    [ "$tikz_rc" = 0 ] && [ -s "$d/out.tex" ] && texs="$texs $case"
done

# --- the TikZ fragments \input into a plain article (OT1, the default font
# encoding) with pdflatex: all in one document, and one by one only when
# that fails, to name the culprits
tex_doc() { # FILE CASE...: an article that \inputs each case's fragment
    f=$1
    shift
    {
        printf '\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n'
        for c in "$@"; do
            printf '\\noindent\\input{%s/out.tex}\\par\n' "$c"
        done
        printf '\\end{document}\n'
    } >"$tmp/$f"
}
tex_ok() { # FILE: compiles without errors
    (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error "$1" >/dev/null 2>&1) &&
        ! grep -q '^!' "$tmp/${1%.tex}.log"
}
if [ -n "$texs" ] && command -v pdflatex >/dev/null 2>&1; then
    # The known culprits are compiled alone; all the others in one go.
    rest=""
    for c in $texs; do is_known "$c/pdflatex" || rest="$rest $c"; done
    all_ok=0
    if [ -n "$rest" ]; then
        # shellcheck disable=SC2086
        tex_doc all.tex $rest
        tex_ok all.tex || all_ok=1
    fi
    for c in $texs; do
        : >"$tmp/$c.msg"
        ok=0
        if [ $all_ok = 1 ] || is_known "$c/pdflatex"; then
            tex_doc "one-$c.tex" "$c"
            if ! tex_ok "one-$c.tex"; then
                grep -A2 '^!' "$tmp/one-$c.log" | head -n 3 >"$tmp/$c.msg"
                ok=1
            fi
        fi
        result "$c/pdflatex" $ok "$tmp/$c.msg"
    done
elif [ -n "$texs" ]; then
    echo "note: pdflatex not installed: TikZ fragments not compiled"
fi

# --- the SVGs in headless Chromium (tests/svg/browser.sh): no two texts
# overlap, no text leaves the viewBox, every bar has a tooltip
if [ -n "$svgs" ]; then
    # shellcheck disable=SC2086
    out=$(sh "$here/../svg/browser.sh" $svgs)
    if printf '%s\n' "$out" | grep -q '^SKIP'; then
        printf '%s\n' "$out" | grep '^SKIP'
    else
        for s in $svgs; do
            case=$(basename "$(dirname "$s")")
            key=$(printf '%s' "$s" | tr -c 'A-Za-z0-9._/-' '_')
            printf '%s\n' "$out" | grep -F "$key" | head -n 3 >"$tmp/$case.msg"
            if [ ! -s "$tmp/$case.msg" ] && ! printf '%s\n' "$out" | grep -q 'did not finish'; then
                result "$case/browser" 0 "$tmp/$case.msg"
            else
                [ -s "$tmp/$case.msg" ] || echo "chromium did not finish the page" >"$tmp/$case.msg"
                result "$case/browser" 1 "$tmp/$case.msg"
            fi
        done
    fi
fi

[ -n "$fixed_lines" ] && printf '%s\n' "$fixed_lines" | sed '/^$/d'
if [ -n "$known_lines" ]; then
    echo "$suite: $nknown known failures ($known_file):"
    printf '%s\n' "$known_lines" | sed '/^$/d'
fi
[ -n "$have_de" ] || echo "note: no de_DE.UTF-8 locale: the locale half of the stable checks was skipped"
echo "$suite: $ncases cases, $((pass + fail + nknown)) tests"
echo "$suite: $pass passed, $fail failed"
[ $fail -eq 0 ]
