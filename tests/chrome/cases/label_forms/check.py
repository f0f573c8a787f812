# Lane labels: TensorFlow device paths as people say them; a named process's
# only lane, of an unnamed thread, is the process's name alone; two unnamed
# threads of one process keep their tids; names trimmed; no metadata at all
# gives "pid N / tid M".
from lib import *
m = model()
expect_sane()
want = ["GPU:0 Compute / tid 0", "GPU:0 Compute / tid 1", "GPU:0/stream:15 Compute",
        "trainer / main", "pid 4 / tid 40"]
expect(labels() == want, "lanes %r, want %r" % (labels(), want))
done()
