# --hide leaves out lanes by their label.
from lib import *
expect(labels() == ["train", "GPU 0 / stream 7", "GPU 1 / stream 21"], "lanes %r" % labels())
done()
