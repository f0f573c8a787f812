# The slices of trace.json, in us from its first event (ts 5 s): the origin
# of --from and --to.
ORIGIN = 5000000
EVENTS = [("long", 0, 2000000), ("a", 0, 100), ("b", 250, 350), ("g", 450, 460),
          ("h", 850, 950), ("c", 12000, 13000), ("i", 15000, 16000), ("d", 19500, 20500),
          ("e", 1200000, 1300000), ("f", 1450000, 1600000), ("j", 1100000, 1250000)]
