#!/bin/sh
# xplane suite: run.sh TRACEFIG
#
# XPlane profiles written by the project's own generator
# (tests/tools/genxplane.py) under $TMPDIR, checked on the JSON figure model
# (tests/perfetto/check.py): GPU streams as Kineto's (kernels, memcpy,
# memset; the GPU breakdown), a derived line after them, host threads
# (display_name, else name), empty planes and lines left out; two TPU
# planes of the same plane and line ids, HLO instruction names shortened,
# events of 300 ps and ps offsets, overlapping async ops in rows, the XLA
# Modules as --window-event steps; stats of every value type and ref_value
# in the tooltips; correlation_id flows; two hosts' files on one clock;
# gzip and standard input; a Perfetto trace still read as one; a cut file,
# a damaged length and a UTF-8-mangled file (one line naming XPlane and the
# byte, exit 1, nothing written, an existing output untouched).  Each
# lane's event count (the model's lanes[i].events), the devices' kind,
# name and vendor in --stats; many sub-ns events, each counted, their busy
# time exact to the ps.  Profiles shaped as the kinds we have no file of:
# TensorFlow on an NVIDIA GPU (derived and Stats lines, /host:CUPTI,
# /host:metadata), JAX on AMD GPUs (epoch times), a TPU's planes
# (SparseCore, Task Environment, /host:TPU), and odd but valid files
# (negative offsets, undefined metadata, aggregates).  The generated files and the real ones in
# ../shared/real-traces/xplane (SKIP without) against xpdecode.py, an
# independent decoder (real.py), and against protobuf's own parser
# (pbcheck.py; SKIP without protoc and python3-protobuf): lanes, event
# counts and busy time per lane.
# Ends with "xplane: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
check=$root/tests/perfetto/check.py
w=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-xplane.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# model NAME CHECK... (after OPTS in $opts): draws $w/NAME.xplane.pb as JSON
model() {
    c=$1
    shift
    if "$bin" "$w/$c.xplane.pb" --stats $opts -o "$w/$c.json" >"$w/$c.out" 2>"$w/$c.err" &&
        python3 "$check" "$w/$c.json" "$@"; then ok; else bad "$c $opts: $(head -3 "$w/$c.err")"; fi
}
for c in gpu tpu subns launch host0 host1 tfgpu rocm tpufull odd gz cut badlen far mangled crlf; do
    python3 "$root/tests/tools/genxplane.py" $c "$w/$c.xplane.pb" || bad "genxplane $c"
done

# GPU streams, busiest first, then the derived line; host threads; empty
# planes (GPU 1, /host:metadata) and lines (Stream #18) left out
gpu_lanes="labels == ['GPU 0 / Stream #17(Kernel)', 'GPU 0 / Stream #16(Kernel)', 'GPU 0 / XLA Ops', 'Host / python', 'Host / Host Threads/99']"
gpu_busy="busy['GPU 0 / Stream #16(Kernel)'] == 0.016 and busy['GPU 0 / Stream #17(Kernel)'] == 0.02 and busy['GPU 0 / XLA Ops'] == 0.01 and busy['Host / python'] == 0.05 and busy['Host / Host Threads/99'] == 0.002"
opts=""
model gpu "$gpu_lanes" "$gpu_busy" \
    "names == {'gemm_kernel', 'MemcpyHtoD', 'Memset', 'nccl_allreduce', 'fusion.1', 'train_step', 'forward', 'marker', 'cuLaunchKernel'}" \
    "{'kernel', 'gpu_memcpy', 'gpu_memset', 'xla_op', 'cpu_op', 'cuda_runtime'} <= cats" \
    "[b['shape'] for b in m['bars'] if b['name'] == 'marker'] == ['instant']" \
    "[(b['x0'], b['x1']) for b in m['bars'] if b['name'] == 'gemm_kernel'] == [(3, 13)]" \
    "[b['row'] for b in m['bars'] if b['name'] == 'forward'] == [1]" \
    "m['window']['start_us'] == 1000 and m['window']['end_us'] == 1050" \
    "m['stats']['gpu_breakdown']['compute_ms'] > 0" \
    "[l['events'] for l in m['lanes']] == [1, 3, 1, 3, 1]" \
    "[l['events'] for l in m['stats']['lanes']] == [1, 3, 1, 3, 1]" \
    "m['stats']['devices'] == [{'device': 'GPU 0', 'kind': 'GPU', 'name': 'Acme X1', 'vendor': 'Acme'}]"
