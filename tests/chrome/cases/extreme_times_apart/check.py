# Events at -3.9e15 us and +3.9e15 us (the accepted range is |ts| <= 4e15
# us, so that the sum or difference of any two times fits int64_t): one
# window over 247 years, drawn without an overflow (the SAN suite would
# stop on one).
from lib import *
m = model()
expect_sane()
expect_window(-3900000000000000, 3900000000000095)
expect(bars("early *") and bars("late *"), "both ends drawn (each merged at the figure's width)")
done()
