#!/bin/sh
# update_golden.sh TRACEFIG: rewrites only tests/golden/*/expected.svg (the
# SVG back-end's golden files), the same way tests/golden/run.sh --update
# does for every back-end.  Review the diff like code.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
n=0
for dir in "$here"/../golden/*/; do
    [ -f "$dir/trace.json" ] || continue
    set -- --trace trace.json
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    extra=""
    [ -f "$dir/args" ] && extra=$(sed 's/#.*//' "$dir/args" | tr '\n' ' ')
    # shellcheck disable=SC2086
    if (cd "$dir" && "$bin" "$@" $extra --format svg -o -) >"$dir/expected.svg.tmp" 2>/dev/null; then
        mv "$dir/expected.svg.tmp" "$dir/expected.svg"
        n=$((n + 1))
    else
        rm -f "$dir/expected.svg.tmp"
        echo "note: $(basename "$dir"): no SVG (tracefig failed)"
    fi
done
echo "updated $n expected.svg files"
