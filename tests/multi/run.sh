#!/bin/sh
# Several traces in one figure: run.sh TRACEFIG
#
# Rank sets and before/after pairs made by tests/tools/gentrace.py (skewed
# clocks, a missing rank, ranks of different lengths, 2 and 64 ranks, a
# quarter-turned Kineto base, a slow rank), pipelined timelines, figure
# models written and read back, and the bad inputs; checks.py says what
# each case must hold.  Ends with "multi: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-multi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
"$py" "$here/checks.py" "$bin" "$here/../tools/gentrace.py" "$here/../../examples" "$tmp"
