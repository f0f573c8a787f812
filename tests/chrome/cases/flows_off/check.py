# The same flows as flows_on without --flows: no arrows, and the flow
# events draw nothing else either.
from lib import *
m = model()
expect_sane()
expect(m["arrows"] == [], "no arrows without --flows: %r" % m["arrows"])
expect(sorted(b["name"] for b in m["bars"]) == ["Handle", "PostTask", "RunTask", "kernel", "launch"],
       "bars %r" % [b["name"] for b in m["bars"]])
done()
