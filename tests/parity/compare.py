#!/usr/bin/env python3
"""Compare tracefig's figure model (--format json) with the reference's expected.json.

    compare.py [--case NAME] [--strict-ticks] [--expect-error [--status N] [--stderr FILE]]
               EXPECTED.json ACTUAL.json

EXPECTED.json is written by tests/tools/mkparity.py from the reference (oracle_dump.py);
ACTUAL.json is tracefig's output (schema "tracefig-figure-1").  Prints one line per
mismatch ("FAIL case: field: ...") and exits 1 when there is any; x tick differences are
"WARNING" lines unless --strict-ticks.  --expect-error says that tracefig exited non-zero:
that passes only when the reference failed on the same input too.

Standard library only; runs with any python3 >= 3.7.
"""

import argparse
import json
import os
import sys

SCHEMA = "tracefig-figure-1"
TOL_MS = 0.02     # window edges, bar extents, event start/duration
TOL_PCT = 0.01    # breakdown percentages
TOL_TICK = 1e-6


class Report:
    def __init__(self, case, strict_ticks):
        self.case = case
        self.strict_ticks = strict_ticks
        self.failures = 0
        self.warnings = 0

    def fail(self, field, msg):
        self.failures += 1
        print("FAIL %s: %s: %s" % (self.case, field, msg))

    def warn(self, field, msg):
        self.warnings += 1
        print("WARNING %s: %s: %s" % (self.case, field, msg))

    def ticks(self, field, msg):
        if self.strict_ticks:
            self.fail(field, msg)
        else:
            self.warn(field, msg)


def _fmt(v):
    if isinstance(v, float):
        return repr(round(v, 6))
    return json.dumps(v, ensure_ascii=False)


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def near(rep, field, exp, act, tol):
    if not _is_num(act):
        rep.fail(field, "expected %s, got %s" % (_fmt(exp), _fmt(act)))
        return False
    if abs(float(exp) - float(act)) > tol:
        rep.fail(field, "expected %s, got %s (diff %.4g > %g)"
                 % (_fmt(exp), _fmt(act), float(act) - float(exp), tol))
        return False
    return True


def same(rep, field, exp, act):
    if exp != act:
        rep.fail(field, "expected %s, got %s" % (_fmt(exp), _fmt(act)))
        return False
    return True


def color(v):
    return v.upper() if isinstance(v, str) else v


def load(path, what):
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        return None, "%s: cannot read %s (%s)" % (what, path, exc.strerror)
    if not text.strip():
        return None, "%s: empty" % what
    try:
        return json.loads(text), None
    except ValueError as exc:
        return None, "%s: not JSON (%s)" % (what, exc)


# ---------------------------------------------------------------------------


def compare_window(rep, exp_w, act):
    act_w = act.get("window")
    if not isinstance(act_w, dict):
        rep.fail("window", "missing")
        return
    near(rep, "window.start_ms", exp_w["start_ms"], act_w.get("start_ms"), TOL_MS)
    near(rep, "window.end_ms", exp_w["end_ms"], act_w.get("end_ms"), TOL_MS)


def compare_xticks(rep, exp_ticks, act):
    act_ticks = act.get("xticks")
    if not isinstance(act_ticks, list):
        rep.ticks("xticks", "missing")
        return
    if len(act_ticks) != len(exp_ticks) or any(
        not _is_num(a) or abs(a - e) > TOL_TICK for e, a in zip(exp_ticks, act_ticks)
    ):
        rep.ticks("xticks", "expected %s, got %s"
                  % (_fmt([round(t, 6) for t in exp_ticks]), _fmt(act_ticks)))


def bar_key(b):
    return "%s/%s/%s" % (b.get("lane"), b.get("name", "-"), b.get("candidate", "-"))


def compare_bar_sets(rep, exp_bars, act_bars):
    """Different counts: say which bars are missing or extra."""
    rep.fail("bars", "expected %d bars, got %d" % (len(exp_bars), len(act_bars)))
    pool = {}
    for b in act_bars:
        pool.setdefault(bar_key(b), []).append(b)
    for b in exp_bars:
        k = bar_key(b)
        if pool.get(k):
            pool[k].pop(0)
        else:
            rep.fail("bars", "missing %s x=[%.3f, %.3f]" % (k, b["x0"], b["x1"]))
    for k, rest in sorted(pool.items()):
        for b in rest:
            x0, x1 = b.get("x0"), b.get("x1")
            where = ("x=[%.3f, %.3f]" % (x0, x1)) if _is_num(x0) and _is_num(x1) else ""
            rep.fail("bars", "extra %s %s" % (k, where))


