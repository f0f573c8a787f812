#!/bin/sh
# rocpd suite: run.sh TRACEFIG
#
# The databases are the project's own (tests/tools/genrocpd.py, python3's
# sqlite3), made at test time under $TMPDIR, each with the generator's
# account of what it holds (--truth).  Checks (tests/rocpd/check.py on the
# JSON figure model, and on the messages):
#   lanes      "GPU N / queue Q" per agent and queue (N the type_index),
#              "GPU N / stream S" when the run used streams, copies and
#              allocations on their lanes, every kernel on its lane with
#              its busy time, host threads, several processes ("(pid N)")
#              and nodes ("GPU 1 (node-a)"), rocprof v1's results.db
#   flows      launch -> kernel (and copy) arrows by correlation
#   windows    --window-event on a roctx range, a kernel's name and its
#              K-th occurrence; --from/--to from the first drawable event
#   stats      the GPU breakdown against the views (tracefig's
#              definitions, computed again); --stats-compat hta refused
#   ranks      the databases of a job's ranks: one figure, rank order, one
#              clock
#   back-ends  json, svg, tikz, pdf, png: each written, the same bytes twice
#   memory     the library from memory (plain and gzip'd, nothing written to
#              $TMPDIR) and the Python module: the command's bytes
#   input      standard input and gzip; the database never written to
#   errors     a cut file, a damaged page, views missing, a later schema
#              version, RPD, an SQLite file of no profiler, no events, a
#              damaged .db that is no SQLite: one line naming the file,
#              exit 1, nothing written, an existing output untouched
#   real       ../shared/real-traces/rocpd (SKIP without it): kernel counts
#              and busy time per GPU lane against sqlite3 on its views, the
#              host lane, the windows its README gives
# Ends with "rocpd: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(dirname "$bin")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
gen="$root/tests/tools/genrocpd.py"
check="$here/check.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-rocpd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

if ! "$py" -c 'import sqlite3' 2>/dev/null; then
    echo "SKIP (python3 has no sqlite3 module)"
    echo "rocpd: 0 passed, 0 failed"
    exit 0
fi

pass=0
fail=0
result() { # NAME OK(0/1) MESSAGE
    if [ "$2" = 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL rocpd/$1: $3"
    fi
}
# check NAME ARGS...: check.py ARGS, its failures in the message
check() {
    name=$1
    shift
    "$py" "$check" "$@" >"$tmp/check.log" 2>&1
    result "$name" $? "$(cat "$tmp/check.log")"
}
# model NAME DB ARGS...: the JSON model of DB (and its stderr) in $tmp/NAME.json
model() {
    name=$1 db=$2
    shift 2
    "$bin" "$db" "$@" --format json -o "$tmp/$name.json" 2>"$tmp/$name.err"
}
# q DB SQL: the rows of a query, fields separated by spaces
q() {
    "$py" - "$1" "$2" <<'EOF'
import sqlite3, sys
db = sqlite3.connect("file:%s?immutable=1" % sys.argv[1], uri=True)
for row in db.execute(sys.argv[2]):
    print(" ".join(str(x) for x in row))
EOF
}

d=$tmp/db
mkdir -p "$d"
for k in full streams multinode empty v4 lz4 cut rocprofv1 rpd plain noviews nokernels; do
    "$py" "$gen" "$k" --out "$d/$k.db" --truth "$d/$k.json" ||
        { echo "FAIL rocpd: genrocpd.py $k failed"; fail=$((fail + 1)); }
done
for r in 0 1; do
    "$py" "$gen" rank --rank $r --world 2 --out "$d/rank$r.db" --truth "$d/rank$r.json"
done
"$py" "$gen" bench-kernels --kernels 20000 --out "$d/bench.db" --truth "$d/bench.json"

# --- lanes: every kernel on its GPU lane, busy times, host lanes
for k in full streams multinode rocprofv1 bench rank0; do
    model "$k" "$d/$k.db"
    rc=$?
    if [ $rc -ne 0 ]; then
        result "lanes/$k" 1 "exit $rc: $(head -c 300 "$tmp/$k.err")"
        continue
    fi
    check "lanes/$k" lanes "$tmp/$k.json" "$d/$k.json"
    check "views/$k" views "$tmp/$k.json" "$d/$k.db"
done
# queues, streams and hosts as the lanes say them
labels() { "$py" -c 'import json,sys; print("|".join(l["label"] for l in json.load(open(sys.argv[1]))["lanes"]))' "$1"; }
l=$(labels "$tmp/full.json")
case $l in
"train / tid 4242|train / loader|eval|GPU 0 / copies (pid 4242)|GPU 0 / memory (pid 4242)|GPU 0 / queue 0 (pid 4242)|GPU 0 / queue 1 (pid 4242)|GPU 1 / copies (pid 4242)|GPU 1 / queue 2 (pid 4242)|GPU 2 / queue 3 (pid 4242)|GPU 3 / queue 0 (pid 4343)|GPU 3 / queue 4 (pid 4242)")
    result labels/full 0 "" ;;
