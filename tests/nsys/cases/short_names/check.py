# Bars show a kernel's short name (the demangled one stays in the model and
# the tooltip): layer_0's vectorized_elementwise_kernel is wide enough in
# its own window (112..113.5 ms).
from lib import *
m = model()
expect_sane()
demangled = ("void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
             "std::array<char *, (unsigned long)1>>(int, T2, T3)")
expect(one_bar(demangled) is not None, "the demangled name in the model")
inbar = [x for t, x in svg_labels() if t.startswith(demangled)]
expect(inbar == ["vectorized_elementwise_kernel"], "short name on the bar: %r" % inbar)
done()
