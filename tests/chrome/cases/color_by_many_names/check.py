# Forty names of equal time that differ only in their numbers ("task 0" ..
# "task 39"), one category: by name, and one colour class, "task *", listed
# in the legend in the palette's first colour (not grey).
from lib import *
m = model()
expect_sane()
expect(m.get("color_by") == "name", "by name")
expect([e["label"] for e in m["legend"]] == ["task *"], "one class: %r" % m["legend"])
fills = [f for _, f in svg_bars()]
expect(set(fills) == {"#CC6677"}, "one colour, the palette's first: %r" % sorted(set(fills)))
done()
