# --depth 2: the main thread keeps train_step and forward/backward; what
# is nested deeper is counted in a note.
from lib import *
m = model()
expect_sane()
expect(m["lanes"][0]["rows"] == 2, "rows %r" % m["lanes"][0])
expect(not bars("layer_0"), "layer_0 is too deep")
expect(any("nested deeper than 2 rows" in n for n in m["notes"]), "note %r" % m["notes"])
done()
