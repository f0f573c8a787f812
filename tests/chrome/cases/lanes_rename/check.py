# --lanes PATTERN=LABEL picks the lanes as PATTERN does and draws them under
# LABEL; a pattern without "=" keeps the lanes' own labels.
from lib import *
m = model()
expect_sane()
want = ["Main thread", "gpu / stream 7", "gpu / stream 8", "Autograd"]
expect(labels() == want, "lanes %r, want %r" % (labels(), want))
expect([l["tid"] for l in m["lanes"]] == [1, 7, 8, 3], "the ids stay the trace's: %r" % m["lanes"])
done()
