# Several categories: coloured by category (auto), the legend lists them.
from lib import *
m = model()
expect_sane()
expect("color_by" not in m, "by category")
expect([e["label"] for e in m["legend"]] == ["cpu_op", "instant", "kernel"], "legend %r" % m["legend"])
done()
