"""compare.py HTA_OUT TRACEFIG_CSV [PCT_TOL]: the same events on the path
(name, start, duration; starts compared after the first event's offset,
HTA's times start at its trace's first event) and each category's share
within PCT_TOL points (default 0.1).  Prints one line; exit 1 on a
difference."""
import csv
import sys

hta, tf = sys.argv[1], sys.argv[2]
tol = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1
H, hev = {}, []
for line in open(hta):
    p = line.rstrip("\n").split(" ", 3)
    if p[0] == "cat":
        H[p[1]] = float(p[2])
    elif p[0] == "length_us":
        H["length"] = float(p[1])
    elif p[0] == "ev":
        hev.append((int(p[1]), int(p[2]), p[3]))
T, ev = {}, {}
for r in csv.DictReader(open(tf)):
    if r["section"] == "critical_path" and r["key"] == "pct":
        T[r["row"]] = float(r["value"])
    elif r["section"] == "critical_path" and r["key"] == "length_ms":
        T["length"] = float(r["value"]) * 1000
    elif r["section"] == "critical_event":
        ev.setdefault(r["row"], {})[r["key"]] = r["value"]
tev = sorted((int(e["ts_us"]), int(e["dur_us"]), e["name"]) for e in ev.values())
hev.sort()
off = tev[0][0] - hev[0][0] if tev and hev else 0
ts, hs = set((a - off, b, c) for a, b, c in tev), set(hev)
cats = ["cpu_bound", "gpu_compute_bound", "gpu_communication_bound",
        "gpu_kernel_kernel_overhead", "gpu_kernel_launch_overhead", "data_loading"]
worst = max(abs(H.get(k, 0) - T.get(k, 0)) for k in cats)
msg = "events %d (HTA %d, same %d), length %.0f us (HTA %.0f), worst share difference %.4f" % (
    len(ts), len(hs), len(ts & hs), T.get("length", 0), H.get("length", 0), worst)
ok = ts == hs and worst <= tol and abs(T.get("length", 0) - H.get("length", 0)) < 0.5
print(("ok " if ok else "DIFF ") + msg)
if not ok:
    print("  only HTA:", sorted(hs - ts)[:3], " only tracefig:", sorted(ts - hs)[:3])
sys.exit(0 if ok else 1)
