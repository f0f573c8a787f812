# --hide: globs on the labels; the lanes they match are left out, the rest
# keep their order.
from lib import *
m = model()
expect_sane()
want = ["host / main", "host / pt_autograd_0", "gpu / stream 7"]
expect(labels() == want, "lanes %r, want %r" % (labels(), want))
done()
