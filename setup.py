"""pip install . --no-build-isolation: the Python module with libtracefig.

The module and its build live in python/ (see python/setup.py, which
`pip install ./python` runs directly); this file lets the repository's
root be installed as it stands.
"""
import os
import runpy

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
runpy.run_path("setup.py", run_name="__main__")
