# 30 busy threads: the default cap draws the first 24 lanes (in lane
# order), and a note in the model and a warning say that 6 were left out.
from lib import *
m = model()
expect_sane()
want = ["pool / tid %d" % i for i in range(1, 25)]
expect(labels() == want, "lanes %r" % labels())
expect(any(re.search(r"\b6\b.*lane", n) for n in m["notes"]), "a note about 6 lanes: %r" % m["notes"])
expect_stderr(r"warning.*\b6\b.*lane")
done()
