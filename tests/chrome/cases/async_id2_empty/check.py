# Async events need an id: "id" (0 is one), or "id2" with "local" or
# "global".  An id2 with neither, a null id or none at all: dropped, as
# Perfetto drops them, with one warning that counts them.
from lib import *
m = model()
expect_sane()
names = sorted(b["name"] for b in m["bars"])
expect(names == ["global", "id 0", "local", "work"], "bars %r" % names)
expect_stderr(r"5 async events without an id .*dropped")
done()
