#!/bin/sh
# OTF2 suite: run.sh TRACEFIG
#
# The archives are the project's own (tests/tools/genotf2.py, Debian's
# python3-otf2: the OTF2 library's writer), made at test time under
# $TMPDIR; the bad ones are cut, damaged or renamed copies.  Checks, on the
# JSON figure model (tests/otf2/check.py) and on the messages:
#   lanes      ranks in order, "rank N / thread K", "GPU N / stream M",
#              counter tracks with their units
#   slices     names, paradigm categories and colours, nesting rows,
#              mis-nested leaves in ONE warning, the MeasurementOnOff gap
#              and its note, collectives as "MPI collective"
#   arrows     the 24 messages (blocking and non-blocking) with --flows
#   windows    --window-event step --occurrence K (per rank), --from/--to
#   stats      busy and MPI time per rank, the paradigms table, JSON = text
#   lanes      --lanes picks ranks, and only their event files are read
#   errors     a cut and a damaged .evt, a missing .def, a folder that is
#              no archive, an anchor of a newer OTF2: one line naming the
#              file, exit 1, no output written, an existing one untouched
#   renamed    a Leave of a region not open closes the innermost (APEX)
#   nompi      no MPI: "Process / Master thread", a "#" count as "2.11 G"
#   badname    a name of invalid UTF-8: \xNN in messages, U+FFFD in the model
#   onerow     at one nesting row per lane (32 ranks at --height 200pt, 64
#              at the default size) each lane inked as busy as it is: its
#              MPI_Init in row 0 drawn, the loop's inner calls over it
#   undercount definitions that declare fewer events than the threads hold
#              (APEX): one warning naming the location, every event drawn
#   damaged    seeded damages (tests/otf2/damage.py) of an archive of several
#              chunks, each under timeout 20: exit 0 or 1, one line on exit
#              1, stderr valid UTF-8 (OTF2_DAMAGE_SEEDS=N runs N of them)
#   back-ends  json, svg, tikz (and pdf, png when built with cairo)
# Ends with "otf2: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=
for p in /usr/bin/python3 python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import otf2' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -z "$py" ]; then
    echo "SKIP (no python3 with the otf2 module: install Debian's python3-otf2)"
    echo "otf2: 0 passed, 0 failed"
    exit 0
fi
if "$bin" /nonexistent.otf2 2>&1 | grep -q "built without OTF2"; then
    echo "SKIP (this tracefig was built without libotf2-trace-dev)"
    echo "otf2: 0 passed, 0 failed"
    exit 0
fi
# Under ASan (make SAN=1): libotf2's own leak on a damaged anchor (see the file)
LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-otf2.XXXXXX")
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
check="$here/check.py"
pass=0
fail=0

