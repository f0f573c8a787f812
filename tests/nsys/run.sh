#!/bin/sh
# Nsight Systems suite: run.sh TRACEFIG
#
# The exports are the project's own (tests/tools/gennsys.py, python3's
# sqlite3), made at test time under $TMPDIR.  Two parts:
#   cases/    one folder per figure, run by tests/chrome/run.sh (json, svg,
#             tikz, stable bytes, pdflatex, Chromium; check.py on the model):
#             lanes and labels, nesting, windows by NVTX range, kernel and
#             call names, --from/--to, flows, statistics, colours, lane
#             options, exports of one kind of table, stdin, gzip, hostile
#             names, two processes on one GPU, level of detail
#   below     what those cannot say: the 2.9 and 3.24 layouts give the same
#             model; PDF and PNG too; the export is never written (bytes,
#             time, no journal beside it) and reads from a read-only
#             directory; a gzip'd file reads as the plain one; an index on
#             start changes no byte of an early or a late window; rows
#             read on a second thread give the same bytes, and the same
#             message for a damaged page; --stats prints the GPU
#             breakdown; another --mode is refused
# Ends with "nsys: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
gen="$root/tests/tools/gennsys.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-nsys.XXXXXX")
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

if ! "$py" -c 'import sqlite3' 2>/dev/null; then
    echo "SKIP (python3 has no sqlite3 module)"
    echo "nsys: 0 passed, 0 failed"
    exit 0
fi

sh "$root/tests/chrome/run.sh" "$bin" "$here/cases" nsys >"$tmp/cases.log" 2>&1
cat "$tmp/cases.log"
line=$(grep -E '^nsys: [0-9]+ passed, [0-9]+ failed' "$tmp/cases.log" | tail -n 1)
pass=$(echo "$line" | awk '{print $2}')
fail=$(echo "$line" | awk '{print $4}')
pass=${pass:-0}
fail=${fail:-1}

result() { # NAME OK(0/1) MESSAGE
    if [ "$2" = 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL nsys/$1: $3"
    fi
}

"$py" "$gen" full --out "$tmp/v3.sqlite" && "$py" "$gen" full --schema 2.9 --out "$tmp/v2.sqlite" ||
    { echo "FAIL nsys: the generator failed"; echo "nsys: $pass passed, $((fail + 1)) failed"; exit 1; }

# --- the two layouts: the same figure (2.9 has no memKind: "Memset")
for f in v2 v3; do
    "$bin" "$tmp/$f.sqlite" --flows --osrt --format json -o "$tmp/$f.json" 2>"$tmp/$f.err"
done
sed 's/"Memset (Device)"/"Memset"/' "$tmp/v3.json" >"$tmp/v3n.json"
if [ -s "$tmp/v2.json" ] && cmp -s "$tmp/v2.json" "$tmp/v3n.json"; then
    result layouts 0 ""
else
    result layouts 1 "schema 2.9 and 3.24 give other models: $(diff "$tmp/v2.json" "$tmp/v3n.json" | head -3)"
fi

# --- every back-end
formats="json svg tikz"
"$bin" --version 2>/dev/null | grep -q pdf && formats="$formats pdf png"
for fmt in $formats; do
    case $fmt in tikz) e=tex ;; *) e=$fmt ;; esac
    "$bin" "$tmp/v3.sqlite" --window-event train_step --format "$fmt" -o "$tmp/all.$e" 2>"$tmp/all.err"
    rc=$?
    ok=1
    if [ $rc = 0 ] && [ -s "$tmp/all.$e" ]; then
        case $fmt in
        pdf) head -c 5 "$tmp/all.$e" | grep -q '%PDF-' && ok=0 ;;
        png) head -c 8 "$tmp/all.$e" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a' && ok=0 ;;
        *) ok=0 ;;
        esac
    fi
    result "backend/$fmt" $ok "exit $rc: $(head -c 200 "$tmp/all.err")"
done

