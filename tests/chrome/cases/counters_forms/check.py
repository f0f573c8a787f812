# A trace of counters only draws them: the window is their samples' extent;
# numbers written as strings (blanks, a '+'), exponents and negative values;
# a null stops a series and a number restarts it; an id names a series of
# its own (a string id or a number); a counter with no name and no key is
# "counter"; a sample at the window's very end is drawn; a value that
# repeats the one before is no step.
from lib import *
m = model()
expect_sane()
expect_window(100, 140)
expect(labels() == ["only counters / counter", "only counters / later v",
                    "only counters / load a", "only counters / load b", "only counters / load c",
                    "only counters / q id: 8 len", "only counters / q id: x7 len"],
       "lanes %r" % labels())
expect(samples("only counters / load a") == [(0, 12), (10, 14), (20, None), (30, 11)],
       "a %r" % samples("only counters / load a"))
expect(samples("only counters / load b") == [(0, 5), (20, 6)], "b %r" % samples("only counters / load b"))
expect(samples("only counters / load c") == [(0, 1500), (10, -0.25)], "c %r" % samples("only counters / load c"))
expect(samples("only counters / q id: x7 len") == [(5, 3)], "x7 %r" % samples("only counters / q id: x7 len"))
expect(samples("only counters / later v") == [(40, 1)], "later %r" % samples("only counters / later v"))
for (pid, name), s in trace_series().items():
    expect_counter_exact(pid, name, s)
k = counter_stats("only counters / load a")
# 12 for 10 us, 14 for 10, none for 10, 11 for 10: 370 / 30
expect(k and near(k["mean"], 370 / 30, 1e-5), "a mean %r" % k)
k = counter_stats("only counters / later v")
expect(k and k["mean"] == 1, "a sample at the window's end holds for no time: mean %r" % k)
expect(not m["bars"], "bars %r" % m["bars"])
done()
