# Names thousands of bytes long: a lane label's process and thread parts,
# and a legend label, are cut to 200 bytes at a character's start, with an
# ellipsis (no figure shows more; the layout's cost grows with the square
# of a label's length); two processes whose names differ only beyond the
# cut are still told apart (by pid), and the model keeps the category
# whole.
from lib import *
m = model()
expect_sane()
lb = labels()
expect(len(lb) == 2 and len(set(lb)) == 2, "two labels, different: %r" % [l[:40] for l in lb])
for l in lb:
    for part in l.split(" / "):
        expect(len(part.encode("utf-8")) <= 200 + 3 + len(" (pid 1)"), "part of %d bytes" % len(part.encode()))
expect(any("\u2026" in l for l in lb), "an ellipsis")
expect(all("(pid " in l for l in lb), "told apart by pid: %r" % [l[-40:] for l in lb])
leg = [e["label"] for e in m["legend"]]
expect(all(len(x.encode("utf-8")) <= 203 for x in leg), "legend labels cut: %r" % [len(x) for x in leg])
expect(any(c["name"] == "c" * 5000 for c in m["categories"]), "the category whole in the model")
done()
