# --window-event GLOB --occurrence K: the K-th match in time order (not in
# file order: ProfilerStep#3 comes first in the file), whatever its number.
from lib import *
m = model()
expect_sane()
expect_cut([("ProfilerStep#2", 2000, 3000), ("forward", 2100, 2400), ("backward", 2450, 2950),
            ("kernel", 2300, 3300), ("early", 1700, 1950), ("ProfilerStep#1", 1000, 1800),
            ("ProfilerStep#3", 3000, 3800)], 2000, 3000)
done()
