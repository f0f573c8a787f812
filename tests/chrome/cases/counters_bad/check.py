# Values that are neither numbers nor null (a word, true, an array) are left
# out, with one warning; the rest of their events still count.
from lib import *
m = model()
expect_sane()
for (pid, name), samples in sorted(trace_series().items()):
    expect_counter_exact(pid, name, samples)
done()
