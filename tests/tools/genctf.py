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
  eight       8 CPUs, 200 ms of switches from a fixed pseudo-random sequence
  rotated     an LTTng session rotated once: archives/CHUNK/kernel/ twice,
              one uuid, the kernel case's packets split between the chunks
  ros2        ros2_tracing: callback_start/callback_end per vtid, callbacks
              named by rclcpp_callback_register's symbol, publishes
  nocpu       the kernel case's switches, no cpu_id in the packet context:
              each CPU's stream file `channel0_N` says the CPU
  evcpu       the same, the files named `cpuA`..`cpuD`, the CPU in LTTng's
              cpu_id event context
  dpdk        DPDK's trace library: its own metadata (no LTTng fields, a
              48-bit TSC clock, cpu_id and the thread's name per stream)

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

    def __init__(self, domain="kernel", big=False, context=None, env=None, cpu_id=True):
        self.order = ">" if big else "<"
        self.cpu_id = cpu_id  # the packet context has cpu_id
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
                   "\tuint64_t events_discarded;\n%s};\n"
                   % ("\tuint32_t cpu_id;\n" if self.cpu_id else ""))
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

    def write(self, folder, which=None, seq0=None):
        """which: the indexes of each file's packets to write (a chunk of a
        rotated session), seq0: their first packet_seq_num"""
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "metadata"), "w") as f:
            f.write(self.metadata())
        o = self.order
        for inst, (fname, packets) in enumerate(sorted(self.files.items())):
            data = b""
            for seq, (cpu, events, lost, t0, t1) in enumerate(packets):
                if which is not None and seq not in which:
                    continue
                body = b"".join(self.event_bytes(*e) for e in events)
                hdr_len = 4 + 16 + 4 + 8 + 8 * 6 + (4 if self.cpu_id else 0)
                content = hdr_len + len(body)
                size = (content + 255) // 256 * 256
                b0 = t0 if t0 is not None else events[0][0]
                b1 = t1 if t1 is not None else events[-1][0]
                hdr = struct.pack(o + "I", MAGIC) + self.uuid + struct.pack(o + "IQ", 0, inst)
                ctxb = struct.pack(o + "QQQQQQ", b0, b1, content * 8, size * 8, seq, lost)
                if self.cpu_id:
                    ctxb += struct.pack(o + "I", cpu)
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


def nocpu_trace(context):
    """kernel_trace's switches, no cpu_id in the packet context: the CPU
    from the file's name, or (context) from the event's cpu_id context."""
    t = Trace("kernel", context=[("cpu_id", "u32")] if context else None, cpu_id=False)
    t.cls("sched_switch", SWITCH)
    for cpu, sw in SCHED.items():
        ev = [switch(t, BASE + ms * MS, None, cpu, p, n) for ms, p, n in sw]
        ev = [(ts, name, vals, {"cpu_id": cpu}) for ts, name, vals, _ in ev]
        t.packet("cpu" + "ABCD"[cpu] if context else "channel0_%d" % cpu, cpu, ev)
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


def eight_sched():
    """8 CPUs, 200 ms: on each, runs of the threads of PROCS (and of two
    more processes) between idle gaps, from a fixed pseudo-random sequence
    (a linear congruential one: the same on every machine)."""
    procs = dict(PROCS)
    procs.update({400: (400, "db"), 401: (400, "db-flush"), 500: (500, "rcu_sched")})
    tids = sorted(t for t in procs if t)
    x = 12345
    sched = {}
    for cpu in range(8):
        ms, cur, sw = 0, 0, []
        while True:
            x = (x * 1103515245 + 12345) % 2 ** 31
            step = 1 + x % 13
            if ms + step >= 200:
                break
            ms += step
            x = (x * 1103515245 + 12345) % 2 ** 31
            nxt = 0 if cur != 0 and x % 3 == 0 else tids[x % len(tids)]
            if nxt == cur:
                continue
            sw.append((ms, cur, nxt))
            cur = nxt
        if cur != 0:
            sw.append((200, cur, 0))
        sched[cpu] = sw
    return procs, sched


