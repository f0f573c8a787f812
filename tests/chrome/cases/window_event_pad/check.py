# --window-event step --occurrence 2 --pad 10: the 2nd "step" in time (the
# file has them out of order, and one is a B/E pair at 500..700 us), so
# 1100..1500 us, widened by 10 % of its span on each side: 1060..1540 us.
from lib import *
m = model()
expect_sane()
expect_cut([("ProfilerStep#1", 1000, 1800), ("early", 1700, 1950), ("forward", 2100, 2400)],
           1060, 1540)
b = one_bar("step")
if b:
    expect(not b["clip_left"] and not b["clip_right"] and near(bar_us(b)[0], 40) and near(bar_us(b)[1], 440),
           "the step itself, unclipped at 40..440 us: %r" % b)
done()
