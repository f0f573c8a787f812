#!/bin/sh
# A job of many ranks in one figure (issue 39): run.sh TRACEFIG
#
# Jobs made by tests/tools/gentrace.py job (Kineto traces with
# distributedInfo, varied busy shares, one straggler) and
# tests/tools/genotf2job.c (an OTF2 archive of the same kind, built here
# against libotf2; its cases say SKIP without it), of 64 to 300 ranks so
# that the suite takes seconds: the overview's rows cover every rank, ink
# the mean of their ranks (the JSON model's numbers, the SVG's bars and the
# PNG's pixels, against each rank's busy time as the generators wrote it),
# --order-ranks, --ranks, --stats' spread, every back-end, models against
# traces, the same bytes on 1 and 2 threads.  checks.py says what each
# case must hold.  Ends with "ranks: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../tools
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-ranks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# The OTF2 job's generator, when libotf2's header is there.
gen=""
if "$bin" /nonexistent.otf2 2>&1 | grep -q "built without OTF2"; then
    :
elif ${CC:-cc} -std=c11 -O2 $(otf2-config --cppflags 2>/dev/null) -o "$tmp/genotf2job" \
    "$tools/genotf2job.c" -lotf2 2>"$tmp/cc.log"; then
    gen=$tmp/genotf2job
fi
"$py" "$here/checks.py" "$bin" "$tools/gentrace.py" "$gen" "$tmp"
