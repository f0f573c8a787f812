#!/bin/sh
# Parity suite: run tracefig on every case of tests/parity/cases and compare its figure
# model with the reference's (expected.json, made by tests/tools/mkparity.py).
#
#   sh tests/parity/run.sh [-v] [--strict-ticks] TRACEFIG [CASE ...]
#
# For each case folder, from inside it:
#   TRACEFIG --format json -o - [--breakdown_file breakdown.json] --trace trace.json $(args.txt)
# then compare.py EXPECTED ACTUAL (compare.py --expect-error when tracefig exits non-zero).
# Ends with "N passed, N failed"; exit status 1 when any case failed.
# Environment: PYTHON (default python3) runs compare.py; PARITY_KEEP=DIR keeps the outputs.
# POSIX sh; case names and the flags in args.txt are plain words.
set -u

verbose=0
strict=
while [ $# -gt 0 ]; do
    case "$1" in
        -v) verbose=1; shift ;;
        --strict-ticks) strict=--strict-ticks; shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) break ;;
    esac
done
if [ $# -lt 1 ]; then
    echo "usage: $0 [-v] [--strict-ticks] TRACEFIG [CASE ...]" >&2
    exit 2
fi

tracefig=$1
shift
case "$tracefig" in
    */*) tracefig="$(cd "$(dirname "$tracefig")" && pwd)/$(basename "$tracefig")" ;;
    *) tracefig=$(command -v "$tracefig" || echo "$tracefig") ;;
esac
if [ ! -x "$tracefig" ]; then
    echo "$0: $tracefig: not an executable" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
cases_dir=$here/cases
python=${PYTHON:-python3}
timeout_cmd=
if command -v timeout >/dev/null 2>&1; then
    timeout_cmd="timeout 60"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/parity.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
keep=${PARITY_KEEP:-}
if [ -n "$keep" ]; then
    mkdir -p "$keep" || exit 2
fi

if [ $# -gt 0 ]; then
    names=$*
else
    names=$(for d in "$cases_dir"/*/; do
        if [ -f "$d/expected.json" ]; then basename "$d"; fi
    done)
fi
if [ -z "$names" ]; then
    echo "$0: no cases in $cases_dir" >&2
    exit 2
fi
set -f  # no globbing of case names or flags from here on

passed=0
failed=0
for name in $names; do
    dir=$cases_dir/$name
    if [ ! -f "$dir/expected.json" ]; then
        echo "FAIL $name: no such case"
        failed=$((failed + 1))
        continue
    fi
    extra=
    if [ -f "$dir/args.txt" ]; then
        extra=$(sed 's/#.*//' "$dir/args.txt" | tr '\n' ' ')
    fi
    out=$work/$name.json
    err=$work/$name.err
    (
        cd "$dir" || exit 125
        set -- --format json -o -
        if [ -f breakdown.json ]; then
            set -- "$@" --breakdown_file breakdown.json
        fi
        # shellcheck disable=SC2086  # word splitting of the flags is intended
        set -- "$@" --trace trace.json $extra
        exec $timeout_cmd "$tracefig" "$@"
    ) >"$out" 2>"$err"
    rc=$?
    if [ -n "$keep" ]; then
        cp "$out" "$keep/$name.json"
        cp "$err" "$keep/$name.err"
    fi
    if [ $rc -ge 124 ]; then
        if [ $rc -eq 124 ] && [ -n "$timeout_cmd" ]; then
            echo "FAIL $name: timed out"
        else
            echo "FAIL $name: tracefig crashed or could not run (status $rc)"
            sed -n '1,5s/^/    /p' "$err"
        fi
        failed=$((failed + 1))
        continue
    fi
    if [ $rc -eq 0 ]; then
        set --
    else
        set -- --expect-error --status "$rc" --stderr "$err"
    fi
    if "$python" "$here/compare.py" $strict --case "$name" "$@" "$dir/expected.json" "$out"; then
        passed=$((passed + 1))
        if [ $verbose -eq 1 ]; then echo "ok   $name"; fi
    else
        failed=$((failed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
