#!/usr/bin/env python3
"""busy.py - an independent count of each CPU's busy time in a CTF kernel
trace, from `babeltrace2 --clock-cycles` text (read on stdin): the time
between each sched_switch and the next on the same CPU, when the thread
switched in is not the idle one (tid 0); the CPU is the packet context's
cpu_id, or perf's perf_cpu in the payload.  Prints "CPU N MS" lines; with
--proc, "PROCESS MS" lines instead: each thread's time summed under its
process's name, as lttng_statedump_process_state says (tid, pid, name).
With --slices, "VTID NAME N" lines: user-space slices per thread, counted
as *_start / *_begin / *_entry events per vtid (their ends follow)."""
import re
import sys

ev = re.compile(r"^\[(\d+)\].*? (\S*sched_switch): \{ cpu_id = (\d+) \}.*?"
                r"next_(?:tid|pid) = (\d+)")
dump = re.compile(r" lttng_statedump_process_state: .*?\btid = (\d+), .*?\bpid = (\d+), .*?"
                  r"\bname = \"([^\"]*)\"")
begin = re.compile(r" (\S+?)(?:_start|_begin|_entry): .*?\bvtid = (\d+)")
last = {}
busy = {}
by_tid = {}
pid_of, name_of = {}, {}
slices = {}
for line in sys.stdin:
    m = dump.search(line)
    if m:
        tid, pid = int(m.group(1)), int(m.group(2))
        pid_of[tid] = pid
        name_of[tid] = m.group(3)
        continue
    m = begin.search(line)
    if m:
        k = (int(m.group(2)), m.group(1))
        slices[k] = slices.get(k, 0) + 1
        continue
    m = ev.match(line)
    if not m:
        continue
    ts, cpu, nxt = int(m.group(1)), int(m.group(3)), int(m.group(4))
    pc = re.search(r"\bperf_cpu = (\d+)", line)  # perf's CTF: the CPU in the payload
    if pc:
        cpu = int(pc.group(1))
    if cpu in last and last[cpu][1] != 0:
        busy[cpu] = busy.get(cpu, 0) + ts - last[cpu][0]
        by_tid[last[cpu][1]] = by_tid.get(last[cpu][1], 0) + ts - last[cpu][0]
    busy.setdefault(cpu, 0)
    last[cpu] = (ts, nxt)
if "--proc" in sys.argv:
    procs = {}
    for tid, ns in by_tid.items():
        pid = pid_of.get(tid, tid)
        name = name_of.get(pid, name_of.get(tid, str(tid)))
        procs[name] = procs.get(name, 0) + ns
    for name in sorted(procs):
        print("%s %.6f" % (name, procs[name] / 1e6))
elif "--slices" in sys.argv:
    for (tid, name), n in sorted(slices.items()):
        print("%d %s %d" % (tid, name, n))
else:
    for cpu in sorted(busy):
        print("CPU %d %.6f" % (cpu, busy[cpu] / 1e6))
