"""pip install ./python --no-build-isolation  (or: cd python && pip install .
--no-build-isolation), in a venv made with --system-site-packages (Debian's
pip refuses the system site, PEP 668), or with --user or --target DIR.

Builds libtracefig with the repository's Makefile (`make lib`) and installs
the pure-Python module `tracefig` with the library beside it, so the module
loads the very library it was built with.  Offline, with Debian's
setuptools; no compiler step of setuptools' own (the library is plain C
built by make, and the module reaches it through ctypes).
"""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VERSION = "0.1.0"


class BuildWithLibrary(build_py):
    """build_py, then `make lib` and a copy of libtracefig.so.0 into the package."""

    def run(self):
        super().run()
        jobs = os.environ.get("TRACEFIG_MAKE_JOBS", "2")
        subprocess.check_call(["make", "-C", ROOT, f"-j{jobs}", "lib"])
        src = os.path.join(ROOT, "build", f"libtracefig.so.{VERSION}")
        dst_dir = os.path.join(self.build_lib, "tracefig")
        os.makedirs(dst_dir, exist_ok=True)
        shutil.copyfile(src, os.path.join(dst_dir, "libtracefig.so.0"))


class BinaryDistribution(Distribution):
    """The wheel holds a shared library: not a pure-Python one."""

    def has_ext_modules(self):
        return True


setup(
    name="tracefig",
    version=VERSION,
    description="Performance traces to publication figures (SVG, TikZ, PDF, PNG) through libtracefig",
    packages=["tracefig"],
    package_dir={"": "."},
    cmdclass={"build_py": BuildWithLibrary},
    distclass=BinaryDistribution,
    python_requires=">=3.8",
)
