#!/bin/sh
# Golden tests: every folder here is a case holding trace.json (or
# trace.json.gz), an optional
# breakdown.json, an optional args file (extra flags, one line, '#' comments
# allowed) and one expected.EXT per back-end.  Each back-end's output must
# equal its expected file byte for byte.
#
#   run.sh TRACEFIG            compare (exit 1 on any difference)
#   run.sh TRACEFIG --update   rewrite expected.* (review the diff like code)
#
# The run happens inside the case folder with relative file names, so the
# output never depends on where the checkout lives.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/tracefig-golden.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT INT TERM

# Back-ends compared here, as "format extension" pairs.  PDF and PNG bytes
# depend on the installed cairo, pixman, FreeType and zlib, so they are not
# golden files: tests/cairo checks them (page size, pixels against the SVG,
# run-to-run stability, and checksums that are only compared while those
# library versions are unchanged).
formats="json:json svg:svg tikz:tex"

pass=0
fail=0
for dir in "$here"/*/; do
    case=$(basename "$dir")
    trace=trace.json
    [ -f "$dir/trace.json.gz" ] && trace=trace.json.gz
    [ -f "$dir/$trace" ] || continue
    set -- --trace "$trace"
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    extra=""
    [ -f "$dir/args" ] && extra=$(sed 's/#.*//' "$dir/args" | tr '\n' ' ')
    for pair in $formats; do
        fmt=${pair%%:*}
        ext=${pair#*:}
        exp="$dir/expected.$ext"
        sum="$dir/expected.$ext.sha256"
        if [ "$update" != "--update" ] && [ ! -f "$exp" ] && [ ! -f "$sum" ]; then
            continue
        fi
        # shellcheck disable=SC2086
        (cd "$dir" && "$bin" "$@" $extra --format "$fmt" -o -) >"$out/got.$ext" 2>"$out/err"
        rc=$?
        if [ "$update" = "--update" ]; then
            if [ $rc -ne 0 ]; then
                echo "golden: $case/$fmt: tracefig failed (rc=$rc): $(cat "$out/err")"
                fail=$((fail + 1))
                continue
            fi
            case $fmt in
            pdf|png)
                (cd "$out" && sha256sum "got.$ext" | cut -d' ' -f1) >"$sum" ;;
            *) cp "$out/got.$ext" "$exp" ;;
            esac
            pass=$((pass + 1))
            continue
        fi
        if [ $rc -ne 0 ]; then
            echo "FAIL golden $case/$fmt: tracefig exited $rc: $(cat "$out/err")"
            fail=$((fail + 1))
        elif [ -f "$sum" ]; then
            got=$(cd "$out" && sha256sum "got.$ext" | cut -d' ' -f1)
            if [ "$got" = "$(cat "$sum")" ]; then pass=$((pass + 1)); else
                echo "FAIL golden $case/$fmt: checksum differs"
                fail=$((fail + 1))
            fi
        elif cmp -s "$exp" "$out/got.$ext"; then
            pass=$((pass + 1))
        else
            echo "FAIL golden $case/$fmt:"
            diff -u "$exp" "$out/got.$ext" | head -40
            fail=$((fail + 1))
        fi
    done
done
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
