# Labels that would be alike get the smallest difference that tells them
# apart: three "Renderer / ThreadPoolForegroundWorker" (two processes
# named Renderer) the tid; two "GPU 0 / stream 7" (the tid is the label
# already) the pid; two single-lane processes "Worker" with tid 1 each the
# pid; a label that is unique keeps its form.
from lib import *
m = model()
expect_sane()
want = ["Renderer / ThreadPoolForegroundWorker (tid 11)",
        "Renderer / ThreadPoolForegroundWorker (tid 12)",
        "Renderer / ThreadPoolForegroundWorker (tid 21)",
        "Renderer / CrRendererMain",
        "GPU 0 (pid 30) / stream 7",
        "GPU 0 (pid 40) / stream 7",
        "Worker (pid 50)",
        "Worker (pid 60)"]
expect(labels() == want, "labels %r" % labels())
expect(len(set(labels())) == len(labels()), "all different")
# A header per process never joins two processes of one name.
heads = [h["text"] for h in m.get("layout", {}).get("headers", [])]
expect("Renderer" not in heads, "no shared Renderer header: %r" % heads)
if heads:
    expect("Renderer (pid 10)" in heads and "Renderer (pid 20)" in heads, "headers %r" % heads)
done()
