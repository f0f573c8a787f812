#!/usr/bin/env python3
"""genftrace.py DIALECT OUT - writes one scenario as ftrace text (stdlib only).

The same small system in every dialect, so that tests/ftrace can check the
figure model against what was written here (EXPECT below):

  CPU 0: server (pid 100) runs 1.000-1.010 s, its thread srv-worker (101)
         1.010-1.022; idle after.            busy 22 ms
  CPU 1: client (200) 1.005-1.010, srv-worker 1.012-1.015.   busy 8 ms
  atrace: srv-worker B handle 1.011, B parse 1.012, E 1.014, E 1.019
          (2 slices, busy 8 ms); client B request 1.005, E 1.009 (4 ms);
          C|100|queue 5 then 3; S|100|async op|7 1.012, F 1.020 (8 ms);
  cpu_frequency on CPU 1, cpu_idle on CPU 0; sched_wakeup lines; an
  irq_handler_entry of srv-worker (an instant); a trace_event_clock_sync
  mark at time 0, which must not stretch the span (1.000-1.022 s).

Dialects:
  tgid        the tracing file with the TGID column and flags (atrace)
  plain       the tracing file without TGID (flags kept)
  tcmd        trace-cmd report: `version = 6`, `cpus=2`, no flags, its
              own sched_switch fields (`A:1 [120] S ==> B:2 [120]`) and
              marks as `print: tracing_mark_write: ...`
  android41   Android 4.1 systrace: marks as the event `0:`
  html        systrace HTML: a `<script class="trace-data">` text block and
              a JSON block of the host's own (passed over)
  html_legacy older systrace HTML: `var linuxPerfData = "...\\n\\` string
  html_legacy_code  html_legacy whose page code before the string uses the
              name (`linuxPerfData.indexOf("no data")`)
  html_comment  html with a comment before its <!DOCTYPE html> (as a page
              saved by a browser carries one)
  json        Chrome JSON, traceEvents plus systemTraceEvents (tgid text),
              whose clock sync says parent_ts=5.0: the text's 1.000 s is
              the JSON's 5 s (its X event 'frame' at 5,000,000 us)
  json_empty  the same JSON with systemTraceEvents ""
  json_system a JSON of systemTraceEvents alone (the tgid text), no traceEvents
  noise       tgid with lines that are neither header nor event (3)
  marks_only  atrace marks alone, no scheduling
  lost        tgid with `CPU:1 [LOST 42 EVENTS]` after the client's E at
              1.009: CPU 1's client runs 1.005-1.009, lost 1.009-1.010
  instants    tgid with other events (INSTANTS below), each an instant by
              name on its thread's lane: server (100, no slices: a lane of
              instants alone), client and srv-worker (lanes of slices)
  eight       8 CPUs (tgid dialect), 200 ms of switches between 40 tasks
              of 8 processes from a fixed pseudo-random sequence, atrace
              marks B/E of some of them
  flags5      tgid with newer kernels' 5-character flags (`d..2.`, `dNh1.`)
  crlf        tgid with CRLF line ends
  dropped     tgid with trace-cmd report's `CPU:1 [42 EVENTS DROPPED]` where
              lost has its LOST line (CPU 1 busy 7 ms)
  latency     trace-cmd report -l: `TASK-PID CPUFLAGS SECONDS:` (the task
              cut to 8 bytes, the CPU without brackets, flags after it)
  old2632     kernels before 2.6.35: sched_switch as `task A:1 [120] (S) ==>
              B:2 [120]`, sched_wakeup as `task A:1 [120] success=1 [001]`
  rawclock    tgid with a raw clock's times (trace_clock counter or
              x86-tsc: integers, printed without a fraction), here in ns
  perfscript  `perf script` of the same sched, power and irq events (no
              marks): `COMM TID [CPU] SECONDS: SUBSYSTEM:EVENT: FIELDS`,
              srv-worker as `COMM PID/TID`
  bom         tgid after a UTF-8 byte order mark, as some editors save it
  preface     tgid after a line of a capture script's own ("starting
              capture on 2 CPUs"), before the header: one line skipped
  markvar     tgid with marks as written by other writers: a trailing `\n`
              as trace-cmd prints the writer's newline, trailing blanks,
              and counters with a category (`C|100|queue|5|server`)

`genftrace.py big OUT MB` writes eight's system (8 CPUs, 40 tasks of 8
processes, atrace B/E pairs, each CPU's own pseudo-random sequence) going
on until the text is about MB megabytes (10^6 bytes), written 100 ms of
trace at a time as it is made: the large input of
tests/tools/bench-ftrace.sh.
"""
import json
import re
import sys

