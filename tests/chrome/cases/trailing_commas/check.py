# Trailing commas before ] and } (in the events array, in events, in their
# args, and after the array in the top-level object) are accepted, as
# Perfetto's importer accepts them; the args still show in the tooltip.
from lib import *
m = model()
expect_sane()
expect(labels() == ["pid 1 / main"], "the metadata is read: %r" % labels())
expect_span("a", 0, 10)
expect_span("b", 20, 30)
tips = [t for t, _ in svg_bars() if t.startswith("a ")]
expect(len(tips) == 1 and "k: 1" in tips[0] and "s: v" in tips[0], "args in the tooltip: %r" % tips)
done()
