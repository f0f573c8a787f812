# clang -ftime-trace: one real lane (a flame chart), and one thread per
# "Total ..." summary, each a single slice at ts 0, which must not become
# lanes (a note says lanes were left out); the async b/e pair with id 0 is
# not drawn.
from lib import *
m = model()
expect_sane()
expect(labels() == ["clang-19"], "one lane: %r" % labels())
expect(sorted(b["name"] for b in m["bars"]) == ["Backend", "ExecuteCompiler", "Frontend", "Source"],
       "bars %r" % [b["name"] for b in m["bars"]])
expect(one_bar("Source")["row"] == 2 if one_bar("Source") else False, "Source nested 2 deep")
expect(any(re.search(r"\b6\b.*lanes", n) for n in m["notes"]), "a note about 6 lanes: %r" % m["notes"])
done()
