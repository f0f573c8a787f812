# --window-event NAME: the window is the extent of the (first) event named
# NAME; what crosses it is clipped, what lies outside is not drawn.
from lib import *
m = model()
expect_sane()
expect_cut([("ProfilerStep#2", 2000, 3000), ("forward", 2100, 2400), ("backward", 2450, 2950),
            ("kernel", 2300, 3300), ("early", 1700, 1950), ("ProfilerStep#1", 1000, 1800),
            ("ProfilerStep#3", 3000, 3800)], 2000, 3000)
done()