# --stats: each lane's event count, the device's kind, name and vendor
if grep -q '^GPU 0 / Stream #16(Kernel)  *1  *0.016  *32  *3$' "$w/gpu.out" &&
    grep -q '^Host / python  *3  *0.05  *100  *3$' "$w/gpu.out" &&
    grep -q '^GPU 0   GPU   Acme X1  Acme$' "$w/gpu.out" &&
    grep -q '^GPU breakdown (window)$' "$w/gpu.out" &&
    "$bin" "$w/gpu.xplane.pb" --stats=csv -o "$w/gpu2.json" >"$w/gpu.csv" &&
    grep -q '^lane,GPU 0 / Stream #16(Kernel),,events,3$' "$w/gpu.csv" &&
    grep -q '^device,GPU 0,,kind,GPU$' "$w/gpu.csv" &&
    grep -q '^device,GPU 0,,name,Acme X1$' "$w/gpu.csv" &&
    grep -q '^device,GPU 0,,vendor,Acme$' "$w/gpu.csv"
then ok; else bad "gpu: --stats events and devices: $(cat "$w/gpu.out" "$w/gpu.csv" | head -40)"; fi
# stats of every value type and ref_value, the whole HLO name, in tooltips
if "$bin" "$w/gpu.xplane.pb" -o "$w/gpu.svg" 2>/dev/null &&
    grep -q 'correlation_id: 1, flops: 1500000000.0, bytes_accessed: 4096' "$w/gpu.svg" &&
    grep -q 'kernel_details: regs:32, raw: (2 bytes), tf_op: jit_f/dot' "$w/gpu.svg" &&
    grep -q 'name: %fusion.1 = f32\[8\]{0} fusion(f32\[8\]{0} %p), kind=kLoop, display_name: fusion.1' "$w/gpu.svg"
then ok; else bad "gpu: stats and names in the tooltips"; fi
# correlation_id: the launch's arrow to its kernel
if "$bin" "$w/gpu.xplane.pb" --flows -o "$w/flows.json" 2>/dev/null &&
    python3 "$check" "$w/flows.json" "len(m['arrows']) == 1" \
        "m['arrows'][0]['from']['lane'] == 4 and m['arrows'][0]['to']['lane'] == 1"
then ok; else bad "gpu: correlation_id flows"; fi
# correlation_id joins a launch to its kernel for the critical path: the
# launch, 3 us of launch overhead, the kernel's 36 us (genxplane.py launch)
if "$bin" "$w/launch.xplane.pb" --critical-path -o "$w/launch.json" 2>/dev/null &&
    python3 "$check" "$w/launch.json" "abs(m['critical_path']['length'] - 0.039) < 1e-9" \
        "abs(m['critical_path']['breakdown']['gpu_compute_bound']['time'] - 0.036) < 1e-9" \
        "abs(m['critical_path']['breakdown']['gpu_kernel_launch_overhead']['time'] - 0.003) < 1e-9" \
        "sorted(b['name'] for b in m['bars'] if b.get('critical')) == ['gemm', 'hipModuleLaunchKernel']"
then ok; else bad "launch: the critical path through correlation_id"; fi
# gzip'd, and from standard input
model gz "$gpu_lanes" "$gpu_busy"
if "$bin" - -o "$w/stdin.json" <"$w/gpu.xplane.pb" 2>/dev/null &&
    python3 "$check" "$w/stdin.json" "$gpu_lanes"; then ok; else bad "standard input"; fi

