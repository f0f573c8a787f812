# --color-by name with several categories: the names, largest first.
from lib import *
m = model()
expect_sane()
expect(m.get("color_by") == "name", "by name")
lg = [e["label"] for e in m["legend"]]
expect(lg[:3] == ["a", "k", "b"] and "tick" in lg, "legend %r" % lg)
done()
