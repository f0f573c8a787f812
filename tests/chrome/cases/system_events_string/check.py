# systemTraceEvents as a string (ftrace text, as Chrome writes it) is read
# with traceEvents (tests/ftrace covers what it draws); a text whose only
# event is the idle task's switch adds nothing to draw, and no warning.
from lib import *
m = model()
expect_sane()
expect(labels() == ["pid 1 / ui"], "lanes %r" % labels())
expect_span("frame", 0, 16000)
done()