# TPU planes of the same ids: their devices from their names; HLO text
# shortened; a 300 ps event and ps offsets (rounded at both ends to the
# ns); overlapping async ops in rows
model tpu "labels == ['TPU 0 / XLA Modules', 'TPU 0 / XLA Ops', 'TPU 0 / Async XLA Ops', 'TPU 1 / XLA Modules', 'TPU 1 / XLA Ops']" \
    "busy['TPU 0 / XLA Modules'] == 0.25 and busy['TPU 0 / XLA Ops'] == 0.0399998 and busy['TPU 0 / Async XLA Ops'] == 0.1 and busy['TPU 1 / XLA Ops'] == 0.08" \
    "{'fusion.3', 'copy.1', 'convolution.2', 'add.1', 'jit_f(123)', 'jit_g(456)', 'copy-start.3'} <= names" \
    "[(b['x0'], b['x1']) for b in m['bars'] if b['name'] == 'copy.1'] == [(40, 40.001)]" \
    "[(b['x0'], b['x1']) for b in m['bars'] if b['name'] == 'convolution.2'] == [(50.001, 60)]" \
    "[l['events'] for l in m['lanes']] == [3, 3, 3, 1, 1]" \
    "[d['device'] for d in m['stats']['devices']] == ['TPU 0', 'TPU 1']" \
    "m['stats']['devices'][0]['name'] == 'TPU v6 lite' and m['stats']['devices'][1]['name'] is None" \
    "sorted(b['row'] for b in m['bars'] if b['name'].startswith('copy-start')) == [0, 1, 2]"
# the exact ps in the tooltip
"$bin" "$w/tpu.xplane.pb" -o "$w/tpu.svg" 2>/dev/null &&
    grep -q 'convolution.2 · kernel · at 50.001 µs · 9.999 µs · name: %convolution.2 = f32\[8\]{0} convolution(%a, %b), offset_ps: 50000500, duration_ps: 9999500' "$w/tpu.svg" &&
    ok || bad "tpu: the exact ps in the tooltip"
# many sub-ns events: every one counted; each end drawn rounded to the
# ns, but the busy time is theirs to the ps (6 and 13 us exactly; rounded
# ends would make 0 and 10 us; tracefig-inputs(5), XPLANE PROFILES), and
# so is the TPU breakdown's compute; a TPU's name and vendor
model subns "busy['TPU 0 / XLA Ops'] == 0.006 and busy['TPU 0 / Async XLA Ops'] == 0.013" \
    "m['stats']['lanes'][1]['busy_pct'] == 30 and m['stats']['lanes'][2]['busy_pct'] == 65" \
    "m['stats']['gpu_breakdown']['compute_ms'] == 0.006" \
    "[l['events'] for l in m['lanes']] == [1, 20000, 10000]" \
    "m['stats']['devices'] == [{'device': 'TPU 0', 'kind': 'TPU', 'name': 'TPU v5p', 'vendor': 'Google'}]"
grep -q '^TPU 0   TPU   TPU v5p  Google$' "$w/subns.out" && grep -q '^TPU breakdown (window)$' "$w/tpu.out" &&
    grep -q '^summary: TPU compute' "$w/tpu.out" && ok || bad "subns, tpu: --stats: $(cat "$w/subns.out" "$w/tpu.out")"
# XLA Modules are steps: --window-event
opts="--window-event jit_g*"
model tpu "m['window']['start_us'] == 205 and m['window']['end_us'] == 255"
opts=""

