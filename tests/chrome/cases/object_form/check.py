# An object with traceEvents: the chrome mode, its window from the first
# event to the last end, one lane per thread, X events as slices.
from lib import *
m = model()
expect_sane()
expect(m["schema"] == "tracefig-figure-2", "schema %r" % m.get("schema"))
expect(m["mode"] == "chrome", "mode %r" % m["mode"])
expect_window(1000, 2000)
expect(labels() == ["Renderer / Main", "Renderer / tid 12"], "lanes %r" % labels())
lanes = m["lanes"]
expect(lanes[0]["pid"] == 1 and lanes[0]["tid"] == 11, "lane 0 ids %r" % lanes[0])
expect(lanes[1]["pid"] == 1 and lanes[1]["tid"] == 12, "lane 1 ids %r" % lanes[1])
expect_span("parse", 0, 400, lane=0, shape="slice")
expect_span("layout", 500, 800, lane=0, shape="slice")
expect_span("paint", 200, 1000, lane=1, shape="slice")
expect(all(b["row"] == 0 and not b["clip_left"] and not b["clip_right"] for b in m["bars"]),
       "no nesting, no clipping: %r" % m["bars"])
expect(sorted(c["name"] for c in m["categories"]) == ["cpu", "gpu"], "categories %r" % m["categories"])
expect(len({c["color"] for c in m["categories"]}) == 2, "two colours %r" % m["categories"])
expect(all(re.match(r"^#[0-9A-Fa-f]{6}$", c["color"]) for c in m["categories"]), "colours")
expect(m["arrows"] == [] and m["notes"] == [], "no arrows, no notes")
done()
