# A gzip'd export, on standard input too.
from lib import *
expect_sane()
expect_window(110000, 128000)
done()
