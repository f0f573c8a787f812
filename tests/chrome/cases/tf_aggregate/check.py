# TensorFlow 1.x timeline: one process per GPU stream and no thread names.
# The "stream:all" process draws every stream's ops again in one lane: it is
# hidden by default (a note says so), and the real streams are drawn.
from lib import *
m = model()
expect_sane()
got = labels()
expect(not any("stream:all" in l for l in got), "stream:all hidden: %r" % got)
expect(any("stream:14" in l for l in got) and any("stream:15" in l for l in got), "streams drawn: %r" % got)
# device paths shortened as people say them: "/job:.../task:0/device:GPU:0 Compute" is "GPU:0 Compute"
expect("GPU:0 Compute" in got and any("memcpy" in l for l in got), "op and memcpy lanes drawn: %r" % got)
expect(len(bars("MatMul")) == 2 and len(bars("Conv2D")) == 1, "bars %r" % [b["name"] for b in m["bars"]])
expect(any("--all-lanes" in n for n in m["notes"]), "a note naming --all-lanes: %r" % m["notes"])
done()