*) result labels/full 1 "lanes: $l" ;;
esac
l=$(labels "$tmp/streams.json")
case $l in
"python3|GPU 0 / default stream|GPU 0 / stream 0|GPU 0 / stream 1|GPU 1 / default stream|GPU 1 / stream 0|GPU 1 / stream 1")
    result labels/streams 0 "" ;;
*) result labels/streams 1 "lanes: $l" ;;
esac
l=$(labels "$tmp/multinode.json")
case $l in
"batched_gemm (node-a)|batched_gemm (node-b)|GPU 1 (node-a) / queue 0 (pid 15)|GPU 1 (node-b) / queue 0 (pid 15)")
    result labels/multinode 0 "" ;;
*) result labels/multinode 1 "lanes: $l" ;;
esac
l=$(labels "$tmp/rocprofv1.json")
case $l in
"pid 31337 / tid 31337|GPU 0 / queue 0|GPU 1 / queue 0") result labels/rocprofv1 0 "" ;;
*) result labels/rocprofv1 1 "lanes: $l" ;;
esac
# categories: API regions by theirs, roctx ranges user annotations, copies, allocations
cats=$("$py" -c 'import json,sys; print(" ".join(sorted({b["category"] for b in json.load(open(sys.argv[1]))["bars"]})))' "$tmp/full.json")
case $cats in
"HIP_COMPILER_API_EXT HIP_RUNTIME_API_EXT HSA_CORE_API RCCL_API gpu_memcpy gpu_memory kernel user_annotation")
    result categories 0 "" ;;
*) result categories 1 "categories: $cats" ;;
esac
# a copy's name and tooltip: its direction and agents, its bytes
grep -q '"name": "Memcpy HtoD (CPU 0 -> GPU 0)"' "$tmp/full.json" &&
    grep -q '"name": "Memcpy DtoD (GPU 0 -> GPU 1)"' "$tmp/full.json" &&
    grep -q '"name": "Scratch alloc"' "$tmp/full.json" && grep -q '"name": "Memory free"' "$tmp/full.json"
result names $? "copy and allocation names missing from the model"
# roctx marks: instants on their thread
n=$("$py" -c 'import json,sys; m=json.load(open(sys.argv[1])); print(sum(1 for b in m["bars"] if b.get("shape") == "instant" or b.get("instant")))' "$tmp/full.json")
marks=$(q "$d/full.db" "SELECT count(*) FROM samples WHERE category LIKE '%MARKER%'")
grep -q '"begin step 3"' "$tmp/full.json"
result marks $? "no roctx mark \"begin step 3\" in the model ($n instants, $marks marks)"

# --- flows
model flows "$d/full.db" --flows
check flows/full flows "$tmp/flows.json" "$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["flows"])' "$d/full.json")"
model flows1 "$d/rocprofv1.db" --flows
check flows/rocprofv1 flows "$tmp/flows1.json" 30
model noflows "$d/full.db"
check flows/off flows "$tmp/noflows.json" 0

