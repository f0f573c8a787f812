# A B/E stack 20 000 deep: the loader hands each pair over at its E, so
# the parents come after their children, by far more than the rows'
# reordering batch; each pair still gets the row of its depth (the six
# outermost drawn), and nothing is said about slices coming late.
from lib import *
m = model()
expect_sane()
lane = lane_matching(r"tid 1$")
expect(len(lane) == 1, "the stack's lane: %r" % labels())
for d in range(6):
    b = one_bar("level %d" % d)
    if b:
        expect(b["row"] == d and b["lane"] == lane[0], "level %d on row %d: %r" % (d, d, b))
expect(not bars("level 6"), "level 6 not drawn")
expect(any(re.search(r"19994 slices nested deeper", n) for n in m["notes"]), "the note: %r" % m["notes"])
expect_no_stderr(r"came long after")
done()