# --- never written: the same bytes and time, no journal beside it; a
# read-only directory (as nobody, when root: root writes anywhere)
mkdir -p "$tmp/ro"
cp "$tmp/v3.sqlite" "$tmp/ro/e.sqlite"
touch -d '2020-01-01 00:00:00' "$tmp/ro/e.sqlite"
sum0=$(cksum <"$tmp/ro/e.sqlite")
t0=$(ls -l --time-style=+%s "$tmp/ro/e.sqlite" | awk '{print $6}')
chmod 0444 "$tmp/ro/e.sqlite"
chmod 0555 "$tmp/ro"
run=""
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    run="setpriv --reuid=65534 --regid=65534 --clear-groups"
    chmod 0755 "$tmp"
    mkdir -p "$tmp/out" && chmod 0777 "$tmp/out"
    cp "$bin" "$tmp/out/tracefig" && chmod 0755 "$tmp/out/tracefig"
    exe=$tmp/out/tracefig
else
    mkdir -p "$tmp/out"
    exe=$bin
fi
# shellcheck disable=SC2086
(cd "$tmp/out" && $run "$exe" "$tmp/ro/e.sqlite" --window-event train_step -o ro.svg) 2>"$tmp/ro.err"
rc=$?
sum1=$(cksum <"$tmp/ro/e.sqlite")
t1=$(ls -l --time-style=+%s "$tmp/ro/e.sqlite" | awk '{print $6}')
others=$(ls -A "$tmp/ro" | grep -v '^e\.sqlite$')
if [ $rc = 0 ] && [ -s "$tmp/out/ro.svg" ] && [ "$sum0" = "$sum1" ] && [ "$t0" = "$t1" ] && [ -z "$others" ]; then
    result readonly 0 ""
else
    result readonly 1 "exit $rc ($(head -c 200 "$tmp/ro.err")); changed: ${others:-none}, sum $sum0/$sum1, time $t0/$t1"
fi
chmod 0755 "$tmp/ro"

# --- a gzip'd file reads as the plain one
gzip -n -c "$tmp/v3.sqlite" >"$tmp/v3.sqlite.gz"
"$bin" "$tmp/v3.sqlite.gz" --flows --osrt --format json -o "$tmp/gz.json" 2>"$tmp/gz.err"
sed 's/v3\.sqlite\.gz/v3.sqlite/g' "$tmp/gz.json" | cmp -s - "$tmp/v3.json"
result gzip $? "$(head -c 200 "$tmp/gz.err")"

# --- an index on start: the same bytes for an early and a late window (the
# index is used for the first, a scan for the second)
"$py" "$gen" bench-kernels --kernels 200000 --out "$tmp/k.sqlite" &&
    "$py" "$gen" bench-kernels --kernels 200000 --index --out "$tmp/ki.sqlite"
for w in "--from 100ms --to 101ms" "--from 200ms --to 201ms" "--window-event step --occurrence 700"; do
    # shellcheck disable=SC2086
    "$bin" "$tmp/k.sqlite" $w --format json -o "$tmp/k.json" 2>/dev/null
    # shellcheck disable=SC2086
    "$bin" "$tmp/ki.sqlite" $w --format json -o "$tmp/ki.json" 2>"$tmp/ki.err"
    ok=1
    [ -s "$tmp/k.json" ] && cmp -s "$tmp/k.json" "$tmp/ki.json" && ok=0
    result "index $w" $ok "other bytes with the index: $(head -c 200 "$tmp/ki.err")"
done

