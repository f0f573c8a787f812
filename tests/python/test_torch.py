"""A real PyTorch profiler run drawn through the module: a few steps of a
small model on the CPU, the second ProfilerStep as the window.  SKIP where
torch cannot be imported."""
import contextlib
import json
import os
import tempfile
import unittest

import common
import tracefig

try:
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function, schedule
except Exception as e:  # noqa: BLE001 - any failure to import means no torch here
    torch = None
    WHY = f"python3-torch cannot be imported: {e}"


def profile_steps(steps=4):
    """Profiles `steps` training steps.  With Kineto (torch.profiler's usual
    back-end) the profiler's schedule marks each step ProfilerStep#N itself;
    Debian's python3-torch is built without Kineto, and its legacy profiler
    keeps only the last step of a schedule, so there each step is marked
    with the record_function the profiler would have written."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(16, 32)
    kineto = torch.autograd.kineto_available()
    kw = {"schedule": schedule(wait=0, warmup=0, active=steps)} if kineto else {}
    with profile(activities=[ProfilerActivity.CPU], **kw) as prof:
        for i in range(steps):
            with contextlib.nullcontext() if kineto else record_function(f"ProfilerStep#{i}"):
                opt.zero_grad()
                model(x).sum().backward()
                opt.step()
            prof.step()
    return prof


@unittest.skipIf(torch is None, "torch" if torch else globals().get("WHY", "no torch"))
class TorchProfiler(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.prof = profile_steps()
        cls.tmp = tempfile.mkdtemp(prefix="tracefig-torch-")
        cls.trace = os.path.join(cls.tmp, "trace.json")
        cls.prof.export_chrome_trace(cls.trace)
        with open(cls.trace) as f:
            doc = json.load(f)
        cls.events = doc["traceEvents"] if isinstance(doc, dict) else doc

    def test_second_step_window_and_lanes(self):
        fig = tracefig.Figure(self.prof, window_event="ProfilerStep#*", occurrence=2)
        m = fig.model()
        self.assertEqual(m["mode"], "chrome")
        steps = sorted((e for e in self.events
                        if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")),
                       key=lambda e: float(e["ts"]))
        self.assertGreaterEqual(len(steps), 3)
        second = steps[1]
        self.assertAlmostEqual(m["window"]["start_us"], float(second["ts"]), delta=0.01)
        self.assertAlmostEqual(m["window"]["end_us"], float(second["ts"]) + float(second["dur"]),
                               delta=0.01)
        # One lane per thread with work in the window, the step on top.
        w0, w1 = float(second["ts"]), float(second["ts"]) + float(second["dur"])
        threads = {(str(e["pid"]), str(e["tid"])) for e in self.events
                   if e.get("ph") == "X" and float(e["ts"]) < w1
                   and float(e["ts"]) + float(e.get("dur", 0)) > w0}
        self.assertEqual(len(m["lanes"]), len(threads), m["lanes"])
        self.assertTrue(all(lane["kind"] == "slices" for lane in m["lanes"]))
        top = [b["name"] for b in m["bars"] if b["row"] == 0]
        self.assertIn(second["name"], top)
        self.assertTrue(any(b["name"].startswith("aten::") for b in m["bars"]))
        self.assertTrue(fig.svg().rstrip().endswith("</svg>"))

    def test_same_as_the_exported_file(self):
        # The profiler object and its own export draw the same figure.
        a = tracefig.Figure(self.prof, window_event="ProfilerStep#*", occurrence=2).model()
        b = tracefig.Figure(self.trace, window_event="ProfilerStep#*", occurrence=2).model()
        self.assertEqual(a["window"], b["window"])
        self.assertEqual([lane["label"] for lane in a["lanes"]],
                         [lane["label"] for lane in b["lanes"]])

    def test_legacy_autograd_profiler(self):
        model = torch.nn.Linear(8, 8)
        with torch.autograd.profiler.profile() as prof:
            for _ in range(3):
                model(torch.randn(4, 8)).sum().backward()
        fig = tracefig.Figure(prof)
        self.assertTrue(fig.model()["lanes"])
        self.assertTrue(fig.svg().rstrip().endswith("</svg>"))


if __name__ == "__main__":
    common.main("torch")
