# B/E nested 12 deep with --depth 12: every level on its own row, no note.
from lib import *
m = model()
expect_sane()
expect(m["lanes"][0]["rows"] == 12, "12 rows: %r" % m["lanes"])
for d in range(12):
    b = expect_span("level %d" % d, d * 10, 1000 - d * 10)
    if b:
        expect(b["row"] == d, "level %d on row %d" % (d, b["row"]))
expect(m["notes"] == [], "no notes: %r" % m["notes"])
done()
