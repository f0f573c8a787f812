# --window-event matches a start/end range's text: the third load_batch,
# 152..158 ms from the session start.
from lib import *
m = model()
expect_sane()
expect_window(152000, 158000)
b = one_bar("load_batch")
expect(b and not b["clip_left"] and not b["clip_right"], "the range itself, whole: %r" % b)
done()
