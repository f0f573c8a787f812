# A --window-event holding glob characters matches a name written exactly
# so ("step [2]": as a glob it would match "step 2" only).
from lib import *
m = model()
expect_sane()
expect(m["window"]["start_us"] == 2000 and m["window"]["end_us"] == 3000, "the window of 'step [2]'")
done()