# --- the rows read on a second thread (TRACEFIG_PIPE=on) or on
# one: the same bytes, of the whole export, a zoomed window whose
# kernels keep their tooltips (grid and block are then read by rowid),
# flows (correlation read for every row) and names stored as text
"$py" "$gen" hostile --out "$tmp/h.sqlite"
# kernels without a demangled name (NULL or empty): drawn by their short
# name (read lazily then), or "(unnamed kernel)" without one either
cp "$tmp/k.sqlite" "$tmp/nn.sqlite"
"$py" -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
k = "CUPTI_ACTIVITY_KIND_KERNEL"
db.execute("INSERT INTO StringIds (id, value) VALUES (9999, \"\")")
db.execute("UPDATE %s SET demangledName = NULL WHERE rowid %% 3 = 0" % k)
db.execute("UPDATE %s SET demangledName = 9999 WHERE rowid %% 5 = 0" % k)
db.execute("UPDATE %s SET shortName = NULL WHERE rowid %% 7 = 0" % k)
db.commit()' "$tmp/nn.sqlite"
"$bin" "$tmp/nn.sqlite" --from 100ms --to 100.05ms --format json -o "$tmp/nn.json" 2>/dev/null
grep -q '"name": "ampere_sgemm_128x64_nn"' "$tmp/nn.json" && grep -q '"name": "(unnamed kernel)"' "$tmp/nn.json" &&
    grep -q '"name": "reduce_kernel"' "$tmp/nn.json"
result "kernels by their short name" $? "$(head -c 200 "$tmp/nn.json")"
for w in "k.sqlite" "k.sqlite --from 100ms --to 100.05ms" "k.sqlite --flows --stats-scope trace" \
    "v3.sqlite --flows --osrt" "h.sqlite" "nn.sqlite --from 100ms --to 100.05ms"; do
    # shellcheck disable=SC2086
    TRACEFIG_PIPE=off "$bin" "$tmp"/$w --format json -o "$tmp/t1.json" 2>/dev/null
    # shellcheck disable=SC2086
    TRACEFIG_PIPE=on "$bin" "$tmp"/$w --format json -o "$tmp/t2.json" 2>"$tmp/t2.err"
    ok=1
    [ -s "$tmp/t1.json" ] && cmp -s "$tmp/t1.json" "$tmp/t2.json" && ok=0
    result "thread $w" $ok "other bytes on two threads: $(head -c 200 "$tmp/t2.err")"
done
"$bin" "$tmp/k.sqlite" --from 100ms --to 100.05ms -o "$tmp/zoom.svg" 2>/dev/null
n=$(grep -c 'grid: 128x1x1, block: 256x1x1' "$tmp/zoom.svg")
[ "$n" -gt 50 ]
result "tooltips of a zoomed window" $? "$n kernels with grid and block in their tooltips"
# a damaged page in the middle of the kernels: one message, either way
cp "$tmp/k.sqlite" "$tmp/bad.sqlite"
"$py" -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(9000000); f.write(b"\xff" * 20000)' \
    "$tmp/bad.sqlite"
for m in off on; do
    TRACEFIG_PIPE=$m "$bin" "$tmp/bad.sqlite" -o "$tmp/bad-$m.svg" 2>"$tmp/bad-$m.err"
    rc=$?
    ok=1
    [ $rc = 1 ] && [ ! -e "$tmp/bad-$m.svg" ] &&
        grep -q 'bad.sqlite: a damaged SQLite database: .*(CUPTI_ACTIVITY_KIND_KERNEL)' \
            "$tmp/bad-$m.err" && ok=0
    result "damaged rows, thread $m" $ok "exit $rc: $(head -c 200 "$tmp/bad-$m.err")"
done

# --- --stats on an export
"$bin" "$tmp/v3.sqlite" --window-event train_step --stats >"$tmp/stats.txt" 2>"$tmp/stats.err"
rc=$?
ok=1
[ $rc = 0 ] && grep -q '^GPU breakdown (window)' "$tmp/stats.txt" &&
    grep -q '^comm/compute overlap  *66.33' "$tmp/stats.txt" && ok=0
result stats-text $ok "exit $rc: $(head -c 300 "$tmp/stats.txt") $(head -c 200 "$tmp/stats.err")"

# --- another mode is refused
"$bin" "$tmp/v3.sqlite" --mode timeline -o "$tmp/m.json" 2>"$tmp/mode.err"
rc=$?
ok=1
[ $rc = 2 ] && grep -q 'reads another kind of trace' "$tmp/mode.err" && [ ! -e "$tmp/m.json" ] && ok=0
result mode $ok "exit $rc: $(head -c 200 "$tmp/mode.err")"

echo "nsys: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
