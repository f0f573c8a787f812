# A CUDA call by the name drawn (cudaStreamSynchronize_v3020 in the
# export): the third one, 167..167.8 ms.
from lib import *
expect_sane()
expect_window(167000, 167800)
done()
