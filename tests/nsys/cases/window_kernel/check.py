# --window-event matches kernel names: the second ampere_sgemm_128x64_nn
# (the backward one of step 1: 121.005..123.005 ms).
from lib import *
expect_sane()
expect_window(121005, 123005)
done()
