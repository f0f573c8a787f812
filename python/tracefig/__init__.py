"""tracefig: performance traces to publication figures, from Python.

    import tracefig
    fig = tracefig.Figure("trace.json", window_event="ProfilerStep#*", width="3.3in")
    fig.save("step.pdf")

A Figure draws through libtracefig, the library the `tracefig` command is
built on, so its bytes are the command's for the same trace and options.
Options are the command's long options as keyword arguments, '-' spelled
'_', with a trailing '_' for Python's keywords (from_, async_; see `man tracefig`): strings and numbers as the command takes them,
True for a flag, lists for the options that take several values
(lanes=["gpu*", "cpu*"]; color={"nccl*": "#ff0000"}; group={"io": ["io*"]}).

Errors raise TraceError (the trace cannot be read or used) or ValueError
(an option is wrong), with the command's one-line message; the warnings
the command would print are in Figure.warnings and are issued as
TraceWarning.
"""
import ctypes
import json
import os
import warnings as _warnings

from . import _lib

__all__ = ["Figure", "Trace", "TraceError", "TraceWarning", "library_path", "version"]

_LIB, library_path = _lib.load()


def version():
    """The version of the libtracefig loaded."""
    return _LIB.tracefig_version().decode()


class TraceError(Exception):
    """A trace that cannot be read or drawn; str() is the command's message."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


class TraceWarning(UserWarning):
    """What the command prints as "tracefig: warning: ..."."""


def _raise(err):
    msg = err.message.decode("utf-8", "replace")
    if err.code == 2:
        raise ValueError(msg)
    if err.code == 4:
        raise MemoryError(msg)
    if err.code == 3:
        raise OSError(msg)
    raise TraceError(msg, err.code)


class Trace:
    """A trace held in memory under a name: bytes (or a parsed dict or list,
    written as JSON) that messages and the recorded command line call
    `name`, as the command would call the file."""

    def __init__(self, data, name="<memory>"):
        if isinstance(data, (dict, list)):
            data = json.dumps(data).encode()
        self.data = bytes(data)
        self.name = name


def _is_profiler(obj):
    return hasattr(obj, "export_chrome_trace") and callable(obj.export_chrome_trace)


def _is_one_trace(obj):
    """A list is one Chrome trace (a bare array of events) when it holds an
    event, else several traces."""
    return isinstance(obj, list) and any(isinstance(e, dict) and "ph" in e for e in obj)


# given once per value on the command line
_REPEATED = {"color", "group", "trace", "span", "measure", "callout", "region"}
_FORMATS = {".svg": "svg", ".tex": "tikz", ".pdf": "pdf", ".png": "png", ".json": "json"}


def _option_words(options):
    """(name, value) pairs for tracefig_options_set, in the order given."""
    for key, val in options.items():
        # A trailing '_' lets Python keywords be options: from_="1.2s", async_=True.
        name = key.rstrip("_").replace("_", "-")
        if val is None or val is False:
            continue
        if val is True:
            yield name, None
        elif name == "marks" and isinstance(val, (list, tuple)):
            # marks=[{"kind": "span", ...}]: the objects of a --marks file
            yield "marks-json", json.dumps(list(val))
        elif isinstance(val, dict):
            for k, v in val.items():
                v = ",".join(v) if isinstance(v, (list, tuple)) else v
                yield name, f"{k}={v}"
        elif isinstance(val, (list, tuple)):
            if name in _REPEATED:
                for v in val:
                    yield name, str(v)
            else:
                yield name, ",".join(str(v) for v in val)
        else:
            yield name, str(val)


class Figure:
    """One figure of one or several traces.

    trace: a path (str or os.PathLike), bytes, a parsed trace (dict, or a
    list of events), a Trace, a torch.profiler.profile or
    torch.autograd.profiler.profile (exported to a temporary Chrome trace),
    or a list or tuple of those for one figure of several traces.
    """

    def __init__(self, trace, **options):
        self._handle = None
        self._cache = {}
        err = _lib.Error()
        opts = _LIB.tracefig_options_new()
        if not opts:
            raise MemoryError("out of memory")
        try:
            for name, val in _option_words(options):
                if _LIB.tracefig_options_set(opts, name.encode(),
                                             None if val is None else val.encode(),
                                             ctypes.byref(err)):
                    _raise(err)
            tmp = []  # a folder for exported profiler traces, made when needed
            try:
                inputs, keep = self._inputs(trace, tmp)
                arr = (_lib.Input * len(inputs))(*inputs)
                self._handle = _LIB.tracefig_figure_new(opts, arr, len(inputs), ctypes.byref(err))
                del keep
            finally:
                for t in tmp:
                    t.cleanup()
        finally:
            _LIB.tracefig_options_free(opts)
        if not self._handle:
            _raise(err)
        self.warnings = self._warnings()
        for w in self.warnings:
            _warnings.warn(w, TraceWarning, stacklevel=2)

    # --- inputs ------------------------------------------------------------------------

    def _inputs(self, trace, tmp):
        several = isinstance(trace, tuple) or (isinstance(trace, list) and not _is_one_trace(trace))
        items = list(trace) if several else [trace]
        if not items:
            raise ValueError("no trace given")
        inputs, keep = [], []
        for k, item in enumerate(items):
            if _is_profiler(item):
                if not tmp:
                    import tempfile  # only here: it costs an import of shutil, lzma, bz2
                    tmp.append(tempfile.TemporaryDirectory(prefix="tracefig-py-"))
                path = os.path.join(tmp[0].name, str(k), "torch_trace.json")
                os.mkdir(os.path.dirname(path))
                item.export_chrome_trace(path)
                item = path
            if isinstance(item, (str, os.PathLike)):
                p = os.fsencode(item)
                keep.append(p)
                inputs.append(_lib.Input(p, None, 0))
                continue
            if isinstance(item, (dict, list)):
                item = Trace(item)
            if isinstance(item, (bytes, bytearray, memoryview)):
                item = Trace(item)
            if not isinstance(item, Trace):
                raise TypeError(f"tracefig.Figure: cannot read a trace from {type(item).__name__}")
            name = item.name.encode()
            data = ctypes.c_char_p(item.data)  # the bytes object's own buffer, not a copy
            keep += [name, data]
            inputs.append(_lib.Input(name, ctypes.cast(data, ctypes.c_void_p), len(item.data)))
        return inputs, keep

    # --- rendering ---------------------------------------------------------------------

    def _warnings(self):
        text = _LIB.tracefig_figure_warnings(self._handle).decode("utf-8", "replace")
        return [line[len("tracefig: warning: "):] if line.startswith("tracefig: warning: ") else line
                for line in text.splitlines()]

    def render(self, fmt):
        """The figure in one format, as bytes: svg, tikz, pdf, png, json,
        stats (the --stats table), stats-csv or palette (the class -> colour
        table --palette-out writes; palette="FILE" reads one back)."""
        if fmt in self._cache:
            return self._cache[fmt]
        if not self._handle:
            raise ValueError("the figure is closed")
        err = _lib.Error()
        out = ctypes.c_void_p()
        n = ctypes.c_size_t()
        if _LIB.tracefig_render(self._handle, fmt.encode(), ctypes.byref(out), ctypes.byref(n),
                                ctypes.byref(err)):
            _raise(err)
        try:
            data = ctypes.string_at(out, n.value)
        finally:
            _LIB.tracefig_free(out)
        before = len(self.warnings)
        self.warnings = self._warnings()
        for w in self.warnings[before:]:
            _warnings.warn(w, TraceWarning, stacklevel=3)
        self._cache[fmt] = data
        return data

    def svg(self):
        return self.render("svg").decode()

    def tikz(self):
        return self.render("tikz").decode()

    def pdf(self):
        return self.render("pdf")

    def png(self):
        return self.render("png")

    def json(self):
        """The figure model as the command's --format json writes it."""
        return self.render("json").decode()

    def model(self):
        """The figure model (--format json) as a dict."""
        return json.loads(self.render("json"))

    def stats(self):
        """The window's statistics (the model's "stats"), a dict, or None
        when the mode computes none."""
        return self.model().get("stats")

    def stats_table(self, csv=False):
        """The --stats table (or --stats=csv) as text."""
        return self.render("stats-csv" if csv else "stats").decode()

    def save(self, path, format=None):
        """Writes the figure to path, in the format of its extension (or
        `format`), as the command writes an output: a temporary file
        renamed into place, so a failure never leaves a half-written or
        clobbered file."""
        path = os.fspath(path)
        if format is None:
            format = _FORMATS.get(os.path.splitext(path)[1].lower())
            if format is None:
                raise ValueError(f"cannot tell the format of '{path}': give format=")
        data = self.render(format)
        err = _lib.Error()
        if _LIB.tracefig_write(os.fsencode(path), data, len(data), ctypes.byref(err)):
            _raise(err)
        return path

    def _repr_svg_(self):
        return self.svg()

    def _repr_png_(self):
        return self.png()

    def close(self):
        if self._handle:
            _LIB.tracefig_figure_free(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
