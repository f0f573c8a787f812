# systemTraceEvents as a string (ftrace text, as Chrome writes it) is
# ignored: the figure comes from traceEvents alone, without a warning.
from lib import *
m = model()
expect_sane()
expect(labels() == ["pid 1 / ui"], "lanes %r" % labels())
expect_span("frame", 0, 16000)
done()
