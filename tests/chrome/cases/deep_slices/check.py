# B/E nested 12 deep (clang -ftime-trace goes 10+): by default 6 rows are
# drawn, and a note says the 6 slices nested deeper are not.
from lib import *
m = model()
expect_sane()
expect(m["lanes"][0]["rows"] == 6, "6 rows: %r" % m["lanes"])
for d in range(12):
    bs = bars("level %d" % d)
    if d < 6:
        if expect(len(bs) == 1, "level %d drawn" % d):
            expect(bs[0]["row"] == d and near(bar_us(bs[0])[0], d * 10) and near(bar_us(bs[0])[1], 1000 - d * 10),
                   "level %d: %r" % (d, bs[0]))
    else:
        expect(not bs, "level %d not drawn" % d)
expect(any(re.search(r"\b6\b.*(deeper|nested)", n) for n in m["notes"]), "a note: %r" % m["notes"])
done()
