#!/bin/sh
# Runs every test suite against BUILD/tracefig and sums their counts.
#
#   run-all.sh BUILD_DIR
#
# Each suite ends with a line "[name:] N passed, N failed"; this script adds
# them up and ends with the same kind of line.  A suite whose tool is not
# installed says SKIP and counts nothing (make check installs the tools).
#
# The suites are independent (each works in its own temporary folder), so
# they run TRACEFIG_TEST_JOBS at a time (default: the processors online),
# the longest first; their logs are printed whole, in the order listed
# below, each with its wall time after it, for whoever keeps make check
# short.  No test depends on the time.  TRACEFIG_TEST_JOBS=1 runs them one
# after the other.
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin="$root/$build/tracefig"
jobs=${TRACEFIG_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-tests.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

total_pass=0
total_fail=0
failed_suites=""
n=0

# suite NAME COMMAND...: registers a suite; its command is written, quoted,
# to a script of its own, run later by the pool.
suite() {
    n=$((n + 1))
    id=$(printf '%03d' "$n")
    printf '%s\n' "$1" >"$dir/$id.name"
    shift
    for a in "$@"; do
        printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
    done >"$dir/$id.cmd"
    echo >>"$dir/$id.cmd"
    echo "$id" >>"$dir/list"
}

# note TEXT: a line printed in the suites' order, as a SKIP says why.
note() {
    n=$((n + 1))
    id=$(printf '%03d' "$n")
    printf '%s\n' "$1" >"$dir/$id.note"
    echo "$id" >>"$dir/list"
}

suite unit "$root/$build/unit-tests"
suite golden sh tests/golden/run.sh "$bin"
suite parity sh tests/parity/run.sh "$bin"
suite bad-input sh tests/bad/run.sh "$bin"
suite cli sh tests/cli/run.sh "$bin"
suite stats sh tests/stats/run.sh "$bin"
suite hta sh tests/hta/run.sh "$bin"
suite critpath sh tests/critpath/run.sh "$bin"
suite chrome sh tests/chrome/run.sh "$bin"
suite multi sh tests/multi/run.sh "$bin"
suite ranks sh tests/ranks/run.sh "$bin"
suite nsys sh tests/nsys/run.sh "$bin"
suite rocpd sh tests/rocpd/run.sh "$bin"
suite perfetto sh tests/perfetto/run.sh "$bin"
suite xplane sh tests/xplane/run.sh "$bin"
suite ftrace sh tests/ftrace/run.sh "$bin"
suite otf2 sh tests/otf2/run.sh "$bin"
suite ctf sh tests/ctf/run.sh "$bin"
suite marks sh tests/marks/run.sh "$bin"
suite zoom sh tests/zoom/run.sh "$bin"
# libtracefig from a staged make install, through pkg-config (C), and the
# Python module over it.
suite lib sh tests/lib/run.sh "$bin"
# The sanitizer build's library cannot be loaded into a Python that was not
# started under ASan: the module is tested with the plain build only.
if [ "$build" != build-san ]; then
    suite python sh tests/python/run.sh "$bin"
else
    note "== python: SKIP (the ASan library loads only into programs built with it)"
fi

# The golden and bad-input cases again through the streaming loader, which
# large files and pipes take: the same figures and the same messages.
suite golden-stream env TRACEFIG_LOAD=stream sh tests/golden/run.sh "$bin"
# Every Chrome case with the scanner on its own thread (src/load/pipe.c)
# from the first event: the same figures, messages and statuses.
suite chrome-pipe env TRACEFIG_PIPE=on sh tests/chrome/run.sh "$bin"
suite bad-input-stream env TRACEFIG_LOAD=stream sh tests/bad/run.sh "$bin"

# The same golden bytes under another locale and time zone.
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$'; then
    if [ "$(id -u)" = 0 ] && command -v localedef >/dev/null 2>&1; then
        localedef -i de_DE -f UTF-8 de_DE.UTF-8 >/dev/null 2>&1 || true
    fi
fi
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$'; then
    suite golden-de_DE env LC_ALL=de_DE.UTF-8 TZ=Pacific/Chatham sh tests/golden/run.sh "$bin"
else
    note "== golden-de_DE: SKIP (no de_DE.UTF-8 locale; run as root to create it)"
fi

# The SVG (browser) and TeX suites check the files' validity in other
# programs; under the sanitizers they would only repeat that at ten times
# the cost, since the golden suite already proves the bytes are the same.
later="tests/docs/run.sh tests/svg/run.sh tests/tex/run.sh tests/texspeed/run.sh tests/paper/run.sh tests/stream/run.sh tests/cairo/run.sh tests/real/run.sh tests/busy/run.sh"
[ "$build" = build-san ] && later="tests/stream/run.sh tests/cairo/run.sh"
for s in $later; do
    [ -f "$s" ] && suite "$(basename "$(dirname "$s")")" sh "$s" "$bin"
done

# The pool: the suites that take longest start first, so that the last to
# finish is a short one.  Each leaves its log and then its status and time.
long="tex real docs texspeed paper busy cairo chrome chrome-pipe hta stats"
: >"$dir/order"
for w in $long; do
    for id in $(cat "$dir/list"); do
        [ -f "$dir/$id.name" ] && [ "$(cat "$dir/$id.name")" = "$w" ] && echo "$id" >>"$dir/order"
    done
done
for id in $(cat "$dir/list"); do
    [ -f "$dir/$id.name" ] && ! grep -qx "$id" "$dir/order" && echo "$id" >>"$dir/order"
done
xargs -P "$jobs" -I{} sh -c '
    d=$1/$2; t0=$(date +%s)
    sh "$d.cmd" >"$d.log" 2>&1
    echo "$? $(($(date +%s) - t0))" >"$d.tmp" && mv "$d.tmp" "$d.rc"' _ "$dir" {} \
    <"$dir/order" &
pool=$!

for id in $(cat "$dir/list"); do
    if [ -f "$dir/$id.note" ]; then
        cat "$dir/$id.note"
        continue
    fi
    name=$(cat "$dir/$id.name")
    while [ ! -f "$dir/$id.rc" ]; do
        kill -0 "$pool" 2>/dev/null || [ -f "$dir/$id.rc" ] || break
        sleep 1
    done
    echo "== $name"
    if [ ! -f "$dir/$id.rc" ]; then
        echo "$name: did not run"
        total_fail=$((total_fail + 1))
        failed_suites="$failed_suites $name"
        continue
    fi
    cat "$dir/$id.log"
    read -r rc secs <"$dir/$id.rc"
    echo "($name took $secs s)"
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$dir/$id.log" | tail -n 1)
    p=$(echo "$line" | awk '{for (i = 1; i < NF; i++) if ($(i + 1) ~ /^passed/) print $i}')
    f=$(echo "$line" | awk '{for (i = 1; i < NF; i++) if ($(i + 1) ~ /^failed/) print $i}')
    p=${p:-0}
    f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    [ "$f" -gt 0 ] && failed_suites="$failed_suites $name"
done
wait "$pool"

echo
[ -n "$failed_suites" ] && echo "failed suites:$failed_suites"
echo "all: $total_pass passed, $total_fail failed"
[ $total_fail -eq 0 ]
