# displayTimeUnit "ms" (after the events): timestamps are still
# microseconds; nanosecond fractions survive.
from lib import *
m = model()
expect_sane()
expect_window(5000.001, 17000.251, tol=1e-12)
expect_span("step", 0, 12000.25, tol=1e-9)
b = one_bar("sub")
if b:
    x0, x1 = bar_us(b)
    expect(abs(x0 - 1000.001) < 1e-6 and abs(x1 - 1000.002) < 1e-6, "sub at %r..%r us" % (x0, x1))
done()
