# --from 300us --to 900us: "b" and "h" clipped, "g" inside, "a" outside.
from lib import *
from events import ORIGIN, EVENTS
m = model()
expect_sane()
expect_cut(EVENTS, 300, 900, ORIGIN)
done()
