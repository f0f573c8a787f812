#!/bin/sh
# SVG suite: run.sh TRACEFIG [--generated N [SEED]]
#
# Renders every case of tests/golden/*/ and tests/svg/cases/*/ (trace.json,
# optional breakdown.json, optional args), plus N fresh cases made by
# gen_cases.py (with tests/tools/gentrace.py) when --generated is given and
# /usr/bin/python3 is present, and checks each SVG:
#   xmllint    well-formed (xmllint --noout)
#   rsvg       rsvg-convert renders it to a non-empty PNG
#   bars       one <g class="tf-bar ..."> per model bar (--format json), in
#              order, with the same data-lane / data-candidate / data-start-ms
#              / data-dur-ms, and a <title> tooltip
#   web        viewBox, width, height, role="img", <title>, <desc>, <style>;
#              no <script>, no id=, no href, no external url(
#   stable     the same bytes twice and under LC_ALL=de_DE.UTF-8
# then loads them all in headless Chromium (browser.sh: overlapping text,
# text outside the viewBox, tooltips, font).  The sample v2 + breakdown SVG
# must be at most 20 KB.  Then the light figures of issue 40 (light.py): a
# dense generated trace's SVG under 120 KB, and each real trace's of
# ../shared/real-traces at most 150 KB (SKIP when absent), with their
# slices' tooltips and their shares' numbers per run.  Ends with
# "N passed, N failed"; exit 1 on failure.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gen_n=0
gen_seed=1
if [ "${1:-}" = "--generated" ]; then
    gen_n=${2:-20}
    gen_seed=${3:-$(date +%s)}
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-svg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

dirs="$root/tests/golden/*/ $here/cases/*/"
if [ "$gen_n" -gt 0 ]; then
    if [ -x /usr/bin/python3 ]; then
        echo "svg: $gen_n generated cases, seed $gen_seed"
        /usr/bin/python3 "$here/gen_cases.py" "$tmp/gen" "$gen_n" "$gen_seed" ||
            bad "gen_cases.py failed"
        dirs="$dirs $tmp/gen/*/"
    else
        echo "SKIP generated cases: /usr/bin/python3 missing"
    fi
fi

have_de=
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then have_de=1; fi