def eight_trace():
    """An 8-CPU kernel trace (eight_sched), a statedump on CPU 0, three
    packets per CPU."""
    global PROCS
    saved = PROCS
    PROCS, sched = eight_sched()
    try:
        t = Trace("kernel")
        t.cls("sched_switch", SWITCH)
        for cpu, sw in sched.items():
            ev = statedump(t) if cpu == 0 else []
            ev += [switch(t, BASE + ms * MS, None, cpu, p, n) for ms, p, n in sw]
            ev.sort(key=lambda e: e[0])
            k = (len(ev) + 2) // 3
            for i in range(0, len(ev), k):
                t.packet("channel0_%d" % cpu, cpu, ev[i:i + k])
    finally:
        PROCS = saved
    return t


def rotated_session(folder):
    """An LTTng session rotated once (lttng rotate): two archived trace
    chunks, each a whole trace of the same uuid with the packets of its
    time (the kernel case's first packets, then its second ones), the
    packet sequence numbers going on from one to the next."""
    t = kernel_trace()
    arch = os.path.join(folder, "archives")
    t.write(os.path.join(arch, "20261207T100000+0000-20261207T100001+0000-0", "kernel"),
            which={0})
    t.write(os.path.join(arch, "20261207T100001+0000-20261207T100002+0000-1", "kernel"),
            which={1})


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


ROS2_CB = [("callback", "u64"), ("is_intra_process", "u8")]


def ros2_trace():
    """ros2_tracing: node talker (pid 700): thread 701 runs a timer
    callback 0x5000 at 10..14, 30..33, 50..58 ms and publishes in each;
    thread 702 a subscription callback 0x6000 at 12..20 and 40..41 ms.
    rclcpp_callback_register names them by symbol."""
    t = Trace("ust", context=UCTX)
    t.cls("ros2:rcl_init", [("context_handle", "u64"), ("version", "str")])
    t.cls("ros2:rclcpp_callback_register", [("callback", "u64"), ("symbol", "str")])
    t.cls("ros2:callback_start", ROS2_CB)
    t.cls("ros2:callback_end", [("callback", "u64")])
    t.cls("ros2:rclcpp_publish", [("publisher_handle", "u64"), ("message", "u64")])

    def e(ms, tid, name, **kw):
        ctx = {"vpid": 700, "vtid": tid, "procname": "talker"}
        return (BASE + ms * MS, name, kw, ctx)

    s0 = [e(0, 701, "ros2:rcl_init", context_handle=1, version="4.1.1"),
          e(1, 701, "ros2:rclcpp_callback_register", callback=0x5000,
            symbol="TimerCallback::on_timer()"),
          e(2, 701, "ros2:rclcpp_callback_register", callback=0x6000,
            symbol="Listener::on_message(std::shared_ptr<String>)")]
    for a, b in ((10, 14), (30, 33), (50, 58)):
        s0 += [e(a, 701, "ros2:callback_start", callback=0x5000, is_intra_process=0),
               e(a + 1, 701, "ros2:rclcpp_publish", publisher_handle=9, message=a),
               e(b, 701, "ros2:callback_end", callback=0x5000)]
    s1 = []
    for a, b in ((12, 20), (40, 41)):
        s1 += [e(a, 702, "ros2:callback_start", callback=0x6000, is_intra_process=1),
               e(b, 702, "ros2:callback_end", callback=0x6000)]
    t.packet("ros2_0", 0, s0)
    t.packet("ros2_1", 1, s1)
    return t


