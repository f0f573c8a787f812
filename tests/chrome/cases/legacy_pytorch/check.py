# A Chrome trace with a Candidate_Eval_0 X event still goes to the legacy
# PyTorch mode (automatic choice), not the chrome mode.
from lib import *
m = model()
expect(m.get("mode") == "pytorch", "mode %r" % m.get("mode"))
done()
