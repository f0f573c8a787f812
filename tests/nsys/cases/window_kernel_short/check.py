# ... and by its short name, though the model keeps the demangled one:
# the first vectorized_elementwise_kernel, layer_0 of step 1 (112.105 ms,
# 0.4 ms).
from lib import *
expect_sane()
expect_window(112105, 112505)
done()
