#!/bin/sh
# browser.sh SVG...: loads every SVG, inlined in one HTML page, in headless
# Chromium and checks, for each file:
#   - no two <text> boxes overlap (getBBox, the font's ascent..descent box,
#     overlap > 0.05 pt both ways counts),
#   - no <text> box leaves the viewBox,
#   - every <g class="tf-bar ..."> has a non-empty <title> child (its tooltip),
#   - the browser draws text with the font the layout measured (DejaVu Sans
#     Bold or Book): "Time (ms)" must be as wide as the built-in metrics table
#     says (70.44 pt at 12.48 pt Bold; 5.0713 pt per point in Book), +-0.5.
# The page's script writes one line per file into the DOM; `--dump-dom`
# prints it.  Ends with "N passed, N failed"; exits 1 on any failure and 0
# with a SKIP line when Chromium is not installed.
set -u
chrome=${CHROMIUM:-}
if [ -z "$chrome" ]; then
    for c in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
        [ -x "$c" ] && chrome=$c && break
    done
fi
if [ -z "$chrome" ]; then
    echo "SKIP browser: chromium not installed (apt-get install -y chromium)"
    echo "0 passed, 0 failed"
    exit 0
fi
[ $# -gt 0 ] || { echo "usage: browser.sh SVG..." >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-browser.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
page="$tmp/page.html"
{
    printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>tracefig svg check</title></head><body>\n'
    i=0
    for f in "$@"; do
        i=$((i + 1))
        # The name goes into an attribute: keep it to safe characters.
        name=$(printf '%s' "$f" | tr -c 'A-Za-z0-9._/-' '_')
        printf '<div class="case" data-name="%s">\n' "$name"
        sed '1{/^<?xml/d;}' "$f"
        printf '</div>\n'
    done
    cat <<'JS'
<pre id="out">RUNNING</pre>
<script>
(function () {
  var lines = [];
  var cases = document.querySelectorAll('div.case');
  for (var c = 0; c < cases.length; c++) {
    var name = cases[c].getAttribute('data-name');
    var errs = [];
    try {
      var svg = cases[c].querySelector('svg');
      var vb = svg.viewBox.baseVal;
      var texts = svg.querySelectorAll('text');
      var boxes = [];
      for (var i = 0; i < texts.length; i++) {
        var b = texts[i].getBBox();
        boxes.push({s: texts[i].textContent, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height});
        var bx = boxes[i];
        if (bx.x0 < vb.x - 0.05 || bx.y0 < vb.y - 0.05 ||
            bx.x1 > vb.x + vb.width + 0.05 || bx.y1 > vb.y + vb.height + 0.05)
          errs.push('text "' + bx.s + '" leaves the viewBox [' + bx.x0.toFixed(2) + ',' +
                    bx.y0.toFixed(2) + ',' + bx.x1.toFixed(2) + ',' + bx.y1.toFixed(2) + ']');
        if (!(b.width > 0))
          errs.push('text "' + bx.s + '" has no width');
      }
      for (var i = 0; i < boxes.length; i++)
        for (var j = i + 1; j < boxes.length; j++) {
          var a = boxes[i], d = boxes[j];
          var ix = Math.min(a.x1, d.x1) - Math.max(a.x0, d.x0);
          var iy = Math.min(a.y1, d.y1) - Math.max(a.y0, d.y0);
          if (ix > 0.05 && iy > 0.05)
            errs.push('texts "' + a.s + '" and "' + d.s + '" overlap by ' + ix.toFixed(2) +
                      'x' + iy.toFixed(2));
        }
      for (var i = 0; i < texts.length; i++)
        if (texts[i].textContent === 'Time (ms)') {
          // The table's advance per point: 5.6445 (Bold), 5.0713 (Book).
          var size = parseFloat(texts[i].getAttribute('font-size'));
          var book = texts[i].getAttribute('font-weight') === 'normal';
          var want = size * (book ? 5.0713 : 5.6445);
          var w = texts[i].getComputedTextLength();
          if (Math.abs(w - want) > 0.5)
            errs.push('font: "Time (ms)" is ' + w.toFixed(2) + ' pt wide, the table says ' +
                      want.toFixed(2));
        }
      var bars = svg.querySelectorAll('g.tf-bar');
      for (var i = 0; i < bars.length; i++) {
        var t = bars[i].querySelector(':scope > title');
        if (!t || !t.textContent.trim())
          errs.push('bar ' + i + ' has no tooltip title');
      }
      lines.push((errs.length ? 'FAIL ' : 'ok ') + name + ' texts=' + texts.length +
                 ' bars=' + bars.length + (errs.length ? ': ' + errs.join('; ') : ''));
    } catch (e) {
      lines.push('FAIL ' + name + ': exception ' + e);
    }
  }
  document.getElementById('out').textContent = lines.join('\n') + '\nDONE';
})();
</script>
</body></html>
JS
} >"$page"

"$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --no-default-browser-check \
    --disable-extensions --user-data-dir="$tmp/profile" \
    --dump-dom "file://$page" >"$tmp/dom.html" 2>"$tmp/chrome.err"
rc=$?
result=$(sed -n '/<pre id="out">/,/DONE/p' "$tmp/dom.html" | sed 's/<pre id="out">//')
if [ $rc -ne 0 ] || ! printf '%s\n' "$result" | grep -q '^DONE'; then
    echo "FAIL browser: chromium did not finish the page (rc=$rc)"
    tail -5 "$tmp/chrome.err"
    echo "0 passed, 1 failed"
    exit 1
fi
pass=$(printf '%s\n' "$result" | grep -c '^ok ')
fail=$(printf '%s\n' "$result" | grep -c '^FAIL')
printf '%s\n' "$result" | grep '^FAIL' | sed 's/&quot;/"/g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g'
[ -n "${VERBOSE:-}" ] && printf '%s\n' "$result" | grep '^ok '
echo "browser: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq $# ]