# --- windows
set -- $(q "$d/full.db" "SELECT start, end FROM regions WHERE category LIKE '%MARKER%' AND json_extract(extdata, '\$.message') = 'step 2'")
model we-roctx "$d/full.db" --window-event 'step 2'
check window/roctx window "$tmp/we-roctx.json" "$1" "$2"
gemm='void gemm_kernel<128u, 128u, 16u>(unsigned int, unsigned int, float const*, float const*, float*)'
# the name holds '*': a glob to --window-event; its 3rd occurrence in time
set -- $(q "$d/full.db" "SELECT start, end FROM kernels WHERE name = '$gemm' ORDER BY start LIMIT 1 OFFSET 2")
model we-kernel "$d/full.db" --window-event "$gemm" --occurrence 3
check window/kernel-glob window "$tmp/we-kernel.json" "$1" "$2"
set -- $(q "$d/full.db" "SELECT start, end FROM kernels WHERE name LIKE 'Cijk%' ORDER BY start LIMIT 1 OFFSET 3")
model we-kernel2 "$d/full.db" --window-event Cijk_Alik_Bljk_SB_MT128x128x16_MI32x32x2x1 --occurrence 4
check window/kernel-name window "$tmp/we-kernel2.json" "$1" "$2"
set -- $(q "$d/bench.db" "SELECT start, end FROM kernels WHERE name LIKE 'Cijk%' ORDER BY start LIMIT 1 OFFSET 99")
model we-bench "$d/bench.db" --window-event Cijk_Alik_Bljk_SB_MT128x128x16_MI32x32x2x1 --occurrence 100
check window/kernel-nth window "$tmp/we-bench.json" "$1" "$2"
model we-miss "$d/full.db" --window-event 'step 9'
[ $? = 1 ] && grep -q 'step 9' "$tmp/we-miss.err" && grep -q '"step 4"' "$tmp/we-miss.err"
result window/miss $? "$(head -c 300 "$tmp/we-miss.err")"
first=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["first_ns"])' "$d/full.json")
model fromto "$d/full.db" --from 4ms --to 5.5ms
check window/from-to window "$tmp/fromto.json" $((first + 4000000)) $((first + 5500000))
set -- $(q "$d/rocprofv1.db" "SELECT BeginNs, EndNs FROM rocTX WHERE Name = 'step 2'")
model we-v1 "$d/rocprofv1.db" --window-event 'step 2'
check window/rocprofv1 window "$tmp/we-v1.json" "$1" "$2"

# --- statistics
check breakdown/full breakdown "$tmp/full.json" "$d/full.db"
check breakdown/bench breakdown "$tmp/bench.json" "$d/bench.db"
"$bin" "$d/full.db" --stats >"$tmp/stats.txt" 2>"$tmp/stats.err"
grep -q '^GPU breakdown' "$tmp/stats.txt" && grep -q '^communication' "$tmp/stats.txt" &&
    grep -q '^GPU 3 / queue 4 (pid 4242) ' "$tmp/stats.txt"
result stats/text $? "$(head -c 300 "$tmp/stats.txt")"
"$bin" "$d/full.db" --stats-compat hta --stats >"$tmp/hta.txt" 2>"$tmp/hta.err"
[ $? = 1 ] && grep -q 'HTA reads' "$tmp/hta.err"
result stats/hta $? "$(head -c 300 "$tmp/hta.err")"

# --- ranks: one figure, rank order, one clock
"$bin" "$d/rank1.db" "$d/rank0.db" --format json -o "$tmp/ranks.json" 2>"$tmp/ranks.err"
check ranks ranks "$tmp/ranks.json" 0 1

