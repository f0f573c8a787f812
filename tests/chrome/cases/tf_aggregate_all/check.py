# --all-lanes: the aggregate "stream:all" lanes are drawn too, no note.
from lib import *
m = model()
expect_sane()
expect(sum("stream:all" in l for l in labels()) >= 1, "stream:all drawn: %r" % labels())
expect(len(bars("MatMul")) == 3 and len(bars("Conv2D")) == 2, "bars %r" % [b["name"] for b in m["bars"]])
expect(not any("--all-lanes" in n for n in m["notes"]), "no note: %r" % m["notes"])
done()
