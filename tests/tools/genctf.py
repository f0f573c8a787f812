#!/usr/bin/env python3
"""genctf.py - writes small CTF 1.8 traces for tests/ctf (stdlib only).

    genctf.py CASE DIR

writes the trace CASE into the folder DIR (made if missing): a `metadata`
file of TSDL text and one binary stream file per stream, in the layout
LTTng uses (packet header: magic, uuid, stream id; packet context:
timestamps, sizes, events_discarded, cpu_id; event header: id, timestamp
in ns of a 1 GHz clock).  Cases:

  kernel      4 CPUs of sched_switch, a statedump naming the processes,
              irq, softirq and syscall entry/exit (LTTng kernel, 2.7+)
  oldsys      one CPU, syscalls as sys_* / exit_syscall (LTTng before 2.7)
  ust         LTTng-UST: vpid/vtid/procname contexts, cyg-profile
              func_entry/exit, work_begin/work_end pairs, instants
  nothreads   user space without vtid (barectf-like): a lane per stream
  lost        a kernel trace whose CPU 1 loses 7 events between packets
  twostreams  two streams (channels) per CPU, their switches interleaved
  bigendian   the kernel case, big-endian
  overlap     CPU 0's packets overlap in time (old LTTng): babeltrace2's
              muxer stops on it
  perf        perf data convert --to-ctf: sched:sched_switch, prev_pid /
              next_pid, perf_cpu in the payload, perf_tid/perf_pid context
  session     an LTTng session: kernel/ and ust/uid/1000/64-bit/, one clock

The times (ns) and expected numbers are in tests/ctf/run.sh.
"""
import os
import struct
import sys

MAGIC = 0xC1FC1FC1
BASE = 1_000_000_000  # the clock's value at the trace's start (1 s)

# field types: (TSDL declaration, struct code, alignment)
TYPES = {
    "u8": ("uint8_t", "B"),
    "u32": ("uint32_t", "I"),
    "i32": ("int32_t", "i"),
    "u64": ("uint64_t", "Q"),
    "i64": ("int64_t", "q"),
}


def tsdl_field(name, ty):
    if ty == "str":
        return "string %s;" % name
    if ty == "comm":
        return ("integer { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; } "
                "%s[16];" % name)
    return "%s %s;" % (TYPES[ty][0], name)


def pack_field(order, ty, val):
    if ty == "str":
        return val.encode() + b"\0"
    if ty == "comm":
        b = val.encode()[:15]
        return b + b"\0" * (16 - len(b))
    return struct.pack(order + TYPES[ty][1], val)


