#!/bin/sh
# The documentation suite: the README and the man pages say what is true.
#
#   tests/docs/run.sh TRACEFIG
#
# - README.md is at most 300 lines; every man page (man/*.N) renders with
#   no warning (groff -ww, and man -l when man is installed);
# - --help fits 80 columns, its groups are the OPTIONS groups of
#   man/tracefig.1, in order, and it names man tracefig and tracefig-inputs;
# - every `tracefig ...` command of README.md and of the man pages' EXAMPLES
#   runs (docs.py: on the project's samples or generated stand-ins, listed
#   in tests/docs/files; a third-party trace's command says SKIP without
#   ../shared/real-traces), exits 0 and names no unknown option; and a copy
#   of README.md with an option misspelt fails;
# - the README's pictures are those examples/render.sh and examples/real.sh
#   make now (cmp; real.sh's need ../shared/real-traces, paper-page2.png
#   pdflatex and pdftoppm: SKIP without).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-docs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
pages=$(ls man/*.[1-9])

# --- the README's length and the man pages' rendering ---------------------
n=$(wc -l <README.md)
if [ "$n" -le 300 ]; then ok; else bad "README.md has $n lines (at most 300)"; fi
for p in $pages; do
    if groff -man -ww -z "$p" >"$tmp/groff.log" 2>&1 && [ ! -s "$tmp/groff.log" ]; then
        ok
    else
        bad "$p: groff -ww warns: $(head -3 "$tmp/groff.log")"
    fi
    if command -v man >/dev/null 2>&1; then
        if MANWIDTH=80 man -l "$p" 2>"$tmp/man.log" >/dev/null && [ ! -s "$tmp/man.log" ]; then
            ok
        else
            bad "$p: man -l warns: $(head -3 "$tmp/man.log")"
        fi
    fi
done
# The pages live in man/ alone: a tracefig.1 or src/tracefig.3 left at the
# old places (a merge of a branch that wrote there) must be moved into them.
for old in tracefig.1 src/tracefig.3; do
    if [ ! -e "$old" ]; then ok; else bad "$old: its sections belong in man/ (tracefig.1, tracefig-inputs.5, ...)"; fi
done
# The README points to each page by its name, and each page exists.
for name in tracefig.1 tracefig-inputs.5 tracefig-model.5 tracefig-stats.7 tracefig.3; do
    if [ -f "man/$name" ]; then ok; else bad "man/$name is missing"; fi
done

# Every file the README links to or names as the place to read is there.
for f in $(sed -n 's/.*](\([^)#:]*\)).*/\1/p' README.md) src/ARCHITECTURE.md; do
    if [ -e "$f" ]; then ok; else bad "README.md names $f, which is not there"; fi
done

# --- --help ---------------------------------------------------------------
"$bin" --help >"$tmp/help" 2>&1
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/help")
if [ "$w" -le 80 ]; then ok; else bad "--help is $w columns wide (at most 80)"; fi
for m in "man tracefig'" "man tracefig-inputs"; do
    if grep -qF "$m" "$tmp/help"; then ok; else bad "--help does not name $m"; fi
done
# Its groups: the lines "Name ...:" between the first option and "Exit status".
sed -n '/^[A-Z][^ ]*.*:$/p' "$tmp/help" | sed 's/ (.*//; s/:$//' >"$tmp/help.groups"
sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' man/tracefig.1 | sed -n 's/^\.SS //p' |
    sed 's/^"//; s/"$//' >"$tmp/man.groups"
if cmp -s "$tmp/help.groups" "$tmp/man.groups"; then
    ok
else
    bad "--help's groups are not man/tracefig.1's OPTIONS groups:"
    diff "$tmp/help.groups" "$tmp/man.groups" | sed 's/^/    /'
fi

# --- every command runs ---------------------------------------------------
# shellcheck disable=SC2086
"$py" tests/docs/docs.py "$bin" README.md $pages >"$tmp/run.log" 2>&1
st=$?
grep -v '^[0-9]* passed' "$tmp/run.log"
p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/run.log")
f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/run.log")
pass=$((pass + ${p:-0}))
fail=$((fail + ${f:-0}))
if [ $st -ne 0 ] && [ "${f:-0}" = 0 ]; then bad "docs.py ended with status $st"; fi

# A misspelt option in the README fails the suite: --width -> --widht in a
# doctored copy.
sed 's/ --width / --widht /' README.md >"$tmp/README.md"
if ! cmp -s README.md "$tmp/README.md" &&
    "$py" tests/docs/docs.py "$bin" --expect-unknown "$tmp/README.md" >"$tmp/doc.log" 2>&1; then
    ok
else
    bad "a README with --widht for --width does not fail:"; sed 's/^/    /' "$tmp/doc.log"
fi

# --- the README's pictures are up to date ---------------------------------
# examples/ is copied and rendered again (render.sh renders real.sh's too),
# then each picture the README shows is compared with the new one.
mkdir "$tmp/co"
cp -R examples "$tmp/co/examples"
ln -s "$root/tests" "$tmp/co/tests"
pics=$(sed -n 's/.*](\(examples\/[^)]*\)).*/\1/p' README.md)
for pic in $pics; do rm -f "$tmp/co/$pic"; done # only what is made now counts
real=${REAL_TRACES:-$root/../shared/real-traces}
if [ -d "$real" ]; then real=$(cd "$real" && pwd); fi
REAL_TRACES=$real sh "$tmp/co/examples/render.sh" "$bin" >"$tmp/render.log" 2>&1 ||
    bad "examples/render.sh failed: $(grep -i 'fail' "$tmp/render.log" | head -3)"
for pic in $pics; do
    name=${pic#examples/}
    if [ -f "$tmp/co/$pic" ]; then
        if cmp -s "$pic" "$tmp/co/$pic"; then
            ok
        else
            bad "$pic is not what examples/render.sh makes now (run make examples)"
        fi
    else
        case $name in
        real/*) echo "SKIP $pic: real.sh needs the third-party traces of $real" ;;
        paper-page2.png) echo "SKIP $pic: needs pdflatex and pdftoppm" ;;
        *)
            if grep -q "examples: $name: SKIP" "$tmp/render.log"; then
                echo "SKIP $pic: $(sed -n "s/^examples: $name: SKIP //p" "$tmp/render.log")"
            else
                bad "$pic: examples/render.sh made no such picture"
            fi
            ;;
        esac
    fi
done

echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