# profiles shaped as the kinds we have no file of (genxplane.py): never
# refused, every line with events a lane or named in a note.  TensorFlow
# on an NVIDIA GPU: streams busiest first, then the derived lines;
# /host:CUPTI's thread (CUDA calls); the host's threads and its TensorFlow
# Ops, Name Scope and Steps lines; no /host:metadata lane; an aggregate
# (num_occurrences) counted as the XEvent it is, a line of aggregates
# alone in a note; the device named by ref_value
model tfgpu "labels[:3] == ['GPU 0 / Stream #14(Kernel)', 'GPU 0 / Stream #15(MemcpyH2D)', 'GPU 0 / Stream #16(MemcpyD2H)']" \
    "{'Host / tf_Compute', 'Host / TensorFlow Ops', 'Host / TensorFlow Name Scope', 'Host / Steps'} <= set(labels)" \
    "'host:CUPTI / 7777' in labels and not [l for l in labels if 'metadata' in l]" \
    "[l['events'] for l in m['lanes'] if l['label'] == 'GPU 0 / Launch Stats'] == [3]" \
    "m['notes'][0] == 'GPU 0 / Kernel Stats: 2 aggregated events (num_occurrences, no time), not drawn'" \
    "busy['GPU 0 / Stream #16(MemcpyD2H)'] == 0.0015 and busy['GPU 0 / Launch Stats'] == 0.001" \
    "{'gpu_memcpy', 'kernel', 'tf_op', 'tf_name_scope', 'step'} <= cats" \
    "{b['category'] for b in m['bars'] if b['lane'] == labels.index('host:CUPTI / 7777')} == {'cuda_runtime'}" \
    "m['stats']['devices'] == [{'device': 'GPU 0', 'kind': 'GPU', 'name': 'NVIDIA A100-SXM4-40GB', 'vendor': 'Nvidia'}]"
grep -q 'tfgpu.xplane.pb: 3 events with num_occurrences (no time) not drawn' "$w/tfgpu.err" &&
    ok || bad "tfgpu: the aggregates' warning: $(cat "$w/tfgpu.err")"
# JAX on AMD GPUs: epoch timestamps, ps offsets that are no whole ns (busy
# to the ps), a 300-character kernel name, both devices' vendor
model rocm "labels[:2] == ['GPU 0 / Stream #16(Kernel)', 'GPU 0 / Stream #17(Kernel)'] and 'GPU 1 / Stream #16(Kernel)' in labels" \
    "busy['GPU 0 / Stream #16(Kernel)'] == 0.007000789 and busy['GPU 0 / Stream #17(Kernel)'] == 0.000000999" \
    "[d['vendor'] for d in m['stats']['devices']] == ['AMD', 'AMD']" \
    "m['stats']['devices'][0]['name'] == 'AMD Instinct MI300X'"
# a TPU's lines (Steps, Sparse Core Ops of 300 ps events), a SparseCore
# plane of the same device, Task Environment (no lines), /host:TPU
model tpufull "labels[:2] == ['TPU 0 / XLA Modules', 'TPU 0 / XLA Ops']" \
    "'TPU 0 SparseCore 0 / XLA Ops' in labels and 'host:TPU / tpu_runtime' in labels" \
    "busy['TPU 0 / Sparse Core Ops'] == 0.0000018 and busy['TPU 0 / XLA Ops'] == 0.040005" \
    "[d['device'] for d in m['stats']['devices']] == ['TPU 0', 'TPU 0 SparseCore 0', 'TPU 1']"
# odd but valid: epoch timestamps with negative, zero and late offsets, a
# metadata id no metadata defines, two lines of one id, aggregates
model odd "sorted(labels) == ['Host / agg (tid 2)', 'Host / agg (tid 4)', 'Host / epoch', 'Host / negative']" \
    "busy['Host / epoch'] == 0.007000101 and busy['Host / negative'] == 1" \
    "any(n.startswith('metadata ') for n in names)" \
    "[l['events'] for l in m['lanes'] if l['label'] == 'Host / agg (tid 2)'] == [4]" \
    "m['notes'] == ['Host / aggonly: 1 aggregated event (num_occurrences, no time), not drawn']"

# two hosts' files: one figure, one clock (host 1 starts 1 ms later)
if "$bin" "$w/host0.xplane.pb" "$w/host1.xplane.pb" -o "$w/hosts.json" 2>"$w/hosts.err" &&
    python3 - "$w/hosts.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert [l['label'] for l in m['lanes']] == ['Host / worker'] * 2