class Trace:
    """One CTF trace: event classes, streams of packets."""

    def __init__(self, domain="kernel", big=False, context=None, env=None):
        self.order = ">" if big else "<"
        # one uuid per domain: the traces of a session are two traces
        first = 0 if domain == "kernel" else 0x80
        self.uuid = bytes(range(first, first + 16))
        h = self.uuid.hex()
        self.uuid_txt = "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])
        self.big = big
        self.domain = domain
        self.context = context or []  # event context fields [(name, type)]
        self.env = env or {}
        self.classes = []  # (name, fields)
        self.ids = {}
        self.files = {}  # file name -> [packets]

    def cls(self, name, fields):
        if name not in self.ids:
            self.ids[name] = len(self.classes)
            self.classes.append((name, fields))
        return self.ids[name]

    def metadata(self):
        bo = "be" if self.big else "le"
        out = ["/* CTF 1.8 */", ""]
        for ty, (decl, code) in TYPES.items():
            size = struct.calcsize(code) * 8
            signed = "true" if code.islower() else "false"
            out.append("typealias integer { size = %d; align = 8; signed = %s; } := %s;"
                       % (size, signed, decl))
        out.append("")
        out.append("trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = %s;\n"
                   "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
                   "\t\tuint32_t stream_id;\n\t\tuint64_t stream_instance_id;\n\t};\n};\n"
                   % (self.uuid_txt, bo))
        env = {"hostname": "gen", "domain": self.domain, "tracer_name": "lttng-modules"
               if self.domain == "kernel" else "lttng-ust", "tracer_major": 2,
               "tracer_minor": 12}
        env.update(self.env)
        out.append("env {")
        for k, v in env.items():
            out.append("\t%s = %s;" % (k, v if isinstance(v, int) else '"%s"' % v))
        out.append("};\n")
        out.append("clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n"
                   "\tdescription = \"Monotonic Clock\";\n\tfreq = 1000000000;\n"
                   "\tprecision = 1;\n\toffset_s = 0;\n\toffset = 0;\n\tabsolute = FALSE;\n};\n"
                   % self.uuid_txt)
        out.append("typealias integer {\n\tsize = 64; align = 8; signed = false;\n"
                   "\tmap = clock.monotonic.value;\n} := uint64_clock_monotonic_t;\n")
        out.append("struct packet_context {\n\tuint64_clock_monotonic_t timestamp_begin;\n"
                   "\tuint64_clock_monotonic_t timestamp_end;\n\tuint64_t content_size;\n"
                   "\tuint64_t packet_size;\n\tuint64_t packet_seq_num;\n"
                   "\tuint64_t events_discarded;\n\tuint32_t cpu_id;\n};\n")
        ctx = ""
        if self.context:
            ctx = "\tevent.context := struct {\n%s\n\t};\n" % "\n".join(
                "\t\t" + tsdl_field(n, t) for n, t in self.context)
        out.append("stream {\n\tid = 0;\n\tevent.header := struct {\n\t\tuint32_t id;\n"
                   "\t\tuint64_clock_monotonic_t timestamp;\n\t};\n"
                   "\tpacket.context := struct packet_context;\n%s};\n" % ctx)
        for i, (name, fields) in enumerate(self.classes):
            body = "\n".join("\t\t" + tsdl_field(n, t) for n, t in fields)
            out.append("event {\n\tname = \"%s\";\n\tid = %d;\n\tstream_id = 0;\n"
                       "\tfields := struct {\n%s\n\t};\n};\n" % (name, i, body))
        return "\n".join(out)

    def packet(self, fname, cpu, events, lost_total=0, t0=None, t1=None):
        """events: [(ts, class name, {field: value}, {context field: value})]"""
        self.files.setdefault(fname, []).append((cpu, events, lost_total, t0, t1))

    def event_bytes(self, ts, name, vals, ctx):
        o = self.order
        fields = self.classes[self.ids[name]][1]
        b = struct.pack(o + "IQ", self.ids[name], ts)
        for n, t in self.context:
            b += pack_field(o, t, ctx[n])
        for n, t in fields:
            b += pack_field(o, t, vals[n])
        return b

    def write(self, folder):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "metadata"), "w") as f:
            f.write(self.metadata())
        o = self.order
        for inst, (fname, packets) in enumerate(sorted(self.files.items())):
            data = b""
            for seq, (cpu, events, lost, t0, t1) in enumerate(packets):
                body = b"".join(self.event_bytes(*e) for e in events)
                hdr_len = 4 + 16 + 4 + 8 + 8 * 6 + 4
                content = hdr_len + len(body)
                size = (content + 255) // 256 * 256
                b0 = t0 if t0 is not None else events[0][0]
                b1 = t1 if t1 is not None else events[-1][0]
                hdr = struct.pack(o + "I", MAGIC) + self.uuid + struct.pack(o + "IQ", 0, inst)
                ctxb = struct.pack(o + "QQQQQQI", b0, b1, content * 8, size * 8, seq, lost, cpu)
                data += hdr + ctxb + body + b"\0" * (size - content)
            with open(os.path.join(folder, fname), "wb") as f:
                f.write(data)


# --- kernel ------------------------------------------------------------------

SWITCH = [("prev_comm", "comm"), ("prev_tid", "i32"), ("prev_prio", "i32"),
          ("prev_state", "i64"), ("next_comm", "comm"), ("next_tid", "i32"),
          ("next_prio", "i32")]