EXPECT = {
    'cpu_busy_ms': {0: 22.0, 1: 8.0},
    'threads': {101: ('srv-worker', ['handle', 'parse'], 8.0), 200: ('client', ['request'], 4.0)},
    'async': ('async op', 8.0),
    'counter': ('queue', 3, 5),
    'start_us': 1000000,
    'end_us': 1022000,
}

# the instants case's events: (seconds, cpu, pid, event, fields)
INSTANTS = [
    (1.002000, 0, 100, 'workqueue_execute_start', 'work struct 00000000a1b2c3d4: function flush_to_ldisc'),
    (1.006000, 1, 200, 'softirq_raise', 'vec=3 [action=NET_RX]'),
    (1.007000, 0, 100, 'workqueue_execute_start', 'work struct 00000000a1b2c3d4: function vmstat_update'),
    (1.008000, 0, 100, 'sched_process_fork', 'comm=server pid=100 child_comm=server child_pid=102'),
    (1.017000, 0, 101, 'block_rq_issue', '8,0 W 4096 () 123456 + 8 [srv-worker]'),
    (1.018000, 0, 101, 'softirq_raise', 'vec=3 [action=NET_RX]'),
]

TASKS = {0: ('<idle>', None), 100: ('server', 100), 101: ('srv-worker', 100), 200: ('client', 200),
         300: ('<...>', None)}


def events():
    """(seconds, cpu, pid, event, fields) in time order; fields as the kernel prints them."""
    def sw(prev, pstate, nxt):
        pc = 'swapper/%d' if prev == 0 else TASKS[prev][0]
        nc = 'swapper/%d' if nxt == 0 else TASKS[nxt][0]
        return ('sched_switch', (pc, prev, pstate, nc, nxt))

    ev = [
        (0.0, 0, 300, 'tracing_mark_write', 'trace_event_clock_sync: parent_ts=0.000000'),
        (1.000000, 0, 0) + sw(0, 'R', 100),
        (1.001000, 1, 0, 'cpu_frequency', 'state=1800000 cpu_id=1'),
        (1.004000, 1, 0, 'sched_wakeup', 'comm=client pid=200 prio=120 target_cpu=001'),
        (1.005000, 1, 0) + sw(0, 'R', 200),
        (1.005000, 1, 200, 'tracing_mark_write', 'B|200|request'),
        (1.009000, 1, 200, 'tracing_mark_write', 'E|200'),
        (1.009500, 0, 100, 'sched_wakeup', 'comm=srv-worker pid=101 prio=120 target_cpu=000'),
        (1.010000, 1, 200) + sw(200, 'S', 0),
        (1.010000, 0, 100) + sw(100, 'S', 101),
        (1.011000, 0, 101, 'tracing_mark_write', 'B|100|handle'),
        (1.011000, 0, 101, 'tracing_mark_write', 'C|100|queue|5'),
        (1.012000, 0, 101, 'tracing_mark_write', 'B|100|parse'),
        (1.012000, 0, 101, 'tracing_mark_write', 'S|100|async op|7'),
        (1.012000, 1, 0) + sw(0, 'R', 101),
        (1.013000, 0, 101, 'irq_handler_entry', 'irq=5 name=eth0'),
        (1.014000, 0, 101, 'tracing_mark_write', 'E|100'),
        (1.015000, 1, 101) + sw(101, 'S', 0),
        (1.016000, 0, 101, 'tracing_mark_write', 'C|100|queue|3'),
        (1.019000, 0, 101, 'tracing_mark_write', 'E|100'),
        (1.020000, 0, 101, 'tracing_mark_write', 'F|100|async op|7'),
        (1.022000, 0, 101) + sw(101, 'S', 0),
        (1.022500, 0, 0, 'cpu_idle', 'state=1 cpu_id=0'),
    ]
    return ev


def fields(e, cpu, tcmd):
    name, f = e
    if name != 'sched_switch':
        return f
    pc, pp, st, nc, np = f
    pc = pc % cpu if '%d' in pc else pc
    nc = nc % cpu if '%d' in nc else nc
    if tcmd:
        return '%s:%d [120] %s ==> %s:%d [120]' % (pc, pp, st, nc, np)
    return ('prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d '
            'next_prio=120' % (pc, pp, st, nc, np))


