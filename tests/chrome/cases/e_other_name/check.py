# An E closes the innermost open B of its thread, whatever its name (the
# format says so); the mismatch is said once.
from lib import *
m = model()
expect_sane()
b = expect_span("inner", 10, 20)
expect(b and b["row"] == 1, "inner nested: %r" % b)
b = expect_span("outer", 0, 40)
expect(b and b["row"] == 0, "outer on top: %r" % b)
expect_stderr(r"1 E event named unlike the B event they close")
done()