STATEDUMP = [("tid", "i32"), ("vtid", "i32"), ("pid", "i32"), ("vpid", "i32"),
             ("ppid", "i32"), ("vppid", "i32"), ("name", "comm"), ("type", "i32"),
             ("mode", "i32"), ("submode", "i32"), ("status", "i32"), ("ns_level", "u32")]

# the processes: tid -> (pid, name)
PROCS = {1: (1, "systemd"), 100: (100, "server"), 101: (100, "server"),
         102: (100, "server-worker"), 200: (200, "client"), 300: (300, "kworker/0:1"),
         0: (0, "swapper")}


def switch(t, ts, cpu_file, cpu, prev, nxt, state=0):
    t.cls("sched_switch", SWITCH)
    return (ts, "sched_switch", {"prev_comm": PROCS[prev][1], "prev_tid": prev, "prev_prio": 20,
                                 "prev_state": state, "next_comm": PROCS[nxt][1],
                                 "next_tid": nxt, "next_prio": 20}, {})


def statedump(t):
    t.cls("lttng_statedump_process_state", STATEDUMP)
    ev = []
    for tid, (pid, name) in sorted(PROCS.items()):
        if tid == 0:
            continue
        ev.append((BASE + 10 + tid, "lttng_statedump_process_state",
                   {"tid": tid, "vtid": tid, "pid": pid, "vpid": pid, "ppid": 1, "vppid": 1,
                    "name": name, "type": 0, "mode": 5, "submode": 0, "status": 2,
                    "ns_level": 0}, {}))
    return ev


# Per CPU: the switches (ms after BASE, prev, next).  Busy per CPU (ms):
#   CPU 0: 100 (100) 10..30=20 + 300 (kworker) 50..55=5 + 101 60..100=40  -> 65
#   CPU 1: 200 (client) 0..50=50, 102 70..90=20                          -> 70
#   CPU 2: 1 (systemd) 20..21=1                                           -> 1
#   CPU 3: 100 (server) 5..95=90                                          -> 90
# (the trace's window is 0 .. 100 ms: CPU 3's last switch is at 95)
SCHED = {
    0: [(10, 0, 100), (30, 100, 0), (50, 0, 300), (55, 300, 0), (60, 0, 101), (100, 101, 0)],
    1: [(0, 0, 200), (50, 200, 0), (70, 0, 102), (90, 102, 0)],
    2: [(20, 0, 1), (21, 1, 0)],
    3: [(5, 0, 100), (95, 100, 0)],
}
MS = 1_000_000


def kernel_trace(big=False, detail=True):
    t = Trace("kernel", big)
    t.cls("sched_switch", SWITCH)
    t.cls("irq_handler_entry", [("irq", "i32"), ("name", "str")])
    t.cls("irq_handler_exit", [("irq", "i32"), ("ret", "i32")])
    t.cls("softirq_entry", [("vec", "u32")])
    t.cls("softirq_exit", [("vec", "u32")])
    t.cls("syscall_entry_read", [("fd", "u32"), ("buf", "u64"), ("count", "u64")])
    t.cls("syscall_exit_read", [("ret", "i64"), ("buf", "u64")])
    t.cls("kmem_kmalloc", [("bytes", "u64")])
    for cpu, sw in SCHED.items():
        ev = statedump(t) if cpu == 0 else []
        for ms, prev, nxt in sw:
            ev.append(switch(t, BASE + ms * MS, None, cpu, prev, nxt))
        if detail and cpu == 0:
            # a read by 101 from 62 to 70 ms, an interrupt in it 64..65,
            # a softirq 66..67; an interrupt while idle 40..41
            ev += [(BASE + 62 * MS, "syscall_entry_read", {"fd": 3, "buf": 0, "count": 9}, {}),
                   (BASE + 64 * MS, "irq_handler_entry", {"irq": 42, "name": "eth0"}, {}),
                   (BASE + 65 * MS, "irq_handler_exit", {"irq": 42, "ret": 1}, {}),
                   (BASE + 66 * MS, "softirq_entry", {"vec": 3}, {}),
                   (BASE + 67 * MS, "softirq_exit", {"vec": 3}, {}),
                   (BASE + 70 * MS, "syscall_exit_read", {"ret": 9, "buf": 0}, {}),
                   (BASE + 40 * MS, "irq_handler_entry", {"irq": 7, "name": "timer"}, {}),
                   (BASE + 41 * MS, "irq_handler_exit", {"irq": 7, "ret": 1}, {}),
                   (BASE + 45 * MS, "kmem_kmalloc", {"bytes": 64}, {})]
        ev.sort(key=lambda e: e[0])
        # two packets per CPU, split in the middle
        half = len(ev) // 2 or 1
        t.packet("channel0_%d" % cpu, cpu, ev[:half])
        if ev[half:]:
            t.packet("channel0_%d" % cpu, cpu, ev[half:])
    return t


