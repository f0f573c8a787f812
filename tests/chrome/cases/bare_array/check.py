# A bare top-level array (Chrome's about:tracing form); no metadata, so the
# lanes are named by pid and tid.
from lib import *
m = model()
expect_sane()
expect(m["mode"] == "chrome", "mode %r" % m["mode"])
expect_window(50.5, 160)
expect(labels() == ["pid 7 / tid 7", "pid 8 / tid 3"], "lanes %r" % labels())
expect_span("Task", 0, 100, lane=0)
expect_span("Run", 9.5, 29.5, lane=0)
expect_span("IO", 49.5, 109.5, lane=1)
expect(one_bar("Task")["row"] == 0 and one_bar("Run")["row"] == 1, "Run nests in Task")
done()
