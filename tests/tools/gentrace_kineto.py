"""gentrace_kineto.py - gentrace.py's Kineto traces (the kineto and ranks
sub-commands): a modern PyTorch profiler's trace of a data-parallel
training loop, in today's format or 2021's, and the ranks of one job.
"""

import argparse
import sys

from gentrace_base import Out, Rand, epoch_ns, gpu_properties, jstr

# ---------------------------------------------------------------------------
# kineto: a modern PyTorch profiler trace of a data-parallel training loop
# ---------------------------------------------------------------------------

# Kernels: key -> (name, typical duration in us, launch configuration args).
K_GEMM_FWD = ("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_"
              "execute_segment_k_off_kernel__5x_cublas")
K_GEMM_DGRAD = ("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_"
                "execute_segment_k_off_kernel__5x_cublas")
K_GEMM_WGRAD = ("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x256_16x3_nt_align4>("
                "cutlass_80_tensorop_s1688gemm_128x256_16x3_nt_align4::Params)")
K_RELU = ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
          "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::"
          "detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() "
          "const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous "
          "namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
          "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::"
          "operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)")
K_THRESHOLD = ("void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, "
               "float, float, at::native::(anonymous namespace)::threshold_kernel_impl<float>("
               "at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}>, at::detail::"
               "Array<char*, 3> >(int, at::native::BinaryFunctor<float, float, float, at::native::"
               "(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
               "float)::{lambda(float, float)#1}>, at::detail::Array<char*, 3>)")
K_SUM = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::"
         "func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()("
         "at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::"
         "ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
         "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, "
         "4>)")
K_ADD = ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
         "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::"
         "Array<char*, 3>)")
K_SUB = ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
         "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::"
         "Array<char*, 3>)")
K_POW = ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
         "pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda("
         "float)#2}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::"
         "pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda("
         "float)#2}, at::detail::Array<char*, 2>)")
K_MEAN = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps"
          "<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
          "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)")
K_MSE_BWD = ("void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<"
             "at::native::(anonymous namespace)::mse_backward_cuda_kernel(at::TensorIterator&, "
             "c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() "
             "const::{lambda(float, float, float)#1}>(at::TensorIteratorBase&, at::native::"
             "(anonymous namespace)::mse_backward_cuda_kernel(at::TensorIterator&, c10::Scalar "
             "const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda("
             "float, float, float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_"
             "nocast<at::native::(anonymous namespace)::mse_backward_cuda_kernel(at::"
             "TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::"
             "operator()() const::{lambda(float, float, float)#1}>(at::TensorIteratorBase&, at::"
             "native::(anonymous namespace)::mse_backward_cuda_kernel(at::TensorIterator&, c10::"
             "Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::"
             "{lambda(float, float, float)#1} const&)::{lambda(int)#1})")
K_FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
          "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array"
          "<char*, 1>)")
K_ADAMW = ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
           "(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::"
           "FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, "
           "float*, float*, float*, double, double, double, bool, float*, float*>(at::native::"
           "(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::"
           "FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, "
           "float*, float*, float*, double, double, double, bool, float*, float*)")
K_NCCL = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"


def _launch_info(regs, smem, grid, block, sms=132):
    blocks = grid / float(sms)
    warps = blocks * block / 32.0
    occ = min(100, int(warps / 64.0 * 100.0 + 0.5))
    return ('"registers per thread": %d, "shared memory": %d, "blocks per SM": %r, '
            '"warps per SM": %r, "grid": [%d, 1, 1], "block": [%d, 1, 1], '
            '"est. achieved occupancy %%": %d' % (regs, smem, round(blocks, 6), round(warps, 6),
                                                   grid, block, occ))


X_FMT = ('  {\n    "ph": "X", "cat": "%s", "name": %s, "pid": %d, "tid": %d,\n'
         '    "ts": %s, "dur": %s,\n    "args": {\n      %s\n    }\n  }')
FLOW_S = ('  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n'
          '    "cat": "%s", "name": "%s"\n  }')
FLOW_F = ('  {\n    "ph": "f", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n'
          '    "cat": "%s", "name": "%s", "bp": "e"\n  }')
META = ('  {\n    "name": "%s", "ph": "M", "ts": %s,\n    "pid": %s, "tid": %d,\n'
        '    "args": {\n      %s\n    }\n  }')

# The 2021 format (PyTorch 1.8-1.10, --format 2021): the categories were
# named otherwise, python_function and gpu_user_annotation events did not
# exist, CPU events name their thread by the *string* of its tid, GPU events
# by "stream N" (no thread_name records), times are whole microseconds, and
# the launch flows are "async"/"launch" pairs whose start gives the tid as a
# number.
CATS_2021 = {"cpu_op": "Operator", "user_annotation": "Operator", "cuda_runtime": "Runtime",
             "kernel": "Kernel", "gpu_memcpy": "Memcpy", "gpu_memset": "Memset"}