def oldsys_trace():
    t = Trace("kernel")
    t.cls("sched_switch", SWITCH)
    t.cls("sys_write", [("fd", "u32"), ("buf", "u64"), ("count", "u64")])
    t.cls("exit_syscall", [("ret", "i64")])
    ev = [switch(t, BASE, None, 0, 0, 200),
          (BASE + 2 * MS, "sys_write", {"fd": 1, "buf": 0, "count": 3}, {}),
          (BASE + 5 * MS, "exit_syscall", {"ret": 3}, {}),
          switch(t, BASE + 10 * MS, None, 0, 200, 0)]
    t.packet("channel0_0", 0, ev)
    return t


def lost_trace():
    """CPU 1 as in `kernel`, but its second packet says 7 events were lost
    before it: the range from the first packet's end (20 ms) to the
    second's end (90 ms)."""
    t = Trace("kernel")
    t.cls("sched_switch", SWITCH)
    ev0 = [switch(t, BASE + ms * MS, None, 0, p, n) for ms, p, n in SCHED[0]]
    t.packet("channel0_0", 0, ev0)
    # CPU 1: client runs 0..50, 102 runs 70..90; the 50 ms switch is lost
    t.packet("channel0_1", 1, [switch(t, BASE, None, 1, 0, 200)], 0, BASE, BASE + 20 * MS)
    t.packet("channel0_1", 1, [switch(t, BASE + 90 * MS, None, 1, 102, 0)], 7,
             BASE + 20 * MS, BASE + 90 * MS)
    return t


def twostreams_trace():
    """CPU 0's switches alternate between two channels' streams."""
    t = Trace("kernel")
    t.cls("sched_switch", SWITCH)
    a, b = [], []
    for i, (ms, p, n) in enumerate(SCHED[0]):
        (a if i % 2 == 0 else b).append(switch(t, BASE + ms * MS, None, 0, p, n))
    t.packet("channel0_0", 0, a)
    t.packet("channel1_0", 0, b)
    ev1 = [switch(t, BASE + ms * MS, None, 1, p, n) for ms, p, n in SCHED[1]]
    t.packet("channel0_1", 1, ev1[:2])
    t.packet("channel1_1", 1, ev1[2:])
    return t


def overlap_trace():
    """CPU 0's second packet begins before the first ends."""
    t = Trace("kernel")
    t.cls("sched_switch", SWITCH)
    ev = [switch(t, BASE + ms * MS, None, 0, p, n) for ms, p, n in SCHED[0]]
    t.packet("channel0_0", 0, ev[:4], 0, BASE + 10 * MS, BASE + 70 * MS)
    t.packet("channel0_0", 0, ev[4:], 0, BASE + 40 * MS, BASE + 100 * MS)
    # the switches at 50 and 55 ms come in the first packet, those at 60
    # and 100 in the second, whose begin (40 ms) is before the first's end
    ev3 = [switch(t, BASE + ms * MS, None, 3, p, n) for ms, p, n in SCHED[3]]
    t.packet("channel0_3", 3, ev3)
    return t


