# --osrt adds the OS runtime calls, on their threads, as category osrt.
from lib import *
m = model()
expect_sane()
o = [b for b in m["bars"] if b["category"] == "osrt"]
names = sorted((labels()[b["lane"]], b["name"]) for b in o)
expect(names == [("train", "pthread_cond_wait"), ("train / loader", "poll"), ("train / loader", "read")],
       "osrt bars %r" % names)
r, lb = one_bar("read"), one_bar("load_batch")
expect(r and lb and r["row"] == lb["row"] + 1, "read under load_batch: %r %r" % (r, lb))
done()
