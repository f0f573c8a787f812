#!/bin/sh
# Busy shares: run.sh TRACEFIG
#
# Each case of gen.py (a dense GPU stream with memcpys, a mixed stream whose
# first slice is a rare category, a dense CPU flame chart) is drawn as the
# JSON model, SVG, PNG, PDF and TikZ (compiled with pdflatex), and
# inked.py reads back what each drew: per class, the ink (span x share in
# the model, the paths' areas in the SVG, pixels in the PNG and in the PDFs
# rasterised by pdftoppm) matches the time its slices cover within 5 %.
# Then the level of detail is decided once: one trace, a figure of several
# traces and a figure of per-trace models give the same share bars for the
# same lanes at the same size.  Palette files (--palette-out, --palette)
# keep shared names in one colour across two figures, and bad ones fail
# located; figures with share bars have the legend key.  Lone thin slices
# (issue 38): each lane's ink in PNG and PDF pixels, coverage-weighted,
# within 25 % of its busy time, every lone slice still seen; the same on
# ../shared/real-traces (SKIP without).  Back-ends whose tool is missing
# (cairo, pdflatex, pdftoppm) print SKIP.  Ends with "busy: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-busy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/out" ] && sed 's/^/    /' "$tmp/out"; }
check() { # NAME COMMAND...: passes when COMMAND exits 0
    name=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then ok "$name"; else bad "$name"; fi
}
size="--width 6in --height 3in"
have_cairo=
"$bin" --help 2>&1 | grep -q 'png .*cairo' && have_cairo=1
for c in gpu mixed flame; do
    d=$tmp/$c
    mkdir -p "$d"
    "$py" "$here/gen.py" $c "$d"
    (
        cd "$d" || exit 1
        # shellcheck disable=SC2086
        "$bin" trace.json --format json -o m.json $size
    ) || { bad "$c/model"; continue; }
    m=$d/m.json
    e=$d/expect.json
    check "$c/json" "$py" "$here/inked.py" json "$m" "$m" "$e"
    # shellcheck disable=SC2086
    "$bin" "$d/trace.json" -o "$d/f.svg" $size 2>/dev/null
    check "$c/svg" "$py" "$here/inked.py" svg "$d/f.svg" "$m" "$e"
    check "$c/svg data-busy" grep -q 'data-busy="{' "$d/f.svg"
    if [ -n "$have_cairo" ]; then
        # shellcheck disable=SC2086
        "$bin" "$d/trace.json" -o "$d/f.png" $size --dpi 400 2>/dev/null
        check "$c/png" "$py" "$here/inked.py" png "$d/f.png" "$m" "$e"
        if command -v pdftoppm >/dev/null 2>&1; then
            # shellcheck disable=SC2086
            "$bin" "$d/trace.json" -o "$d/c.pdf" $size 2>/dev/null
            pdftoppm -r 400 "$d/c.pdf" "$d/c"
            check "$c/pdf" "$py" "$here/inked.py" ppm "$d/c-1.ppm" "$m" "$e"
        else
            echo "SKIP $c/pdf (no pdftoppm)"
        fi
    else
        echo "SKIP $c/png $c/pdf (built without cairo)"
    fi
    if command -v pdflatex >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        # The fragment in a plain article; slices' edges left out (black!60,
        # not the class's shade), as they are no one's time.
        "$bin" "$d/trace.json" --format tikz -o "$d/fig.tex" $size 2>/dev/null
        printf '%s\n' '\documentclass{article}' '\usepackage{tikz}' \
            '\usepackage[margin=0.5in]{geometry}' '\pagestyle{empty}' '\begin{document}' \
            '\tikzset{tracefig/flame/.style={draw=none}}' '\input{fig.tex}' '\end{document}' \
            >"$d/t.tex"
        if (cd "$d" && pdflatex -interaction=batchmode -halt-on-error t.tex >/dev/null 2>&1); then
            pdftoppm -r 400 "$d/t.pdf" "$d/t"
            check "$c/tikz" "$py" "$here/inked.py" ppm "$d/t-1.ppm" "$m" "$e"
        else
            : >"$tmp/out"
            bad "$c/tikz (pdflatex failed)"
        fi
    else
        echo "SKIP $c/tikz (no pdflatex or pdftoppm)"
    fi
