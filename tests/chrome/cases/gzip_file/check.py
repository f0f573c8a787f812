# A gzip'd trace (.json.gz, as the PyTorch profiler writes them); the same
# trace uncompressed is source.json.txt.
from lib import *
m = model()
expect_sane()
expect(m["mode"] == "chrome", "mode %r" % m["mode"])
expect_window(10, 60)
expect(labels() == ["pid 3 / zipped"], "lanes %r" % labels())
expect_span("inflate", 0, 30)
expect_span("parse", 35, 50)
done()
