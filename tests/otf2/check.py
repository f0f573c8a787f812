#!/usr/bin/env python3
"""Checks one figure model of tests/tools/genotf2.py's basic archive:

    check.py CASE MODEL.json STDERR [ARG]

Prints what is wrong and exits 1, else exits 0.  The expected numbers
follow from the generator's design (see its docstring): rank r's events are
r us late; a step is 800 us long, 1000 us apart, from 100 us."""
import json
import sys

errors = []


def want(cond, what):
    if not cond:
        errors.append(what)


def bars(m, lane_label):
    idx = [i for i, l in enumerate(m["lanes"]) if l["label"] == lane_label]
    if not idx:
        errors.append("no lane %r" % lane_label)
        return []
    return [b for b in m["bars"] if b["lane"] == idx[0]]


def lane_labels(m):
    return [l["label"] for l in m["lanes"]]


def group(m, label):
    for g in m["stats"]["groups"]:
        if g["label"] == label:
            return g
    errors.append("no stats group %r" % label)
    return {}


def case_lanes(m, err):
    labels = lane_labels(m)
    slices = [l["label"] for l in m["lanes"] if l["kind"] == "slices"]
    want(slices == ["rank %d / thread %d" % (r, t) for r in range(4) for t in range(2)] +
         ["GPU 0 / stream 0"], "slice lanes: %s" % slices)
    counters = {l["label"]: l.get("unit") for l in m["lanes"] if l["kind"] == "counter"}
    want(counters == {"rank 0 / PAPI_TOT_CYC thread 0": "#", "rank 1 / mem": "KiB",
                      "rank 1 / power": "W"}, "counters: %s" % counters)
    power = [l for l in m["lanes"] if l["label"] == "rank 1 / power"]
    if power:
        want(power[0]["range"] == [100.0, 120.0], "power range %s" % power[0]["range"])
    # slices: names, categories, rows
    b0 = bars(m, "rank 0 / thread 0")
    cats = {(b["name"], b["category"]) for b in b0}
    for nc in [("main", "user"), ("step", "user"), ("compute", "compiler"), ("MPI_Send", "MPI"),
               ("MPI_Recv", "MPI"), ("MPI_Wait", "MPI"), ("MPI_Allreduce", "MPI collective"),
               ("MPI_Bcast", "MPI collective"), ("write_output", "I/O")]:
        want(nc in cats, "rank 0 thread 0 has no %s of category %s" % nc)
    rows = {b["name"]: b["row"] for b in b0}
    want(rows.get("main") == 0 and rows.get("step") == 1 and rows.get("MPI_Send") == 2,
         "nesting rows main/step/MPI_Send: %s" % rows)
    want({(b["name"], b["category"]) for b in bars(m, "rank 0 / thread 1")} ==
         {("!$omp parallel", "OpenMP"), ("compute", "compiler")}, "thread 1's slices")
    want({(b["name"], b["category"]) for b in bars(m, "GPU 0 / stream 0")} ==
         {("kernel_a", "CUDA")}, "GPU stream's slices")
    # the collective outside any MPI region (rank 3)
    want(any(b["name"] == "MPI_Barrier" and b["category"] == "MPI collective"
             for b in bars(m, "rank 3 / thread 0")), "rank 3's standalone MPI_Barrier")
    # mis-nested: a closes at 3400 (its own), b runs 3300-3500
    b1 = {b["name"]: (b["x0"], b["x1"]) for b in bars(m, "rank 1 / thread 0")}
    want(b1.get("a") == (3201, 3401) and b1.get("b") == (3301, 3501), "a, b: %s" % b1)
    warn = [l for l in err.splitlines() if "did not match" in l]
    want(len(warn) == 1 and "1 Leave " in warn[0], "one mis-nesting warning: %s" % warn)
    # the gap of rank 2: main in two pieces, 3602 .. 3802 empty
    mains = sorted((b["x0"], b["x1"]) for b in bars(m, "rank 2 / thread 0") if b["name"] == "main")
    want(mains == [(2, 3602), (3802, 4002)], "rank 2's main around the gap: %s" % mains)
    want(any("measurement switched off 1 time" in n for n in m["notes"]), "the gap's note")
    # colours: MPI a red, its collectives a lighter red
    col = {c["name"]: c["color"] for c in m["categories"]}
    want(col.get("MPI") == "#CC3311" and col.get("MPI collective") == "#EE8866",
         "MPI colours %s" % col)
    # arrows: 3 steps x (4 ring + 4 non-blocking)
    want(len(m["arrows"]) == 24, "%d arrows, not 24" % len(m["arrows"]))
    li = {l["label"]: i for i, l in enumerate(m["lanes"])}
    ring = [(a["from"]["lane"], a["to"]["lane"], a["from"]["x"], a["to"]["x"])
            for a in m["arrows"]]
    want((li["rank 0 / thread 0"], li["rank 1 / thread 0"], 410, 521) in ring,
         "the first ring message 0 -> 1 (410 -> 521 us)")
    want((li["rank 2 / thread 0"], li["rank 0 / thread 0"], 537, 580) in ring,
         "the first non-blocking message 2 -> 0 (537 -> 580 us)")


