# ts and dur are microseconds with nanosecond digits, on an epoch clock
# (16 digits before the point); displayTimeUnit "ns" only says how to show
# them.  Every nanosecond digit must survive in the bars (relative to the
# window start); the window's start_us itself is a JSON number that a
# double reads to within 0.25 us at this magnitude.
from lib import *
m = model()
expect_sane()
w = m["window"]
expect(abs(w["start_us"] - 1682725897226747.125) <= 0.25, "start_us %r" % w)
expect(abs(w["end_us"] - 1682725897226754.125) <= 0.25, "end_us %r" % w)
expect_span("k1", 0, 2.5, tol=1e-9)
expect_span("k2", 2.876, 3.875, tol=1e-9)
expect_span("k3", 5.375, 7.0, tol=1e-9)
done()
