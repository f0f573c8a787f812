#!/bin/sh
# valgrind over every golden case with every back-end, and over every
# bad-input case: no invalid access, no definite or indirect leak.
#
#   leakcheck.sh TRACEFIG
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v valgrind >/dev/null 2>&1; then
    echo "leakcheck: SKIP (valgrind not installed)"
    exit 0
fi
tmp=${TMPDIR:-/tmp}/tracefig-leak.$$
mkdir -p "$tmp"
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
exts="json svg tex"
if "$bin" --version | grep -q ' pdf '; then exts="$exts pdf png"; fi
pass=0
fail=0
for dir in "$root"/tests/golden/*/; do
    [ -f "$dir/trace.json" ] || continue
    set -- --trace trace.json
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    extra=""
    [ -f "$dir/args" ] && extra=$(sed 's/#.*//' "$dir/args" | tr '\n' ' ')
    outs=""
    for e in $exts; do outs="$outs -o $tmp/out.$e"; done
    # shellcheck disable=SC2086
    (cd "$dir" && $vg "$bin" "$@" $extra $outs) >"$tmp/log" 2>&1
    if [ $? -eq 99 ]; then
        fail=$((fail + 1))
        echo "FAIL leakcheck golden/$(basename "$dir")"
        head -30 "$tmp/log"
    else
        pass=$((pass + 1))
    fi
done
for dir in "$root"/tests/bad/*/; do
    [ -f "$dir/expect" ] || continue
    rm -rf "$tmp/case"
    cp -R "$dir" "$tmp/case"
    [ -x "$tmp/case/setup" ] && (cd "$tmp/case" && ./setup)
    args=$(cat "$dir/args" 2>/dev/null || true)
    # shellcheck disable=SC2086
    (cd "$tmp/case" && $vg "$bin" $args) >"$tmp/log" 2>&1 </dev/null
    if [ $? -eq 99 ]; then
        fail=$((fail + 1))
        echo "FAIL leakcheck bad/$(basename "$dir")"
        head -30 "$tmp/log"
    else
        pass=$((pass + 1))
    fi
done
echo "leakcheck: $pass passed, $fail failed"
[ $fail -eq 0 ]
