# \u0000 inside strings (a name, a category, args keys and values): the
# trace loads, the model is valid JSON, and the SVG (where U+0000 is not
# allowed) is well-formed XML (run.sh checks it with xmllint).
from lib import *
m = model()
expect_sane()
expect(len(m["bars"]) == 2, "two bars: %r" % m["bars"])
names = [b["name"] for b in m["bars"]]
expect(any(n.startswith("before") for n in names), "a bar named 'before...': %r" % names)
expect("plain" in names, "the bar 'plain': %r" % names)
expect(labels() == ["pid 1 / worker"], "lanes %r" % labels())
done()