done
# The first slice is rare: the bars take each bin's largest class, and
# the legend lists every class with ink.
check "mixed/first slice rare" "$py" - "$tmp/mixed/m.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
dense = [b for b in m["bars"] if b["shape"] == "dense" and b["lane"] == 0]
assert dense, "no dense bars"
kern = sum(1 for b in dense if b["category"] == "kernel")
assert kern >= 0.95 * len(dense), "%d of %d dense bars are kernels" % (kern, len(dense))
assert all(max(b["busy"], key=b["busy"].get) == b["category"] for b in dense), "largest class"
leg = [l["label"] for l in m["legend"]]
for k in ("kernel", "gpu_memcpy", "gpu_memset"):
    assert k in leg, "%s not in the legend %r" % (k, leg)
PY
# Decided once: the same lanes at the same size (labels above the lanes, so
# that every figure has the plot the same width), from one trace, from two
# traces drawn together, and from the two traces' models: the same share
# bars (the models' shares are rounded to 6 decimals).
d=$tmp/gpu
cp "$d/trace.json" "$d/b.json"
same="--width 6in --height 3in --labels above"
# shellcheck disable=SC2086
"$bin" "$d/trace.json" -o "$d/one.svg" $same 2>/dev/null
# shellcheck disable=SC2086
"$bin" "$d/trace.json" "$d/b.json" -o "$d/two.svg" $same 2>/dev/null
"$bin" "$d/trace.json" --format json -o "$d/ma.json" 2>/dev/null
"$bin" "$d/b.json" --format json -o "$d/mb.json" 2>/dev/null
# shellcheck disable=SC2086
"$bin" "$d/ma.json" "$d/mb.json" -o "$d/models.svg" $same 2>/dev/null
check "gpu/one trace, two traces and two models alike" "$py" - "$d/one.svg" "$d/two.svg" \
    "$d/models.svg" <<'PY'
