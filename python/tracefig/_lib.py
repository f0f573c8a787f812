"""Finding and declaring libtracefig (ctypes): the C API of src/tracefig.h.

The library is looked for, in this order:
  1. $TRACEFIG_LIB, a path to libtracefig.so.0 (or any name);
  2. the copy installed beside this module by `pip install .` (the one the
     module was built with);
  3. the source tree's build/libtracefig.so.0, when this module is run from
     a checkout;
  4. pkg-config's libdir for tracefig (an installed `make install`);
  5. the dynamic linker's own search (ctypes.util.find_library).
"""
import ctypes
import ctypes.util
import os
import subprocess

SONAME = "libtracefig.so.0"


class Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 1024)]


class Input(ctypes.Structure):
    _fields_ = [("path", ctypes.c_char_p), ("data", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def _pkg_config_lib():
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "tracefig"],
                             capture_output=True, text=True, check=False, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    libdir = out.stdout.strip()
    path = os.path.join(libdir, SONAME) if out.returncode == 0 and libdir else None
    return path if path and os.path.exists(path) else None


def candidates():
    """The paths to try, in order, each looked for only when the ones
    before it did not load (the first that loads wins)."""
    env = os.environ.get("TRACEFIG_LIB")
    if env:
        yield env  # an override is the only one tried
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for p in (os.path.join(here, SONAME), os.path.join(here, "..", "..", "build", SONAME)):
        if os.path.exists(p):
            yield p
    pc = _pkg_config_lib()
    if pc:
        yield pc
    name = ctypes.util.find_library("tracefig")
    if name:
        yield name


def _declare(lib):
    vp, cp, sz, err = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(Error)
    sigs = {
        "tracefig_version": (cp, []),
        "tracefig_options_new": (vp, []),
        "tracefig_options_set": (ctypes.c_int, [vp, cp, cp, err]),
        "tracefig_options_free": (None, [vp]),
        "tracefig_figure_new": (vp, [vp, ctypes.POINTER(Input), sz, err]),
        "tracefig_render": (ctypes.c_int, [vp, cp, ctypes.POINTER(vp), ctypes.POINTER(sz), err]),
        "tracefig_figure_warnings": (cp, [vp]),
        "tracefig_figure_free": (None, [vp]),
        "tracefig_write": (ctypes.c_int, [cp, vp, sz, err]),
        "tracefig_free": (None, [vp]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


def load():
    tried = []
    for path in candidates():
        try:
            return _declare(ctypes.CDLL(path)), path
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise ImportError("tracefig: cannot find libtracefig (set TRACEFIG_LIB, `make lib`, "
                      "or `make install`): " + ("; ".join(tried) or "no candidate"))