result() { # NAME OK(0/1) MESSAGE
    if [ "$2" = 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL otf2/$1: $3"
    fi
}

# model NAME ARGS...: the JSON model of the basic archive with ARGS in
# $tmp/NAME.json, its stderr in $tmp/NAME.err; the exit code.
model() {
    name=$1
    shift
    "$bin" "$tmp/basic/traces.otf2" "$@" --format json -o "$tmp/$name.json" 2>"$tmp/$name.err"
}

# expect NAME CHECK [ARG]: check.py's CHECK on $tmp/NAME.json
expect() {
    out=$("$py" "$check" "$1" "$tmp/$1.json" "$tmp/$1.err" "${2:-}" 2>&1)
    result "$1" $? "$out"
}

"$py" "$root/tests/tools/genotf2.py" basic "$tmp/basic" >"$tmp/gen.log" 2>&1 ||
    { cat "$tmp/gen.log"; echo "FAIL otf2: the generator failed"; echo "otf2: 0 passed, 1 failed"; exit 1; }

model lanes --flows; expect lanes
model window --window-event step --occurrence 2; expect window
model window_glob --window-event 'st?p' --occurrence 3; expect window_glob
model fromto --from 1000us --to 2000us; expect fromto
model stats --window-event step --occurrence 2; expect stats
model pick --lanes 'rank 2*' --lanes 'rank 0 / thread 1'; expect pick
model byname --color-by name; expect byname
model onerank --lanes 'rank 1 / thread 0' --flows; expect onerank

# the folder names the archive as its anchor does
"$bin" "$tmp/basic" --flows --format json -o "$tmp/folder.json" 2>/dev/null
if cmp -s "$tmp/folder.json" "$tmp/lanes.json"; then
    result folder 0 ""
else
    result folder 1 "the folder draws another model than its anchor"
fi

# --stats: the text table has the MPI column and the paradigms
"$bin" "$tmp/basic/traces.otf2" --window-event step --occurrence 2 --stats >"$tmp/stats.txt" 2>/dev/null
if grep -q "MPI % of busy" "$tmp/stats.txt" && grep -Eq '^rank 1 .* 0\.3 +37\.36$' "$tmp/stats.txt" &&
    grep -Eq '^MPI collective +0\.4 ' "$tmp/stats.txt"; then
    result stats_text 0 ""
else
    result stats_text 1 "$(head -20 "$tmp/stats.txt")"
fi

# --lanes reads only the picked locations' event files: the others may go
cp -r "$tmp/basic" "$tmp/part"
rm "$tmp/part/traces/2.evt" "$tmp/part/traces/3.evt" "$tmp/part/traces/8.evt"
if "$bin" "$tmp/part/traces.otf2" --lanes 'rank 0*' --format json -o "$tmp/part.json" 2>"$tmp/part.err"; then
    result select 0 ""
else
    result select 1 "the unpicked locations' files were read: $(cat "$tmp/part.err")"
fi

# --- bad input: one line naming the file, exit 1, nothing written
mkdir -p "$tmp/bad"
cp -r "$tmp/basic" "$tmp/bad/cut"
size=$(wc -c <"$tmp/bad/cut/traces/0.evt")
truncate -s $((size / 2)) "$tmp/bad/cut/traces/0.evt"
cp -r "$tmp/basic" "$tmp/bad/cut-header"
truncate -s 40 "$tmp/bad/cut-header/traces/0.evt"
cp -r "$tmp/basic" "$tmp/bad/damaged"
"$py" - "$tmp/bad/damaged/traces/2.evt" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    d = bytearray(f.read())
    for i in range(24, len(d), 5):
        d[i] = 0xFF
    f.seek(0)
    f.write(d)
PY
cp -r "$tmp/basic" "$tmp/bad/nodef"
rm "$tmp/bad/nodef/traces.def"
mkdir -p "$tmp/bad/notarchive"
echo "not a trace" >"$tmp/bad/notarchive/README"
cp -r "$tmp/basic" "$tmp/bad/newer"
# byte 8 of the anchor is the format's major version
printf '\011' | dd of="$tmp/bad/newer/traces.otf2" bs=1 seek=8 conv=notrunc 2>/dev/null
for case in cut:traces.otf2 cut-header:traces.otf2 damaged:traces.otf2 nodef:traces.otf2 \
    notarchive: newer:traces.otf2; do
    name=${case%%:*}
    anchor=${case#*:}
    path="$tmp/bad/$name${anchor:+/$anchor}"
    echo "keep me" >"$tmp/out.svg"
    "$bin" "$path" --flows -o "$tmp/out.svg" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    lines=$(wc -l <"$tmp/bad.err")
    why=""
    [ $rc = 1 ] || why="exit $rc, not 1;"
    [ "$lines" = 1 ] || why="$why $lines lines on stderr, not 1;"
    grep -q "^tracefig: .*$name" "$tmp/bad.err" || why="$why the message does not name the archive;"
    grep -q "keep me" "$tmp/out.svg" || why="$why the output was clobbered;"
    ls "$tmp" | grep -q '^out\.svg\.' && why="$why a temporary file was left;"
    case $name in
    cut | cut-header | damaged) grep -q '\.evt' "$tmp/bad.err" || why="$why no .evt named;" ;;
    nodef) grep -q 'traces\.def' "$tmp/bad.err" || why="$why traces.def not named;" ;;
    notarchive) grep -q 'not an OTF2 archive' "$tmp/bad.err" || why="$why not said;" ;;
    newer) grep -q 'newer' "$tmp/bad.err" || why="$why no word of a newer OTF2;" ;;
    esac
    if [ -z "$why" ]; then
        result "bad-$name" 0 ""
    else
        result "bad-$name" 1 "$why $(cat "$tmp/bad.err")"
    fi
