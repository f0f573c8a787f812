# An export on standard input is spooled (SQLite reads files by name).
from lib import *
expect_sane()
expect_window(110000, 128000)
expect(labels()[0] == "train", "lanes %r" % labels())
done()
