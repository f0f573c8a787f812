# --from/--to count from the session's start (time 0 of the export), not
# from the first event (100 ms).
from lib import *
m = model()
expect_sane()
expect_window(130000, 150000)
expect_span("forward", 1000, 9000)
b = one_bar("load_batch")
expect(b is not None, "the second load_batch")
done()