assert [l['trace'] for l in m['lanes']] == [0, 1]
assert [(b['lane'], round(b['x0'])) for b in m['bars']] == [(0, 0), (1, 1000)], m['bars']
assert [t['lanes'][0]['busy_ms'] for t in m['stats']] == [2, 2]
PY
then ok; else bad "two hosts: $(head -2 "$w/hosts.err")"; fi

# a Perfetto trace is still one
if python3 "$root/tests/tools/pfwrite.py" tracks "$w/t.pftrace" &&
    "$bin" "$w/t.pftrace" -o "$w/t.json" 2>/dev/null &&
    python3 "$check" "$w/t.json" "'app / main' in labels"; then ok; else bad "Perfetto read as XPlane"; fi

# damaged files: one line naming XPlane and the byte, exit 1, nothing written
echo keep >"$w/old.svg"
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:%064d\nsize 1234\n' 0 \
    >"$w/lfs.xplane.pb"
for c in cut badlen far mangled crlf; do
    "$bin" "$w/$c.xplane.pb" -o "$w/$c.svg" >"$w/$c.out" 2>"$w/$c.err"
    rc=$?
    if [ $rc -eq 1 ] && [ "$(wc -l <"$w/$c.err")" -eq 1 ] && [ ! -e "$w/$c.svg" ] &&
        grep -q "^tracefig: .*$c.xplane.pb: byte [0-9]*: damaged XPlane: " "$w/$c.err"
    then ok; else bad "$c: rc $rc: $(head -3 "$w/$c.err")"; fi
    "$bin" "$w/$c.xplane.pb" -o "$w/old.svg" 2>/dev/null
    [ "$(cat "$w/old.svg")" = keep ] && ok || bad "$c: an existing output clobbered"
done
grep -q 'runs past the end of its message' "$w/badlen.err" && ok || bad "badlen: $(cat "$w/badlen.err")"
grep -q 'byte 13:' "$w/badlen.err" && ok || bad "badlen: the byte: $(cat "$w/badlen.err")"
grep -q 'cut' "$w/cut.err" && ok || bad "cut: $(cat "$w/cut.err")"
grep -q "an event's time .* lies beyond 4e18 ns from 1970" "$w/far.err" && ok || bad "far: $(cat "$w/far.err")"
grep -q 'UTF-8 text conversion: the bytes ef bf bd' "$w/mangled.err" && ok || bad "mangled: $(cat "$w/mangled.err")"
grep -q 'byte 0: damaged XPlane: the file went through a text conversion of its line ends' "$w/crlf.err" &&
    ok || bad "crlf: $(cat "$w/crlf.err")"
# a Git LFS pointer in the profile's place: one line that says so
"$bin" "$w/lfs.xplane.pb" -o "$w/lfs.svg" 2>"$w/lfs.err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$w/lfs.err")" -eq 1 ] && [ ! -e "$w/lfs.svg" ] &&
    grep -q 'lfs.xplane.pb: a Git LFS pointer' "$w/lfs.err" && ok || bad "lfs: rc $rc: $(cat "$w/lfs.err")"

# seeded damages (damage.py: cut, flipped, zeroed or inserted bytes, a
# longer varint; tests/fuzz/xplane_damage.sh is the long loop): exit 0, or
# 1 with one line and nothing written
dmg=0
for seed in $(seq 1 24); do
    set -- gpu tpu gz
    k=$((seed % 3 + 1))
    eval "c=\${$k}"
    python3 "$here/damage.py" "$w/$c.xplane.pb" "$w/dmg.xplane.pb" "$seed" >"$w/dmg.what"
    rm -f "$w/dmg.json"
    "$bin" "$w/dmg.xplane.pb" --stats --flows -o "$w/dmg.json" >/dev/null 2>"$w/dmg.err"
    rc=$?
    if ! { [ $rc -eq 0 ] || { [ $rc -eq 1 ] && [ "$(wc -l <"$w/dmg.err")" -eq 1 ] &&
        [ ! -e "$w/dmg.json" ]; }; }; then
        dmg=$((dmg + 1))
        echo "damage $seed ($c: $(cat "$w/dmg.what")): rc $rc: $(head -3 "$w/dmg.err")"
    fi
