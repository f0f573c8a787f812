# 5 events (0.5 %, 25 us of time) 3 days before the main run: left out,
# with a warning; the main run is the window.
from lib import *
m = model()
expect_sane()
expect_window(259200000000, 259200000000 + 99950)
expect(not bars("early 0"), "the far events are not drawn")
expect_stderr(r"warning.*\b5\b.*far from the rest")
done()