done
rm -f "$tmp/nosuch.svg"
"$bin" "$tmp/bad/cut/traces.otf2" -o "$tmp/nosuch.svg" 2>/dev/null
if [ -e "$tmp/nosuch.svg" ]; then
    result bad-nooutput 1 "an output was written for a bad archive"
else
    result bad-nooutput 0 ""
fi

# --- renamed tasks (APEX): a Leave of a region not open closes the innermost
gen() { # WHAT: genotf2.py WHAT into $tmp/WHAT
    "$py" "$root/tests/tools/genotf2.py" "$1" "$tmp/$1" >"$tmp/gen.log" 2>&1 ||
        { result "gen-$1" 1 "$(cat "$tmp/gen.log")"; return 1; }
}
gen renamed && {
    "$bin" "$tmp/renamed/traces.otf2" --format json -o "$tmp/renamed.json" 2>"$tmp/renamed.err"
    expect renamed
}

# --- no MPI: the archive's names ("Process / Master thread"); a "#" count
gen nompi && {
    "$bin" "$tmp/nompi/traces.otf2" --format json -o "$tmp/nompi.json" 2>"$tmp/nompi.err"
    expect nompi
    "$bin" "$tmp/nompi/traces.otf2" -o "$tmp/nompi.svg" 2>/dev/null
    if grep -q '>2\.11 G<' "$tmp/nompi.svg" && ! grep -q 'G#' "$tmp/nompi.svg"; then
        result count-unit 0 ""
    else
        result count-unit 1 "the \"#\" counter's label: $(grep -o '[^>]*G#*<' "$tmp/nompi.svg" | head -3)"
    fi
}

# --- counts the definitions get wrong (APEX declares 8 for every thread of
# 8, 40 and 60 events): no bound, one warning naming the first location,
# every event drawn
gen undercount && {
    "$bin" "$tmp/undercount/traces.otf2" --format json -o "$tmp/undercount.json" 2>"$tmp/undercount.err"
    rc=$?
    why=""
    [ $rc = 0 ] || why="exit $rc, not 0;"
    [ "$(wc -l <"$tmp/undercount.err")" = 1 ] || why="$why $(wc -l <"$tmp/undercount.err") lines on stderr, not 1;"
    grep -q '^tracefig: warning: .*traces/1\.evt: location 1 holds 40 events where its definition says 8 (and 1 other location differs)' \
        "$tmp/undercount.err" || why="$why not the warning;"
    if [ -z "$why" ] && ! "$py" -c 'import json, sys, collections
m = json.load(open(sys.argv[1]))
n = collections.Counter((b["lane"], b["name"]) for b in m["bars"] if b["shape"] == "slice")
assert n == {(0, "task"): 4, (1, "work"): 20, (2, "idle_loop"): 30}, n' "$tmp/undercount.json" 2>"$tmp/undercount.py"; then
        why="not every event drawn: $(tail -1 "$tmp/undercount.py")"
    fi
    result undercount "$([ -z "$why" ]; echo $?)" "$why $(cat "$tmp/undercount.err")"
}

# --- one row per lane: a rank's MPI_Init (row 0) is drawn, its loop's
# inner calls over it, and each lane is inked as busy as its slices are
# (tests/busy/inked.py lanes) - 32 ranks at --height 200pt, 64 at the
# default size
if "$bin" --version 2>/dev/null | grep -q png; then
    for job in 32:--height:200pt 64; do
        ranks=${job%%:*}
        args=$(echo "${job#"$ranks"}" | tr ':' ' ')
        "$py" "$root/tests/tools/genotf2.py" stencil "$tmp/st$ranks" --ranks "$ranks" >"$tmp/gen.log" 2>&1 ||
            { result "onerow-$ranks" 1 "$(cat "$tmp/gen.log")"; continue; }
        why=""
        for e in png svg json; do
            # shellcheck disable=SC2086
            "$bin" "$tmp/st$ranks/traces.otf2" $args --format "$e" -o "$tmp/st$ranks.$e" 2>/dev/null ||
                why="$why no $e;"
        done
        if [ -z "$why" ]; then
            "$py" -c 'import json, sys
