# Integers beyond 64 bits (and numbers beyond double range) in args: args
# are shown, not computed with, so the trace loads and both slices draw.
from lib import *
m = model()
expect_sane()
expect_window(100, 125)
expect_span("alloc", 0, 10)
expect_span("free", 20, 25)
done()
