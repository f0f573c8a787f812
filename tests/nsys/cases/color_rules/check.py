# --color beats the NVTX colour and the category's.
from lib import *
expect(svg_fill("layer_1") == "#123456", "layer_1 %r" % svg_fill("layer_1"))
expect(svg_fill("train_step") == "#654321", "train_step %r" % svg_fill("train_step"))
expect(svg_fill("forward") == "#1F77B4", "forward keeps its own %r" % svg_fill("forward"))
done()
