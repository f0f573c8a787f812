# --from 1.2s --to 1.5s: "e" starts at the left edge (not clipped), "j" and "f" cross the edges.
from lib import *
from events import ORIGIN, EVENTS
m = model()
expect_sane()
expect_cut(EVENTS, 1200000, 1500000, ORIGIN)
done()
