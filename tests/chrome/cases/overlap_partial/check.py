# Two slices on one thread that overlap without nesting (they exist in real
# traces): both are drawn, in different rows; a later slice is back on row 0.
from lib import *
m = model()
expect_sane()
a, b, c = one_bar("A"), one_bar("B"), one_bar("C")
if a and b and c:
    expect(a["lane"] == b["lane"], "same lane")
    expect(a["row"] != b["row"], "different rows: %r %r" % (a, b))
    expect(c["row"] == 0, "C on row 0: %r" % c)
    expect_span("A", 0, 60)
    expect_span("B", 40, 100)
done()
