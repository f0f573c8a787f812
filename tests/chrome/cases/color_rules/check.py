# --color PATTERN=#RRGGBB, repeated: the first rule whose glob matches the
# event's name or its category colours it ("gemm_big" is red by gemm*, not
# blue by the later rule; "relu" green by its category); lower-case hex is
# fine; events no rule matches keep their category's colour.
from lib import *
m = model()
expect_sane()
expect(svg_fill("gemm_big") == "#FF0000", "gemm_big %r" % svg_fill("gemm_big"))
expect(svg_fill("relu") == "#00FF00", "relu %r" % svg_fill("relu"))
expect(svg_fill("aten::mul") == "#FF8800", "aten::mul %r" % svg_fill("aten::mul"))
cat = {c["name"]: c["color"].upper() for c in m["categories"]}
expect(svg_fill("aten::add") == cat.get("cpu_op"), "aten::add %r, cpu_op %r" % (svg_fill("aten::add"), cat.get("cpu_op")))
expect(svg_fill("Memcpy HtoD") == cat.get("gpu_memcpy"), "memcpy %r" % svg_fill("Memcpy HtoD"))
done()
