# v2 flows link by id, whatever the times, as Perfetto's importer does: one
# flow_out feeds every flow_in of its id (a second flow_out does not take
# over); a flow_in that starts while its sender runs gets an arrow from
# that moment; a B/E slice carries a bind_id too; a flow_in before any
# flow_out still links to it; a bind_id without flow_in/flow_out, nothing.
from lib import *
m = model()
expect_sane()
lane = {l["label"]: i for i, l in enumerate(m["lanes"])}
got = sorted((a["from"]["lane"], a["from"]["x"], a["to"]["lane"], a["to"]["x"]) for a in m["arrows"])
t1, t2, t3 = lane["pid 1 / tid 1"], lane["pid 1 / tid 2"], lane["pid 1 / tid 3"]
want = sorted([(t1, 50, t2, 50),     # early: starts while send runs
               (t1, 100, t3, 200),   # late: after send ends
               (t1, 100, t3, 400),   # after both: still from the first flow_out
               (t1, 550, t2, 500)])  # a flow_in before its flow_out
expect(got == want, "arrows %r, want %r" % (got, want))
done()
