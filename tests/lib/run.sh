#!/bin/sh
# libtracefig as a user gets it: a staged `make install DESTDIR=`, a C
# program built with `pkg-config --cflags --libs tracefig` against it,
# drawing from a path, from memory and from two threads at once; every
# format compared byte for byte with the command line's.  Traces in memory
# (JSON, gzip'd JSON, Nsight Systems exports plain and gzip'd) are drawn
# with TMPDIR a folder that cannot be written: nothing is staged.
#
#   run.sh BUILD/tracefig
#   TRACEFIG_LIB_RUNNER="valgrind ..." run.sh BUILD/tracefig   (leakcheck.sh: the
#       C program under it; its exit status 99 is a failure)
set -u
set -f # option values are globs: never expand them here
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(basename "$(dirname "$bin")")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=${TMPDIR:-/tmp}/tracefig-lib.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL lib: $1"; }

if ! command -v pkg-config >/dev/null 2>&1; then
    echo "lib: SKIP (no pkg-config)"
    echo "lib: 0 passed, 0 failed"
    exit 0
fi
san=""
cflags=""
[ "$build" = build-san ] && san="SAN=1" && cflags="-fsanitize=address,undefined"
stage="$tmp/stage"
# shellcheck disable=SC2086
if make -s -C "$root" $san install DESTDIR="$stage" PREFIX=/usr >"$tmp/install.log" 2>&1; then
    ok
else
    bad "make install DESTDIR= failed"; cat "$tmp/install.log"
fi
for f in usr/bin/tracefig usr/share/man/man1/tracefig.1 usr/share/man/man3/tracefig.3 usr/share/man/man5/tracefig-inputs.5 usr/share/man/man5/tracefig-model.5 usr/share/man/man7/tracefig-stats.7 \
         usr/include/tracefig.h usr/lib/libtracefig.a usr/lib/libtracefig.so.0 \
         usr/lib/libtracefig.so usr/lib/pkgconfig/tracefig.pc; do
    if [ -e "$stage/$f" ]; then ok; else bad "not installed: $f"; fi
done
export PKG_CONFIG_PATH="$stage/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs tracefig)
# shellcheck disable=SC2086
if cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $cflags -o "$tmp/test_lib" \
      "$root/tests/lib/test_lib.c" $flags -pthread 2>"$tmp/cc.log"; then
    ok
else
    bad "cc \$(pkg-config --cflags --libs tracefig) failed"; cat "$tmp/cc.log"
    echo "lib: $pass passed, $fail failed"
    exit 1
fi
soname=$(readelf -d "$stage/usr/lib/libtracefig.so" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
if [ "$soname" = libtracefig.so.0 ]; then ok; else bad "SONAME is '$soname'"; fi
export LD_LIBRARY_PATH="$stage/usr/lib"
if ldd "$tmp/test_lib" | grep -q "$stage/usr/lib/libtracefig.so.0"; then ok; else
    bad "the test does not load the staged libtracefig.so.0"; fi

# Traces in memory are read where they are (issue 38): test_lib draws from
# memory with TMPDIR a folder that cannot be written (as root, who writes
# any folder, /proc, where nothing can be made), so a staged copy fails.
ro="$tmp/ro"
mkdir -p "$ro"
chmod 555 "$ro"
if (: >"$ro/probe") 2>/dev/null; then
    rm -f "$ro/probe"
    ro=/proc
fi

# One case: NAME TRACE [OPTION VALUE]... (the command line gets --OPTION VALUE).
case_() {
    name=$1 trace=$2
    shift 2
    out="$tmp/$name"
    mkdir -p "$out"
    cli=""
    n=0
    for a in "$@"; do
        n=$((n + 1))
        if [ $((n % 2)) -eq 1 ]; then cli="$cli --$a"; else [ "$a" = - ] || cli="$cli $a"; fi
    done
    # shellcheck disable=SC2086
    (cd "$out" && TEST_LIB_RO_TMPDIR=$ro ${TRACEFIG_LIB_RUNNER:-} "$tmp/test_lib" "$trace" \
        "$out" "$@") >"$out/log" 2>"$out/stderr"
    [ $? -eq 99 ] && bad "$name: ${TRACEFIG_LIB_RUNNER:-}: errors or leaks"
    while read -r line; do
        case $line in ok\ *) ok ;; *) bad "$name: $line" ;; esac
    done <"$out/log"
    if [ -s "$out/stderr" ]; then bad "$name: the library wrote to stderr"; cat "$out/stderr"; else ok; fi
    # shellcheck disable=SC2086
    "$bin" "$trace" $cli -o "$out/cli.svg" -o "$out/cli.tex" -o "$out/cli.pdf" -o "$out/cli.png" \
        -o "$out/cli.json" 2>/dev/null || bad "$name: the command line failed"
    # shellcheck disable=SC2086
    "$bin" "$trace" $cli --stats >"$out/cli.txt" 2>/dev/null || bad "$name: --stats failed"
    for ext in svg tex pdf png json txt; do
        for tag in path memory thread0 thread1; do
            if cmp -s "$out/cli.$ext" "$out/$tag.$ext"; then ok; else
                bad "$name: $tag.$ext differs from the command line's"; fi
        done
    done
}

case_ v2 "$root/examples/overlap_timeline_v2.json" width 3.3in
case_ kineto "$root/examples/kineto_trace.json" window-event "ProfilerStep#*" occurrence 2 \
    flows - lanes "*"
case_ chrome-gz "$root/tests/golden/chrome_gzip/trace.json.gz" width 240bp
# Nsight Systems exports (the project's own, tests/tools/gennsys.py), as
# they are and gzip'd: SQLite reads them in memory (sqlite3_deserialize).
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if "$py" -c "import sqlite3" 2>/dev/null &&
    "$py" "$root/tests/tools/gennsys.py" full --out "$tmp/export.sqlite" >/dev/null 2>&1; then
    gzip -c "$tmp/export.sqlite" >"$tmp/export.sqlite.gz"
    case_ nsys "$tmp/export.sqlite" width 240bp
    case_ nsys-gz "$tmp/export.sqlite.gz" width 240bp
else
    echo "SKIP lib: Nsight Systems exports (no python3 sqlite3)"
fi
# a rocpd database (tests/tools/genrocpd.py), as it is and gzip'd: from a
# path, and from memory where it is
if "$py" -c "import sqlite3" 2>/dev/null &&
    "$py" "$root/tests/tools/genrocpd.py" full --out "$tmp/full.db" >/dev/null 2>&1; then
    gzip -c "$tmp/full.db" >"$tmp/full.db.gz"
    case_ rocpd "$tmp/full.db" window-event "step?1" flows - width 3.3in
    case_ rocpd-gz "$tmp/full.db.gz" width 240bp
else
    echo "SKIP lib: rocpd databases (no python3 sqlite3)"
fi

echo "lib: $pass passed, $fail failed"
[ $fail -eq 0 ]
