# Names with invalid UTF-8 (each bad byte drawn as U+FFFD), control
# characters and XML/TeX specials, and a 2 KB kernel name: a valid model
# and SVG (the runner checks xmllint and pdflatex).
from lib import *
m = model()
expect_sane()
nv = [b["name"] for b in m["bars"] if b["category"] == "nvtx"]
expect(len(nv) == 1 and nv[0].startswith("step \ufffd\ufffd <&>") and nv[0].endswith("\ufffd\ufffd end"),
       "NVTX text %r" % nv)
calls = [b["name"] for b in m["bars"] if b["category"] == "cuda_runtime" and
         b["name"] != "cudaLaunchKernel" and b["shape"] != "dense"]
expect(calls == ["cuda\ufffdBad\x02"], "call %r" % calls)
done()
