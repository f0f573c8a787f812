#!/bin/sh
# The Python module as a user installs it: `pip install ./python
# --no-build-isolation` (offline, Debian's setuptools) into a private
# folder, then its unit tests (bytes identical to BUILD/tracefig's), a real
# PyTorch profiler run (SKIP without python3-torch), and
# examples/notebook.ipynb executed by jupyter nbconvert, whose output cells
# must hold an image/svg+xml.
#
#   run.sh BUILD/tracefig
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=${TMPDIR:-/tmp}/tracefig-python.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
py=/usr/bin/python3
[ -x "$py" ] || py=python3
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL python: $1"; }
# A suite's own "N passed, N failed", added to ours.
add() {
    line=$(grep -E '^[a-z]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    p=$(echo "$line" | awk '{print $2}')
    f=$(echo "$line" | awk '{print $4}')
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-1}))
    grep -E '^(FAIL|ERROR):|SKIP' "$1"
}

site="$tmp/site"
if "$py" -m pip --version >/dev/null 2>&1; then
    if "$py" -m pip install --no-build-isolation --no-deps --no-index --target "$site" \
          "$root/python" >"$tmp/pip.log" 2>&1; then
        ok
    else
        bad "pip install ./python --no-build-isolation failed"; tail -20 "$tmp/pip.log"
    fi
else
    echo "python: SKIP pip install (no pip for $py): the module from the tree, with build/'s library"
    site="$root/python"
fi
# The repository's root installs the same module (its setup.py runs
# python/'s), with the library beside it.
if [ "$site" = "$tmp/site" ]; then
    if "$py" -m pip install --no-build-isolation --no-deps --no-index --target "$tmp/site-root" \
          "$root" >"$tmp/pip-root.log" 2>&1 &&
        [ -e "$tmp/site-root/tracefig/libtracefig.so.0" ] &&
        PYTHONPATH="$tmp/site-root" "$py" -c 'import sys, tracefig
sys.exit(0 if tracefig.library_path.startswith(sys.argv[1]) else 1)' "$tmp/site-root"; then
        ok
    else
        bad "pip install . (the repository's root) --no-build-isolation failed"
        tail -20 "$tmp/pip-root.log"
    fi
fi
export PYTHONPATH="$site:$root/tests/python" TRACEFIG_BIN="$bin"
unset TRACEFIG_LIB
where=$("$py" -c 'import tracefig; print(tracefig.library_path)' 2>"$tmp/import.log")
case $where in
"$site"/*) ok ;;
*) bad "the module did not load the library it was installed with: '$where'"; cat "$tmp/import.log" ;;
esac
# TRACEFIG_LIB overrides where the library comes from.
if [ -e "$root/build/libtracefig.so.0" ]; then
    w=$(TRACEFIG_LIB="$root/build/libtracefig.so.0" "$py" -c 'import tracefig; print(tracefig.library_path)')
    if [ "$w" = "$root/build/libtracefig.so.0" ]; then ok; else bad "TRACEFIG_LIB ignored: '$w'"; fi
fi

"$py" "$root/tests/python/test_tracefig.py" >"$tmp/unit.log" 2>&1
add "$tmp/unit.log"
"$py" "$root/tests/python/test_torch.py" >"$tmp/torch.log" 2>&1
add "$tmp/torch.log"

if command -v jupyter >/dev/null 2>&1 && jupyter nbconvert --version >/dev/null 2>&1; then
    # Run where it lies (it reads the examples beside it); the result elsewhere.
    if jupyter nbconvert --to notebook --execute "$root/examples/notebook.ipynb" \
            --output-dir "$tmp" --output executed >"$tmp/nb.log" 2>&1; then
        ok
    else
        bad "jupyter nbconvert --execute examples/notebook.ipynb failed"; tail -20 "$tmp/nb.log"
    fi
    if "$py" - "$tmp/executed.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
svgs = [o for c in nb["cells"] for o in c.get("outputs", []) if "image/svg+xml" in o.get("data", {})]
sys.exit(0 if len(svgs) >= 2 and all("</svg>" in "".join(o["data"]["image/svg+xml"]) for o in svgs) else 1)
PY
    then ok; else bad "the executed notebook's output cells hold no image/svg+xml"; fi
else
    echo "python: SKIP notebook (no jupyter nbconvert; Debian's jupyter-nbconvert, python3-ipykernel)"
fi

echo "python: $pass passed, $fail failed"
[ $fail -eq 0 ]