X_FMT_2021 = ('  {\n    "ph": "X", "cat": "%s", "name": %s, "pid": %d, "tid": "%s",\n'
              '    "ts": %d, "dur": %d,\n    "args": {\n      %s\n    }\n  }')
FLOW_S_2021 = ('  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %d,\n'
               '    "cat": "async", "name": "launch"\n  }')
FLOW_F_2021 = ('  {\n    "ph": "f", "id": %d, "pid": %d, "tid": "stream %d", "ts": %d,\n'
               '    "cat": "async", "name": "launch", "bp": "e"\n  }')
MEM_2021 = ('  {\n    "ph": "i", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %d,\n'
            '    "args": {\n      "Device Type": 1, "Device Id": 0, "Bytes": %d%s\n    }\n  }')


MEM_FMT = ('  {\n    "ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",\n'
           '    "pid": %d, "tid": %d, "ts": %s,\n    "args": {\n      %s\n    }\n  }')
MEM_FMT_2021 = ('  {\n    "ph": "i", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %s,\n'
                '    "args": {\n      %s\n    }\n  }')


class Kineto:
    def __init__(self, a, rng, out):
        self.a = a
        # --memory: allocated and reserved bytes per device (0 CPU, 1 CUDA)
        self.alloc = {0: 0, 1: 0}
        self.reserved = {0: 0, 1: 0}
        self.addr = 0x7f3a00000000
        self.rng = rng
        self.r = rng.r
        self.out = out
        self.pid = 1000 + rng.below(3_000_000)
        self.main = self.pid
        self.bwd = self.pid + 37 + rng.below(3000)
        self.base = epoch_ns(rng)
        self.dev = 0                     # the GPU (its pid): a rank's local GPU
        self.slow = 0                    # ns of extra host work per step (a slow rank)
        self.cs = 7                      # the default compute stream
        self.ns = 23 + 4 * rng.below(5)  # NCCL's stream
        self.free = {self.cs: 0, self.ns: 0}
        self.ext = 0
        self.corr = 0
        self.idx = 0
        self.pyid = 0
        self.flow = 0
        self.seqnr = 0
        self.t = 0
        self.gpu_first = None
        self.old = getattr(a, "format", "2023") == "2021"  # (ranks has no --format)
        self.old_alloc = self.old_reserved = 0  # the 2021 format's [memory] totals
        h = a.hidden
        batch = a.batch
        k = {}
        # key: (name, us, launch info); durations scale with the layer size
        scale = h / 4096.0
        k["gemm_fwd"] = (K_GEMM_FWD, 210.0 * scale * scale * batch / 2048.0,
                         _launch_info(168, 98304, max(1, h // 128) * max(1, batch // 128), 384))
        k["gemm_dgrad"] = (K_GEMM_DGRAD, 225.0 * scale * scale * batch / 2048.0,
                           _launch_info(168, 98304, max(1, h // 128) * max(1, batch // 128), 384))
        k["gemm_wgrad"] = (K_GEMM_WGRAD, 240.0 * scale * scale * batch / 2048.0,
                           _launch_info(230, 73728, max(1, h // 128) * max(1, h // 256), 256))
        ew = max(1, batch * h // 2048)
        k["relu"] = (K_RELU, 14.0 * scale * batch / 2048.0, _launch_info(28, 0, ew, 128))
        k["threshold"] = (K_THRESHOLD, 19.0 * scale * batch / 2048.0, _launch_info(30, 0, ew, 128))
        k["sum"] = (K_SUM, 17.0 * scale * batch / 2048.0, _launch_info(32, 16, max(1, h // 32), 512))
        k["add_w"] = (K_ADD, 38.0 * scale * scale, _launch_info(22, 0, max(1, h * h // 2048), 128))
        k["add_b"] = (K_ADD, 2.2, _launch_info(22, 0, max(1, h // 512), 128))
        k["sub"] = (K_SUB, 6.0, _launch_info(22, 0, max(1, batch // 64), 128))
        k["pow"] = (K_POW, 5.5, _launch_info(20, 0, max(1, batch // 64), 128))
        k["mean"] = (K_MEAN, 7.5, _launch_info(32, 16, 1, 512))
        k["mse_bwd"] = (K_MSE_BWD, 6.5, _launch_info(26, 0, max(1, batch // 64), 128))
        k["fill"] = (K_FILL, 1.8, _launch_info(16, 0, max(1, batch // 64), 128))
        k["adamw"] = (K_ADAMW, 95.0 * scale * scale, _launch_info(96, 0, 320, 512))
        k["nccl"] = (K_NCCL, 420.0 * scale * scale * a.bucket, _launch_info(96, 0, 8, 640))
        self.kernels = {key: (jstr(v[0]), int(v[1] * 1000), v[2]) for key, v in k.items()}
        self.dims_act = "[[%d, %d], [%d, %d], [%d]]" % (batch, h, h, h, h)

    # -- event text -----------------------------------------------------------

    def mem(self, buf, tid, t, dev, nbytes):
        """With --memory: a [memory] instant of an allocation (nbytes > 0)
        or a free on device dev (0 CPU, 1 CUDA 0), in Kineto's current form
        (totals, address) or its 2021 one (only the bytes)."""
        form = getattr(self.a, "memory", None)
        if not form or self.old:
            return  # (the 2021 format writes its own: memory())
        self.alloc[dev] += nbytes
        if self.alloc[dev] > self.reserved[dev]:
            blk = (2 << 20) if dev == 0 else (20 << 20)
            self.reserved[dev] = -(-self.alloc[dev] // blk) * blk
        self.addr += 0x200 * (1 + (abs(nbytes) >> 12))
        dev_id = -1 if dev == 0 else self.dev
        if form == "2021":
            args = '"Device Type": %d, "Device Id": %d, "Bytes": %d' % (dev, dev_id, nbytes)
            buf.append(MEM_FMT_2021 % (self.pid, tid, self.ts(t), args))
        else:
            args = ('"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Addr": %d, '
                    '"Device Id": %d, "Device Type": %d' % (self.reserved[dev], self.alloc[dev],
                                                            nbytes, self.addr, dev_id, dev))
            buf.append(MEM_FMT % (self.pid, tid, self.ts(t), args))

    def us(self, lo, hi):
        return int((lo + (hi - lo) * self.r()) * 1000)

    def ts(self, ns):
        return "%d.%03d" % divmod(self.base + ns, 1000)

    # -- the two formats ------------------------------------------------------

    def xe(self, cat, name, pid, tid, t0, dur, args):
        """An X event (name as JSON text), or None where the format has none."""
        if not self.old:
            return X_FMT % (cat, name, pid, tid, self.ts(t0), "%d.%03d" % divmod(dur, 1000), args)
        if cat not in CATS_2021:
            return None
        t = (self.base + t0) // 1000
        end = (self.base + t0 + dur) // 1000
        return X_FMT_2021 % (CATS_2021[cat], name, pid,
                             ("%d" % tid) if pid == self.pid else ("stream %d" % tid),
                             t, max(0, end - t), args)

    def fs(self, fid, pid, tid, t, cat):
        if not self.old:
            return FLOW_S % (fid, pid, tid, self.ts(t), cat, cat)
        return FLOW_S_2021 % (fid, pid, tid, (self.base + t) // 1000) if cat == "ac2g" else None

    def ff(self, fid, pid, tid, t, cat):
        if not self.old:
            return FLOW_F % (fid, pid, tid, self.ts(t), cat, cat)
        return FLOW_F_2021 % (fid, pid, tid, (self.base + t) // 1000) if cat == "ac2g" else None

    def memory(self, buf, tid, t, nbytes):
        """A [memory] instant of the 2021 format (with --memory-totals, PyTorch
        1.10's totals); nothing in today's."""
        if not self.old:
            return
        self.old_alloc += nbytes
        self.old_reserved = max(self.old_reserved,
                                (self.old_alloc + (2 << 20) - 1) // (2 << 20) * (2 << 20))
        totals = (', "Total Allocated": %d, "Total Reserved": %d' % (self.old_alloc, self.old_reserved)
                  if self.a.memory_totals else "")
        buf.append(MEM_2021 % (self.pid, tid, (self.base + t) // 1000, nbytes, totals))

    def begin(self, buf, cat, name, tid, t0, args):
        buf.append((cat, name, tid, t0, args))
        return len(buf) - 1

    def end(self, buf, i, t1):
        cat, name, tid, t0, args = buf[i]
        buf[i] = self.xe(cat, jstr(name), self.pid, tid, t0, t1 - t0, args)

    def op_args(self, dims=None, seq=None):
        self.ext += 1
        self.idx += 1
        s = '"External id": %d,"Record function id": 0, "Ev Idx": %d' % (self.ext, self.idx)
        if seq is not None:
            s += ', "Fwd thread id": 0, "Sequence number": %d' % seq
        if dims:
            s += ', "Input Dims": %s, "Input type": ["float", "float", "float"]' % dims
        return s

    def py_args(self, parent, module=None):
        self.pyid += 1
        self.idx += 1
        s = '"Python parent id": %d, "Python id": %d, "Ev Idx": %d' % (parent, self.pyid, self.idx)
        if module is not None:
            s += ', "Python module id": %d' % module
        return s, self.pyid

    def op(self, buf, name, tid, t, dims=None, seq=None):
        return self.begin(buf, "cpu_op", name, tid, t, self.op_args(dims, seq))

    def leaf(self, buf, name, tid, t, lo=1.0, hi=4.0):
        i = self.op(buf, name, tid, t)
        t1 = t + self.us(lo, hi)
        self.end(buf, i, t1)
        return t1

    def launch(self, buf, G, tid, t, key, stream=None, dep=0, api="cudaLaunchKernel", cbid=211,
               nbytes=0):
        """A runtime call at t launching kernel key; returns the call's end."""
        stream = self.cs if stream is None else stream
        self.corr += 1
        corr = self.corr
        c1 = t + self.us(3.0, 9.0)
        buf.append(self.xe("cuda_runtime", '"%s"' % api, self.pid, tid, t, c1 - t,
                           '"External id": %d, "cbid": %d, "correlation": %d' % (self.ext, cbid, corr)))
        buf.append(self.fs(corr, self.pid, tid, t, "ac2g"))
        k0 = max(self.free[stream], c1 + self.us(2.0, 6.0), dep)
        if self.gpu_first is None:
            self.gpu_first = k0
        if api == "cudaLaunchKernel":
            qname, base, info = self.kernels[key]
            k1 = k0 + max(1000, int(base * (0.93 + 0.14 * self.r())))
            G.append(self.xe("kernel", qname, self.dev, stream, k0, k1 - k0,
                             '"External id": %d, "queued": 0, "device": 0, "context": 1, '
                             '"stream": %d, "correlation": %d, %s' % (self.ext, stream, corr, info)))
        else:
            if api == "cudaMemsetAsync":
                cat, name, gbps = "gpu_memset", '"Memset (Device)"', 600.0
            elif key == "htod":
                cat, name, gbps = "gpu_memcpy", '"Memcpy HtoD (Pinned -> Device)"', 24.0
            else:
                cat, name, gbps = "gpu_memcpy", '"Memcpy DtoH (Device -> Pageable)"', 0.002
            k1 = k0 + max(1000, int(nbytes / gbps * (0.95 + 0.1 * self.r())))
            G.append(self.xe(cat, name, self.dev, stream, k0, k1 - k0,
                             '"External id": %d, "device": 0, "context": 1, "stream": %d, '
                             '"correlation": %d, "bytes": %d, "memory bandwidth (GB/s)": %r' % (
                                 self.ext, stream, corr, nbytes,
                                 round(nbytes / float(k1 - k0), 6))))
        G.append(self.ff(corr, self.dev, stream, k0, "ac2g"))
        self.free[stream] = k1
        return c1

    def op_launch(self, buf, G, name, tid, t, key, dims=None, **kw):
        """cpu_op name around one launch (in the 2021 format with the
        allocation of its output: a [memory] instant, freed at the step's
        end)."""
        i = self.op(buf, name, tid, t, dims)
        if self.old:
            nbytes = 512 * (1 + self.corr % 97) * (self.a.batch // 64 or 1)
            self.memory(buf, tid, t + 1000, nbytes)
            self.step_allocs.append((tid, nbytes))
        c1 = self.launch(buf, G, tid, t + self.us(2.0, 6.0), key, **kw)
        t1 = c1 + self.us(1.0, 4.0)
        self.end(buf, i, t1)
        return t1

    # -- one training step ----------------------------------------------------

    def step(self, n):
        a = self.a
        M, B, G = [], [], []
        self.step_allocs = []
        main, bwd = self.main, self.bwd
        t = self.t
        self.gpu_first = None
        st = self.begin(M, "user_annotation", "ProfilerStep#%d" % n, main, t, self.op_args())
        step_ext = self.ext
        t += self.us(6.0, 15.0)
        # data loading, then the batch to the GPU
        dl = self.begin(M, "user_annotation",
                        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", main, t,
                        self.op_args())
        t += self.us(20.0, 60.0)
        host_bytes = 0
        for _ in range(2):
            nb = a.batch * 64 * 4
            self.mem(M, main, t + 500, 0, nb)
            host_bytes += nb
            i = self.op(M, "aten::stack", main, t)
            t = self.leaf(M, "aten::cat", main, t + self.us(1.0, 3.0), 8.0, 30.0)
            t += self.us(1.0, 3.0)
            self.end(M, i, t)
        t += self.us(5.0, 20.0) + self.slow
        self.end(M, dl, t)
        for nbytes in (a.batch * a.hidden * 4, a.batch * a.hidden * 4):
            t += self.us(2.0, 6.0)
            to = self.op(M, "aten::to", main, t)
            tc = self.op(M, "aten::_to_copy", main, t + self.us(1.0, 3.0))
            t = self.leaf(M, "aten::empty_strided", main, t + self.us(4.0, 6.0), 2.0, 6.0)
            t = self.op_launch(M, G, "aten::copy_", main, t + self.us(1.0, 2.0), "htod",
                               api="cudaMemcpyAsync", cbid=41, nbytes=nbytes)
            t += self.us(1.0, 3.0)
            self.end(M, tc, t)
            t += self.us(1.0, 2.0)
            self.end(M, to, t)
        t += self.us(3.0, 8.0)
        zg = self.begin(M, "user_annotation", "Optimizer.zero_grad#AdamW.zero_grad", main, t,
                        self.op_args())
        t += self.us(15.0, 40.0)
        self.end(M, zg, t)
        # forward
        args, root = self.py_args(0, 0)
        model = self.begin(M, "python_function", "nn.Module: DistributedDataParallel_0", main, t, args)
        t += self.us(10.0, 30.0)
        seqs = []
        for layer in range(a.layers):
            args, lid = self.py_args(root, 2 * layer + 1)
            mod = self.begin(M, "python_function", "nn.Module: Linear_%d" % layer, main, t, args)
            t += self.us(3.0, 8.0)
            args, _ = self.py_args(lid)
            bi = self.begin(M, "python_function", "<built-in function linear>", main, t, args)
            t += self.us(1.0, 2.0)
            lin = self.op(M, "aten::linear", main, t, self.dims_act)
            t += self.us(1.0, 3.0)
            tt = self.op(M, "aten::t", main, t)
            tr = self.op(M, "aten::transpose", main, t + self.us(1.0, 2.0))
            t = self.leaf(M, "aten::as_strided", main, t + self.us(2.0, 4.0), 0.5, 2.0)
            t += self.us(0.5, 1.5)
            self.end(M, tr, t)
            t += self.us(0.5, 1.5)
            self.end(M, tt, t)
            t += self.us(1.0, 3.0)
            self.seqnr += 1
            self.flow += 1
            seqs.append((self.seqnr, self.flow))
            mm = self.op(M, "aten::addmm", main, t, self.dims_act, seq=self.seqnr)
            self.mem(M, main, t + 700, 1, a.batch * a.hidden * 4)
            M.append(self.fs(self.flow, self.pid, main, t, "fwdbwd"))
            c1 = self.launch(M, G, main, t + self.us(4.0, 9.0), "gemm_fwd")
            t = c1 + self.us(2.0, 5.0)
            self.end(M, mm, t)
            t += self.us(1.0, 2.0)
            self.end(M, lin, t)
            t += self.us(1.0, 2.0)
            self.end(M, bi, t)
            t += self.us(1.0, 3.0)
            self.end(M, mod, t)
            t += self.us(2.0, 5.0)
            args, rid = self.py_args(root, 2 * layer + 2)
            mod = self.begin(M, "python_function", "nn.Module: ReLU_%d" % layer, main, t, args)
            t += self.us(3.0, 6.0)
            relu = self.op(M, "aten::relu", main, t)
            t = self.op_launch(M, G, "aten::clamp_min", main, t + self.us(1.0, 3.0), "relu")
            t += self.us(1.0, 2.0)
            self.end(M, relu, t)
            t += self.us(1.0, 3.0)
            self.end(M, mod, t)
            t += self.us(2.0, 5.0)
        self.end(M, model, t)
        # loss
        t += self.us(3.0, 8.0)
        args, _ = self.py_args(0, 2 * a.layers + 1)
        lm = self.begin(M, "python_function", "nn.Module: MSELoss_0", main, t, args)
        t += self.us(3.0, 6.0)
        self.seqnr += 1
        loss_seq = self.seqnr
        mse = self.op(M, "aten::mse_loss", main, t, seq=loss_seq)
        t += self.us(1.0, 3.0)
        for name, key in (("aten::sub", "sub"), ("aten::pow", "pow"), ("aten::mean", "mean")):
            t = self.op_launch(M, G, name, main, t, key) + self.us(1.0, 3.0)
        self.end(M, mse, t)
        t += self.us(1.0, 3.0)
        self.end(M, lm, t)
        # backward: the main thread seeds the gradient, the autograd thread runs
        t += self.us(5.0, 12.0)
        args, bp = self.py_args(0)
        pb = self.begin(M, "python_function", "torch/_tensor.py(522): backward", main, t, args)
        t += self.us(3.0, 6.0)
        args, _ = self.py_args(bp)
        pb2 = self.begin(M, "python_function", "torch/autograd/__init__.py(266): backward", main, t,
                         args)
        t += self.us(3.0, 6.0)
        ol = self.op(M, "aten::ones_like", main, t)
        t = self.leaf(M, "aten::empty_like", main, t + self.us(1.0, 2.0), 2.0, 5.0)
        t = self.op_launch(M, G, "aten::fill_", main, t + self.us(1.0, 2.0), "fill")
        t += self.us(1.0, 2.0)
        self.end(M, ol, t)
        tb = t + self.us(8.0, 25.0)
        ev = self.op(B, "autograd::engine::evaluate_function: MseLossBackward0", bwd, tb)
        nd = self.op(B, "MseLossBackward0", bwd, tb + self.us(1.0, 3.0), seq=loss_seq)
        tb = self.op_launch(B, G, "aten::mse_loss_backward", bwd, tb + self.us(3.0, 6.0), "mse_bwd")
        tb += self.us(1.0, 3.0)
        self.end(B, nd, tb)
        tb += self.us(1.0, 2.0)
        self.end(B, ev, tb)
        pending = 0
        for layer in range(a.layers - 1, -1, -1):
            seq, flow = seqs[layer]
            tb += self.us(3.0, 8.0)
            ev = self.op(B, "autograd::engine::evaluate_function: ReluBackward0", bwd, tb)
            nd = self.op(B, "ReluBackward0", bwd, tb + self.us(1.0, 2.0))
            tb = self.op_launch(B, G, "aten::threshold_backward", bwd, tb + self.us(2.0, 4.0),
                                "threshold")
            tb += self.us(1.0, 2.0)
            self.end(B, nd, tb)
            tb += self.us(1.0, 2.0)
            self.end(B, ev, tb)
            tb += self.us(3.0, 8.0)
            ev = self.op(B, "autograd::engine::evaluate_function: AddmmBackward0", bwd, tb)
            self.mem(B, bwd, tb + 600, 1, -(a.batch * a.hidden * 4))
            B.append(self.ff(flow, self.pid, bwd, tb, "fwdbwd"))
            nd = self.op(B, "AddmmBackward0", bwd, tb + self.us(1.0, 3.0), seq=seq)
            tb += self.us(4.0, 8.0)
            if layer > 0:
                tb = self.leaf(B, "aten::t", bwd, tb, 2.0, 5.0)
                tb = self.op_launch(B, G, "aten::mm", bwd, tb + self.us(1.0, 2.0), "gemm_dgrad",
                                    dims=self.dims_act)
            tb = self.leaf(B, "aten::t", bwd, tb + self.us(1.0, 2.0), 2.0, 5.0)
            tb = self.op_launch(B, G, "aten::mm", bwd, tb + self.us(1.0, 2.0), "gemm_wgrad",
                                dims=self.dims_act)
            tb = self.op_launch(B, G, "aten::sum", bwd, tb + self.us(1.0, 3.0), "sum")
            tb += self.us(1.0, 3.0)
            self.end(B, nd, tb)
            tb += self.us(1.0, 2.0)
            self.end(B, ev, tb)
            for key in ("add_w", "add_b"):
                tb += self.us(2.0, 6.0)
                ev = self.op(B, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
                             bwd, tb)
                nd = self.op(B, "torch::autograd::AccumulateGrad", bwd, tb + self.us(1.0, 2.0))
                tb = self.op_launch(B, G, "aten::add_", bwd, tb + self.us(2.0, 5.0), key)
                tb += self.us(1.0, 2.0)
                self.end(B, nd, tb)
                tb += self.us(1.0, 2.0)
                self.end(B, ev, tb)
            pending += 1
            if pending == a.bucket or layer == 0:
                # a gradient bucket is ready: all-reduce it on NCCL's stream
                pending = 0
                tb += self.us(4.0, 10.0)
                ar = self.begin(B, "user_annotation", "nccl:all_reduce", bwd, tb, self.op_args())
                rc = self.op(B, "record_param_comms", bwd, tb + self.us(2.0, 5.0))
                tb = self.launch(B, G, bwd, tb + self.us(10.0, 25.0), "nccl", stream=self.ns,
                                 dep=self.free[self.cs])
                tb += self.us(2.0, 6.0)
                self.end(B, rc, tb)
                tb += self.us(1.0, 3.0)
                self.end(B, ar, tb)
        t = max(t, tb) + self.us(5.0, 15.0)
        self.end(M, pb2, t)
        t += self.us(1.0, 3.0)
        self.end(M, pb, t)
        # the gradient-norm accumulator: a memset
        t += self.us(4.0, 10.0)
        zs = self.op(M, "aten::zeros", main, t)
        t = self.leaf(M, "aten::empty", main, t + self.us(1.0, 2.0), 1.5, 4.0)
        t = self.op_launch(M, G, "aten::zero_", main, t + self.us(1.0, 2.0), "memset",
                           api="cudaMemsetAsync", cbid=51, nbytes=4 * a.layers)
        t += self.us(1.0, 2.0)
        self.end(M, zs, t)
        # optimizer: waits (on the GPU) for the last all-reduce
        t += self.us(5.0, 12.0)
        op = self.begin(M, "user_annotation", "Optimizer.step#AdamW.step", main, t, self.op_args())
        t += self.us(10.0, 25.0)
        fa = self.op(M, "aten::_fused_adamw_", main, t)
        t += self.us(5.0, 10.0)
        for _ in range(max(1, a.layers // 4)):
            t = self.launch(M, G, main, t, "adamw", dep=self.free[self.ns]) + self.us(2.0, 5.0)
        self.end(M, fa, t)
        t += self.us(2.0, 6.0)
        self.end(M, op, t)
        # loss.item(): a 4-byte copy back, and the host waits for the GPU
        t += self.us(3.0, 8.0)
        it = self.op(M, "aten::item", main, t)
        ld = self.op(M, "aten::_local_scalar_dense", main, t + self.us(1.0, 3.0))
        t = self.launch(M, G, main, t + self.us(4.0, 8.0), "dtoh", api="cudaMemcpyAsync", cbid=41,
                        nbytes=4)
        self.corr += 1
        done = max(t, self.free[self.cs]) + self.us(2.0, 6.0)
        M.append(self.xe("cuda_runtime", '"cudaStreamSynchronize"', self.pid, main, t, done - t,
                          '"External id": %d, "cbid": 131, "correlation": %d' % (self.ext, self.corr)))
        t = done + self.us(1.0, 3.0)
        self.end(M, ld, t)
        t += self.us(1.0, 2.0)
        self.end(M, it, t)
        t += self.us(10.0, 30.0)
        for tid, nbytes in self.step_allocs:
            self.memory(M if tid == main else B, tid, t - 2000, -nbytes)
        self.mem(M, main, t - 800, 0, -host_bytes)
        self.end(M, st, t)
        gend = max(self.free.values())
        G.append(self.xe("gpu_user_annotation", '"ProfilerStep#%d"' % n, self.dev, self.cs,
                         self.gpu_first, gend - self.gpu_first,
                          '"External id": %d' % step_ext))
        self.t = t + self.us(30.0, 90.0)
        self.out.write(",\n" + ",\n".join(e for e in M + B + G if e is not None))

    def metadata_2021(self, t_end):
        """PyTorch 1.9's records: processes "python" labelled CPU and GPU N,
        the CPU threads named under the string of their tid, no stream
        names, no sort indices; the profiler's span in the process "Traces"
        and its two global instants."""
        a = self.a
        t0 = (self.base) // 1000
        recs = []

        def m(name, pid, tid, args):
            recs.append('  {\n    "name": "%s", "ph": "M", "ts": %d,\n    "pid": %d, "tid": %s,\n'
                        '    "args": {\n      %s\n    }\n  }' % (name, t0, pid, tid, args))

        m("process_name", self.pid, 0, '"name": "python"')
        m("process_labels", self.pid, 0, '"labels": "CPU"')
        for d in range(a.devices):
            m("process_name", d, 0, '"name": "python"')
            m("process_labels", d, 0, '"labels": "GPU %d"' % d)
        for tid in (self.bwd, self.main):
            m("thread_name", self.pid, '"%d"' % tid, '"name": "thread %d (python)"' % tid)
        recs.append('  {\n    "ph": "X", "cat": "Trace", "ts": %d, "dur": %d,\n'
                    '    "pid": "Traces", "tid": "PyTorch Profiler",\n'
                    '    "name": "PyTorch Profiler (0)",\n    "args": {\n      "Op count": 0\n    }\n  }'
                    % (t0, t_end // 1000))
        recs.append('  {\n    "name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g",\n'
                    '    "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": %d\n  }' % t0)
        recs.append('  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n'
                    '    "pid": "", "tid": "", "ts": %d\n  }' % ((self.base + t_end) // 1000))
        return ",\n".join(recs)

    def metadata(self, t_end):
        if self.old:
            return self.metadata_2021(t_end)
        a = self.a
        ts0 = self.ts(0)
        recs = []

        def m(name, pid, tid, args):
            recs.append(META % (name, ts0, pid, tid, args))

        pid = self.pid
        m("process_name", pid, 0, '"name": "python3"')
        m("process_labels", pid, 0, '"labels": "CPU"')
        m("process_sort_index", pid, 0, '"sort_index": %d' % pid)
        for d in range(a.devices):
            m("process_name", d, 0, '"name": "python3"')
            m("process_labels", d, 0, '"labels": "GPU %d"' % d)
            m("process_sort_index", d, 0, '"sort_index": %d' % (16777216 + d))
        for s in sorted((self.cs, self.ns)):
            m("thread_name", self.dev, s, '"name": "stream %d "' % s)
            m("thread_sort_index", self.dev, s, '"sort_index": %d' % s)
        m("thread_name", pid, self.main, '"name": "thread %d (python3)"' % self.main)
        m("thread_sort_index", pid, self.main, '"sort_index": %d' % self.main)
        # Kineto names the autograd thread twice; the later record is the one to keep.
        m("thread_name", pid, self.bwd, '"name": "thread %d (python3)"' % self.bwd)
        m("thread_sort_index", pid, self.bwd, '"sort_index": %d' % self.bwd)
        m("thread_name", pid, self.bwd, '"name": "thread %d (pt_autograd_0)"' % self.bwd)
        m("thread_sort_index", pid, self.bwd, '"sort_index": %d' % self.bwd)
        recs.append('  {\n    "ph": "X", "cat": "Trace", "ts": %s, "dur": %s,\n'
                    '    "pid": "Spans", "tid": "PyTorch Profiler",\n'
                    '    "name": "PyTorch Profiler (0)",\n    "args": {\n      "Op count": 0\n    }\n  }'
                    % (ts0, "%d.%03d" % divmod(t_end, 1000)))
        recs.append(META % ("process_sort_index", ts0, '"Spans"', 0, '"sort_index": 536870912'))
        recs.append('  {\n    "name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g",\n'
                    '    "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": %s\n  }' % ts0)
        recs.append('  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n'
                    '    "pid": "", "tid": "", "ts": %s\n  }' % self.ts(t_end))
        return ",\n".join(recs)


def cmd_kineto(a):
    if a.format == "2021" and a.memory:
        sys.stderr.write("gentrace.py kineto: --format 2021 writes its own [memory] instants "
                         "(--memory-totals adds the totals); --memory is for today's format\n")
        return 2
    rng = Rand(a.seed)
    out = Out(a.out, gz=a.gzip)
    k = Kineto(a, rng, out)
    if k.old:
        out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": %s,\n  "traceEvents": [\n'
                  % gpu_properties(a.devices, False))
    else:
        out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": %s,\n'
                  '  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": %d},\n'
                  '  "record_shapes": 1,\n  "traceEvents": [\n' % (gpu_properties(a.devices, False),
                                                                    a.devices))
    # The first event opens the array without a comma; the profiler's own
    # span of the whole run comes first in time anyway.
    k.t = k.us(40.0, 120.0)
    w0 = k.us(5.0, 20.0)
    out.write(k.xe("user_annotation", '"## warmup ##"', k.pid, k.main, w0, k.us(1.0, 9.0),
                   k.op_args()))
    tail_len = 3000 + 700 * a.devices
    n = a.first_step
    steps = a.steps
    while True:
        if a.size is not None:
            if out.count + tail_len >= a.size:
                break
        elif n - a.first_step >= steps:
            break
        k.step(n)
        n += 1
    t_end = k.t + k.us(50.0, 150.0)
    out.write(",\n" + k.metadata(t_end))
    if k.old:
        out.write('\n  ]\n}\n')
    else:
        out.write('\n  ],\n  "traceName": "rank0.%d.pt.trace.json",\n  "displayTimeUnit": "ms",\n'
                  '  "baseTimeNanoseconds": %d\n}\n' % (k.pid, k.base // 1000000000 * 1000000000))
    out.close()
    return 0


# ---------------------------------------------------------------------------
# ranks: the Kineto traces of the ranks of one job
# ---------------------------------------------------------------------------

QUARTER_NS = 7889238 * 1_000_000_000  # Kineto's base time: 3 months


def parse_ranks(text):
    try:
        return sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError("not a list of ranks: %r" % text)


def cmd_ranks(a):
    """One Kineto trace per rank, as modern Kineto writes them: times in
    microseconds from baseTimeNanoseconds (the start time floored to three
    months), distributedInfo with the rank and the world size.  The ranks
    run in step: each step starts on every rank when the slowest has
    finished the one before (the all-reduce waits for it), give or take a
    few microseconds.  Rank r's clock runs r * --skew-us ahead; --slow-rank
    does --slow-us more host work per step; --vary-steps gives rank r
    r % 3 more steps; --missing leaves ranks out; --split-base R: ranks from
    R on started the profiler after a quarter turned, so their base is the
    next one (their times count from it)."""
    import os
    job = Rand(a.seed)
    start = epoch_ns(job)
    base = start // QUARTER_NS * QUARTER_NS
    if a.split_base is not None:
        # the job starts an hour after a quarter turned; early ranks still
        # hold the quarter before as their base
        start = base + QUARTER_NS + 3_600_000_000_000
    os.makedirs(a.out_dir, exist_ok=True)
    ranks = []
    for r in range(a.world_size):
        rng = Rand(a.seed * 1000 + r + 1)
        name = os.path.join(a.out_dir, "%s%d.json%s" % (a.prefix, r, ".gz" if a.gzip else ""))
        # a missing rank runs, but its trace is not written
        out = Out(os.devnull if r in a.missing else name, gz=a.gzip)
        k = Kineto(a, rng, out)
        k.dev = r % a.devices
        if r == a.slow_rank:
            k.slow = int(a.slow_us * 1000)
        b = base + QUARTER_NS if a.split_base is not None and r >= a.split_base else base
        # its clock: true time less its base, plus its skew
        k.base = start - b + int(a.skew_us * 1000) * r
        out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": %s,\n'
                  '  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d},\n'
                  '  "record_shapes": 1,\n  "traceEvents": [\n'
                  % (gpu_properties(a.devices, False), r, a.world_size))
        k.t = k.us(40.0, 120.0)
        out.write(X_FMT % ("user_annotation", '"## warmup ##"', k.pid, k.main, k.ts(k.us(5.0, 20.0)),
                           "%d.%03d" % divmod(k.us(1.0, 9.0), 1000), k.op_args()))
        steps = a.steps + (r % 3 if a.vary_steps else 0)
        ranks.append((r, b, k, out, steps))
    tail_len = 3000 + 700 * a.devices
    n = a.first_step
    t = max(k.t for _, _, k, _, _ in ranks)
    while True:
        running = []
        for r, b, k, out, steps in ranks:
            if a.size is not None:
                if out.count + tail_len >= a.size:
                    continue
            elif n - a.first_step >= steps:
                continue
            running.append(k)
        if not running:
            break
        for k in running:
            k.t = t + k.us(0.0, 6.0)
            k.step(n)
        t = max(k.t for k in running)
        n += 1
    for r, b, k, out, steps in ranks:
        t_end = k.t + k.us(50.0, 150.0)
        out.write(",\n" + k.metadata(t_end))
        out.write('\n  ],\n  "traceName": "rank%d.pt.trace.json",\n  "displayTimeUnit": "ms",\n'
                  '  "baseTimeNanoseconds": %d\n}\n' % (r, b))
        out.close()
    return 0