# --- every back-end, twice the same bytes
formats="json svg tikz"
"$bin" --version 2>/dev/null | grep -q pdf && formats="$formats pdf png"
for fmt in $formats; do
    case $fmt in tikz) e=tex ;; *) e=$fmt ;; esac
    "$bin" "$d/full.db" --window-event 'step 1' --flows -o "$tmp/a.$e" 2>"$tmp/a.err"
    rc=$?
    "$bin" "$d/full.db" --window-event 'step 1' --flows -o "$tmp/b.$e" 2>/dev/null
    ok=1
    if [ $rc = 0 ] && [ -s "$tmp/a.$e" ] && cmp -s "$tmp/a.$e" "$tmp/b.$e"; then
        case $fmt in
        pdf) head -c 5 "$tmp/a.$e" | grep -q '%PDF-' && ok=0 ;;
        png) head -c 8 "$tmp/a.$e" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a' && ok=0 ;;
        svg) command -v xmllint >/dev/null 2>&1 && { xmllint --noout "$tmp/a.svg" && ok=0; } || ok=0 ;;
        tikz) grep -q 'tikzpicture' "$tmp/a.tex" && ok=0 ;;
        *) ok=0 ;;
        esac
    fi
    result "backend/$fmt" $ok "exit $rc: $(head -c 200 "$tmp/a.err")"
done

# --- the library from memory, and the Python module: the command's bytes
lib="$build/libtracefig.so.0"
if grep -q __asan_init "$lib" 2>/dev/null; then
    # an ASan library loads only into programs built with it
    echo "rocpd: SKIP library/python (a sanitizer build: tests/lib runs its C test)"
elif [ -e "$lib" ]; then
    "$bin" "$d/full.db" --window-event 'step 1' --width 3.3in -o "$tmp/cli.svg" 2>/dev/null
    "$bin" "$d/full.db" --window-event 'step 1' --width 3.3in -o "$tmp/cli.png" 2>/dev/null
    # bytes are read where they are: a TMPDIR nothing can be made in (/proc)
    TMPDIR=/proc TRACEFIG_LIB="$lib" PYTHONPATH="$root/python" "$py" - "$d/full.db" "$tmp" <<'EOF' >"$tmp/py.log" 2>&1
import gzip, sys, tracefig
db, out = sys.argv[1], sys.argv[2]
opts = dict(window_event="step 1", width="3.3in")
svg = tracefig.Figure(db, **opts).svg()
data = open(db, "rb").read()
mem = tracefig.Figure(data, **opts)
ok = svg == open(out + "/cli.svg").read()
ok = ok and mem.png() == open(out + "/cli.png", "rb").read()
ok = ok and tracefig.Figure(gzip.compress(data), **opts).svg() == svg
stats = tracefig.Figure(db).stats()
ok = ok and "gpu_breakdown" in stats
try:
    tracefig.Figure(open(db, "rb").read()[:5000])
    ok = False
except tracefig.TraceError as e:
    ok = ok and "SQLite" in str(e)
print("same" if ok else "differ")
EOF
    grep -q '^same$' "$tmp/py.log"
    result library/python $? "$(tail -c 400 "$tmp/py.log")"
else
    echo "rocpd: SKIP library (no $lib)"
fi

# --- input: standard input, gzip; the database never written
cksum <"$d/full.db" >"$tmp/sum0"
model direct "$d/full.db" --flows
"$bin" - --flows --format json -o "$tmp/stdin.json" <"$d/full.db" 2>"$tmp/stdin.err"
sed 's/"<stdin>"/"full.db"/g' "$tmp/stdin.json" | cmp -s - "$tmp/direct.json" ||
    diff "$tmp/stdin.json" "$tmp/direct.json" | grep -qv -e '^[<>] *"file"' -e '^---' -e '^[0-9]'
result input/stdin $? "$(head -c 200 "$tmp/stdin.err")"
gzip -n -c "$d/full.db" >"$d/full.db.gz"
"$bin" "$d/full.db.gz" --flows --format json -o "$tmp/gz.json" 2>"$tmp/gz.err"
sed 's/full\.db\.gz/full.db/g' "$tmp/gz.json" | cmp -s - "$tmp/direct.json"
result input/gzip $? "$(head -c 200 "$tmp/gz.err")"
cksum <"$d/full.db" | cmp -s - "$tmp/sum0" && [ -z "$(ls -A "$d" | grep -e '-journal$' -e '-wal$')" ]
result input/readonly $? "the database changed, or a journal was left beside it"

