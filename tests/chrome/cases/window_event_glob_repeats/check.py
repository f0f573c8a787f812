# --window-event GLOB --occurrence 2 where every match has one name (an
# NVTX range per step): the second in time, as with the name itself.
from lib import *
m = model()
expect_sane()
expect(m["window"]["start_us"] == 2000 and m["window"]["end_us"] == 2600,
       "the window is the second train_step: %s" % m["window"])
done()
