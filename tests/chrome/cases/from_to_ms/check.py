# --from 12.5ms --to 20ms, from the first event: "c" and "d" cross the edges (clipped), "long" crosses both, "i" is inside.
from lib import *
from events import ORIGIN, EVENTS
m = model()
expect_sane()
expect_cut(EVENTS, 12500, 20000, ORIGIN)
done()
