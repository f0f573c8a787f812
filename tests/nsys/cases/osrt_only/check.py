# OS runtime calls only (drawn with --osrt).
from lib import *
m = model()
expect_sane()
expect(labels() == ["train", "train / loader"], "lanes %r" % labels())
expect({b["category"] for b in m["bars"]} == {"osrt"}, "osrt only")
done()
