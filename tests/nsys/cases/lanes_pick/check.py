# --lanes picks GPU lanes by their label.
from lib import *
expect(labels() == ["GPU 0 / stream 7", "GPU 0 / stream 13", "GPU 1 / stream 21"], "lanes %r" % labels())
done()