svgs=""
for dir in $dirs; do
    [ -f "$dir/trace.json" ] || continue
    case_name=$(basename "$dir")
    parent=$(basename "$(dirname "$dir")")
    name="$parent-$case_name"
    set -- --trace trace.json
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    extra=""
    [ -f "$dir/args" ] && extra=$(sed 's/#.*//' "$dir/args" | tr '\n' ' ')
    svg="$tmp/$name.svg"
    # shellcheck disable=SC2086
    if ! (cd "$dir" && "$bin" "$@" $extra --format svg -o -) >"$svg" 2>"$tmp/err"; then
        if [ -f "$dir/expected.svg" ]; then
            bad "$name: tracefig failed: $(cat "$tmp/err")"
        else
            # A case the rules reject (e.g. no events in the window) has
            # no figure; the trunk's tests own that behaviour.
            echo "note: $name: no figure: $(head -c 200 "$tmp/err")"
        fi
        continue
    fi
    # shellcheck disable=SC2086
    (cd "$dir" && "$bin" "$@" $extra --format json -o -) >"$tmp/$name.json" 2>/dev/null
    svgs="$svgs $svg"

    if xmllint --noout "$svg" 2>"$tmp/err"; then ok; else bad "$name: xmllint: $(head -3 "$tmp/err")"; fi

    if rsvg-convert -d 96 -p 96 "$svg" -o "$tmp/$name.png" 2>"$tmp/err" && [ -s "$tmp/$name.png" ]; then
        ok
    else
        bad "$name: rsvg-convert: $(head -3 "$tmp/err")"
    fi

    # Bars: the model's (lane, candidate, start, dur) against the SVG's; for
    # the Chrome mode's model (schema 2, checked in depth by tests/chrome)
    # their count.
    if grep -q '"schema": "tracefig-figure-2"' "$tmp/$name.json"; then
        want=$(grep -c '"shape": "' "$tmp/$name.json")
        got=$(tr '\n' ' ' <"$svg" | sed 's/<g class="tf-bar[ "]/\n&/g' | grep -c '^<g class="tf-bar[ "]')
        if [ "$want" -gt 0 ] && [ "$want" = "$got" ]; then ok; else
            bad "$name: $got SVG bars for $want in the model"
        fi
    else
    sed -n 's/.*{"lane": "\([^"]*\)", "name": "[^"]*", "candidate": \([^,]*\), "start_ms": \([^,]*\), "dur_ms": \([^,]*\),.*/\1 \2 \3 \4/p' \
        "$tmp/$name.json" | sed 's/ null / - /' >"$tmp/want"
    tr '\n' ' ' <"$svg" | sed 's/<g class="tf-bar /\n&/g' | sed -n '/^<g class="tf-bar /p' |
        sed 's/^<g class="tf-bar [^"]*" data-lane="\([^"]*\)"\( data-candidate="\([^"]*\)"\)\? data-start-ms="\([^"]*\)" data-dur-ms="\([^"]*\)"> *<title>[^<][^<]*<\/title>.*/\1 \3 \4 \5/' |
        sed 's/^\([^ ]*\)  /\1 - /' >"$tmp/got0"
    # (the last bar has no newline after tr: add one)
    sed '$a\' "$tmp/got0" >"$tmp/got"
    if [ ! -s "$tmp/want" ] && [ ! -s "$tmp/got" ] && ! grep -q '"bars": \[\]' "$tmp/$name.json"; then
        bad "$name: no bars at all"
    elif cmp -s "$tmp/want" "$tmp/got"; then
        ok
    else
        bad "$name: bars differ from the model:"
        diff "$tmp/want" "$tmp/got" | head -6
    fi
    fi

    w=1
    for pat in '<svg [^>]*viewBox="0 0 [0-9.]* [0-9.]*"' '<svg [^>]*width="[0-9.]*pt"' \
        '<svg [^>]*height="[0-9.]*pt"' '<svg [^>]*role="img"' '<title>' '<desc>' '<style>'; do
        grep -q "$pat" "$svg" || { bad "$name: missing $pat"; w=0; }
    done
    for pat in '<script' ' id=' 'href' 'url(' '<image' '<foreignObject' '@import'; do
        grep -q "$pat" "$svg" && { bad "$name: has $pat"; w=0; }
    done
    [ $w -eq 1 ] && ok

    # shellcheck disable=SC2086
    (cd "$dir" && "$bin" "$@" $extra --format svg -o -) >"$tmp/again.svg" 2>/dev/null
    s=1
    cmp -s "$svg" "$tmp/again.svg" || { bad "$name: second run differs"; s=0; }
    if [ -n "$have_de" ]; then
        # shellcheck disable=SC2086
        (cd "$dir" && LC_ALL=de_DE.UTF-8 "$bin" "$@" $extra --format svg -o -) >"$tmp/de.svg" 2>/dev/null
        cmp -s "$svg" "$tmp/de.svg" || { bad "$name: differs under LC_ALL=de_DE.UTF-8"; s=0; }
    fi
    [ $s -eq 1 ] && ok
done

size=$(wc -c <"$tmp/golden-sample_v2.svg" 2>/dev/null || echo 0)
if [ "$size" -gt 0 ] && [ "$size" -le 20480 ]; then
    ok
    echo "svg: sample v2 + breakdown is $size bytes (limit 20480)"
else
    bad "sample v2 + breakdown SVG is $size bytes (limit 20480, or missing)"
fi

# shellcheck disable=SC2086
if [ -n "$svgs" ]; then
    out=$(sh "$here/browser.sh" $svgs)
    rc=$?
    printf '%s\n' "$out" | grep -v ' passed, .* failed$'
    bp=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' | tail -1)
    bf=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' | tail -1)
    pass=$((pass + ${bp:-0}))
    fail=$((fail + ${bf:-0}))
    [ $rc -ne 0 ] && [ "${bf:-0}" -eq 0 ] && bad "browser.sh exited $rc"