def case_window(m, err):
    want(m["window"] == {"start_us": 1100, "end_us": 1903}, "window %s" % m["window"])


def case_window_glob(m, err):
    want(m["window"] == {"start_us": 2100, "end_us": 2903}, "window %s" % m["window"])


def case_fromto(m, err):
    want(m["window"] == {"start_us": 1000, "end_us": 2000}, "window %s" % m["window"])


def case_stats(m, err):
    s = m["stats"]
    want(s["window_ms"] == 0.803, "window_ms %s" % s["window_ms"])
    # rank r's step 2 lies in the window but for the r us after 1900
    for r in range(4):
        g = group(m, "rank %d" % r)
        want(g.get("busy_ms") == 0.803, "rank %d busy %s" % (r, g.get("busy_ms")))
        # p2p 50+80+10+10+50 = 200 us, the Allreduce 100 us
        want(g.get("mpi_ms") == 0.3, "rank %d MPI %s" % (r, g.get("mpi_ms")))
    g1 = group(m, "rank 1")
    want(g1.get("mpi_pct") == 37.36, "rank 1 MPI share %s" % g1.get("mpi_pct"))
    par = {p["name"]: p for p in s.get("paradigms", [])}
    want(par.get("MPI", {}).get("ms") == 0.8 and par.get("MPI collective", {}).get("ms") == 0.4,
         "paradigms %s" % {k: v["ms"] for k, v in par.items()})
    want(par.get("OpenMP", {}).get("groups_ms", [0])[0] == 0.3, "OpenMP on rank 0")


def case_pick(m, err):
    labels = [l["label"] for l in m["lanes"]]
    want(labels == ["rank 2 / thread 0", "rank 2 / thread 1", "rank 0 / thread 1"],
         "picked lanes %s" % labels)


def case_byname(m, err):
    legend = {e["label"] for e in m["legend"]}
    want("compute" in legend and "main" in legend and "MPI" not in legend,
         "the legend by name: %s" % sorted(legend))


def case_onerank(m, err):
    want([l["label"] for l in m["lanes"] if l["kind"] == "slices"] == ["rank 1 / thread 0"],
         "lanes %s" % lane_labels(m))
    want(len(m["arrows"]) == 0, "arrows to undrawn ranks: %d" % len(m["arrows"]))


def case_renamed(m, err):
    """genotf2.py renamed: a Leave of a region not open closes the innermost
    open one (x from the window's start, 100 us)."""
    b = {(x["name"], x["x0"], x["x1"]) for x in bars(m, "Process / Master thread")}
    want(b == {("hpx_main", 0, 200), ("task", 300, 400), ("work", 320, 350), ("a", 500, 550),
               ("b", 520, 600), ("end", 890, 900)}, "slices %s" % sorted(b))
    g = group(m, "Process")
    want(g.get("busy_ms") == 0.41, "busy %s ms, not 0.41" % g.get("busy_ms"))
    warn = [l for l in err.splitlines() if "Leave" in l]
    want(len(warn) == 1 and warn[0].endswith(
        ": 1 Leave did not match the innermost open region (each closed its own region); "
        "2 Leaves named a region that was not open; each closed the innermost one"),
         "the one warning: %s" % warn)


def case_nompi(m, err):
    """genotf2.py nompi: no MPI, so the archive's own names."""
    labels = [(l["label"], l["kind"]) for l in m["lanes"]]
    want(labels == [("Process / PAPI_TOT_INS", "counter"), ("Process / Master thread", "slices"),
                    ("GPU 0 / stream 0", "slices")], "lanes %s" % labels)
    want([g["label"] for g in m["stats"]["groups"]] == ["Process", "GPU 0"],
         "stats groups %s" % [g["label"] for g in m["stats"]["groups"]])
    want(not any("rank" in l[0] for l in labels), "a rank without MPI")


def main():
    case, path, err_path = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        with open(path) as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        with open(err_path) as f:
            print("no model (%s): %s" % (e, f.read().strip()))
        return 1
    with open(err_path) as f:
        err = f.read()
    globals()["case_" + case](m, err)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
