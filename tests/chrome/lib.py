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
    for b in m["bars"]:
        if not expect(0 <= b["lane"] < nl, "bar on no lane: %r" % b):
            continue
        expect(0 <= b["row"] < m["lanes"][b["lane"]]["rows"], "bar below its lane's rows: %r" % b)
        expect(-1e-9 <= b["x0"] <= b["x1"] <= span * (1 + 1e-12) + 1e-9,
               "bar outside [0, %g]: %r" % (span, b))
        expect(b["shape"] in ("slice", "dense", "instant"), "bad shape: %r" % b)
        # merged counts the slices of a dense span, or the instants one tick
        # stands for; a slice is one.
        expect(b["merged"] > 0 if b["shape"] == "dense" else
               b["merged"] == 0 if b["shape"] == "slice" else b["merged"] != 1,
               "merged vs shape: %r" % b)


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
