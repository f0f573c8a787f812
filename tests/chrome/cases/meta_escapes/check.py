# JSON escapes in process and thread names (\\, \", \uXXXX, \t) and in
# event names are decoded like any JSON string; XML specials pass through
# to the model unchanged (the SVG escapes them: run.sh runs xmllint).
from lib import *
m = model()
expect_sane()
got = labels()
want0 = 'C:\\bin\\app "beta" / caf\u00e9 \u2192 main\ttab'
want1 = 'C:\\bin\\app "beta" / <io> & Async'
expect(len(got) == 2 and got[0] in (want0, want0.replace("\t", " ")), "lane 0 %r, want %r" % (got[:1], want0))
expect(len(got) == 2 and got[1] == want1, "lane 1 %r, want %r" % (got[1:], want1))
expect(len(bars('w\u00f6rk "quoted"')) == 1, "event name decoded: %r" % [b["name"] for b in m["bars"]])
done()
