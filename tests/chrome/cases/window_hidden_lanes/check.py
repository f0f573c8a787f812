# The default window covers what is drawn: the lane of clang's real work
# (1000..5000 us), not its "Total" summaries (hidden, from 0), nor the
# profiler's span (hidden, to 20000 us); Kineto's bookkeeping instants
# are never drawn, even inside the window (Record Window End at 3000 us).
from lib import *
m = model()
expect_sane()
expect(labels() == ["clang / tid 1"], "lanes %r" % labels())
expect_window(1000, 5000)
expect(not bars("Record Window End") and not bars("Iteration Start: PyTorch Profiler"), "no marks")
done()
