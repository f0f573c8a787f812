# With --lanes the default window is that lane's (400..700 us), not the
# trace's (0..1000).
from lib import *
m = model()
expect_sane()
expect(labels() == ["pid 1 / gpu"], "lanes %r" % labels())
expect_window(400, 700)
done()
