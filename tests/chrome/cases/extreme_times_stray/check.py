# 400 events at ts = 3.9e15 us and one at -3.9e15 us, 7.8e18 ns before
# them: the main run is found and the far event left out with a warning,
# the gap and its comparisons held in int64_t.
from lib import *
m = model()
expect_sane()
expect_window(3900000000000000, 3900000000039950)
expect(not bars("stray"), "the far event is not drawn")
expect_stderr(r"warning.*\b1\b.*(far|clock|left out)")
done()
