# --from 450000ns --to 1200000ns: "g" starts at the left edge, "h" inside.
from lib import *
from events import ORIGIN, EVENTS
m = model()
expect_sane()
expect_cut(EVENTS, 450, 1200, ORIGIN)
done()
