# Process and thread names that live only in systemTraceEvents, given as an
# object {"type": "fuchsia", "events": [...]} of "p" (process) and "t"
# (thread) records, name the lanes.
from lib import *
m = model()
expect_sane()
expect(labels() == ["scenic / render-loop", "scenic / input-reader"], "lanes %r" % labels())
done()
