# Kernels: the demangled name in the model and the tooltip (the short
# name on the bar: short_names); the device's name (TARGET_INFO_GPU) in every GPU tooltip;
# memcpy with its direction and memory kinds in the name and its bytes in
# the tooltip; memset with its memory kind.
from lib import *
m = model()
expect_sane()
demangled = ("void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
             "std::array<char *, (unsigned long)1>>(int, T2, T3)")
expect(len(bars(demangled)) == 2, "the demangled name in the model (layer_0 and GPU 1)")
lab = svg_labels()
def tip(prefix):
    return [t for t, _ in lab if t.startswith(prefix)]
gpu_tips = [t for t, _ in lab if " · kernel · " in t or "gpu_mem" in t]
expect(gpu_tips and all("device: NVIDIA H100 80GB HBM3" in t for t in gpu_tips),
       "device names in GPU tooltips: %r" % gpu_tips[:2])
h = tip("Memcpy HtoD (Pinned -> Device)")
expect(len(h) == 1 and "bytes: 4194304" in h[0] and "stream: 13" in h[0], "HtoD tooltip %r" % h)
expect(len(tip("Memcpy DtoH (Device -> Pageable)")) == 1, "DtoH")
expect(len(tip("Memcpy DtoD (Device -> Device)")) == 1, "DtoD")
s = tip("Memset (Device)")
expect(len(s) == 1 and "bytes: 1048576" in s[0], "memset tooltip %r" % s)
k = tip("ampere_sgemm_128x64_nn")
expect(k and "grid: 128x1x1" in k[0] and "block: 256x1x1" in k[0], "grid and block %r" % k)
done()
