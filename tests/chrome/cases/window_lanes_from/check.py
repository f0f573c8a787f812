# --from counts from the origin of the lanes drawn by default (0 us here:
# the loader's slice), whatever --lanes picks; the end is the lane's.
from lib import *
m = model()
expect_sane()
expect_window(500, 700)
done()
