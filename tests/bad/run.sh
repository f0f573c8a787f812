#!/bin/sh
# Bad-input suite.  Each folder is a case:
#   trace.json / breakdown.json ...   the inputs (any names)
#   args      the command-line flags, one line (relative file names)
#   expect    line 1: the exit code; line 2: an extended regex the whole of
#             standard error must match (one line, naming the file and place;
#             empty: no output on stderr at all)
#   setup     optional script run in the scratch copy first (it may make
#             inputs too large to commit: the copy is under $TMPDIR); it
#             finds the repository in $TRACEFIG_ROOT (tests/tools/gennsys.py)
#   ulimit    optional: the virtual memory limit (KB, for ulimit -v) to run
#             tracefig under; not applied to sanitizer builds, which
#             reserve terabytes of address space
#   unprivileged  optional marker: run as nobody (when root), for permissions
# Every case runs in a scratch copy of its folder that already holds an
# output file; it must come out untouched, and no other file may appear.
# Known bugs: KNOWN_FAILURES beside this script, one "CASE: why" line each;
# such a case is listed, and counted neither as passed nor as failed.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
TRACEFIG_ROOT=$(cd "$here/../.." && pwd)
export TRACEFIG_ROOT
tmp=${TMPDIR:-/tmp}/tracefig-bad.$$
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp" "$tmp.bin"' EXIT INT TERM
pass=0
fail=0
nknown=0
known=""
san=
grep -q __asan_init "$bin" 2>/dev/null && san=1
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
    limit=unlimited
    [ -f "$dir/ulimit" ] && [ -z "$san" ] && limit=$(cat "$dir/ulimit")
    # shellcheck disable=SC2086
    (cd "$tmp" && { [ "$limit" = unlimited ] || ulimit -v "$limit"; } && exec $run "$exe" $args) >"$tmp/.stdout" 2>"$tmp/.stderr" </dev/null
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
        grep -q "^$case:" "$here/KNOWN_FAILURES" 2>/dev/null &&
            echo "FIXED bad/$case (listed in KNOWN_FAILURES: remove the line)"
    elif grep -q "^$case:" "$here/KNOWN_FAILURES" 2>/dev/null; then
        nknown=$((nknown + 1))
        known="$known
KNOWN $(grep "^$case:" "$here/KNOWN_FAILURES" | head -n 1)"
    else
        fail=$((fail + 1))
        echo "FAIL bad/$case: $why"
        echo "  stderr: $err"
    fi
done
if [ -n "$known" ]; then
    echo "bad-input: $nknown known failures (tests/bad/KNOWN_FAILURES):"
    printf '%s\n' "$known" | sed '/^$/d'
fi
echo "bad-input: $pass passed, $fail failed"
[ $fail -eq 0 ]
