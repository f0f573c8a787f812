"""The Python module: every method, every kind of trace, errors, and bytes
identical to the command line's in every format."""
import gzip
import json
import os
import pathlib
import shutil
import stat
import tempfile
import unittest
import warnings

import common
import tracefig

FORMATS = ["svg", "tikz", "pdf", "png", "json", "stats"]


def lib_outputs(fig):
    return {fmt: fig.render(fmt) for fmt in FORMATS}


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="tracefig-pytest-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def same_bytes(self, fig, trace_args, opt_args):
        want = common.cli_outputs(self.tmp, trace_args, opt_args)
        got = lib_outputs(fig)
        for fmt in FORMATS:
            self.assertEqual(got[fmt], want[fmt], f"{fmt} differs from the command line's")


class Methods(Base):
    def setUp(self):
        super().setUp()
        self.fig = tracefig.Figure(common.V2, breakdown=common.BREAKDOWN, width="3.3in")

    def test_svg(self):
        s = self.fig.svg()
        self.assertIsInstance(s, str)
        self.assertTrue(s.lstrip().startswith("<?xml") or s.lstrip().startswith("<svg"))
        self.assertIn("</svg>", s)

    def test_tikz(self):
        t = self.fig.tikz()
        self.assertIn("\\begin{tikzpicture}", t)
        self.assertIn("% Made with: tracefig overlap_timeline_v2.json --breakdown "
                      "candidate_breakdown.json --width 3.3in", t)

    def test_pdf(self):
        self.assertTrue(self.fig.pdf().startswith(b"%PDF-"))

    def test_png(self):
        self.assertTrue(self.fig.png().startswith(b"\x89PNG\r\n\x1a\n"))

    def test_model(self):
        m = self.fig.model()
        self.assertIsInstance(m, dict)
        self.assertTrue(m["schema"].startswith("tracefig-figure-"))
        self.assertEqual(json.loads(self.fig.json()), m)

    def test_stats(self):
        st = self.fig.stats()
        self.assertIsInstance(st, dict)
        self.assertEqual(st, self.fig.model()["stats"])
        self.assertIn("window_ms", st)
        self.assertTrue(self.fig.stats_table())
        self.assertIn(",", self.fig.stats_table(csv=True).splitlines()[0])

    def test_repr(self):
        self.assertEqual(self.fig._repr_svg_(), self.fig.svg())
        self.assertEqual(self.fig._repr_png_(), self.fig.png())

    def test_save_by_extension_and_format(self):
        for ext, fmt in [("svg", "svg"), ("tex", "tikz"), ("pdf", "pdf"), ("png", "png"),
                         ("json", "json")]:
            path = os.path.join(self.tmp, f"out.{ext}")
            self.assertEqual(self.fig.save(path), path)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), self.fig.render(fmt))
        path = os.path.join(self.tmp, "figure.out")
        self.fig.save(pathlib.Path(path), format="svg")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), self.fig.render("svg"))

    def test_save_replaces_atomically_and_never_clobbers(self):
        path = os.path.join(self.tmp, "keep.svg")
        with open(path, "w") as f:
            f.write("old")
        os.chmod(path, 0o600)
        self.fig.save(path)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), self.fig.render("svg"))
        self.assertEqual([n for n in os.listdir(self.tmp) if n.startswith(".")], [],
                         "a temporary file was left beside the output")
        with self.assertRaises(ValueError):
            self.fig.save(os.path.join(self.tmp, "x.bmp"))
        with self.assertRaises(OSError) as cm:
            self.fig.save(os.path.join(self.tmp, "no", "such", "dir.svg"))
        self.assertIn("cannot write", str(cm.exception))
        ro = os.path.join(self.tmp, "ro")
        os.mkdir(ro)
        with open(os.path.join(ro, "x.svg"), "w") as f:
            f.write("old")
        os.chmod(ro, stat.S_IRUSR | stat.S_IXUSR)
        try:
            if os.geteuid() != 0:  # root writes anywhere
                with self.assertRaises(OSError):
                    self.fig.save(os.path.join(ro, "x.svg"))
                with open(os.path.join(ro, "x.svg")) as f:
                    self.assertEqual(f.read(), "old")
        finally:
            os.chmod(ro, stat.S_IRWXU)

    def test_close_and_context(self):
        with tracefig.Figure(common.V2) as fig:
            self.assertTrue(fig.svg())
        with self.assertRaises(ValueError):
            fig.render("tikz")

    def test_warnings(self):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            fig = tracefig.Figure(common.V2, titles="a")
        self.assertEqual(fig.warnings, ["--titles and --align are for several traces: one "
                                        "trace is drawn as it is"])
        self.assertTrue(any(issubclass(w.category, tracefig.TraceWarning) for w in seen))
        rc, _, err = common.cli(common.V2, "--titles", "a", "-o", os.path.join(self.tmp, "x.json"))
        self.assertEqual(err, "".join(f"tracefig: warning: {w}\n" for w in fig.warnings))

    def test_version(self):
        self.assertEqual(tracefig.version(), "0.1.0")
        self.assertTrue(os.path.exists(tracefig.library_path))


