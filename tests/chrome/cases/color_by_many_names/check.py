# Forty names of equal time, one category: by name, but the eight names a
# legend could list would cover a fifth of the time, so there is no legend;
# a note says why, and every name keeps its own colour (not grey).
from lib import *
m = model()
expect_sane()
expect(m.get("color_by") == "name", "by name")
expect(m["legend"] == [], "no legend: %r" % m["legend"])
expect(any(re.search(r"legend left out: 40 names, the 8 largest cover 20 %", n) for n in m["notes"]),
       "the note: %r" % m["notes"])
fills = [f for _, f in svg_bars()]
expect("#DDDDDD" not in fills and len(set(fills)) >= 8, "own colours: %r" % sorted(set(fills)))
done()