def line(t, cpu, pid, name, f, tgid_col=True, flags=True, tcmd=False, mark='tracing_mark_write'):
    task, tgid = TASKS[pid]
    body = fields((name, f), cpu, tcmd)
    if name == 'tracing_mark_write':
        if tcmd:
            name, body = 'print', 'tracing_mark_write: ' + body
        else:
            name = mark
    s = '%16s-%-5d ' % (task, pid)
    if tgid_col:
        s += '(%5s) ' % (tgid if tgid is not None else '-----')
    s += '[%03d] ' % cpu
    if flags:
        s += '...1 ' if 'mark' in name or name in ('0', 'print') else 'd..3 '
    s += '%12.6f: %s: %s' % (t, name, body)
    return s


HEADER_TGID = """# tracer: nop
#
# entries-in-buffer/entries-written: 23/23   #P:2
#
#                                      _-----=> irqs-off
#                                     / _----=> need-resched
#                                    | / _---=> hardirq/softirq
#                                    || / _--=> preempt-depth
#                                    ||| /     delay
#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION
#              | |        |      |   ||||       |         |
"""

HEADER_PLAIN = """# tracer: nop
#
#                              _-----=> irqs-off
#                             / _----=> need-resched
#                            | / _---=> hardirq/softirq
#                            || / _--=> preempt-depth
#                            ||| /     delay
#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION
#              | |       |   ||||       |         |
"""


