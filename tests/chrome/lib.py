"""Helpers for the check.py files of tests/chrome/cases (standard library only).

run.sh calls each check.py as

    check.py MODEL.json STDERR.txt EXIT_CODE MODEL.svg

in a scratch copy of the case folder (MODEL.json and MODEL.svg are absent or
empty when tracefig failed).  A check.py does

    from lib import *          # run.sh puts tests/chrome on PYTHONPATH
    m = model()                # the parsed JSON model (fails the case if absent)
    expect(cond, "what should hold")
    ...
    done()

and every failed expectation is printed; done() exits 1 when any failed.
"""
import decimal
import json
import re
import sys
import xml.etree.ElementTree as ET

_failures = []
_argv = sys.argv[1:] + [""] * 4
MODEL_FILE, STDERR_FILE, RC, SVG_FILE = _argv[0], _argv[1], _argv[2], _argv[3]

US_PER = {"µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6, "ns": 1e-3}


def expect(cond, msg):
    """Records a failure when cond is false; returns cond."""
    if not cond:
        _failures.append(msg)
    return bool(cond)


def done():
    for f in _failures:
        print("  - " + f)
    sys.exit(1 if _failures else 0)


def rc():
    try:
        return int(RC)
    except ValueError:
        return None


def stderr():
    try:
        with open(STDERR_FILE, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


_model = None


def model():
    """The JSON model; ends the check (as a failure) when there is none."""
    global _model
    if _model is not None:
        return _model
    try:
        with open(MODEL_FILE, encoding="utf-8") as f:
            _model = json.load(f)
    except (OSError, ValueError) as e:
        expect(False, "no JSON model (exit %s): %s; stderr: %s"
               % (RC, e, stderr().strip()[:300]))
        done()
    return _model


def unit_us():
    """Microseconds per axis unit."""
    u = model()["axis"]["unit"]
    if u not in US_PER:
        expect(False, "unknown axis unit %r" % u)
        done()
    return US_PER[u]


def labels():
    return [l["label"] for l in model()["lanes"]]


def lane_index(label):
    """The index of the lane labelled exactly `label` (or None)."""
    for i, l in enumerate(model()["lanes"]):
        if l["label"] == label:
            return i
    return None


def lane_matching(regex):
    """The indices of the lanes whose label matches regex (re.search)."""
    return [i for i, l in enumerate(model()["lanes"]) if re.search(regex, l["label"])]


def counters():
    """The counter lanes: [(index, lane)]."""
    return [(i, l) for i, l in enumerate(model()["lanes"]) if l.get("kind") == "counter"]


def counter(label):
    """The counter lane labelled exactly `label` (a failure, and None, when
    there is none)."""
    for i, l in counters():
        if l["label"] == label:
            return l
    expect(False, "no counter lane %r among %r" % (label, labels()))
    return None


def lane_stats(lane):
    """The statistics object that covers `lane` (a lane of the model): the
    figure's, or its trace's entry in a figure of several; {} for none."""
    st = model().get("stats")
    if isinstance(st, list):
        t = lane.get("trace")
        return next((e for e in st if e and e.get("trace") == t), None) or {}
    return st or {}


def lane_window(lane, exact=False):
    """The window `lane` draws, (start_us, end_us) on its own clock: the
    figure's, or its trace's window_us in a figure of several or in a rank's
    one-trace model (its one entry; its lanes name no trace) (exact:
    Decimals)."""
    m = exact_model() if exact else model()
    tr = m.get("traces")
    if tr:
        w = tr[lane.get("trace", 0)]["window_us"]
        return (exact_time(w[0]), exact_time(w[1])) if exact else (w[0], w[1])
    w = m["window"]
    if exact:
        return exact_time(w["start_us"]), exact_time(w["end_us"])
    return w["start_us"], w["end_us"]


def counter_stats(label):
    """The statistics entry of the counter lane labelled `label`, or None."""
    st = model().get("stats") or {}
    for k in st.get("counters", []):
        if model()["lanes"][k["lane"]]["label"] == label:
            return k
    expect(False, "no counter statistics for %r" % label)
    return None


def samples(label):
    """The samples of counter `label` as [(t_us from the window start,
    value or None)]."""
    l = counter(label)
    if l is None:
        return []
    w0 = model()["window"]["start_us"]
    return [(t - w0, v) for t, v in l["samples"]]


# --- counters, computed here from the trace itself ----------------------------

def _number(v):
    """A counter value as Perfetto's importer reads it: a number, or a
    string holding one (blanks and a '+' allowed); None for null (a stop);
    False for anything else (left out)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str) and re.fullmatch(r"[ \t]*\+?-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?[ \t]*", v):
        return float(v.strip().lstrip("+"))
    return False


def trace_series(path="trace.json"):
    """Every C series of the trace: {(pid, label): [(ts_us, idx, value or
    None)]} in file order, labelled "NAME KEY" ("NAME id: ID KEY"); times
    exact (Decimal), values as floats."""
    with open(path, encoding="utf-8") as f:
        d = json.load(f, parse_float=decimal.Decimal)
    evs = d["traceEvents"] if isinstance(d, dict) else d
    out = {}
    for idx, e in enumerate(evs):
        if e.get("ph") != "C" or not isinstance(e.get("args"), dict):
            continue
        for k, v in e["args"].items():
            x = _number(float(v) if isinstance(v, decimal.Decimal) else v)
            if x is False:
                continue
            parts = [p for p in (e.get("name", ""), "id: %s" % e["id"] if "id" in e else "", k) if p]
            out.setdefault((e.get("pid"), " ".join(parts) or "counter"), []).append(
                (decimal.Decimal(e["ts"]), idx, x))
    return out


def exact_time(v):
    """A time of the trace or the model as an exact Decimal."""
    return decimal.Decimal(v) if not isinstance(v, float) else decimal.Decimal(repr(v))


def expected_counter(samples, w0, w1):
    """What a series holds over [w0, w1] (us, exact): (value at w0 or None,
    the samples in the window, min, max, time-weighted mean) from its
    samples [(ts, idx, value)]; min/max/mean None without a value."""
    s = sorted(samples, key=lambda x: (x[0], x[1]))
    before = [x for x in s if x[0] < w0]
    start = before[-1][2] if before else None
    inside = [x for x in s if w0 <= x[0] <= w1]
    vals = ([start] if start is not None else []) + [x[2] for x in inside if x[2] is not None]
    if not vals:
        return start, [], None, None, None
    wsum = 0.0
    wtime = decimal.Decimal(0)
    cur, t = start, w0
    for ts, _, v in inside + [(w1, 1 << 62, "end")]:
        if cur is not None:
            wsum += cur * float(ts - t)
            wtime += ts - t
        if v == "end":
            break
        cur, t = v, ts
    mean = wsum / float(wtime) if wtime > 0 else cur
    return start, inside, min(vals), max(vals), mean


_exact = None


def exact_model():
    """The JSON model with its numbers as Decimals (times of epoch traces keep
    their digits)."""
    global _exact
    if _exact is None:
        with open(MODEL_FILE, encoding="utf-8") as f:
            _exact = json.load(f, parse_float=decimal.Decimal)
    return _exact


def counter_lane(pid, series, trace=None):
    """The counter lane of (pid, series label): the one whose pid is pid and
    whose label ends with " / " + series (or is it), of trace `trace` in a
    figure of several (None: any), else (None, None)."""
    for i, l in counters():
        if trace is not None and l.get("trace") != trace:
            continue
        if l["pid"] == pid and (l["label"] == series or l["label"].endswith(" / " + series)):
            return i, l
    return None, None


def stats_of_lane(i):
    st = lane_stats(model()["lanes"][i])
    for k in st.get("counters", []):
        if k["lane"] == i:
            return k
    return None


def expect_counter_exact(pid, series, samples, w0=None, w1=None, tol=1e-9, trace=None,
                         end=None):
    """The counter lane of (pid, series) (of trace `trace` in a figure of
    several) holds what the trace says of the window [w0, w1] (exact us;
    default: the window the lane draws): its value at the window's start,
    only values the trace gives at their times, the least and greatest
    value exactly and the time-weighted mean.  `end`: the trace's end (its
    span's); when it comes before w1, the value holds only until then and
    the track stops there."""
    i, l = counter_lane(pid, series, trace)
    if not expect(l is not None, "no counter lane for %r %r among %r" % (pid, series, labels())):
        return
    lw0, lw1 = lane_window(l, exact=True)
    w0 = lw0 if w0 is None else w0
    w1 = lw1 if w1 is None else w1
    stop = end is not None and w0 <= end < w1
    if stop:
        w1 = end
    start, inside, lo, hi, mean = expected_counter(samples, w0, w1)
    got = [(exact_time(t), None if v is None else float(v))
           for t, v in exact_model()["lanes"][i]["samples"]]
    if stop:
        held = ([start] + [v for _, _, v in inside])[-1]
        if held is not None:
            expect(got and got[-1] == (end, None),
                   "%s: last sample %r, want a stop at the trace's end %s" % (l["label"], got[-1:], end))
            got = got[:-1]
    if start is not None:
        expect(got and got[0] == (w0, start),
               "%s: first sample %r, want (%s, %r): the value at the window's start"
               % (l["label"], got[:1], w0, start))
    known = {(ts, v) for ts, _, v in inside}
    for t, v in got[1 if start is not None else 0:]:
        expect((t, v) in known, "%s: sample (%s, %r) is not in the trace's window" % (l["label"], t, v))
    expect(l["range"] == ([lo, hi] if lo is not None else None),
           "%s: range %r, want %r" % (l["label"], l["range"], [lo, hi]))
    k = stats_of_lane(i)
    if k is not None and lo is not None:
        dec = 0
        m = max(abs(lo), abs(hi))
        while dec < 9 and m > 0 and m < 10 ** (5 - dec):
            dec += 1
        q = 10.0 ** -dec
        expect(abs(k["min"] - lo) <= q and abs(k["max"] - hi) <= q and
               abs(k["mean"] - mean) <= q * 0.51 + tol * abs(mean),
               "%s: stats %r, want min %r max %r mean %r" % (l["label"], k, lo, hi, mean))


def bars(name=None, lane=None, shape=None):
    out = []
    for b in model()["bars"]:
        if name is not None and b["name"] != name:
            continue
        if lane is not None and b["lane"] != lane:
            continue
        if shape is not None and b["shape"] != shape:
            continue
        out.append(b)
    return out


def one_bar(name, **kw):
    """The single bar called name; a failure (and None) when not exactly one."""
    bs = bars(name, **kw)
    if not expect(len(bs) == 1, "want one bar %r%s, got %d: %s"
                  % (name, (" " + repr(kw)) if kw else "", len(bs), bs[:3])):
        return None
    return bs[0]


def bar_us(b):
    """A bar's (start, end) in microseconds from the window start."""
    k = unit_us()
    return (b["x0"] * k, b["x1"] * k)


def near(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def expect_span(name, t0_us, t1_us, tol=1e-6, **kw):
    """The bar `name` covers [t0_us, t1_us] (us from the window start)."""
    b = one_bar(name, **kw)
    if b is None:
        return None
    x0, x1 = bar_us(b)
    expect(near(x0, t0_us, tol) and near(x1, t1_us, tol),
           "bar %r spans %.9g..%.9g us, want %.9g..%.9g" % (name, x0, x1, t0_us, t1_us))
    return b


def expect_window(start_us, end_us, tol=1e-6):
    w = model()["window"]
    expect(near(w["start_us"], start_us, tol) and near(w["end_us"], end_us, tol),
           "window %r, want start_us %.12g end_us %.12g" % (w, start_us, end_us))


def expect_stderr(regex, flags=re.I):
    """Some line of stderr matches regex."""
    err = stderr()
    return expect(any(re.search(regex, l, flags) for l in err.splitlines()),
                  "stderr has no line matching /%s/; stderr: %s" % (regex, err.strip()[:400]))


def expect_no_stderr(regex, flags=re.I):
    err = stderr()
    return expect(not any(re.search(regex, l, flags) for l in err.splitlines()),
                  "stderr should have no line matching /%s/; stderr: %s" % (regex, err.strip()[:400]))


def expect_rc(want):
    return expect(rc() == want, "exit %s, want %d; stderr: %s" % (RC, want, stderr().strip()[:300]))


def expect_sane():
    """What holds of every model: bars inside [0, span], on existing lanes
    and rows, labels non-empty."""
    m = model()
    span = m["axis"]["span"]
    nl = len(m["lanes"])
    for l in m["lanes"]:
        expect(l["label"] != "", "a lane has an empty label: %r" % l)
    for l in m["lanes"]:
        expect(l.get("kind") in ("slices", "counter"), "a lane of no kind: %r" % l)
        if l.get("kind") != "counter":
            continue
        expect(l["rows"] == 1, "a counter lane of %r rows" % l["rows"])
        ts = [s[0] for s in l["samples"]]
        expect(ts == sorted(ts), "counter %r: samples out of order" % l["label"])
        w = lane_window(l)
        expect(all(w[0] <= t <= w[1] for t in ts),
               "counter %r: a sample outside the window %r" % (l["label"], w))
        vs = [s[1] for s in l["samples"] if s[1] is not None]
        if l["range"] is None:
            expect(not vs, "counter %r: values but no range" % l["label"])
        else:
            lo, hi = l["range"]
            expect(all(lo <= v <= hi for v in vs), "counter %r: a value outside its range %r"
                   % (l["label"], l["range"]))
        st = lane_stats(l).get("counters")
        if st is not None:
            expect(sum(1 for k in st if m["lanes"][k["lane"]] is l) == 1,
                   "counter %r: not once in the statistics" % l["label"])
    for b in m["bars"]:
        if not expect(0 <= b["lane"] < nl, "bar on no lane: %r" % b):
            continue
        expect(m["lanes"][b["lane"]].get("kind") != "counter", "a bar on a counter lane: %r" % b)
        expect(0 <= b["row"] < m["lanes"][b["lane"]]["rows"], "bar below its lane's rows: %r" % b)
        expect(-1e-9 <= b["x0"] <= b["x1"] <= span * (1 + 1e-12) + 1e-9,
               "bar outside [0, %g]: %r" % (span, b))
        expect(b["shape"] in ("slice", "dense", "instant"), "bad shape: %r" % b)
        # merged counts the slices that start in a dense bar (0: it holds
        # the end of one that started before), or the instants one tick
        # stands for; a slice is one.
        expect(b["merged"] >= 0 if b["shape"] == "dense" else
               b["merged"] == 0 if b["shape"] == "slice" else b["merged"] != 1,
               "merged vs shape: %r" % b)
        if b["shape"] == "dense":
            sh = b.get("busy")
            expect(isinstance(sh, dict) and sh and all(0 <= v <= 1 for v in sh.values()) and
                   sum(sh.values()) <= 1 + 1e-5, "a dense bar's busy shares: %r" % b)


# --- the SVG -----------------------------------------------------------------

_svg = None


def svg_bars():
    """[(title, fill)] of every bar group of the SVG (<g class="tf-bar ...">,
    or "bar ..." as before the tf- prefix), in order."""
    global _svg
    if _svg is None:
        try:
            root = ET.parse(SVG_FILE).getroot()
        except (OSError, ET.ParseError) as e:
            expect(False, "no SVG: %s" % e)
            done()
        ns = "{http://www.w3.org/2000/svg}"
        _svg = []
        for g in root.iter(ns + "g"):
            cls = (g.get("class") or "").split()
            if not cls or cls[0] not in ("tf-bar", "bar"):
                continue
            t = g.find(ns + "title")
            fill = None
            for el in g:
                if el.tag in (ns + "path", ns + "rect", ns + "polygon") and el.get("fill"):
                    fill = el.get("fill").upper()
                    break
            _svg.append(((t.text or "") if t is not None else "", fill))
    return _svg


def svg_fill(name):
    """The fill of the SVG bar whose tooltip starts with name (first one)."""
    for title, fill in svg_bars():
        if title == name or title.startswith(name + " \u00b7"):
            return fill
    expect(False, "no SVG bar titled %r" % name)
    return None


# --- windows -------------------------------------------------------------------


def expect_cut(events, w0, w1, origin=0.0):
    """The window is [origin + w0, origin + w1] (us); every slice of events
    [(name, t0, t1)] (us from origin) that reaches into it is drawn, cut to
    it with clip_left / clip_right where it crosses an edge; the others are
    not drawn."""
    expect_window(origin + w0, origin + w1)
    for name, t0, t1 in events:
        bs = bars(name)
        if t1 <= w0 or t0 >= w1:
            expect(not bs, "%s (%g..%g us) is outside the window %g..%g: %r" % (name, t0, t1, w0, w1, bs))
            continue
        if not expect(len(bs) == 1, "want one bar %r (%g..%g us), got %r" % (name, t0, t1, bs)):
            continue
        b = bs[0]
        x0, x1 = bar_us(b)
        want0, want1 = max(t0, w0) - w0, min(t1, w1) - w0
        expect(near(x0, want0, 1e-9) and near(x1, want1, 1e-9),
               "%s drawn %.9g..%.9g us, want %.9g..%.9g" % (name, x0, x1, want0, want1))
        expect(b["clip_left"] == (t0 < w0) and b["clip_right"] == (t1 > w1),
               "%s clip flags %r/%r, want %r/%r" % (name, b["clip_left"], b["clip_right"], t0 < w0, t1 > w1))


def svg_labels():
    """[(title, in-bar text or None)] of every bar group of the SVG, in order."""
    root = ET.parse(SVG_FILE).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    out = []
    for g in root.iter(ns + "g"):
        cls = (g.get("class") or "").split()
        if not cls or cls[0] not in ("tf-bar", "bar"):
            continue
        t = g.find(ns + "title")
        text = None
        for el in g.iter(ns + "text"):
            text = "".join(el.itertext())
            break
        out.append(((t.text or "") if t is not None else "", text))
    return out
