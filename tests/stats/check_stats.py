#!/usr/bin/python3
"""Checks tracefig's --stats outputs against the JSON model of the same run.

    check_stats.py MODEL.json TABLE.txt TABLE.csv

MODEL.json is `tracefig ARGS --format json -o -`, TABLE.txt `tracefig ARGS
--stats`, TABLE.csv `tracefig ARGS --stats=csv`.  Every number of the
table and of the CSV must be the JSON's, digit for digit (the JSON's number
text is kept as text); every line of the table and every row of the CSV
must be accounted for (nothing else on standard output); the CSV must parse
with the csv module and start with its header; and in the table, the
numbers of each column must line up on their decimal point.

Prints one line per failed check, then "N passed, N failed"; exits 1 on a
failure.  Standard library only.
"""

import csv
import json
import re
import sys

NUM = re.compile(r"-?\d+(?:\.\d+)?")
HEADER = ["section", "row", "column", "key", "value"]

passed = 0
failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL %s" % what)
    return cond


def clean(label):
    """A label as the table prints it: control characters as spaces."""
    return "".join(" " if ord(c) < 0x20 or c == "\x7f" else c for c in label)


def expected_rows(model):
    """The CSV rows the JSON model implies, in order (values as text; None
    for null)."""
    s = model["stats"]
    rows = [["window", "", "", "window_ms", s["window_ms"]]]
    for lane, st in zip(model["lanes"], s["lanes"]):
        if lane.get("kind") == "counter":
            continue  # in the counter rows
        rows.append(["lane", lane["label"], "", "busy_ms", st["busy_ms"]])
        rows.append(["lane", lane["label"], "", "busy_pct", st["busy_pct"]])
    for g in s["groups"]:
        rows.append(["group", g["label"], "", "lanes", " ".join(g["lanes"])])
        rows.append(["group", g["label"], "", "busy_ms", g["busy_ms"]])
        rows.append(["group", g["label"], "", "busy_pct", g["busy_pct"]])
    for a, row in zip(s["groups"], s["overlap_ms"]):
        for b, v in zip(s["groups"], row):
            rows.append(["overlap", a["label"], b["label"], "overlap_ms", v])
    for k in s.get("counters", []):
        label = model["lanes"][int(k["lane"])]["label"]
        for key in ("min", "max", "mean"):
            rows.append(["counter", label, "", key, k[key]])
    if "io_hidden_pct" in s:
        rows.append(["pipelined", "", "", "io_hidden_pct", s["io_hidden_pct"]])
        rows.append(["pipelined", "", "", "gpu_idle_ms", s["gpu_idle_ms"]])
        for c in s["candidate_io"]:
            rows.append(["candidate", c["candidate"], "", "io_ms", c["io_ms"]])
            rows.append(["candidate", c["candidate"], "", "uncovered_io_ms", c["uncovered_io_ms"]])
    if "gpu_breakdown" in s:
        g = s["gpu_breakdown"]
        if s.get("compat"):
            rows.append(["gpu_breakdown", "", "", "compat", s["compat"]])
        for k in ("scope", "kernel_span_ms", "idle_ms", "compute_ms", "non_compute_ms", "comm_ms",
                  "comm_comp_overlap_pct"):
            rows.append(["gpu_breakdown", "", "", k, g[k]])
    if s.get("summary") is not None:
        rows.append(["summary", "", "", "summary", s["summary"]])
    return [[x if x is not None else "" for x in r] for r in rows]


def check_csv(model, path):
    with open(path, newline="", encoding="utf-8") as fh:
        text = fh.read()
    check("\r" not in text, "csv: LF line ends")
    rows = list(csv.reader(text.splitlines(keepends=True)))
    if not check(rows and rows[0] == HEADER, "csv: header row %r" % (rows[:1],)):
        return
    got = rows[1:]
    if model["stats"] is None:
        check(got == [], "csv: only the header without statistics")
        return
    exp = expected_rows(model)
    check(len(got) == len(exp), "csv: %d rows, expected %d" % (len(got), len(exp)))
    for i, (g, e) in enumerate(zip(got, exp)):
        check(g == e, "csv: row %d is %r, the JSON says %r" % (i + 2, g, e))


