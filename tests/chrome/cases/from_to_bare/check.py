# --from 12 --to 16: a bare number is milliseconds; "c" starts at the edge, "i" ends at it.
from lib import *
from events import ORIGIN, EVENTS
m = model()
expect_sane()
expect_cut(EVENTS, 12000, 16000, ORIGIN)
done()
