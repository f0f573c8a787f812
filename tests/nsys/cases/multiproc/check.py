# Two processes with work on GPU 0 stream 7: a lane each, labelled with
# the pid; flows pair calls and kernels of the same process only.  The two
# host processes, both "python", are told apart by their pids (issue 18).
from lib import *
m = model()
expect_sane()
expect(labels() == ["python (pid 4242)", "python (pid 5242)", "GPU 0 / stream 7 (pid 4242)",
                    "GPU 0 / stream 7 (pid 5242)"],
       "lanes %r" % labels())
a = m["arrows"]
expect(len(a) == 6, "six arrows %r" % a)
for x in a:
    expect((x["from"]["lane"], x["to"]["lane"]) in ((0, 2), (1, 3)), "own process: %r" % x)
done()