class Table:
    """The --stats text as blocks of lines, consumed block by block."""

    def __init__(self, text):
        self.blocks = []
        cur = []
        for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
            if line == "":
                if cur:
                    self.blocks.append(cur)
                cur = []
            else:
                cur.append(line)
        if cur:
            self.blocks.append(cur)
        self.i = 0

    def next(self):
        if self.i >= len(self.blocks):
            return None
        self.i += 1
        return self.blocks[self.i - 1]


def last_numbers(line, k):
    """The last k numbers of a line (label digits come before them)."""
    m = list(NUM.finditer(line))
    return m[-k:] if len(m) >= k else None


def aligned(block, k, what, skip=1):
    """The last k numbers of each row after `skip` header rows line up on
    their decimal point."""
    points = []
    for line in block[skip:]:
        m = last_numbers(line, k)
        if m is None:
            check(False, "%s: row %r has fewer than %d numbers" % (what, line, k))
            return
        points.append([x.start() + x.group().index(".") if "." in x.group() else x.end()
                       for x in m])
    for col in range(k):
        check(len({p[col] for p in points}) <= 1,
              "%s: column %d not aligned on the decimal point" % (what, col + 1))


def numbers_are(line, k, expected, what):
    m = last_numbers(line, k)
    got = [x.group() for x in m] if m else None
    check(got == expected, "%s: %r, the JSON says %r" % (what, got, expected))


