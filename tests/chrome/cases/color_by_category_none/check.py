# --color-by category on slices without categories: one colour; the legend
# would say only "(no category)", so it is left out, with a note.
from lib import *
m = model()
expect_sane()
expect(m["legend"] == [], "no legend: %r" % m["legend"])
expect(any("legend left out" in n for n in m["notes"]), "a note: %r" % m["notes"])
expect(len(set(f for _, f in svg_bars())) == 1, "one colour")
expect("color_by" not in m, "by category: %r" % m.get("color_by"))
done()
