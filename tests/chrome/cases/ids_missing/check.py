# Events without pid, without tid, or without either are still drawn, on
# lanes with a label.
from lib import *
m = model()
expect_sane()
expect_window(0, 25)
for n, t0 in (("nopid", 0), ("notid", 5), ("neither", 10), ("both", 15)):
    expect_span(n, t0, t0 + 10)
done()
