# Thread ids given as strings with a number in them ("stream 7", as Kineto
# and Perfetto write them, with no thread_name and no sort index) order by
# that number: stream 7, stream 20, stream 100; numeric tids first.
from lib import *
m = model()
expect_sane()
first = {}
for b in m["bars"]:
    first.setdefault(b["lane"], b["name"])
got = [first.get(i) for i in range(len(m["lanes"]))]
want = ["host", "s7", "s20", "s100"]
expect(got == want, "lane order %r, want %r" % (got, want))
done()