fi

# Inlined in web pages: scaled to narrow columns, and unaffected by (and
# not affecting) the page's CSS and other figures.
if [ -f "$tmp/golden-sample_v2.svg" ]; then
    out=$(sh "$here/inline.sh" "$tmp/golden-sample_v2.svg" "$tmp/golden-sample_v1.svg")
    printf '%s\n' "$out" | grep -v ' passed, .* failed$'
    ip=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' | tail -1)
    if_=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' | tail -1)
    pass=$((pass + ${ip:-0}))
    fail=$((fail + ${if_:-0}))
fi

# Light figures (issue 40): a dense generated trace's SVG (16 Kineto steps
# of 24 layers: 2740 fine dense bars, 1778 slices; 240 KB when every 1 pt
# bin of shares was a group with its own title) stays under 120 KB, keeps
# every whole slice's tooltip and gives its shares' numbers per run of
# bins (light.py); and each real trace's default SVG beside the repository
# (../shared/real-traces: json, json.gz, nsys, otf2, rocpd) is at most
# 150 KB, well-formed, with the same checks.
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 "$root/tests/tools/gentrace.py" kineto --steps 16 --layers 24 \
        --out "$tmp/dense.json" &&
        "$bin" "$tmp/dense.json" -o "$tmp/dense.svg" 2>"$tmp/err" &&
        "$bin" "$tmp/dense.json" --format json -o "$tmp/dense.model.json" 2>>"$tmp/err" ||
        bad "dense: tracefig failed: $(head -3 "$tmp/err")"
    if [ -s "$tmp/dense.svg" ]; then
        if out=$(/usr/bin/python3 "$here/light.py" "$tmp/dense.svg" 122880 "$tmp/dense.model.json"); then
            ok
        else
            bad "dense: light.py:"
            printf '%s\n' "$out" | grep '^FAIL' | head -4
        fi
        if xmllint --noout "$tmp/dense.svg" 2>"$tmp/err"; then ok; else bad "dense: xmllint: $(head -3 "$tmp/err")"; fi
    fi
else
    echo "SKIP dense: /usr/bin/python3 missing"
fi
real=$root/../shared/real-traces
if [ -d "$real" ] && [ -x /usr/bin/python3 ]; then
    n_real=0
    for f in "$real"/*.json "$real"/*.json.gz "$real"/nsys/*.sqlite "$real"/otf2/*/traces.otf2 \
        "$real"/rocpd/*.db; do
        [ -f "$f" ] || continue
        n_real=$((n_real + 1))
        rel=${f#"$real"/}
        out_svg="$tmp/real.svg"
        if ! "$bin" "$f" -o "$out_svg" 2>"$tmp/err"; then
            bad "real $rel: tracefig failed: $(head -1 "$tmp/err")"
            continue
        fi
        if xmllint --noout "$out_svg" 2>"$tmp/err"; then ok; else bad "real $rel: xmllint: $(head -3 "$tmp/err")"; fi
        # A figure without share bars (a short trace) has only the bytes
        # and slices to check.
        if out=$(/usr/bin/python3 "$here/light.py" "$out_svg" 153600 |
            grep -v '^FAIL shares: 0 groups'); printf '%s\n' "$out" | grep -q '^FAIL'; then
            bad "real $rel:"
            printf '%s\n' "$out" | grep '^FAIL' | head -4
        else
            ok
        fi
        printf 'svg: real %s: %d bytes\n' "$rel" "$(wc -c <"$out_svg")"
    done
    [ "$n_real" -gt 0 ] || echo "SKIP real traces: none in $real"
else
    echo "SKIP real traces: no ../shared/real-traces (or no /usr/bin/python3)"
fi

echo "svg: $pass passed, $fail failed"
[ $fail -eq 0 ]
