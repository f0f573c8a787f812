# NVTX only: the two threads with ranges, the mark an instant.
from lib import *
m = model()
expect_sane()
expect(labels() == ["train", "train / loader"], "lanes %r" % labels())
expect(len(bars("batch_ready", shape="instant")) == 3, "marks are instants")
done()
