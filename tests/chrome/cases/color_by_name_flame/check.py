# A flame chart whose slices carry no category (clang -ftime-trace) is
# coloured by name by default: the names (as the bars show them) that take
# the most time get the palette's colours in order of time (at most 8, no
# two alike); the legend lists them, largest first, and "other" (grey) for
# the rest; never "(no category)".
from lib import *
PALETTE = ["#CC6677", "#332288", "#DDCC77", "#117733", "#88CCEE", "#882255",
           "#44AA99", "#999933", "#AA4499", "#4477AA", "#EE8866", "#BBCC33"]
def fnv1a(s):
    h = 2166136261
    for ch in s.encode("utf-8"):
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h
m = model()
expect_sane()
expect(m.get("color_by") == "name", "coloured by name: %r" % m.get("color_by"))
legend = [e["label"] for e in m["legend"]]
expect("(no category)" not in legend, "no (no category): %r" % legend)
expect(legend[0] == "ExecuteCompiler", "the largest first: %r" % legend)
names = [l for l in legend if l != "other"]
expect(len(names) >= 5, "at least five names listed: %r" % legend)
colors = [e["color"].upper() for e in m["legend"] if e["label"] != "other"]
expect(len(set(colors)) == len(colors), "one colour per listed name: %r" % m["legend"])
for k, e in enumerate(x for x in m["legend"] if x["label"] != "other"):
    expect(e["color"].upper() == PALETTE[k],
           "%s is %s, want the palette's colour %d, %s" % (e["label"], e["color"], k, PALETTE[k]))
# Largest first: the time each listed name takes never grows down the list.
time = {}
for b in m["bars"]:
    if b["merged"] == 0:
        time[b["name"]] = time.get(b["name"], 0) + b["x1"] - b["x0"]
ts = [time.get(n, 0) for n in names]
expect(ts == sorted(ts, reverse=True), "largest first: %r" % list(zip(names, ts)))
# Every bar's fill: its name's colour when listed, grey when not.
fill_of = {e["label"]: e["color"].upper() for e in m["legend"]}
for title, fill in svg_bars():
    name = title.split(" \u00b7 ")[0]
    short = "run" if name.startswith("void ns::") else name
    want = fill_of.get(short, "#DDDDDD")
    expect(fill == want, "%s filled %s, want %s" % (name, fill, want))
# The same name on another lane: the same colour (the short name counts).
fr = [f for t, f in svg_bars() if t.startswith("Frontend ")]
expect(len(set(fr)) == 1, "Frontend one colour: %r" % fr)
expect(labels() == ["clang / tid 1", "clang / tid 2"], "the summaries hidden: %r" % labels())
done()