class Dpdk:
    """A trace as DPDK's trace library writes it (facts of its CTF: a
    packet header of magic and uuid only, a packet context of cpu_id and
    the thread's name, a 64-bit-aligned event header of a 48-bit timestamp
    then a 16-bit id, a "dpdk" clock at the TSC's rate, no packet sizes: a
    stream file is one packet).  Two lcores' threads, TSC at 2.5 GHz:
    lcore 1 (dpdk-worker1) bursts 10..30 and 40..45 ms, lcore 2
    (dpdk-worker2) 5..25 ms; instants in between."""

    FREQ = 2_500_000_000

    def __init__(self):
        self.classes = [("lib.eal.thread.remote.launch", [("f", "u64"), ("worker_id", "u32")]),
                        ("app.burst.begin", [("port", "u16"), ("queue", "u16")]),
                        ("app.burst.end", [("nb_rx", "u16")]),
                        ("lib.ethdev.rx.burst.empty", [("port_id", "u16")])]

    def metadata(self):
        out = ["/* CTF 1.8 */"]
        for n, (size, signed) in (("uint8_t", (8, 0)), ("uint16_t", (16, 0)),
                                  ("uint32_t", (32, 0)), ("uint64_t", (64, 0))):
            out.append("typealias integer {size = %d; base = x;} := %s;" % (size, n))
        out.append("typealias integer {size = 8; signed = false; encoding = ASCII; } "
                   ":= string_bounded_t;\n")
        out.append("trace {\n    major = 1;\n    minor = 8;\n"
                   "    uuid = \"11223344-5566-7788-99aa-bbccddeeff00\";\n"
                   "    byte_order = le;\n    packet.header := struct {\n"
                   "\t    uint32_t magic;\n\t    uint8_t  uuid[16];\n    };\n};\n")
        out.append("env {\n    dpdk_version = \"DPDK 23.11.0\";\n    tracer_name = \"dpdk\";\n};\n")
        out.append("clock {\n    name = \"dpdk\";\n    freq = %20d;\n    offset_s =%20d;\n"
                   "    offset =%20d;\n};\n" % (self.FREQ, 0, 0))
        out.append("typealias integer {\n    size = 48; align = 1; signed = false;\n"
                   "    map = clock.dpdk.value;\n} := uint48_clock_dpdk_t;\n")
        out.append("stream {\n    packet.context := struct {\n         uint32_t cpu_id;\n"
                   "         string_bounded_t name[32];\n    };\n"
                   "    event.header := struct {\n          uint48_clock_dpdk_t timestamp;\n"
                   "          uint16_t id;\n    } align(64);\n};\n")
        for i, (name, fields) in enumerate(self.classes):
            body = "".join("        %s %s;\n" % ({"u16": "uint16_t", "u32": "uint32_t",
                                                   "u64": "uint64_t"}[t], n)
                           for n, t in fields)
            out.append("event {\n    id = %d;\n    name = \"%s\";\n    fields := struct {\n"
                       "%s    };\n};\n" % (i, name, body))
        return "\n".join(out)

    def stream(self, lcore, name, events):
        b = struct.pack("<I", MAGIC) + bytes.fromhex("112233445566778899aabbccddeeff00")
        nm = name.encode()[:31]
        b += struct.pack("<I", lcore) + nm + b"\0" * (32 - len(nm))
        ids = {n: i for i, (n, _) in enumerate(self.classes)}
        for ms, name, vals in events:
            b += b"\0" * (-len(b) % 8)
            ticks = BASE * 5 // 2 + ms * self.FREQ // 1000  # the clock's value, 48 bits
            fields = self.classes[ids[name]][1]
            b += struct.pack("<Q", ticks)[:6] + struct.pack("<H", ids[name])
            for n, ty in fields:
                b += struct.pack("<" + {"u16": "H", "u32": "I", "u64": "Q"}[ty], vals[n])
        return b

    def write(self, folder):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "metadata"), "w") as f:
            f.write(self.metadata())
        launch = ("lib.eal.thread.remote.launch", {"f": 0x4242, "worker_id": 0})
        w1 = [(1,) + launch, (10, "app.burst.begin", {"port": 0, "queue": 0}),
              (20, "lib.ethdev.rx.burst.empty", {"port_id": 0}),
              (30, "app.burst.end", {"nb_rx": 32}),
              (40, "app.burst.begin", {"port": 0, "queue": 0}),
              (45, "app.burst.end", {"nb_rx": 8})]
        w2 = [(2,) + launch, (5, "app.burst.begin", {"port": 1, "queue": 1}),
              (25, "app.burst.end", {"nb_rx": 64}),
              (50, "lib.ethdev.rx.burst.empty", {"port_id": 1})]
        for lcore, name, ev in ((1, "dpdk-worker1", w1), (2, "dpdk-worker2", w2)):
            with open(os.path.join(folder, "channel0_%d" % lcore), "wb") as f:
                f.write(self.stream(lcore, name, ev))


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
    "eight": eight_trace,
    "ros2": ros2_trace,
    "dpdk": Dpdk,
    "nocpu": lambda: nocpu_trace(False),
    "evcpu": lambda: nocpu_trace(True),
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in CASES and sys.argv[1] not in ("session",
                                                                            "rotated"):
        sys.stderr.write("usage: genctf.py %s|session|rotated DIR\n" % "|".join(CASES))
        return 2
    case, folder = sys.argv[1], sys.argv[2]
    if case == "session":
        kernel_trace().write(os.path.join(folder, "kernel"))
        ust_trace(True).write(os.path.join(folder, "ust", "uid", "1000", "64-bit"))
    elif case == "rotated":
        rotated_session(folder)
    else:
        CASES[case]().write(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
