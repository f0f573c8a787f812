# A pid or tid and its decimal string name one process or thread (PyTorch
# 1.9 writes CPU slices under tid "5555" and instants under 5555);
# metadata under either applies to both; B under "5555" pairs with E under
# 5555.  "05555" is not a decimal integer as programs print it: its own
# lane, named by the string.  "-1" and -1 are one thread.
from lib import *
m = model()
expect_sane()
lb = labels()
expect(lb.count("python / thread 5555 (python)") == 1, "one lane of thread 5555: %r" % lb)
main = lane_index("python / thread 5555 (python)")
for n in ("aten::linear", "step"):
    b = one_bar(n)
    expect(b and b["lane"] == main, "%s on the thread's lane: %r" % (n, b))
b = one_bar("tick", shape="instant")
expect(b and b["lane"] == main, "the instant on the thread's lane: %r" % b)
b = one_bar("aten::mm")
expect(b and m["lanes"][b["lane"]]["label"] == "python / thread 5560 (autograd)",
       "metadata under the number names the string's thread: %r" % lb)
if main is not None:
    expect(m["lanes"][main]["tid"] == 5555 and m["lanes"][main]["pid"] == 5555,
           "ids are numbers in the model: %r" % m["lanes"][main])
b = one_bar("zero-padded")
expect(b and m["lanes"][b["lane"]]["tid"] == "05555", "05555 stays a string: %r" % b)
neg = [one_bar("negative"), one_bar("negative number")]
expect(all(neg) and neg[0]["lane"] == neg[1]["lane"], "-1 and \"-1\" share a lane: %r" % neg)
expect(len(lb) == 4, "four lanes: %r" % lb)
done()
