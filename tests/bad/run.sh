#!/bin/sh
# Bad-input suite.  Each folder is a case:
#   trace.json / breakdown.json ...   the inputs (any names)
#   args      the command-line flags, one line (relative file names)
#   expect    line 1: the exit code; line 2: an extended regex the whole of
#             standard error must match (one line, naming the file and place;
#             empty: no output on stderr at all)
#   setup     optional script run in the scratch copy first
#   unprivileged  optional marker: run as nobody (when root), for permissions
# Every case runs in a scratch copy of its folder that already holds an
# output file; it must come out untouched, and no other file may appear.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=${TMPDIR:-/tmp}/tracefig-bad.$$
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp" "$tmp.bin"' EXIT INT TERM
pass=0
fail=0
for dir in "$here"/*/; do
    case=$(basename "$dir")
    [ -f "$dir/expect" ] || continue
    rm -rf "$tmp"
    mkdir -p "$tmp" && chmod 755 "$tmp"
    cp -R "$dir"/. "$tmp"/
    [ -x "$dir/setup" ] && (cd "$tmp" && ./setup)
    want_rc=$(sed -n 1p "$dir/expect")
    want_err=$(sed -n 2p "$dir/expect")
    printf 'precious\n' >"$tmp/out.json"
    printf 'precious\n' >"$tmp/out.svg"
    before=$(cd "$tmp" && ls -A | sort)
    args=$(cat "$dir/args" 2>/dev/null || true)
    # A case with an 'unprivileged' file runs as nobody: root reads any file.
    # nobody may not reach the checkout (a 0700 temp clone): run a copy.
    run=""
    exe=$bin
    if [ -f "$dir/unprivileged" ] && [ "$(id -u)" = 0 ]; then
        run="setpriv --reuid=65534 --regid=65534 --clear-groups"
        exe="$tmp.bin/tracefig"
        mkdir -p "$tmp.bin" && cp "$bin" "$exe" && chmod 755 "$tmp.bin" "$exe"
    fi
    # shellcheck disable=SC2086
    (cd "$tmp" && $run "$exe" $args) >"$tmp/.stdout" 2>"$tmp/.stderr" </dev/null
    rc=$?
    # A usage error may add the usual "Try 'tracefig --help'" hint line.
    err=$(grep -v "^Try 'tracefig --help'" "$tmp/.stderr")
    lines=$(grep -vc "^Try 'tracefig --help'" "$tmp/.stderr")
    after=$(cd "$tmp" && ls -A | grep -v '^\.std' | sort)
    why=""
    [ "$rc" = "$want_rc" ] || why="exit $rc, want $want_rc"
    if [ -z "$why" ]; then
        if [ -z "$want_err" ]; then
            [ -z "$err" ] || why="stderr should be empty"
        elif ! printf '%s\n' "$err" | grep -Eq "^($want_err)\$"; then
            why="stderr does not match /$want_err/"
        fi
    fi
    if [ -z "$why" ] && [ "$want_rc" != 0 ] && [ "$lines" -ne 1 ]; then
        why="stderr has $lines lines, want 1"
    fi
    if [ -z "$why" ] && [ "$want_rc" != 0 ]; then
        [ "$(cat "$tmp/out.json")" = precious ] || why="out.json was clobbered"
        [ "$(cat "$tmp/out.svg")" = precious ] || why="out.svg was clobbered"
        [ "$before" = "$after" ] || why="files changed: $(echo $after)"
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL bad/$case: $why"
        echo "  stderr: $err"
    fi
done
echo "bad-input: $pass passed, $fail failed"
[ $fail -eq 0 ]