lay = json.load(open(sys.argv[1]))["layout"]
assert lay["depth"] == 1 and lay["lanes_drawn"] == int(sys.argv[2]), lay' \
                "$tmp/st$ranks.json" "$ranks" 2>"$tmp/st.py" || why="not one row per lane: $(tail -1 "$tmp/st.py");"
            "$py" "$root/tests/busy/inked.py" lanes "$tmp/st$ranks.png" "$tmp/st$ranks.svg" \
                "$tmp/st$ranks.json" >"$tmp/st.ink" 2>&1 ||
                why="$why lanes not inked as busy: $(grep -E 'off|Error' "$tmp/st.ink" | head -3)"
        fi
        result "onerow-$ranks" "$([ -z "$why" ]; echo $?)" "$why"
    done
else
    echo "SKIP onerow (this tracefig was built without cairo: no PNG)"
fi

# valid_utf8 FILE: exit 0 when FILE is valid UTF-8
valid_utf8() {
    "$py" -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$1" 2>/dev/null
}

# --- a name that is not valid UTF-8: escaped in messages, U+FFFD in the model
gen badname && {
    "$bin" "$tmp/badname/traces.otf2" --window-event NAM -o "$tmp/badname.svg" 2>"$tmp/badname.err"
    why=""
    valid_utf8 "$tmp/badname.err" || why="stderr is not valid UTF-8;"
    grep -qF '"\xFF\xC3(NAME"' "$tmp/badname.err" || why="$why the name is not escaped \\xNN;"
    [ "$(wc -l <"$tmp/badname.err")" = 1 ] || why="$why not one line;"
    result badname-message "$([ -z "$why" ]; echo $?)" "$why $(od -c "$tmp/badname.err" | head -5)"
    "$bin" "$tmp/badname/traces.otf2" --format json -o "$tmp/badname.json" 2>/dev/null
    if "$py" -c 'import json, sys; m = json.load(open(sys.argv[1], encoding="utf-8"))
assert m["bars"][0]["name"] == "\ufffd\ufffd(NAME", m["bars"][0]["name"]' "$tmp/badname.json" 2>"$tmp/badname.py"; then
        result badname-model 0 ""
    else
        result badname-model 1 "$(tail -1 "$tmp/badname.py")"
    fi
}

