# --max-lanes 5: five lanes, a note and a warning about the other 25.
from lib import *
m = model()
expect_sane()
expect(labels() == ["pool / tid %d" % i for i in range(1, 6)], "lanes %r" % labels())
expect(any(re.search(r"\b25\b.*lane", n) for n in m["notes"]), "a note about 25 lanes: %r" % m["notes"])
expect_stderr(r"warning.*\b25\b.*lane")
done()