def compare_timeline_bars(rep, exp_bars, act_bars):
    if len(exp_bars) != len(act_bars):
        compare_bar_sets(rep, exp_bars, act_bars)
        return
    for i, (e, a) in enumerate(zip(exp_bars, act_bars)):
        if not isinstance(a, dict):
            rep.fail("bars[%d]" % i, "not an object")
            continue
        f = "bars[%d](%s)" % (i, bar_key(e))
        same(rep, f + ".lane", e["lane"], a.get("lane"))
        same(rep, f + ".name", e["name"], a.get("name"))
        same(rep, f + ".candidate", e["candidate"], a.get("candidate"))
        same(rep, f + ".clip_left", e["clip_left"], a.get("clip_left"))
        same(rep, f + ".clip_right", e["clip_right"], a.get("clip_right"))
        same(rep, f + ".label", e["label"], a.get("label"))
        same(rep, f + ".color", color(e["color"]), color(a.get("color")))
        near(rep, f + ".x0", e["x0"], a.get("x0"), TOL_MS)
        near(rep, f + ".x1", e["x1"], a.get("x1"), TOL_MS)
        near(rep, f + ".start_ms", e["start_ms"], a.get("start_ms"), TOL_MS)
        near(rep, f + ".dur_ms", e["dur_ms"], a.get("dur_ms"), TOL_MS)
        if "label_color" in a and e["label"] is not None and a.get("label") is not None:
            same(rep, f + ".label_color", color(e["label_color"]), color(a["label_color"]))


def compare_lanes(rep, exp, act):
    act_lanes = act.get("lanes")
    if not isinstance(act_lanes, list):
        rep.fail("lanes", "missing")
        return
    want = [(l["id"], l["label"]) for l in exp]
    got = [(l.get("id"), l.get("label")) if isinstance(l, dict) else l for l in act_lanes]
    if want != got:
        rep.fail("lanes", "expected %s, got %s" % (_fmt(want), _fmt(got)))


def compare_legend(rep, exp, act):
    act_leg = act.get("legend")
    if act_leg is None:
        act_leg = []
    if not isinstance(act_leg, list):
        rep.fail("legend", "not a list")
        return
    want = [(e["label"], color(e["color"])) for e in exp]
    got = [(e.get("label"), color(e.get("color"))) if isinstance(e, dict) else e for e in act_leg]
    if want != got:
        rep.fail("legend", "expected %s, got %s" % (_fmt(want), _fmt(got)))


def compare_breakdown(rep, exp, act):
    act_bd = act.get("breakdown")
    if exp is None or act_bd is None:
        if (exp is None) != (act_bd is None):
            rep.fail("breakdown", "expected %s, got %s"
                     % ("none" if exp is None else "a panel",
                        "none" if act_bd is None else "a panel"))
        return
    if not isinstance(act_bd, dict):
        rep.fail("breakdown", "not an object")
        return
    same(rep, "breakdown.title", exp["title"], act_bd.get("title"))
    slices = act_bd.get("slices")
    if not isinstance(slices, list):
        rep.fail("breakdown.slices", "missing")
        return
    if len(slices) != len(exp["slices"]):
        rep.fail("breakdown.slices", "expected %s, got %s"
                 % (_fmt([s["label"] for s in exp["slices"]]),
                    _fmt([s.get("label") for s in slices if isinstance(s, dict)])))
        return
    for i, (e, a) in enumerate(zip(exp["slices"], slices)):
        f = "breakdown.slices[%d](%s)" % (i, e["label"])
        if not isinstance(a, dict):
            rep.fail(f, "not an object")
            continue
        same(rep, f + ".label", e["label"], a.get("label"))
        same(rep, f + ".color", color(e["color"]), color(a.get("color")))
        same(rep, f + ".text", e["text"], a.get("text"))
        near(rep, f + ".pct", e["pct"], a.get("pct"), TOL_PCT)
        near(rep, f + ".width_pct", e["width_pct"], a.get("width_pct"), TOL_PCT)
        if "text_color" in a and e["text"] is not None and a.get("text") is not None:
            same(rep, f + ".text_color", color(e["text_color"]), color(a["text_color"]))


