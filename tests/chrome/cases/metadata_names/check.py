# Kineto-style metadata: process_name (the same for host and GPU),
# process_labels "GPU 0" naming the device process ("CPU" does not),
# thread_name ("stream 7 " with Kineto's trailing space, trimmed),
# process_sort_index and thread_sort_index ordering the lanes (the host,
# pid 100, before the GPU, pid 0; pt_autograd_0 before python3).
from lib import *
m = model()
expect_sane()
got = labels()
expect(len(got) == 4, "four lanes: %r" % got)
if len(got) == 4:
    expect(got[0] == "python3 train.py / pt_autograd_0", "lane 0 %r" % got[0])
    expect(got[1] == "python3 train.py / python3", "lane 1 %r" % got[1])
    expect(got[2] == "GPU 0 / stream 7", "lane 2 %r" % got[2])
    expect(got[3] == "GPU 0 / stream 20", "lane 3 %r" % got[3])
    expect(m["lanes"][2]["pid"] == 0 and m["lanes"][2]["tid"] == 7, "ids %r" % m["lanes"][2])
expect(not any(l.endswith(" ") for l in got), "labels trimmed: %r" % got)
done()