class TraceKinds(Base):
    """Every kind of trace argument draws what the command line draws."""

    opts = {"width": "3.3in"}
    args = ["--width", "3.3in"]

    def test_path_str(self):
        self.same_bytes(tracefig.Figure(common.V2, **self.opts), [common.V2], self.args)

    def test_path_like(self):
        self.same_bytes(tracefig.Figure(pathlib.Path(common.V2), **self.opts), [common.V2],
                        self.args)

    def test_gzip_path(self):
        self.same_bytes(tracefig.Figure(common.GZIP, **self.opts), [common.GZIP], self.args)

    def test_bytes_named(self):
        with open(common.KINETO, "rb") as f:
            data = f.read()
        fig = tracefig.Figure(tracefig.Trace(data, "kineto_trace.json"), **self.opts)
        self.same_bytes(fig, [common.KINETO], self.args)

    def test_gzip_bytes(self):
        with open(common.GZIP, "rb") as f:
            data = f.read()
        self.assertEqual(gzip.decompress(data)[:1], b"{")
        fig = tracefig.Figure(tracefig.Trace(data, "trace.json.gz"), **self.opts)
        self.same_bytes(fig, [common.GZIP], self.args)

    def _memory_file(self, data):
        # The command line reading a file called as the module calls bytes.
        path = os.path.join(self.tmp, "<memory>")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_bytes(self):
        with open(common.V2, "rb") as f:
            data = f.read()
        self.same_bytes(tracefig.Figure(data, **self.opts), [self._memory_file(data)], self.args)

    def test_dict(self):
        with open(common.KINETO) as f:
            doc = json.load(f)
        fig = tracefig.Figure(doc, **self.opts)
        self.same_bytes(fig, [self._memory_file(json.dumps(doc).encode())], self.args)

    def test_bare_array_list(self):
        with open(common.KINETO) as f:
            events = json.load(f)["traceEvents"]
        fig = tracefig.Figure(events, **self.opts)
        self.same_bytes(fig, [self._memory_file(json.dumps(events).encode())], self.args)
        self.assertEqual(fig.model()["mode"], "chrome")

    def test_several_paths(self):
        a = os.path.join(self.tmp, "a.json")
        b = os.path.join(self.tmp, "b.json")
        shutil.copyfile(common.KINETO, a)
        shutil.copyfile(common.KINETO, b)
        fig = tracefig.Figure([a, b], **self.opts)
        self.assertEqual(len(fig.model()["traces"]), 2)
        self.same_bytes(fig, [a, b], self.args)

    def test_several_mixed(self):
        with open(common.KINETO, "rb") as f:
            data = f.read()
        b = os.path.join(self.tmp, "b.json")
        shutil.copyfile(common.KINETO, b)
        fig = tracefig.Figure((tracefig.Trace(data, "a.json"), b), **self.opts)
        a = os.path.join(self.tmp, "a.json")
        shutil.copyfile(common.KINETO, a)
        self.same_bytes(fig, [a, b], self.args)


