# 15 categories drawn, more than the palette's colours: no two classes share
# a colour; those of the most drawn time keep their own, the rest are one
# grey "other" whose legend entry lists them (and whose SVG tooltip does),
# and a note says so (rules/chrome/colors.c).
from lib import *
m = model()
expect_sane()
legend = m["legend"]
colors = [e["color"] for e in legend]
expect(len(set(colors)) == len(colors), "one colour per legend entry: %r" % legend)
by_cat = {}
for c in m["categories"]:
    by_cat.setdefault(c["color"], set()).add(c.get("class", c["name"]))
expect(all(len(v) == 1 for v in by_cat.values()), "one class per colour: %r" % by_cat)
other = [e for e in legend if e["label"] == "other"]
expect(len(other) == 1, "one \"other\" entry")
held = other[0].get("holds", []) if other else []
# the smallest categories (drawn last, least time) are the grey ones
cats = ['loading', 'blink.user_timing,rail', 'v8', 'devtools.timeline', 'blink', 'cc', 'gpu',
        'netlog', 'toplevel', 'disabled-by-default-devtools.timeline', 'benchmark', 'renderer',
        'ipc', 'audio', 'media']
own = [e["label"] for e in legend if e["label"] != "other"]
expect(held and own and len(own) + len(held) == 15, "15 classes: %r + %r" % (own, held))
expect(set(own) == set(cats[:len(own)]), "the largest keep their colours: %r" % own)
expect(held == cats[len(own):], "\"other\" holds the rest, largest first: %r" % held)
expect(any("\"other\"" in n for n in m["notes"]), "a note says so: %r" % m["notes"])
svg = open(SVG_FILE).read() if SVG_FILE else ""
tip = svg[svg.find("<title>other:"):]
tip = tip[:tip.find("</title>")]
expect(tip and all(h in tip for h in held), "the SVG's \"other\" has a tooltip listing its classes")
done()