# --- damaged archives end, at once: exit 0 or 1, one line on exit 1, valid
# UTF-8.  The chunks archive's event files span two 256 KiB chunks: zeroes
# in the second chunk's header sent libotf2 round the chunks for ever (as
# otf2-print still goes), and so did many of the seeded damages below.
# Each run is bounded by timeout (the harness fails a run that hangs).
timeout=${OTF2_DAMAGE_TIMEOUT:-20}
# damaged NAME DIR: runs tracefig on DIR's archive and checks the run
damaged() {
    echo "keep me" >"$tmp/out.svg"
    timeout "$timeout" "$bin" "$2/traces.otf2" -o "$tmp/out.svg" >/dev/null 2>"$tmp/dmg.err"
    rc=$?
    why=""
    case $rc in
    0) ;;
    1)
        [ "$(wc -l <"$tmp/dmg.err")" = 1 ] || why="$(wc -l <"$tmp/dmg.err") lines on exit 1;"
        grep -q "keep me" "$tmp/out.svg" || why="$why the output was written;" ;;
    124) why="still running after ${timeout}s;" ;;
    *) why="exit $rc;" ;;
    esac
    valid_utf8 "$tmp/dmg.err" || why="$why stderr is not valid UTF-8;"
    result "$1" "$([ -z "$why" ]; echo $?)" "$why $(head -c 300 "$tmp/dmg.err")"
}
gen chunks && {
    rm -rf "$tmp/hang"
    cp -r "$tmp/chunks" "$tmp/hang"
    # 32 zero bytes 6 bytes into the second chunk (at 256 KiB)
    dd if=/dev/zero of="$tmp/hang/traces/0.evt" bs=1 seek=262150 count=32 conv=notrunc 2>/dev/null
    damaged damaged-chunk-header "$tmp/hang"
    if grep -q 'traces/0\.evt: location 0 delivers more events than the' "$tmp/dmg.err"; then
        result damaged-chunk-header-message 0 ""
    else
        result damaged-chunk-header-message 1 "not the location's line: $(cat "$tmp/dmg.err")"
    fi
    # an anchor whose count of properties is damaged: libotf2 spent ~10 s
    # making room for them (the generator's anchor has its three strings
    # empty: the count is at byte 49)
    rm -rf "$tmp/props"
    cp -r "$tmp/chunks" "$tmp/props"
    printf '\000\000\000\250' | dd of="$tmp/props/traces.otf2" bs=1 seek=49 conv=notrunc 2>/dev/null
    t1=$(date +%s)
    damaged damaged-anchor-properties "$tmp/props"
    if grep -q 'properties, more than its 72 bytes hold' "$tmp/dmg.err" && [ $(($(date +%s) - t1)) -le 2 ]; then
        result damaged-anchor-properties-message 0 ""
    else
        result damaged-anchor-properties-message 1 "$(($(date +%s) - t1)) s: $(cat "$tmp/dmg.err")"
    fi
    t0=$(date +%s)
    for seed in $(seq 1 "${OTF2_DAMAGE_SEEDS:-40}"); do
        what=$("$py" "$here/damage.py" "$tmp/chunks" "$tmp/dmg" "$seed") ||
            { result "damaged-$seed" 1 "damage.py failed"; continue; }
        damaged "damaged-$seed ($what)" "$tmp/dmg"
    done
    # the small archive's definitions, anchor and an event file
    for seed in 1 2 3 4 5 6; do
        for f in traces.def traces.otf2 traces/2.evt; do
            what=$("$py" "$here/damage.py" "$tmp/basic" "$tmp/dmg" "$seed" "$f") ||
                { result "damaged-basic-$seed" 1 "damage.py failed"; continue; }
            damaged "damaged-basic-$seed ($what)" "$tmp/dmg"
        done
    done
    echo "damaged archives: $(($(date +%s) - t0)) s"
}

# --- every back-end draws an OTF2 figure
formats="json svg tikz"
"$bin" --version 2>/dev/null | grep -q pdf && formats="$formats pdf png"
for fmt in $formats; do
    case $fmt in tikz) e=tex ;; *) e=$fmt ;; esac
    "$bin" "$tmp/basic/traces.otf2" --flows --format "$fmt" -o "$tmp/all.$e" 2>/dev/null
    rc=$?
    ok=1
    if [ $rc = 0 ] && [ -s "$tmp/all.$e" ]; then
        case $fmt in
        pdf) head -c 5 "$tmp/all.$e" | grep -q '%PDF-' && ok=0 ;;
        png) head -c 8 "$tmp/all.$e" | od -An -c | grep -q 'P   N   G' && ok=0 ;;
        svg) grep -q 'rank 3' "$tmp/all.$e" && grep -q '<svg' "$tmp/all.$e" && ok=0 ;;
        tikz) grep -q 'tikzpicture' "$tmp/all.$e" && grep -q 'rank 3' "$tmp/all.$e" && ok=0 ;;
        json) ok=0 ;;
        esac
    fi
    result "backend-$fmt" $ok "exit $rc"
done

# the same bytes twice, and under another locale
"$bin" "$tmp/basic/traces.otf2" --flows --format svg -o "$tmp/again.svg" 2>/dev/null
LC_ALL=de_DE.UTF-8 "$bin" "$tmp/basic/traces.otf2" --flows --format svg -o "$tmp/de.svg" 2>/dev/null
if cmp -s "$tmp/all.svg" "$tmp/again.svg" && cmp -s "$tmp/all.svg" "$tmp/de.svg"; then
    result stable 0 ""
else
    result stable 1 "the SVG differs between runs or locales"
fi

echo "otf2: $pass passed, $fail failed"
[ "$fail" = 0 ]
