#!/usr/bin/env python3
"""busy.py - an independent count of each CPU's busy time in a CTF kernel
trace, from `babeltrace2 --clock-cycles` text (read on stdin): the time
between each sched_switch and the next on the same CPU, when the thread
switched in is not the idle one (tid 0).  Prints "CPU N MS" lines."""
import re
import sys

ev = re.compile(r"^\[(\d+)\].*? (\S*sched_switch): \{ cpu_id = (\d+) \}.*?"
                r"next_(?:tid|pid) = (\d+)")
last = {}
busy = {}
for line in sys.stdin:
    m = ev.match(line)
    if not m:
        continue
    ts, cpu, nxt = int(m.group(1)), int(m.group(3)), int(m.group(4))
    if cpu in last and last[cpu][1] != 0:
        busy[cpu] = busy.get(cpu, 0) + ts - last[cpu][0]
    busy.setdefault(cpu, 0)
    last[cpu] = (ts, nxt)
for cpu in sorted(busy):
    print("CPU %d %.6f" % (cpu, busy[cpu] / 1e6))