def eight():
    """8 CPUs: switches from a linear congruential sequence (the same on
    every machine), atrace B/E pairs by the threads of even tid."""
    x = 777
    rows = []
    ev = []
    for cpu in range(8):
        t, cur = 1_000_000, 0
        while True:
            x = (x * 1103515245 + 12345) % 2 ** 31
            t += 100 + x % 3000
            if t >= 1_200_000:
                break
            x = (x * 1103515245 + 12345) % 2 ** 31
            nxt = 0 if cur and x % 4 == 0 else 1000 + x % 40
            if nxt == cur:
                continue
            ev.append((t, cpu, cur, 'sw', nxt))
            if nxt and nxt % 2 == 0:
                ev.append((t + 10, cpu, nxt, 'B', 'step%d' % (nxt % 5)))
                ev.append((t + 60, cpu, nxt, 'E', ''))
            cur = nxt
    ev.sort(key=lambda e: (e[0], e[1]))

    def task(pid):
        return ('<idle>', 0) if pid == 0 else ('task%d' % pid, 1000 + (pid - 1000) // 5 * 5)

    for t, cpu, pid, kind, arg in ev:
        name, tgid = task(pid)
        head = '%16s-%-5d (%5s) [%03d] %s %12.6f: ' % (name, pid, tgid if pid else '-----', cpu,
                                                      'd..3' if kind == 'sw' else '...1', t / 1e6)
        if kind == 'sw':
            pc = 'swapper/%d' % cpu if pid == 0 else name
            nc = 'swapper/%d' % cpu if arg == 0 else task(arg)[0]
            rows.append(head + 'sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S '
                        '==> next_comm=%s next_pid=%d next_prio=120' % (pc, pid, nc, arg))
        elif kind == 'B':
            rows.append(head + 'tracing_mark_write: B|%d|%s' % (tgid, arg))
        else:
            rows.append(head + 'tracing_mark_write: E|%d' % tgid)
    return HEADER_TGID.replace('#P:2', '#P:8') + '\n'.join(rows) + '\n'


def latency_row(r):
    """A tgid row in trace-cmd report -l's columns."""
    m = re.match(r'^\s*(.*?)-(\d+)\s+\(\s*[-\d]+\)\s+\[(\d+)\]\s+(\S+)\s+(\S+)\s+(.*)$', r)
    task, pid, cpu, flags, ts, rest = m.groups()
    return '%8.8s-%-5d %3d%s %s %s' % (task, int(pid), int(cpu), flags, ts, rest)


def old_fields(r):
    """A tgid row with sched_switch and sched_wakeup as 2.6.32 printed them."""
    m = re.search(r'prev_comm=(\S+) prev_pid=(\d+) prev_prio=(\d+) prev_state=(\S+) ==> '
                  r'next_comm=(\S+) next_pid=(\d+) next_prio=(\d+)', r)
    if m:
        return r[:m.start()] + 'task %s:%s [%s] (%s) ==> %s:%s [%s]' % m.groups() + r[m.end():]
    return re.sub(r'comm=(\S+) pid=(\d+) prio=(\d+) target_cpu=(\d+)',
                  r'task \1:\2 [\3] success=1 [\4]', r)


def big(out, mb):
    """eight's system, on until about mb * 10^6 bytes, written as made."""
    budget = int(mb * 1e6)
    xs = [777 + cpu for cpu in range(8)]      # each CPU's sequence
    state = [[1_000_000, 0] for _ in range(8)]  # each CPU's time and task

    def draw(cpu):
        xs[cpu] = (xs[cpu] * 1103515245 + 12345) % 2 ** 31
        return xs[cpu]

    def task(pid):
        return ('<idle>', 0) if pid == 0 else ('task%d' % pid, 1000 + (pid - 1000) // 5 * 5)

    with open(out, 'w', encoding='utf-8') as f:
        done = f.write(HEADER_TGID.replace('#P:2', '#P:8'))
        upto = 1_000_000
        ev = []
        last = False
        while not last:
            upto += 100_000
            for cpu in range(8):
                t, cur = state[cpu]
                while t < upto:
                    t += 100 + draw(cpu) % 3000
                    nxt = 0 if cur and draw(cpu) % 4 == 0 else 1000 + draw(cpu) % 40
                    if nxt == cur:
                        continue
                    ev.append((t, cpu, cur, 'sw', nxt))
                    if nxt and nxt % 2 == 0:
                        ev.append((t + 10, cpu, nxt, 'B', 'step%d' % (nxt % 5)))
                        ev.append((t + 60, cpu, nxt, 'E', ''))
                    cur = nxt
                state[cpu] = [t, cur]
            # each CPU stops at its first time at or past upto, so every
            # event still to come is later than upto: the events before it
            # are written now, in order, and the others wait for the next
            ev.sort(key=lambda e: (e[0], e[1]))
            k = 0
            while k < len(ev) and ev[k][0] < upto:
                k += 1
            ev, now = ev[k:], ev[:k]
            last = done + 160 * len(now) >= budget  # (160: about a line)
            if last:
                now += ev  # what waits too (an E after its B)
            rows = []
            for t, cpu, pid, kind, arg in now:
                name, tgid = task(pid)
                head = '%16s-%-5d (%5s) [%03d] %s %12.6f: ' % (
                    name, pid, tgid if pid else '-----', cpu, 'd..3' if kind == 'sw' else '...1',
                    t / 1e6)
                if kind == 'sw':
                    pc = 'swapper/%d' % cpu if pid == 0 else name
                    nc = 'swapper/%d' % cpu if arg == 0 else task(arg)[0]
                    rows.append(head + 'sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 '
                                'prev_state=S ==> next_comm=%s next_pid=%d next_prio=120'
                                % (pc, pid, nc, arg))
                elif kind == 'B':
                    rows.append(head + 'tracing_mark_write: B|%d|%s' % (tgid, arg))
                else:
                    rows.append(head + 'tracing_mark_write: E|%d' % tgid)
            done += f.write('\n'.join(rows) + '\n')


def text(dialect):
    if dialect == 'eight':
        return eight()
    if dialect == 'flags5':
        return text('tgid').replace('d..3 ', 'd..2. ').replace('...1 ', 'dNh1. ')
    if dialect == 'crlf':
        return text('tgid').replace('\n', '\r\n')
    if dialect == 'dropped':
        return text('lost').replace('CPU:1 [LOST 42 EVENTS]', 'CPU:1 [42 EVENTS DROPPED]')
    if dialect == 'latency':
        rows = [r for r in text('tgid').split('\n')[:-1] if not r.startswith('#')]
        return 'version = 6\ncpus=2\n' + '\n'.join(latency_row(r) for r in rows) + '\n'
    if dialect == 'old2632':
        return '\n'.join(old_fields(r) for r in text('tgid').split('\n'))
    if dialect == 'perfscript':
        sub = {'sched_switch': 'sched', 'sched_wakeup': 'sched', 'cpu_frequency': 'power',
               'cpu_idle': 'power', 'irq_handler_entry': 'irq'}
        rows = []
        for t, cpu, pid, name, f in events():
            if name not in sub:
                continue
            task, tgid = TASKS[pid]
            who = '%d/%d' % (tgid, pid) if tgid and tgid != pid else '%d' % pid
            rows.append('%16s %9s [%03d] %12.6f: %s:%s: %s' % (
                'swapper' if pid == 0 else task, who, cpu, t, sub[name], name,
                fields((name, f), cpu, False)))
        return '\n'.join(rows) + '\n'
    if dialect == 'bom':
        return '\ufeff' + text('tgid')
    if dialect == 'preface':
        return 'starting capture on 2 CPUs\n' + text('tgid')
    if dialect == 'rawclock':
        return re.sub(r' (\d+)\.(\d{6}): ',
                      lambda m: ' %12d: ' % (int(m.group(1)) * 10**9 + int(m.group(2)) * 1000),
                      text('tgid'))
    if dialect == 'markvar':
        return (text('tgid').replace('B|100|handle', 'B|100|handle\\n').replace('E|200', 'E|200  ')
                .replace('C|100|queue|5', 'C|100|queue|5|server')
                .replace('C|100|queue|3', 'C|100|queue|3|server'))
    if dialect == 'lost':
        rows = text('tgid').split('\n')
        i = [k for k, r in enumerate(rows) if 'E|200' in r][0]
        rows.insert(i + 1, 'CPU:1 [LOST 42 EVENTS]')
        return '\n'.join(rows)
    ev = events()
    if dialect == 'instants':
        ev = sorted(ev + INSTANTS, key=lambda e: e[0])
        return HEADER_TGID + '\n'.join(line(*e) for e in ev) + '\n'
    if dialect in ('tgid', 'html', 'json', 'noise', 'marks_only'):
        out = HEADER_TGID
        if dialect == 'marks_only':
            ev = [e for e in ev if e[3] == 'tracing_mark_write']
        rows = [line(*e) for e in ev]
        if dialect == 'noise':
            rows.insert(3, 'this is not an event')
            rows.insert(8, 'neither is: this [x] one')
            rows.insert(12, '-----')
        if dialect == 'json':
            rows[0] = line(1.0, 0, 300, 'tracing_mark_write', 'trace_event_clock_sync: parent_ts=5.000000')
        return out + '\n'.join(rows) + '\n'
    if dialect == 'plain':
        return HEADER_PLAIN + '\n'.join(line(*e, tgid_col=False) for e in ev) + '\n'
    if dialect == 'tcmd':
        return 'version = 6\ncpus=2\n' + '\n'.join(
            line(*e, tgid_col=False, flags=False, tcmd=True) for e in ev) + '\n'
    if dialect == 'android41':
        return HEADER_PLAIN + '\n'.join(line(*e, tgid_col=False, mark='0') for e in ev) + '\n'
    raise SystemExit('unknown dialect ' + dialect)


HTML_HEAD = """<!DOCTYPE html>
<html>
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<script>
  // the trace viewer would be here; a line with trace-data in a comment
  var x = "[000] not a trace";
</script>
</head>
<body>
"""


def write(dialect, out):
    if dialect == 'html_comment':
        write('html', out)
        with open(out, encoding='utf-8') as f:
            page = f.read()
        with open(out, 'w', encoding='utf-8') as f:
            f.write('<!-- saved from url=(0014)about:internet -->\n' + page)
        return
    if dialect == 'html':
        s = (HTML_HEAD + '  <script class="trace-data" type="application/text">\n' + text('tgid') +
             '  </script>\n  <script class="trace-data" type="application/text">\n' +
             json.dumps({'traceEvents': [{'name': 'clock_sync', 'ph': 'c', 'pid': 1, 'tid': 1,
                                          'ts': 186141204927.954, 'args': {'issue_ts': 1}}]}) +
             '  </script>\n<!-- END TRACE -->\n</body>\n</html>\n')
    elif dialect in ('html_legacy', 'html_legacy_code'):
        rows = text('plain').split('\n')[:-1]
        body = ''.join(r.replace('\\', '\\\\').replace('"', '\\"') + '\\n\\\n' for r in rows)
        code = ('<script>\n  function empty() { return linuxPerfData.indexOf("no data") == 0; }\n'
                '</script>\n'
                if dialect == 'html_legacy_code' else '')
        s = (HTML_HEAD + code + '  <script>\n  var linuxPerfData = "\\\n' + body +
             '";\n  </script>\n</body>\n</html>\n')
    elif dialect in ('json', 'json_empty'):
        doc = {'traceEvents': [
            {'ph': 'M', 'name': 'process_name', 'pid': 1, 'args': {'name': 'browser'}},
            {'ph': 'X', 'name': 'frame', 'cat': 'gfx', 'pid': 1, 'tid': 1, 'ts': 5000000,
             'dur': 16000}],
            'systemTraceEvents': text('json') if dialect == 'json' else ''}
        s = json.dumps(doc, indent=1)
    elif dialect == 'json_system':
        # a JSON of systemTraceEvents alone (no traceEvents): the text drawn
        s = json.dumps({'systemTraceEvents': text('tgid')}, indent=1)
    else:
        s = text(dialect)
    with open(out, 'w', encoding='utf-8', newline='') as f:
        f.write(s)


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'big':
        big(sys.argv[2], float(sys.argv[3]))
    elif len(sys.argv) != 3 or sys.argv[1] == 'big':
        raise SystemExit(__doc__)
    else:
        write(sys.argv[1], sys.argv[2])
