# cname (Chrome's reserved colour names) colours a slice: "terrible" and
# "good" differ from the category's colour and from each other, the same
# cname gives the same colour; an unknown cname is ignored; a --color rule
# wins over cname.  (Colours by category: the one category would colour by
# name by default.)
from lib import *
m = model()
expect_sane()
cat = {c["name"]: c["color"].upper() for c in m["categories"]}.get("work")
t1, t2, g = svg_fill("bad one"), svg_fill("bad two"), svg_fill("good one")
expect(t1 == t2 and t1 != cat, "terrible: %r %r, category %r" % (t1, t2, cat))
expect(g != cat and g != t1, "good: %r" % g)
# trace-viewer's own values for the two names
expect(t1.upper() == "#B40000", "terrible is %r, trace-viewer draws #B40000" % t1)
expect(g.upper() == "#007D00", "good is %r, trace-viewer draws #007D00" % g)
expect(svg_fill("plain") == cat, "plain %r" % svg_fill("plain"))
expect(svg_fill("odd") == cat, "unknown cname %r" % svg_fill("odd"))
expect(svg_fill("ruled") == "#123456", "--color beats cname: %r" % svg_fill("ruled"))
done()