import re, sys
def xs(d):
    """The x of every corner of path data (absolute or relative)."""
    out, x, sx = [], 0.0, 0.0
    for cmd, args in re.findall(r"([MLHVZmlhvz])([^MLHVZmlhvz]*)", d):
        v = [float(a) for a in re.findall(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)", args)]
        if cmd in "Mm":
            x = (x if cmd == "m" else 0) + v[0]
            sx = x
        elif cmd in "Hh":
            x = (x if cmd == "h" else 0) + v[-1]
        elif cmd in "Ll":
            x = (x if cmd == "l" else 0) + v[-2]
        elif cmd in "Zz":
            x = sx
        out.append(x)
    return out
def bars(p):
    t = open(p).read()
    out = []
    for busy, d in re.findall(r'data-busy="([^"]*)">\s*<title>[^<]*</title>\s*<path d="([^"]*)"', t):
        out.append(([float(v) for v in re.findall(r"[0-9.]+", busy.replace("&quot;", ""))],
                    [min(xs(d)), max(xs(d))]))
    return out
def alike(a, b):
    return len(a) == len(b) and all(
        len(x[0]) == len(y[0]) and all(abs(u - v) <= 2e-4 for u, v in zip(x[0], y[0])) and
        all(abs(x[1][k] - y[1][k]) <= 0.02 for k in (0, 1)) for x, y in zip(a, b))
one, two, models = (bars(p) for p in sys.argv[1:4])
assert one, "no share bars"
assert len(two) == 2 * len(one), "%d share bars alone, %d for two" % (len(one), len(two))
assert alike(one, two[:len(one)]), "the first trace's bars differ from its own figure's"
assert alike(two, models), "%d share bars from the traces, %d from the models" % (len(two), len(models))
PY
# Colours that follow the time (--color-by name): numbered names are one
# class ("ProfilerStep#*", "layer.*.mlp"), the classes with most time get
# the palette's colours in order, no two legend entries alike, only "other"
# grey; names whose hashes collide each keep a colour of their own.
mkdir -p "$tmp/names"
"$py" "$here/gen.py" names "$tmp/names"
"$bin" "$tmp/names/trace.json" --color-by name --lanes 'python*' --format json \
    -o "$tmp/names/m.json" 2>/dev/null
check "names/classes in order of time" "$py" - "$tmp/names/m.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
leg = [(e["label"], e["color"].upper()) for e in m["legend"]]
labels = [l for l, _ in leg]
assert labels[:2] == ["ProfilerStep#*", "layer.*.mlp"], labels
for n in ("Frontend", "Backend", "SyncChannel::SendWithTimeout", "SomeSlice"):
    assert n in labels, "%s not in the legend %r" % (n, labels)
colors = [c for _, c in leg]
assert len(set(colors)) == len(colors), "two entries share a colour: %r" % leg
assert all(c != "#DDDDDD" for l, c in leg if l != "other"), leg
PY
# More names than a legend holds (issue 38): the legend is left out, and
# the model still names each class once, in each dense bar's "busy" and in
# "categories", read with duplicate keys refused (its classes those the
# bars' "busy" name); tracefig reads the model back to the same model.
mkdir -p "$tmp/many"
"$py" "$here/gen.py" manynames "$tmp/many"
"$bin" "$tmp/many/trace.json" --color-by name --format json -o "$tmp/many/m.json" 2>/dev/null
# (its reader refuses repeated keys too)
check "manynames/tracefig reads its model back" "$bin" "$tmp/many/m.json" --format json \
    -o "$tmp/many/m2.json"
check "manynames/one key per class, duplicate keys refused" "$py" - "$tmp/many/m.json" \
    "$tmp/many/m2.json" <<'PY'
import json, sys
def strict(pairs):
    keys = [k for k, _ in pairs]
    dup = sorted(set(k for k in keys if keys.count(k) > 1))
    if dup:
        raise ValueError("repeated keys %r" % dup[:5])
    return dict(pairs)
m, m2 = (json.load(open(p), object_pairs_hook=strict) for p in sys.argv[1:3])
assert not m["legend"] and any("legend left out" in n for n in m["notes"]), m["notes"]
classes = [c.get("class", c["name"]) for c in m["categories"]]
assert len(classes) == len(set(classes)), "a class listed twice: %r" % classes
dense = [b for b in m["bars"] if b["shape"] == "dense"]
assert dense, "no dense bars"
keys = set(k for b in dense for k in b["busy"])
assert keys <= set(classes), "busy names classes not listed: %r" % sorted(keys - set(classes))[:5]
assert len(keys) >= 100, "%d classes in busy, want one per name" % len(keys)
assert m2["bars"] == m["bars"] and m2["categories"] == m["categories"], "the model read back differs"
PY
# Palette files (--palette-out, --palette): two figures of different traces
# that share names; the second, read with the first's table, draws the
# shared names in the first's colours and its own names in others.
pal=$tmp/palette
mkdir -p "$pal"
"$py" - "$pal" <<'PY'
import json, sys
def trace(path, slices):
    ev, t = [], 0
    for name, dur in slices:
        ev.append({"name": name, "ph": "X", "ts": t, "dur": dur, "pid": 1, "tid": 1, "cat": "op"})
        t += dur + 5
    json.dump({"traceEvents": ev}, open(path, "w"))
trace(sys.argv[1] + "/a.json", [("alpha", 100), ("beta", 50), ("gamma", 30), ("alpha", 100)])
trace(sys.argv[1] + "/b.json", [("delta", 300), ("gamma", 200), ("beta", 10), ("alpha", 5), ("eps", 80)])
PY
check "palette/out" "$bin" "$pal/a.json" --color-by name --palette-out "$pal/a.pal" \
    -o "$pal/a.svg" --format json
check "palette/format" "$py" - "$pal/a.pal" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().decode().split("\n")
assert lines[0] == "# tracefig palette: #RRGGBB<TAB>CLASS, one a line", lines[0]
assert lines[1:] == ["#CC6677\talpha", "#332288\tbeta", "#DDCC77\tgamma", ""], lines
PY
check "palette/in" "$bin" "$pal/b.json" --color-by name --palette "$pal/a.pal" \
    --palette-out "$pal/b.pal" -o "$pal/b.json.out" --format json
check "palette/shared names keep their colours" "$py" - "$pal/a.svg" "$pal/b.json.out" <<'PY'
import json, sys
def colours(path):
    m = json.load(open(path))
    return {e["label"]: e["color"].upper() for e in m["legend"]}
a, b = colours(sys.argv[1]), colours(sys.argv[2])
for n in ("alpha", "beta", "gamma"):
    assert a[n] == b[n], (n, a[n], b[n])
new = [b[n] for n in ("delta", "eps")]
assert len(set(new)) == 2 and not set(new) & set(a.values()), (a, b)
PY
"$bin" "$pal/a.json" --color-by name -o "$pal/a0.svg" 2>/dev/null
"$bin" "$pal/b.json" --color-by name --palette "$pal/a.pal" -o "$pal/b.svg" 2>/dev/null
check "palette/svg fills" "$py" - "$pal/a0.svg" "$pal/b.svg" <<'PY'
import re, sys
def fills(path):
    s = open(path).read()
    out = {}
    for g in re.finditer(r'<g class="tf-bar[^"]*"[^>]*>(.*?)</g>', s, re.S):
        name = re.search(r'<title>([a-z]+)', g.group(1))
        fill = re.search(r'fill="(#[0-9A-Fa-f]{6})"', g.group(1))
        if name and fill:
            out.setdefault(name.group(1), set()).add(fill.group(1).upper())
    return out
a, b = fills(sys.argv[1]), fills(sys.argv[2])
assert a and b, "no bars read"
for n in ("alpha", "beta", "gamma"):
    assert a[n] == b[n], (n, a[n], b[n])
PY
check "palette/round trip" sh -c '"$1" "$2/a.json" --color-by name --palette "$2/a.pal" \
    --palette-out "$2/a2.pal" -o "$2/a2.svg" && cmp "$2/a.pal" "$2/a2.pal" &&
    "$1" "$2/a.json" --color-by name -o "$2/a1.svg" && cmp "$2/a1.svg" "$2/a2.svg"' sh "$bin" "$pal"
# category colouring and several traces in one figure share the table
check "palette/categories" sh -c '"$1" "$2/a.json" --color-by category --palette-out "$2/c.pal" \
    -o "$2/c.svg" && grep -q "^#......	op\$" "$2/c.pal" &&
    printf "#123456\top\n" >"$2/c2.pal" &&
    "$1" "$2/a.json" --color-by category --palette "$2/c2.pal" -o - --format json |
    grep -q "\"#123456\""' sh "$bin" "$pal"
check "palette/several traces" sh -c '"$1" "$2/a.json" "$2/b.json" --color-by name \
    --palette "$2/a.pal" --palette-out "$2/ab.pal" -o "$2/ab.svg" &&
    grep -q "^#CC6677	alpha\$" "$2/ab.pal"' sh "$bin" "$pal"
check "palette/several traces: one class, one colour" sh -c '"$1" "$2/a.json" "$2/b.json" \
    --color-by name --format json -o - | "$3" -c "
import json, sys
leg = [(e[\"label\"], e[\"color\"]) for e in json.load(sys.stdin)[\"legend\"]]
labels = [l for l, _ in leg]
assert sorted(labels) == [\"alpha\", \"beta\", \"delta\", \"eps\", \"gamma\"], leg
assert len(set(c for _, c in leg)) == len(leg), leg
assert leg[labels.index(\"delta\")][1] == \"#CC6677\", leg  # the most time of both
"' sh "$bin" "$pal" "$py"
# bad palettes: one located line, exit 1, nothing written, nothing clobbered
printf '# ok\n#12345G\tfoo\n' >"$pal/bad.pal"
cp "$pal/a.svg" "$pal/keep.svg"
"$bin" "$pal/a.json" --palette "$pal/bad.pal" -o "$pal/keep.svg" --palette-out "$pal/no.pal" \
    >"$tmp/err" 2>&1
rc=$?
check "palette/bad file fails located" sh -c '[ "$1" -eq 1 ] &&
    [ "$(wc -l <"$2")" -eq 1 ] && grep -q "^tracefig: .*bad.pal:2:7: expected a colour" "$2"' sh "$rc" "$tmp/err"
check "palette/bad file writes nothing" sh -c '[ ! -e "$1/no.pal" ] && cmp "$1/a.svg" "$1/keep.svg"' \
    sh "$pal"
i=0
for b in '#123456 tab' '#123456\tx\n#000000\tx' 'red\tx' '#123456\t' '#123456\ta\\qb'; do
    i=$((i + 1))
    printf "$b\n" >"$pal/b2.pal"
    "$bin" "$pal/a.json" --palette "$pal/b2.pal" -o "$pal/z.svg" >"$tmp/err" 2>&1
    rc=$?
    check "palette/bad file $i" sh -c '[ "$1" -eq 1 ] && grep -q "b2.pal:[0-9]*:[0-9]*: " "$2" &&
        [ ! -e "$3" ]' sh "$rc" "$tmp/err" "$pal/z.svg"
done
# The key to share bars: in the legend of a figure with share bars (every
# back-end), and in no other.
"$bin" "$tmp/gpu/trace.json" -o "$pal/k.svg" -o "$pal/k.tex" $size 2>/dev/null
check "share key/svg" grep -q '>busy share of 1 pt<' "$pal/k.svg"
check "share key/tikz" grep -q 'tracefiglegendentry{share key}{busy share of 1 pt}' "$pal/k.tex"
check "share key/none without share bars" sh -c '! grep -q "busy share" "$1"' sh "$pal/a0.svg"
if [ -n "$have_cairo" ] && command -v pdftotext >/dev/null 2>&1; then
    "$bin" "$tmp/gpu/trace.json" -o "$pal/k.pdf" $size 2>/dev/null
    check "share key/pdf" sh -c 'pdftotext "$1" - | grep -q "busy share of 1 pt"' sh "$pal/k.pdf"
else
    echo "SKIP share key/pdf (no cairo or pdftotext)"
fi
# Counter tracks are thinned once, by the plan at the plot's real width:
# a track of 40 000 samples draws at most four steps per point of the
# plot (fewer at 3 in than at 8 in), while the model keeps the same fine
# samples at any width; the trace alone and its model give the same line.
d=$tmp/counter
mkdir -p "$d"
"$py" - "$d/trace.json" <<'PY'
import json, math, sys
ev = [{"ph": "C", "name": "load", "pid": 1, "ts": 1000 + 25 * i,
       "args": {"value": round(50 + 40 * math.sin(i / 300.0) + (i * 7919 % 13), 3)}}
      for i in range(40000)]
ev.append({"ph": "X", "name": "work", "cat": "c", "pid": 1, "tid": 1, "ts": 1000, "dur": 999975})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
for w in 3in 8in; do
    "$bin" "$d/trace.json" --width $w --labels above -o "$d/w$w.svg" -o "$d/w$w.json" 2>/dev/null
done
"$bin" "$d/trace.json" --width 8in --labels above -o "$d/model.json" 2>/dev/null
"$bin" "$d/model.json" --width 8in --labels above -o "$d/from-model.svg" 2>/dev/null
check "counter/thinned at the plot's width, the model's samples at any width" "$py" - "$d" <<'PY'
import json, re, sys
d = sys.argv[1]
def steps(path):
    svg = open(path).read()
    m = re.search(r'class="tf-counter-line" d="([^"]*)"', svg)
    assert m, "no counter line in " + path
    return len(re.findall(r"[HV]", m.group(1))), svg
n3, _ = steps(d + "/w3in.svg")
n8, _ = steps(d + "/w8in.svg")
m3 = json.load(open(d + "/w3in.json"))
m8 = json.load(open(d + "/w8in.json"))
s3 = [l["samples"] for l in m3["lanes"] if l["kind"] == "counter"][0]
s8 = [l["samples"] for l in m8["lanes"] if l["kind"] == "counter"][0]
assert s3 == s8, "the model's samples depend on --width: %d and %d" % (len(s3), len(s8))
assert n3 < n8 < len(s8), "steps drawn: %d at 3in, %d at 8in, %d in the model" % (n3, n8, len(s8))
# at most four samples (eight H/V moves) per point of an 8 in plot
assert n8 <= 8 * 8 * 72, "%d steps at 8in" % n8
PY
if cmp -s "$d/w8in.svg" "$d/from-model.svg" ||
    [ "$(grep -o 'class="tf-counter-line" d="[^"]*"' "$d/w8in.svg")" = "$(grep -o 'class="tf-counter-line" d="[^"]*"' "$d/from-model.svg")" ]; then
    ok "counter/the trace and its model draw the same line"
else
    bad "counter/the trace and its model draw the same line"
fi
# Instants too are merged once, by the plan at its width: 500 of them 2 ms
# apart in a 1 s window are 500 in the model at any width, drawn one by
# one on an 8 in plot (1.7 ms a point) and merged on a 3 in one, a tick per
# point or so (each spans at most two), never one tick over the window.
d=$tmp/instants
mkdir -p "$d"
"$py" - "$d/trace.json" <<'PY'
import json, sys
ev = [{"ph": "i", "s": "t", "name": "tick", "cat": "mark", "pid": 1, "tid": 1, "ts": 1000 + 2000 * i}
      for i in range(500)]
ev.append({"ph": "X", "name": "work", "cat": "c", "pid": 1, "tid": 1, "ts": 1000, "dur": 1000000})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
for w in 3in 8in; do
    "$bin" "$d/trace.json" --width $w --labels above -o "$d/w$w.svg" -o "$d/w$w.json" 2>/dev/null
done
check "instants/merged at the plot's width, the model's at any width" "$py" - "$d" <<'PY'
import json, re, sys
d = sys.argv[1]
def model(w):
    return sum(1 for b in json.load(open("%s/w%s.json" % (d, w)))["bars"] if b["shape"] == "instant")
def drawn(w):
    svg = open("%s/w%s.svg" % (d, w)).read()
    return svg.count("<title>tick"), svg.count(" instants \u00b7")
assert model("3in") == model("8in") == 500, (model("3in"), model("8in"))
one3, merged3 = drawn("3in")
one8, merged8 = drawn("8in")
assert (one8, merged8) == (500, 0), "8in: %d single, %d merged" % (one8, merged8)
assert merged3 >= 1 and one3 + merged3 < 500, "3in: %d single, %d merged" % (one3, merged3)
# the merged ticks ("N CLASS instants · at X ms over W ms"): each within two
# points of a plot under 3 in (a point is over 4.6 ms), about one per point
svg = open("%s/w3in.svg" % d).read()
wide = [float(w) for w in re.findall(r" instants \u00b7 at [0-9.]+ ms over ([0-9.]+) ms", svg)]
assert wide and max(wide) < 10.0, "a merged tick over %s ms" % max(wide)
assert len(wide) + one3 >= 100, "3in: %d ticks in all" % (len(wide) + one3)
PY
# Lone thin slices (issue 38): a slice far thinner than a point, alone in
# its bins, is drawn its share of the bin high (at least the floor), not a
# full-height mark a hundred times its time.  Each lane's ink in the PNG at
# 300 dpi (and in the PDF rasterised at 300 dpi), each pixel counted by how
# much of it a class colour covers, is within 25 % of its busy time, at a
# column's width and at 6 in; and every lone slice is still seen.
d=$tmp/lone
mkdir -p "$d"
"$py" "$here/gen.py" lone "$d"
"$py" - "$d/lone.json" >"$d/lone.sh" <<'PY'
import json, shlex, sys
for label, ms in sorted(json.load(open(sys.argv[1])).items()):
    print("lone_seen %s %s" % (shlex.quote(label), " ".join(repr(v) for v in ms)))
PY
lone_seen() { # LABEL MS...: each lone slice of that lane seen in $d/$w.png
    check "lone/$w/$1 every lone slice seen" "$py" "$here/inked.py" seen "$d/$w.png" "$d/$w.svg" \
        "$d/$w.json" "$@"
}
if [ -n "$have_cairo" ]; then
    for w in column 6in; do
        sz=
        [ "$w" = 6in ] && sz=$size
        # shellcheck disable=SC2086
        "$bin" "$d/trace.json" --dpi 300 $sz -o "$d/$w.png" -o "$d/$w.svg" -o "$d/$w.json" \
            -o "$d/$w.pdf" 2>/dev/null
        check "lone/$w/png ink within 25 % of busy, lane by lane" "$py" "$here/inked.py" lanes \
            "$d/$w.png" "$d/$w.svg" "$d/$w.json"
        if command -v pdftoppm >/dev/null 2>&1; then
            pdftoppm -r 300 "$d/$w.pdf" "$d/$w-pdf"
            check "lone/$w/pdf ink within 25 % of busy, lane by lane" "$py" "$here/inked.py" \
                lanes "$d/$w-pdf-1.ppm" "$d/$w.svg" "$d/$w.json"
        else
            echo "SKIP lone/$w/pdf (no pdftoppm)"
        fi
        # shellcheck disable=SC1090
        . "$d/lone.sh"
    done
else
    echo "SKIP lone (built without cairo)"
fi
# The same measure on real traces with GPU lanes: every lane busy at least
# 1 % of the window inked within 25 % of its busy time, the others seen.
real=$(cd "$here/../.." && pwd)/../shared/real-traces
if [ -n "$have_cairo" ] && [ -d "$real" ]; then
    for t in hta-dist-rank0.json.gz hta-dist-rank1.json.gz hta-amd-mi250.json.gz \
        hta-simple-add.pt.trace.json.gz hta-diff-control.json.gz hta-diff-test.json.gz \
        hta-mtia-inference.json.gz kineto-resnet50-nw0.pt.trace.json.gz tf1-timeline.ctf.json \
        nsys/fuser-2024-report1.sqlite nsys/recon-2023-report3.sqlite \
        nsys/testcuda-2026-report1.sqlite; do
        [ -e "$real/$t" ] || continue
        n=$tmp/real-$(basename "$t")
        if "$bin" "$real/$t" --dpi 300 -o "$n.png" -o "$n.svg" -o "$n.json" 2>/dev/null &&
            "$py" "$here/inked.py" lanes "$n.png" "$n.svg" "$n.json" >"$n.txt" 2>&1; then
            ok "real/$t ink within 25 % of busy, lane by lane"
        else
            fail=$((fail + 1))
            echo "FAIL real/$t ink within 25 % of busy, lane by lane"
        fi
        grep '^lane' "$n.txt" | sed 's/^/    /'
    done
else
    echo "SKIP real traces' lanes (no ../shared/real-traces, or built without cairo)"
fi
echo "busy: $pass passed, $fail failed"
[ $fail -eq 0 ]