done
[ $dmg -eq 0 ] && ok || bad "$dmg of 24 damaged files"

# the generated files against the independent decoder too, and against
# protobuf's own parser (python3-protobuf and protoc, on the schema in
# ../shared/xplane-proto): lanes, event counts, busy time
proto=$root/../shared/xplane-proto/xplane.proto
pbpy=
if command -v protoc >/dev/null 2>&1 && [ -f "$proto" ]; then
    for py in python3 /usr/bin/python3; do
        if "$py" -c 'import google.protobuf' 2>/dev/null; then pbpy=$py; break; fi
    done
fi
[ -n "$pbpy" ] || echo "xplane: SKIP (protobuf's parser: needs protoc, python3-protobuf and ../shared/xplane-proto)"
for c in gpu tpu subns host0 host1 tfgpu rocm tpufull odd; do
    "$bin" "$w/$c.xplane.pb" --all-lanes --max-lanes 1000 --height 100in --stats \
        -o "$w/$c.all.json" >/dev/null 2>&1 &&
        python3 "$here/real.py" "$w/$c.xplane.pb" "$w/$c.all.json" >"$w/$c.real" &&
        ok || bad "$c against xpdecode.py: $(head -3 "$w/$c.real")"
    if [ -n "$pbpy" ]; then
        "$pbpy" "$here/pbcheck.py" "$proto" "$w/$c.xplane.pb" "$w/$c.all.json" >"$w/$c.pb" &&
            ok || bad "$c against protobuf: $(head -3 "$w/$c.pb")"
    fi
done

# the real files (never committed): lanes and busy against xpdecode.py
real=$root/../shared/real-traces/xplane
if [ -d "$real" ]; then
    for f in jax-mi300-gemm tpu-dummy xprof-tpu-inference; do
        [ -f "$real/$f.xplane.pb" ] || continue
        if "$bin" "$real/$f.xplane.pb" --all-lanes --max-lanes 1000 --height 200in --stats \
            -o "$w/$f.json" >/dev/null 2>"$w/$f.err" &&
            python3 "$here/real.py" "$real/$f.xplane.pb" "$w/$f.json" >"$w/$f.real"
        then ok; else bad "$f: $(head -3 "$w/$f.err" "$w/$f.real")"; fi
        if [ -n "$pbpy" ]; then
            "$pbpy" "$here/pbcheck.py" "$proto" "$real/$f.xplane.pb" "$w/$f.json" >"$w/$f.pb" &&
                ok || bad "$f against protobuf: $(head -3 "$w/$f.pb")"
        fi
    done
    # the README's figures: GPU streams first; TPU modules above ops; steps
    "$bin" "$real/jax-mi300-gemm.xplane.pb" -o "$w/gpu-real.json" 2>/dev/null &&
        python3 "$check" "$w/gpu-real.json" \
            "labels[:3] == ['GPU 0 / Stream #16(Kernel)', 'GPU 0 / Stream #17(Kernel)', 'Host / python']" &&
        ok || bad "jax-mi300-gemm: the default figure's lanes"
    "$bin" "$real/xprof-tpu-inference.xplane.pb" --window-event 'jit_f*' -o "$w/tpu-real.json" \
        2>/dev/null &&
        python3 "$check" "$w/tpu-real.json" "labels[:2] == ['TPU 0 / XLA Modules', 'TPU 0 / XLA Ops']" \
            "m['window']['end_us'] > m['window']['start_us']" &&
        ok || bad "xprof-tpu-inference: a step window"
else
    echo "xplane: SKIP (real files: no ../shared/real-traces/xplane)"
fi

echo "xplane: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