def perf_trace():
    fields = [("perf_ip", "u64"), ("perf_tid", "i32"), ("perf_pid", "i32"), ("perf_cpu", "u32"),
              ("prev_comm", "comm"), ("prev_pid", "i32"), ("prev_prio", "i32"),
              ("prev_state", "i64"), ("next_comm", "comm"), ("next_pid", "i32"),
              ("next_prio", "i32")]
    t = Trace("kernel", env={"tracer_name": "perf"})
    t.cls("sched:sched_switch", fields)
    for cpu in (0, 1):
        ev = []
        for ms, p, n in SCHED[cpu]:
            ev.append((BASE + ms * MS, "sched:sched_switch",
                       {"perf_ip": 0, "perf_tid": p, "perf_pid": PROCS[p][0], "perf_cpu": cpu,
                        "prev_comm": PROCS[p][1], "prev_pid": p, "prev_prio": 20,
                        "prev_state": 0, "next_comm": PROCS[n][1], "next_pid": n,
                        "next_prio": 20}, {}))
        # the payload's perf_cpu is the CPU: the packet context's cpu_id
        # is left 0 in both streams here, so a reader of cpu_id alone
        # would put every switch on CPU 0
        t.packet("perf_stream_%d" % cpu, 0, ev)
    return t


# --- user space ----------------------------------------------------------------

UCTX = [("vpid", "i32"), ("vtid", "i32"), ("procname", "comm")]


def ust_trace(threads=True):
    """Thread 501 (app): func 0x401000 0..40 ms with 0x401200 10..20 in it,
    work 50..80; thread 502 (app-io): work 5..25, a tick at 30, and a
    func 0x401300 from 60 that never exits.  Streams per CPU: 0 and 1."""
    t = Trace("ust", context=UCTX if threads else None)
    t.cls("lttng_ust_cyg_profile_fast:func_entry", [("addr", "u64")])
    t.cls("lttng_ust_cyg_profile_fast:func_exit", [])
    t.cls("app:work_begin", [("item", "u32")])
    t.cls("app:work_end", [("item", "u32")])
    t.cls("app:tick", [("n", "u32")])

    def e(ms, tid, name, **kw):
        ctx = {"vpid": 500, "vtid": tid, "procname": "app" if tid == 501 else "app-io"}
        return (BASE + ms * MS, name, kw, ctx)

    fe, fx = "lttng_ust_cyg_profile_fast:func_entry", "lttng_ust_cyg_profile_fast:func_exit"
    s0 = [e(0, 501, fe, addr=0x401000), e(10, 501, fe, addr=0x401200), e(20, 501, fx),
          e(40, 501, fx), e(50, 501, "app:work_begin", item=1), e(80, 501, "app:work_end", item=1)]
    s1 = [e(5, 502, "app:work_begin", item=2), e(25, 502, "app:work_end", item=2),
          e(30, 502, "app:tick", n=1), e(60, 502, fe, addr=0x401300), e(100, 502, "app:tick", n=2)]
    t.packet("chan_0", 0, s0)
    t.packet("chan_1", 1, s1)
    return t


CASES = {
    "kernel": lambda: kernel_trace(),
    "oldsys": oldsys_trace,
    "ust": lambda: ust_trace(True),
    "nothreads": lambda: ust_trace(False),
    "lost": lost_trace,
    "twostreams": twostreams_trace,
    "bigendian": lambda: kernel_trace(big=True),
    "overlap": overlap_trace,
    "perf": perf_trace,
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in CASES and sys.argv[1] != "session":
        sys.stderr.write("usage: genctf.py %s|session DIR\n" % "|".join(CASES))
        return 2
    case, folder = sys.argv[1], sys.argv[2]
    if case == "session":
        kernel_trace().write(os.path.join(folder, "kernel"))
        ust_trace(True).write(os.path.join(folder, "ust", "uid", "1000", "64-bit"))
    else:
        CASES[case]().write(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
