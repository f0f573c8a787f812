# --window-event GLOB --occurrence 2 with Kineto's copies: a step's GPU
# annotation (the same name, starting inside the host's) is that step
# again, so the second occurrence is the next step, not step 7's copy.
from lib import *
m = model()
expect_sane()
expect(m["window"]["start_us"] == 2000 and m["window"]["end_us"] == 2900,
       "the window is ProfilerStep#8 on the host: %s" % m["window"])
done()
