# --max-lanes 5: five lanes; the default window covers what they draw
# (jobs 1-5: 3..65 us), and a note and a warning count the 16 other lanes
# that have slices in it (jobs 6-21; jobs 22-30 start after it).
from lib import *
m = model()
expect_sane()
expect(labels() == ["pool / tid %d" % i for i in range(1, 6)], "lanes %r" % labels())
expect_window(3, 65)
expect(any(re.search(r"\b16\b.*lane", n) for n in m["notes"]), "a note about 16 lanes: %r" % m["notes"])
expect_stderr(r"warning.*\b16\b.*lane")
done()
