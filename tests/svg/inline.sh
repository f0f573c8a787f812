#!/bin/sh
# inline.sh A.svg B.svg: tracefig figures pasted inline into web pages, in
# headless Chromium (light and dark mode):
#   scale     in a 900 px page whose column is 500 px wide the figure is
#             500 px wide, keeps its aspect ratio, and the page gets no
#             horizontal scrollbar; in a 1200 px column it keeps its
#             natural size (its width attribute: 720 pt = 960 px);
#   scoped    a page whose CSS styles svg, .label, .bar, .tick, .axis,
#             .grid, .frame and the body's text, and that holds a second
#             figure (B) and an icon SVG with text, shows figure A with the
#             same pixels as a page holding A alone (screenshots compared);
#             and A's CSS does not restyle the icon (its text keeps the
#             page's font).
# Ends with "inline: N passed, N failed"; SKIP when Chromium is missing.
set -u
chrome=${CHROMIUM:-}
for c in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
    [ -z "$chrome" ] && [ -x "$c" ] && chrome=$c
done
if [ -z "$chrome" ] || [ ! -x /usr/bin/python3 ]; then
    echo "inline: SKIP (needs chromium and /usr/bin/python3)"
    echo "inline: 0 passed, 0 failed"
    exit 0
fi
a=$1
b=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-inline.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL inline: $*"; fail=$((fail + 1)); }

run_chrome() { # run_chrome EXTRA-FLAGS... URL
    "$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --no-first-run --no-default-browser-check \
        --disable-extensions --hide-scrollbars --force-device-scale-factor=1 \
        --user-data-dir="$tmp/profile" "$@" 2>>"$tmp/chrome.err"
}
body() { sed '1{/^<?xml/d;}' "$1"; }

# --- scale ------------------------------------------------------------------
for col in 500 1200; do
    {
        printf '<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
        printf 'body{margin:0;width:900px} #col{width:%spx}</style></head><body><div id="col">\n' "$col"
        body "$a"
        cat <<'JS'
</div><pre id="out">RUNNING</pre><script>
var s = document.querySelector('#col svg').getBoundingClientRect();
var vb = document.querySelector('#col svg').viewBox.baseVal;
document.getElementById('out').textContent = 'w=' + s.width.toFixed(1) + ' h=' + s.height.toFixed(1) +
  ' ratio=' + (s.width / s.height).toFixed(3) + ' want=' + (vb.width / vb.height).toFixed(3) +
  ' sw=' + document.documentElement.scrollWidth + ' DONE';
</script></body></html>
JS
    } >"$tmp/scale$col.html"
    run_chrome --window-size=900,700 --dump-dom "file://$tmp/scale$col.html" >"$tmp/scale$col.dom"
    r=$(sed -n 's/.*<pre id="out">\(.*DONE\).*/\1/p' "$tmp/scale$col.dom")
    w=$(printf '%s' "$r" | sed -n 's/^w=\([0-9.]*\).*/\1/p')
    ratio=$(printf '%s' "$r" | sed -n 's/.*ratio=\([0-9.]*\).*/\1/p')
    want=$(printf '%s' "$r" | sed -n 's/.*want=\([0-9.]*\).*/\1/p')
    sw=$(printf '%s' "$r" | sed -n 's/.*sw=\([0-9]*\).*/\1/p')
    exp_w=$([ "$col" = 500 ] && echo 500.0 || echo 960.0)
    if [ -n "$w" ] && [ "$w" = "$exp_w" ] && [ "$ratio" = "$want" ] &&
        { [ "$col" != 500 ] || [ "${sw:-0}" -le 900 ]; }; then
        ok
    else
        bad "column $col px: got '$r' (want width $exp_w, ratio kept, no horizontal scroll)"
    fi
done

# --- scoped -------------------------------------------------------------------
icon='<svg id="icon" width="40" height="20" viewBox="0 0 40 20"><text id="icontext" x="0" y="15">Hi</text></svg>'
hostile='svg{font-family:serif;fill:red;font-size:40px;width:10px;height:10px;letter-spacing:5px}
.label,.bar,.tick,.axis,.grid,.frame,.legend,.swatch{font-size:30px;fill:blue;stroke:green;stroke-width:4px;filter:blur(2px)}
body{letter-spacing:2px;word-spacing:9px;text-transform:uppercase;font-style:italic;font-family:monospace}'
for scheme in light dark; do
    for kind in alone hostile; do
        {
            printf '<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0;background:#808080}'
            [ "$kind" = hostile ] && printf '%s' "$hostile"
            printf '</style></head><body><div style="width:1000px">\n'
            body "$a"
            printf '</div>\n'
            if [ "$kind" = hostile ]; then
                printf '<div style="width:1000px">\n'
                body "$b"
                printf '</div>%s\n' "$icon"
                cat <<'JS'
<pre id="out">RUNNING</pre><script>
var f = getComputedStyle(document.getElementById('icontext')).fontFamily;
document.getElementById('out').textContent = 'iconfont=' + f + ' DONE';
</script>
JS
            fi
            printf '</body></html>\n'
        } >"$tmp/$kind-$scheme.html"
        flag=""
        [ "$scheme" = dark ] && flag="--force-dark-mode"
        # shellcheck disable=SC2086
        run_chrome $flag --window-size=1000,400 --screenshot="$tmp/$kind-$scheme.png" \
            "file://$tmp/$kind-$scheme.html" >/dev/null
    done
    if /usr/bin/python3 "$here/pngcmp.py" "$tmp/alone-$scheme.png" "$tmp/hostile-$scheme.png" 1000 300; then
        ok
    else
        bad "$scheme mode: the figure on a page with hostile CSS and another figure differs from the figure alone"
    fi
done
run_chrome --dump-dom "file://$tmp/hostile-light.html" >"$tmp/hostile.dom"
r=$(sed -n 's/.*<pre id="out">\(.*DONE\).*/\1/p' "$tmp/hostile.dom")
case $r in
*DejaVu*|"") bad "the figure's CSS leaks onto the page's other SVG: '$r'" ;;
*) ok ;;
esac
echo "inline: $pass passed, $fail failed"
[ $fail -eq 0 ]