def compare_timeline(rep, exp, act):
    same(rep, "start_candidate", exp["start_candidate"], act.get("start_candidate"))
    compare_window(rep, exp["window"], act)
    if "zigzag_amp_ms" in act:
        near(rep, "zigzag_amp_ms", exp["zigzag_amp_ms"], act["zigzag_amp_ms"], TOL_MS)
    compare_lanes(rep, exp["lanes"], act)
    bars = act.get("bars")
    if not isinstance(bars, list):
        rep.fail("bars", "missing")
    else:
        compare_timeline_bars(rep, exp["bars"], bars)
    compare_legend(rep, exp["legend"], act)
    compare_breakdown(rep, exp["breakdown"], act)
    compare_xticks(rep, exp["xticks"], act)


def compare_pytorch(rep, exp, act):
    compare_window(rep, exp["window"], act)
    bars = act.get("bars")
    if not isinstance(bars, list):
        rep.fail("bars", "missing")
        return
    if len(bars) != len(exp["bars"]):
        compare_bar_sets(rep, exp["bars"], bars)
    else:
        for i, (e, a) in enumerate(zip(exp["bars"], bars)):
            f = "bars[%d](%s)" % (i, e["lane"])
            if not isinstance(a, dict):
                rep.fail(f, "not an object")
                continue
            same(rep, f + ".lane", e["lane"], a.get("lane"))
            near(rep, f + ".x0", e["x0"], a.get("x0"), TOL_MS)
            near(rep, f + ".x1", e["x1"], a.get("x1"), TOL_MS)
    compare_xticks(rep, exp["xticks"], act)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("expected")
    ap.add_argument("actual")
    ap.add_argument("--case", help="name used in messages (default: the expected file's folder)")
    ap.add_argument("--strict-ticks", action="store_true", help="x tick differences fail")
    ap.add_argument("--expect-error", action="store_true",
                    help="tracefig exited non-zero; pass only if the reference failed too")
    ap.add_argument("--status", type=int, help="tracefig's exit status (for messages)")
    ap.add_argument("--stderr", help="file holding tracefig's stderr (for messages)")
    a = ap.parse_args(argv)

    case = a.case or os.path.basename(os.path.dirname(os.path.abspath(a.expected)))
    rep = Report(case, a.strict_ticks)
    exp, err = load(a.expected, "expected")
    if err:
        rep.fail("expected", err)
        return 1
    exp_error = exp.get("error")

    if a.expect_error:
        if exp_error is None:
            detail = ""
            if a.stderr:
                try:
                    with open(a.stderr, "r", encoding="utf-8", errors="replace") as f:
                        lines = [l.strip() for l in f if l.strip()]
                    if lines:
                        detail = ": " + lines[0]
                except OSError:
                    pass
            status = " %d" % a.status if a.status is not None else ""
            rep.fail("exit", "tracefig failed (status%s) but the reference draws a figure%s"
                     % (status, detail))
            return 1
        act, _ = load(a.actual, "actual")
        if isinstance(act, dict) and act.get("bars"):
            rep.warn("output", "tracefig printed a figure although it failed")
        return 0

    if exp_error is not None:
        rep.fail("exit", "the reference fails (%s: %s) but tracefig exited 0"
                 % (exp_error.get("type"), exp_error.get("message")))
        return 1
    act, err = load(a.actual, "actual")
    if err:
        rep.fail("output", err)
        return 1
    if not isinstance(act, dict):
        rep.fail("output", "not a JSON object")
        return 1
    same(rep, "schema", SCHEMA, act.get("schema"))
    if not same(rep, "mode", exp["mode"], act.get("mode")):
        return 1
    if exp["mode"] == "pytorch":
        compare_pytorch(rep, exp, act)
    else:
        compare_timeline(rep, exp, act)
    return 1 if rep.failures else 0


if __name__ == "__main__":
    sys.exit(main())