class InMemory(Base):
    """Bytes, dicts and lists are read where they are: with TMPDIR a folder
    that cannot be written (as root, /proc), nothing is staged on disk, and
    the figure is the command line's of the same bytes in a file."""

    opts = {"width": "3.3in"}
    args = ["--width", "3.3in"]

    def setUp(self):
        super().setUp()
        self.ro = os.path.join(self.tmp, "ro")
        os.mkdir(self.ro)
        os.chmod(self.ro, 0o555)
        try:
            with open(os.path.join(self.ro, "probe"), "w"):
                pass
            os.remove(os.path.join(self.ro, "probe"))
            self.ro = "/proc"  # root writes any folder
        except OSError:
            pass
        self.old = os.environ.get("TMPDIR")

    def tearDown(self):
        if self.old is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = self.old
        os.chmod(os.path.join(self.tmp, "ro"), 0o755)
        super().tearDown()

    def drawn(self, trace, data):
        """The figure of trace made with TMPDIR unwritable, against the
        command line's of data in a file."""
        os.environ["TMPDIR"] = self.ro
        try:
            fig = tracefig.Figure(trace, **self.opts)
            got = lib_outputs(fig)
        finally:
            if self.old is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = self.old
        path = os.path.join(self.tmp, "<memory>")
        with open(path, "wb") as f:
            f.write(data)
        want = common.cli_outputs(self.tmp, [path], self.args)
        for fmt in FORMATS:
            self.assertEqual(got[fmt], want[fmt], f"{fmt} differs from the command line's")

    def test_bytes(self):
        with open(common.KINETO, "rb") as f:
            data = f.read()
        self.drawn(data, data)

    def test_gzip_bytes(self):
        with open(common.GZIP, "rb") as f:
            data = f.read()
        self.drawn(data, data)

    def test_dict(self):
        with open(common.KINETO) as f:
            doc = json.load(f)
        self.drawn(doc, json.dumps(doc).encode())

    def test_list(self):
        with open(common.KINETO) as f:
            events = json.load(f)["traceEvents"]
        self.drawn(events, json.dumps(events).encode())


class Options(Base):
    def test_kinds_of_values(self):
        fig = tracefig.Figure(common.KINETO, window_event="ProfilerStep#*", occurrence=2,
                              flows=True, async_=None, lanes=["*thread*", "GPU*"],
                              color={"aten::*": "#336699"}, max_lanes=12, width="240bp")
        self.same_bytes(fig, [common.KINETO],
                        ["--window-event", "ProfilerStep#*", "--occurrence", "2", "--flows",
                         "--lanes", "*thread*,GPU*", "--color", "aten::*=#336699",
                         "--max-lanes", "12", "--width", "240bp"])

    def test_python_keywords(self):
        fig = tracefig.Figure(common.KINETO, from_="1ms", to="3ms", async_=True)
        self.same_bytes(fig, [common.KINETO], ["--from", "1ms", "--to", "3ms", "--async"])

    def test_snake_and_dash_spellings(self):
        a = tracefig.Figure(common.V2, start_candidate=6).model()
        b = tracefig.Figure(common.V2, **{"start-candidate": "6"}).model()
        self.assertEqual(a, b)
        self.assertEqual(a["start_candidate"], 6)


class Errors(Base):
    def test_unknown_option(self):
        with self.assertRaises(ValueError) as cm:
            tracefig.Figure(common.V2, widht="3in")
        self.assertEqual(str(cm.exception), "unknown option '--widht' (did you mean '--width'?)")

    def test_bad_value_is_the_commands_message(self):
        with self.assertRaises(ValueError) as cm:
            tracefig.Figure(common.V2, width="3 furlongs")
        rc, _, err = common.cli(common.V2, "--width", "3 furlongs", "-o", "-")
        self.assertEqual(rc, 2)
        self.assertEqual(err.splitlines()[0], f"tracefig: {cm.exception}")

    def test_command_line_only_option(self):
        with self.assertRaises(ValueError):
            tracefig.Figure(common.V2, output="x.svg")

    def test_missing_file(self):
        with self.assertRaises(tracefig.TraceError) as cm:
            tracefig.Figure(os.path.join(self.tmp, "nonexistent.json"))
        self.assertTrue(str(cm.exception).endswith("nonexistent.json: cannot open: No such "
                                                   "file or directory"))
        self.assertEqual(cm.exception.code, 1)

    def test_bad_bytes_is_the_commands_message(self):
        bad = b'{"traceEvents": [{"ph": "X", "ts": 1, "dur": 2, "name": "a"},\n  {]}'
        with self.assertRaises(tracefig.TraceError) as cm:
            tracefig.Figure(tracefig.Trace(bad, "broken.json"))
        path = os.path.join(self.tmp, "broken.json")
        with open(path, "wb") as f:
            f.write(bad)
        rc, _, err = common.cli("broken.json", "-o", "x.json", cwd=self.tmp)
        self.assertEqual(rc, 1)
        self.assertEqual(err.splitlines()[0], f"tracefig: {cm.exception}")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.json")))

    def test_bad_window_is_a_trace_error(self):
        with self.assertRaises(tracefig.TraceError):
            tracefig.Figure(common.KINETO, window_event="NoSuchEvent")

    def test_wrong_type(self):
        with self.assertRaises(TypeError):
            tracefig.Figure(42)

    def test_no_trace(self):
        with self.assertRaises(ValueError):
            tracefig.Figure([])


if __name__ == "__main__":
    common.main("python")
