# --lanes picks and renames counter tracks as it does lanes (in the order of
# its patterns), --hide leaves them out.
from lib import *
m = model()
expect_sane()
expect(labels() == ["Worker", "Allocated", "app 0 / fps value"], "lanes %r" % labels())
expect(m["lanes"][1]["kind"] == "counter" and m["lanes"][0]["kind"] == "slices", "kinds")
done()
