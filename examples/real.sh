#!/bin/sh
# Renders the README's pictures of real traces: files written by PyTorch's
# profiler, clang and Chrome, which belong to other projects and are not in
# this repository.  Reads them from ../shared/real-traces (or $REAL_TRACES)
# and writes examples/real/NAME.svg; says SKIP when they are not there.
#
#   real.sh TRACEFIG
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")"
src=${REAL_TRACES:-../../shared/real-traces}
if [ ! -d "$src" ]; then
    echo "SKIP examples/real: no real traces in $src (set REAL_TRACES)"
    exit 0
fi
src=$(cd "$src" && pwd)
mkdir -p real
status=0
render() {
    name=$1
    shift
    if "$bin" "$@" -o "real/$name.svg"; then echo "examples: real/$name.svg"; else status=1; fi
}
# PyTorch profiler (Kineto), one rank of a distributed job: one training
# step, host threads renamed, NCCL kernels on their own streams.
render pytorch-distributed --trace "$src/hta-dist-rank0.json.gz" --window-event 'ProfilerStep#551' --annotate \
    --lanes '*thread 4037*=Main thread,*thread 23695*=Backward thread,GPU*'
# Marks on the same step: its span, the two NCCL kernels that compute
# hardly covers (the exposed communication) measured, the rest faded.
render pytorch-marks --trace "$src/hta-dist-rank0.json.gz" --window-event 'ProfilerStep#551' \
    --lanes '*thread 4037*=Main thread,*thread 23695*=Backward thread,GPU*' \
    --span 'ProfilerStep#551=step {dur}' --measure 'ncclKernel_SendRecv*@2=exposed NCCL {dur}' \
    --measure 'ncclKernel_SendRecv*@4=exposed NCCL {dur}' --highlight 'ncclKernel*,ProfilerStep*' \
    --width 3.3in
# The critical path of the same step (HTA's graph): its events in colour,
# the rest faded, arrows where it crosses lanes, its length above the plot.
render pytorch-critical-path --trace "$src/hta-dist-rank0.json.gz" --window-event 'ProfilerStep#551' \
    --lanes '*thread 4037*=Main thread,*thread 23695*=Backward thread,GPU*' --critical-path \
    --width 3.3in
# Zoom: the same step, and under it one exposed NCCL kernel in a panel of
# its own, joined to its band; the measure is drawn in both panels.
render pytorch-zoom --trace "$src/hta-dist-rank0.json.gz" --window-event 'ProfilerStep#551' \
    --lanes '*thread 4037*=Main thread,*thread 23695*=Backward thread,GPU*' \
    --measure 'ncclKernel_SendRecv*@2=exposed NCCL {dur}' --zoom 'ncclKernel_SendRecv*@2' \
    --width 3.3in
# clang -ftime-trace: one compile as a flame chart; the 148 "Total ..."
# summary threads are hidden by default.
render clang-time-trace --trace "$src/clang-ftime-trace.json"
# TensorFlow 1.x timeline: every op is category "Op", so they are coloured
# by name; the aggregate lanes are hidden by default.
render tf1-timeline --trace "$src/tf1-timeline.ctf.json"

# PyTorch 1.9 (Kineto, 2021): one ResNet-50 step with the GPU's memory
# track (from the trace's [memory] events) over the host threads and GPU.
render kineto-memory --trace "$src/kineto-resnet50-nw0.pt.trace.json.gz" --window-event 'ProfilerStep#7' \
    --lanes '*memory CUDA*=GPU memory,*25738*=Main thread,*25772*=Backward thread,GPU 0*=GPU 0' --width 480pt
# Chrome: 250 ms of browser threads with the IPC flows between them.
render chrome-flows --trace "$src/chrome-flow.json" --from 3.55s --to 3.8s --flows
# Several traces: the two ranks of the distributed sample on one clock, one
# step; HTA's trace-diff pair as a before and an after, their second steps.
render two-ranks "$src/hta-dist-rank0.json.gz" "$src/hta-dist-rank1.json.gz" \
    --window-event 'ProfilerStep#551' --lanes 'GPU*'
render before-after "$src/hta-diff-control.json.gz" "$src/hta-diff-test.json.gz" \
    --titles control,test --window-event 'ProfilerStep#*' --occurrence 2 --lanes 'GPU*'
# Nsight Systems (nsys 2024.6 export of nvFuser's test_matmul): one NVTX
# range with its CUDA calls, the kernels they launch and the flows between.
render nsys-nvfuser --trace "$src/nsys/fuser-2024-report1.sqlite" \
    --window-event KernelExecutor::runFusion --pad 20 --flows
# rocpd (rocprofv3, ROCm 7.1.1, a batched GEMM on an MI300X): the whole run,
# and 160 us of it with the kernels coloured by name and the launches' flows.
render rocpd-bmm --trace "$src/rocpd/mi300x-bmm-15.rocpd.db"
render rocpd-bmm-zoom --trace "$src/rocpd/mi300x-bmm-15.rocpd.db" --from 679.64ms --to 679.8ms \
    --flows --color-by name --width 7in
# OTF2 (Score-P 3.0, a 4-D stencil on 32 MPI ranks): one iteration of its
# TRACER_Loop on every rank, with the point-to-point messages as arrows,
# at a column's width.
render otf2-stencil32 "$src/otf2/tracer-stencil4d-32/traces.otf2" --window-event TRACER_Loop \
    --flows --width 3.3in
# Perfetto (Android 13 traced on a Pixel 6a, a warm app start): the eight
# CPU lanes from the kernel's scheduling (compact_sched), each thread's
# time on a CPU coloured by its process, idle left empty; and the app's
# activityStart with the threads' atrace slices over the CPUs.
render perfetto-android-cpus "$src/perfetto-proto/android-startup-warm.perfetto-trace" --lanes 'CPU*'
render perfetto-android-start "$src/perfetto-proto/android-startup-warm.perfetto-trace" \
    --window-event activityStart --pad 10 \
    --lanes '*roidJUnitRunner*,*macrobenchmark.target / *enchmark.target*,*RenderThread (tid 7684)*,*surfaceflinger (tid 513)*,CPU*'
# Rust tracing-perfetto (a tokio runtime test): the workers' tasks and parks.
render perfetto-tokio "$src/perfetto-proto/tokio-tracing.pftrace"
# XPlane (JAX on four TPU v6 Lite chips, XProf's test data): one step
# (the XLA module jit_f) on two chips, modules above ops and the async
# copies in rows of their own, and the host threads that launched it.
render xplane-tpu-step "$src/xplane/xprof-tpu-inference.xplane.pb" --window-event 'jit_f*' \
    --lanes 'TPU 0*,TPU 1*,Host / main*,Host / py_xla_execute/3118851' --width 7in
# ftrace text (an Android atrace capture, Trace Compass's test data): the
# apps' atrace slices on their threads over the four CPUs' scheduling.
render ftrace-atrace "$src/ftrace/tc-atrace-youtube.txt"
# CTF (an LTTng kernel trace, 4 CPUs of an ARM board): each CPU's
# switched-in threads coloured by process, idle left empty.
render ctf-lttng-kernel "$src/ctf/lttng-kernel-bug446190"
exit $status
