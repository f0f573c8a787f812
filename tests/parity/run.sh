#!/usr/bin/env bash
# Parity suite: run tracefig on every case of tests/parity/cases and compare its figure
# model with the reference's (expected.json, made by tests/tools/mkparity.py).
#
#   tests/parity/run.sh [-v] [--strict-ticks] TRACEFIG [CASE ...]
#
# For each case folder, from inside it:
#   TRACEFIG --format json -o - [--breakdown_file breakdown.json] --trace trace.json $(args.txt)
# then compare.py EXPECTED ACTUAL (compare.py --expect-error when tracefig exits non-zero).
# Ends with "N passed, N failed"; exit status 1 when any case failed.
# Environment: PYTHON (default python3) runs compare.py; PARITY_KEEP=DIR keeps the outputs.
set -u

verbose=0
compare_opts=()
while [ $# -gt 0 ]; do
    case "$1" in
        -v) verbose=1; shift ;;
        --strict-ticks) compare_opts+=(--strict-ticks); shift ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
timeout_cmd=()
if command -v timeout >/dev/null 2>&1; then
    timeout_cmd=(timeout 60)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/parity.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
keep=${PARITY_KEEP:-}
if [ -n "$keep" ]; then
    mkdir -p "$keep" || exit 2
fi

if [ $# -gt 0 ]; then
    names=("$@")
else
    names=()
    for d in "$cases_dir"/*/; do
        [ -f "$d/expected.json" ] && names+=("$(basename "$d")")
    done
fi
if [ ${#names[@]} -eq 0 ]; then
    echo "$0: no cases in $cases_dir" >&2
    exit 2
fi

passed=0
failed=0
for name in "${names[@]}"; do
    dir=$cases_dir/$name
    if [ ! -f "$dir/expected.json" ]; then
        echo "FAIL $name: no such case"
        failed=$((failed + 1))
        continue
    fi
    extra=()
    if [ -f "$dir/args.txt" ]; then
        # shellcheck disable=SC2207  # flags are plain words; '#' starts a comment
        extra=($(sed 's/#.*//' "$dir/args.txt"))
    fi
    bd=()
    [ -f "$dir/breakdown.json" ] && bd=(--breakdown_file breakdown.json)
    out=$work/$name.json
    err=$work/$name.err
    (cd "$dir" && ${timeout_cmd[@]+"${timeout_cmd[@]}"} "$tracefig" --format json -o - \
        ${bd[@]+"${bd[@]}"} --trace trace.json ${extra[@]+"${extra[@]}"}) >"$out" 2>"$err"
    rc=$?
    if [ -n "$keep" ]; then
        cp "$out" "$keep/$name.json"
        cp "$err" "$keep/$name.err"
    fi
    if [ $rc -ge 124 ]; then
        if [ $rc -eq 124 ] && [ ${#timeout_cmd[@]} -gt 0 ]; then
            echo "FAIL $name: timed out"
        else
            echo "FAIL $name: tracefig crashed (status $rc)"
            sed -n '1,5s/^/    /p' "$err"
        fi
        failed=$((failed + 1))
        continue
    fi
    if [ $rc -eq 0 ]; then
        "$python" "$here/compare.py" ${compare_opts[@]+"${compare_opts[@]}"} --case "$name" \
            "$dir/expected.json" "$out"
    else
        "$python" "$here/compare.py" ${compare_opts[@]+"${compare_opts[@]}"} --case "$name" \
            --expect-error --status "$rc" --stderr "$err" "$dir/expected.json" "$out"
    fi
    if [ $? -eq 0 ]; then
        passed=$((passed + 1))
        [ $verbose -eq 1 ] && echo "ok   $name"
    else
        failed=$((failed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
