# --lanes: globs on the labels, in the order given (not the trace's); a
# lane matched by two patterns is drawn once; the others are left out.
from lib import *
m = model()
expect_sane()
want = ["gpu / stream 7", "gpu / stream 8", "host / main", "host / pt_autograd_0"]
expect(labels() == want, "lanes %r, want %r" % (labels(), want))
expect(not bars("b"), "the loader lane is not drawn")
done()