# --- errors: one line naming the file, exit 1, nothing written or clobbered
cp "$d/full.db" "$d/damaged.db"
# a page of the kernel table zeroed
"$py" - "$d/damaged.db" <<'EOF'
import sys
p = sys.argv[1]
with open(p, "r+b") as f:
    data = bytearray(f.read())
    page = int.from_bytes(data[16:18], "big")
    n = len(data) // page
    for i in range(n // 2, n // 2 + 3):
        data[i * page:(i + 1) * page] = b"\xff" * page
    f.seek(0)
    f.write(data)
EOF
head -c 4096 "$d/full.db" >"$d/header.db"
printf 'garbage, not a database\n' >"$d/garbage.db"
: >"$d/zero.db"
bad() { # NAME FILE ERE
    echo keep >"$tmp/out.svg"
    "$bin" "$2" -o "$tmp/out.svg" -o "$tmp/out.json" 2>"$tmp/bad.err"
    rc=$?
    lines=$(wc -l <"$tmp/bad.err")
    base=$(basename "$2")
    ok=1
    if [ $rc = 1 ] && [ "$lines" = 1 ] && grep -q "^tracefig: .*$base: " "$tmp/bad.err" &&
        grep -Eq "$3" "$tmp/bad.err" && [ "$(cat "$tmp/out.svg")" = keep ] && [ ! -e "$tmp/out.json" ]; then
        ok=0
    fi
    result "error/$1" $ok "exit $rc, $lines lines: $(head -c 300 "$tmp/bad.err")"
    rm -f "$tmp/out.json"
}
bad cut "$d/cut.db" 'truncated SQLite database'
bad header "$d/header.db" 'truncated SQLite database'
bad damaged "$d/damaged.db" 'damaged SQLite database|malformed'
bad noviews "$d/noviews.db" 'rocpd database without its views'
bad nokernels "$d/nokernels.db" 'without the views tracefig reads'
bad v4 "$d/v4.db" 'rocpd schema version 4\.0\.0'
bad lz4 "$d/lz4.db" 'rocpd schema version 4\.0\.0: the view kernels cannot be read: no such function: lz4_decompress'
bad rpd "$d/rpd.db" "RPD tracer \\(rocpd schema version 2"
bad plain "$d/plain.db" 'not an Nsight Systems export or a rocpd database'
bad empty "$d/empty.db" 'rocpd database with nothing to draw'
bad garbage "$d/garbage.db" 'not an SQLite database.*not a rocpd database'
bad zero "$d/zero.db" 'an empty file, not an SQLite database'

# --- the real database (not the project's: ../shared)
real="$root/../shared/real-traces/rocpd/mi300x-bmm-15.rocpd.db"
if [ -f "$real" ]; then
    model real "$real"
    check real/views views "$tmp/real.json" "$real"
    l=$(labels "$tmp/real.json")
    case $l in
    "batched_gemm|GPU 0 / queue 0") result real/lanes 0 "" ;;
    *) result real/lanes 1 "lanes: $l" ;;
    esac
    set -- $(q "$real" "SELECT min(start), max(end) FROM (SELECT start, end FROM regions UNION ALL SELECT start, end FROM kernels)")
    check real/window window "$tmp/real.json" "$1" "$2"
    set -- $(q "$real" "SELECT start, end FROM kernels WHERE name LIKE 'void batched%' ORDER BY start LIMIT 1")
    model real-we "$real" --window-event 'void batched_matrix_multiplication_matrix_core_*' --occurrence 1
    check real/window-event window "$tmp/real-we.json" "$1" "$2"
    model real-zoom "$real" --from 665ms --to 685ms
    check real/zoom views "$tmp/real-zoom.json" "$real"
    model real-flows "$real" --flows
    check real/flows flows "$tmp/real-flows.json" "$(q "$real" "SELECT count(*) FROM kernels")"
else
    echo "rocpd: SKIP real (no ../shared/real-traces/rocpd)"
fi

echo "rocpd: $pass passed, $fail failed"
[ $fail -eq 0 ]
