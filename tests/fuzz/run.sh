#!/bin/sh
# Runs each libFuzzer target for SECONDS on its corpus.
#
#   run.sh SECONDS build-fuzz/fuzz_NAME...
#   FUZZ_DIR=build-fuzz-fast FUZZ_FAST=1 run.sh ...   the fast build (Makefile)
#   FUZZ_RUNS=10000000 run.sh ...     stop each after that many executions
#
# The working corpus build-fuzz/corpus/NAME starts from the committed,
# minimised tests/fuzz/corpus/NAME plus the golden inputs and the examples.
# Crashes are written to build-fuzz/crashes/NAME/; turn each into a test in
# tests/bad/ or tests/golden/ before fixing it.
set -u
secs=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
fdir=$root/${FUZZ_DIR:-build-fuzz}
status=0
for bin in "$@"; do
    name=$(basename "$bin" | sed 's/^fuzz_//')
    work="$fdir/corpus/$name"
    crashes="$fdir/crashes/$name"
    mkdir -p "$work" "$crashes"
    seeds="$root/tests/fuzz/corpus/$name"
    [ -d "$seeds" ] && cp -n "$seeds"/* "$work"/ 2>/dev/null
    case $name in
    timeline)
        # The first byte of a timeline input selects window options.
        for f in "$root"/tests/golden/*/trace.json "$root"/examples/*.json; do
            [ -f "$f" ] || continue
            h=$(cksum "$f" | cut -d' ' -f1)
            [ -f "$work/seed-$h" ] || { printf '\000'; cat "$f"; } >"$work/seed-$h"
        done ;;
    stream)
        # The first two bytes pick the streaming path's chunk size.
        for f in "$root"/tests/golden/*/trace.json "$root"/examples/*.json "$root"/tests/bad/*/trace.json; do
            [ -f "$f" ] || continue
            h=$(cksum "$f" | cut -d' ' -f1)
            [ -f "$work/seed-$h" ] || { printf '\000\007'; cat "$f"; } >"$work/seed-$h"
        done ;;
    chrome)
        # The first byte picks the options (see fuzz_chrome.c): each Chrome
        # case with none, and with async, flows, a window and a lane cap.
        for f in "$root"/tests/chrome/cases/*/trace.json "$root"/tests/golden/chrome_*/trace.json; do
            [ -f "$f" ] || continue
            h=$(cksum "$f" | cut -d' ' -f1)
            [ -f "$work/seed-$h" ] || { printf '\000'; cat "$f"; } >"$work/seed-$h"
            [ -f "$work/seed-$h-o" ] || { printf '\254'; cat "$f"; } >"$work/seed-$h-o"
        done ;;
    scan)
        # The first byte picks the scanner's chunk size.
        for f in "$root"/tests/golden/*/*.json "$root"/examples/*.json "$root"/tests/bad/*/*.json; do
            [ -f "$f" ] || continue
            h=$(cksum "$f" | cut -d' ' -f1)
            [ -f "$work/seed-$h" ] || { printf '\005'; cat "$f"; } >"$work/seed-$h"
        done ;;
    nsys)
        # The first byte picks the options, the rest are rows (fuzz_nsys.c):
        # a few of each table, with each option byte.
        if [ ! -f "$work/seed-rows-0" ]; then
            i=0
            for o in 000 001 011 021 041 045 111 213; do
                { printf "\\$o"; head -c 600 "$root/tests/fuzz/fuzz_nsys.c"; } >"$work/seed-rows-$i"
                i=$((i + 1))
            done
        fi ;;
    otf2)
        # A template archive (genotf2.py basic); each seed is a selector
        # byte (which file, in the order fuzz_otf2.c lists them: anchor,
        # definitions, then traces/ by name) and that file's bytes.
        tpl="$fdir/otf2-template"
        if [ ! -f "$tpl/traces.otf2" ]; then
            /usr/bin/python3 "$root/tests/tools/genotf2.py" basic "$tpl" >/dev/null 2>&1 ||
                { echo "fuzz: otf2 SKIP (no python3-otf2 to write the template)"; continue; }
        fi
        export TF_FUZZ_OTF2="$tpl"
        # libotf2's own leak when it fails to open a damaged anchor
        export LSAN_OPTIONS="suppressions=$root/tests/otf2/lsan.supp:print_suppressions=0"
        i=0
        for f in "$tpl/traces.otf2" "$tpl/traces.def" $(ls "$tpl"/traces/* | LC_ALL=C sort); do
            [ -f "$work/seed-file-$i" ] || { printf "\\$(printf %o $i)"; cat "$f"; } >"$work/seed-file-$i"
            i=$((i + 1))
        done ;;
    breakdown)
        for f in "$root"/tests/golden/*/breakdown.json "$root"/examples/candidate_breakdown.json; do
            [ -f "$f" ] && cp -n "$f" "$work/seed-$(cksum "$f" | cut -d' ' -f1)"
        done ;;
    esac
    dict="$root/tests/fuzz/json.dict"
    [ "$name" = otf2 ] && dict=
    echo "fuzz: $name for ${secs}s"
    # FUZZ_RUNS=N stops a target after N executions (whichever comes first).
    # FUZZ_MAX_LEN=N caps the input size (smaller inputs run faster).
    # The fast build (no ASan): glibc's large blocks kept in the heap rather
    # than mapped and unmapped at every run, and no entropic scheduling
    # (both cost more than the target's own work on small inputs).
    if [ "${FUZZ_FAST:-}" = 1 ]; then
        export MALLOC_MMAP_THRESHOLD_=268435456 MALLOC_TRIM_THRESHOLD_=536870912
        fast=-entropic=0
    else
        fast=
    fi
    "$bin" $fast -max_total_time="$secs" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} ${FUZZ_MAX_LEN:+-max_len="$FUZZ_MAX_LEN"} \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$crashes/" ${dict:+-dict="$dict"} "$work" 2>"$fdir/$name.log"
    rc=$?
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$fdir/$name.log"
    if [ $rc -ne 0 ]; then
        echo "fuzz: $name FAILED (rc=$rc); see $fdir/$name.log and $crashes"
        status=1
    fi
done
exit $status