def check_table(model, path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    s = model["stats"]
    if s is None:
        check(text == "no statistics for this figure\n", "table: the no-statistics line")
        return
    t = Table(text)
    b = t.next()
    check(b is not None and len(b) == 1 and b[0].split() == ["window", s["window_ms"], "ms"],
          "table: window line %r" % (b,))

    b = t.next() or []
    check(b[:1] and b[0].split() == ["lane", "#", "busy", "ms", "busy", "%"],
          "table: lane header %r" % b[:1])
    lanes = [(i, lane, st) for i, (lane, st) in enumerate(zip(model["lanes"], s["lanes"]))
             if lane.get("kind") != "counter"]
    for lane, st in zip(model["lanes"], s["lanes"]):
        if lane.get("kind") == "counter":
            check(st["busy_ms"] is None and st["busy_pct"] is None,
                  "json: a counter lane's busy time is null")
    check(len(b) == 1 + len(lanes), "table: one row per lane of slices")
    for line, (i, lane, st) in zip(b[1:], lanes):
        parts = line.rsplit(None, 3)
        check(len(parts) == 4 and parts[0].strip() == clean(lane["label"]).strip() and
              parts[1] == str(i), "table: lane row %r" % line)
        numbers_are(line, 2, [st["busy_ms"], st["busy_pct"]], "table: lane %d" % i)
    aligned(b, 2, "table: lanes")

    groups = s["groups"]
    if groups:
        b = t.next() or []
        check(b[:1] and b[0].split() == ["group", "lanes", "busy", "ms", "busy", "%"],
              "table: group header %r" % b[:1])
        check(len(b) == 1 + len(groups), "table: one row per group")
        for line, g in zip(b[1:], groups):
            head = line.rsplit(None, 2)[0].split()
            want = g["label"].split() + (g["lanes"] if g["lanes"] else ["-"])
            check(head == want, "table: group row %r" % line)
            numbers_are(line, 2, [g["busy_ms"], g["busy_pct"]], "table: group %s" % g["label"])
        aligned(b, 2, "table: groups")

        b = t.next() or []
        n = len(groups)
        check(len(b) == 1 + n and b[0].startswith("overlap ms"), "table: overlap matrix shape")
        for line, g, row in zip(b[1:], groups, s["overlap_ms"]):
            check(line.startswith(clean(g["label"])), "table: overlap row %r" % line)
            numbers_are(line, n, list(row), "table: overlap row %s" % g["label"])
        aligned(b, n, "table: overlap")

    ctrs = s.get("counters", [])
    if ctrs:
        b = t.next() or []
        check(b[:1] and b[0].split() == ["counter", "#", "min", "max", "mean"],
              "table: counter header %r" % b[:1])
        check(len(b) == 1 + len(ctrs), "table: one row per counter")
        for line, k in zip(b[1:], ctrs):
            lane = model["lanes"][int(k["lane"])]
            parts = line.rsplit(None, 4)
            check(len(parts) == 5 and parts[0].strip() == clean(lane["label"]).strip() and
                  parts[1] == k["lane"], "table: counter row %r" % line)
            want = [k[x] if k[x] is not None else "-" for x in ("min", "max", "mean")]
            check(parts[2:] == want, "table: counter %s: %r, the JSON says %r"
                  % (k["lane"], parts[2:], want))
        aligned(b, 3, "table: counters")

    if "io_hidden_pct" in s:
        b = t.next() or []
        check(len(b) == 2, "table: I/O hidden and GPU idle")
        if len(b) == 2:
            if s["io_hidden_pct"] is None:
                check(b[0].split()[:3] == ["I/O", "hidden", "-"], "table: I/O hidden null")
            else:
                check(b[0].split() == ["I/O", "hidden", s["io_hidden_pct"], "%"],
                      "table: I/O hidden %r" % b[0])
            check(b[1].split() == ["GPU", "idle", s["gpu_idle_ms"], "ms"],
                  "table: GPU idle %r" % b[1])
        if s["candidate_io"]:
            b = t.next() or []
            check(b[:1] and b[0].split() == ["candidate", "I/O", "ms", "uncovered", "I/O", "ms"],
                  "table: candidate header")
            check(len(b) == 1 + len(s["candidate_io"]), "table: one row per candidate")
            for line, c in zip(b[1:], s["candidate_io"]):
                check(line.split() == [c["candidate"], c["io_ms"], c["uncovered_io_ms"]],
                      "table: candidate row %r" % line)
            aligned(b, 2, "table: candidates")

    if "gpu_breakdown" in s:
        g = s["gpu_breakdown"]
        b = t.next() or []
        title = "GPU breakdown (%s%s)" % (g["scope"],
                                          ", as HTA computes it" if s.get("compat") else "")
        check(b[:1] == [title], "table: GPU breakdown title")
        want = [("kernel span", g["kernel_span_ms"]), ("idle", g["idle_ms"]),
                ("compute", g["compute_ms"]), ("non-compute", g["non_compute_ms"]),
                ("communication", g["comm_ms"]),
                ("comm/compute overlap", g["comm_comp_overlap_pct"])]
        check(len(b) == 1 + len(want), "table: GPU breakdown rows")
        for line, (name, v) in zip(b[1:], want):
            check(line.startswith(name), "table: GPU breakdown row %r" % line)
            if v is None:
                check(" - " in line + " ", "table: null %s" % name)
            else:
                numbers_are(line, 1, [v], "table: %s" % name)

    if s.get("summary") is not None:
        b = t.next() or []
        check(b == ["summary: " + s["summary"]], "table: summary %r" % b)
    rest = t.next()
    check(rest is None, "table: nothing else on standard output (found %r)" % (rest,))


def main():
    model_path, table_path, csv_path = sys.argv[1:4]
    # Numbers stay as their text: the table and the CSV must print the same
    # digits.
    with open(model_path, encoding="utf-8") as fh:
        model = json.load(fh, parse_float=str, parse_int=str)
    check(isinstance(model, dict) and "stats" in model and list(model)[-1] == "stats",
          "json: \"stats\" is the model's last member")
    check_table(model, table_path)
    check_csv(model, csv_path)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
