#!/bin/sh
# Command-line behaviour: help, version, formats, several outputs, stdout,
# exit codes, determinism.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=${TMPDIR:-/tmp}/tracefig-cli.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
v1="$root/examples/overlap_timeline_v1.json"
v2="$root/examples/overlap_timeline_v2.json"
bd="$root/examples/candidate_breakdown.json"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL cli: $1"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

check "--help exits 0 and documents --format" '"$bin" --help | grep -q -- "--format"'
check "--version names the back-ends" '"$bin" --version | grep -q "back-ends:.*json"'
check "no arguments, no io_overlap_timeline.json: no trace given, usage, --help" \
    '(cd "$tmp" && "$bin" 2>&1; test $? -eq 2) >"$tmp/noarg.txt" &&
     grep -q "^tracefig: no trace given (and no io_overlap_timeline.json here, the default)$" "$tmp/noarg.txt" &&
     grep -q "^Usage: tracefig " "$tmp/noarg.txt" && grep -q -- "--help" "$tmp/noarg.txt" &&
     test "$(wc -l <"$tmp/noarg.txt")" -eq 3'
check "no trace given: io_overlap_timeline.json is still the default" \
    'mkdir -p "$tmp/def" && cp "$v1" "$tmp/def/io_overlap_timeline.json" &&
     (cd "$tmp/def" && "$bin" -o - | grep -q "\"start_candidate\": 3")'
check "an unknown option names the nearest real one" \
    '"$bin" --widht 3in "$v1" -o - 2>&1 | grep -qF "unknown option '"'"'--widht'"'"' (did you mean '"'"'--width'"'"'?)"'
check "an unknown option far from every name suggests none" \
    '! "$bin" --frobnicate "$v1" -o - 2>&1 | grep -q "did you mean"'
check "usage error exits 2" '"$bin" --start_candidate abc "$v1" -o - >/dev/null 2>&1; test $? -eq 2'
check "unknown format exits 2" '"$bin" --format bmp "$v1" -o - >/dev/null 2>&1; test $? -eq 2'
check "unknown extension exits 2" '"$bin" "$v1" -o "$tmp/x.bmp" >/dev/null 2>&1; test $? -eq 2'
check "-o - writes the JSON model" '"$bin" "$v1" -o - | grep -q "\"schema\": \"tracefig-figure-1\""'
check "format from the extension" '"$bin" "$v1" -o "$tmp/a.json" && grep -q tracefig-figure-1 "$tmp/a.json"'
check "GNU and reference spellings agree" \
    '"$bin" --trace_file "$v2" --breakdown_file "$bd" --start_candidate 6 -o - >"$tmp/r.json" &&
     "$bin" "$v2" --breakdown="$bd" --start-candidate=6 --format=json -o - >"$tmp/g.json" &&
     cmp -s "$tmp/r.json" "$tmp/g.json"'
check "--focus_candidate is an alias, --start_candidate wins" \
    '"$bin" "$v2" --focus_candidate 6 -o - | grep -q "\"start_candidate\": 6" &&
     "$bin" "$v2" --focus_candidate 6 --start_candidate 7 -o - | grep -q "\"start_candidate\": 7"'
check "several outputs from one run" \
    '"$bin" "$v1" -o "$tmp/m1.json" -o "$tmp/m2.json" && cmp -s "$tmp/m1.json" "$tmp/m2.json"'
check "byte-identical across runs" \
    '"$bin" "$v2" --breakdown "$bd" -o "$tmp/d1.json" && "$bin" "$v2" --breakdown "$bd" -o "$tmp/d2.json" &&
     cmp -s "$tmp/d1.json" "$tmp/d2.json"'
check "stdin as input" '"$bin" - -o - <"$v1" | grep -q "\"start_candidate\": 3"'
check "an existing output is replaced, mode from the umask" \
    'echo old >"$tmp/o.json" && (umask 022 && "$bin" "$v1" -o "$tmp/o.json") &&
     grep -q schema "$tmp/o.json" && test "$(stat -c %a "$tmp/o.json")" = 644'
check "no temp files left beside outputs" 'test -z "$(ls -A "$tmp" | grep "^\.")"'
check "write error exits 3" '"$bin" "$v1" --format json -o /dev/full 2>/dev/null; test $? -eq 3'
# A read-only folder: root writes anywhere, so the check runs as nobody then.
mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro" && chmod 755 "$tmp"
asuser=""
[ "$(id -u)" = 0 ] && asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
# nobody may not reach the checkout (a 0700 temp clone): use copies.
cp "$bin" "$tmp/tracefig-copy" && cp "$v1" "$tmp/v1.json" && chmod 755 "$tmp/tracefig-copy"
check "read-only output folder exits 3, nothing written" \
    '$asuser "$tmp/tracefig-copy" "$tmp/v1.json" -o "$tmp/ro/x.svg" 2>/dev/null; test $? -eq 3 &&
     test -z "$(ls -A "$tmp/ro")"'
check "missing output folder exits 3" '"$bin" "$v1" -o "$tmp/nodir/x.json" 2>/dev/null; test $? -eq 3'
check "several outputs are all or nothing" \
    'echo old >"$tmp/keep.svg" && ! "$bin" "$v1" --format svg -o "$tmp/keep.svg" -o /dev/full 2>/dev/null &&
     test "$(cat "$tmp/keep.svg")" = old'
check "an output symlink is followed, not replaced" \
    'echo old >"$tmp/real.json" && ln -s real.json "$tmp/link.json" && "$bin" "$v1" -o "$tmp/link.json" &&
     test -L "$tmp/link.json" && grep -q schema "$tmp/real.json"'
check "/dev/stdout redirected to a file" \
    '"$bin" "$v1" --format json -o /dev/stdout >"$tmp/so.json" && grep -q schema "$tmp/so.json"'
check "an existing output keeps its permissions" \
    'echo old >"$tmp/p.json" && chmod 600 "$tmp/p.json" && "$bin" "$v1" -o "$tmp/p.json" &&
     test "$(stat -c %a "$tmp/p.json")" = 600'
check "a 250-character file name works" \
    'n=$(printf "%0250d" 0).json && "$bin" "$v1" -o "$tmp/$n" && test -s "$tmp/$n" && rm -f "$tmp/$n"'
check "empty option values are usage errors" '"$bin" "$v1" -o "" 2>/dev/null; test $? -eq 2'
check "stdin cannot be read twice" '"$bin" - --breakdown - -o - </dev/null 2>/dev/null; test $? -eq 2'
check "flags take no value" '"$bin" --help=x >/dev/null 2>&1; test $? -eq 2'
check "numbers are plain decimals" '"$bin" "$v1" --dpi 0x10 -o - >/dev/null 2>&1; test $? -eq 2'
check "ticks of a microsecond window stay distinct" \
    'printf "%s" "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"Candidate_Eval_0\", \"pid\": 1, \"tid\": 1, \"ts\": 1000.0, \"dur\": 1}]}" >"$tmp/us.json" &&
     "$bin" "$tmp/us.json" -o - | grep -q "\"xticks\": \[0, 0.0002, 0.0004"'
check "--num_candidates widens the window" \
    'a=$("$bin" "$v2" -o - | grep -c "\"lane\""); b=$("$bin" "$v2" --num_candidates 5 -o - | grep -c "\"lane\""); test "$b" -gt "$a"'
# The option table: --help, the parser and the man page name the same options.
opts=$("$bin" --help | grep -E '^  -' | grep -o -- '--[a-z][a-z_-]*' | grep -v _ | sort -u)
check "--help lists the option table" 'test "$(echo "$opts" | wc -l)" -ge 30'
for o in $opts; do
    man=$(echo "$o" | sed 's/-/\\-/g')
    snake=$(echo "$o" | sed 's/^--//; s/-/_/g')
    check "the man page documents $o" \
        'grep -qF -- "$man" "$root/man/tracefig.1" || grep -qF -- "\\-\\-$snake" "$root/man/tracefig.1"'
done
check "every --help option parses (snake_case too)" \
    'for o in $opts; do s=$(echo "$o" | sed "s/^--//; s/-/_/g");
         "$bin" "--$s" 2>&1 | grep -q "unknown option" && { echo "unknown: $o"; exit 1; }; done; true'
check "the recorded command line names options canonically" \
    '"$bin" "$v1" --legend_y 0.5 --all_lanes --format tikz -o - |
     grep -q "^% Made with: tracefig overlap_timeline_v1.json --legend-y 0.5 --all-lanes$"'

# Every picture the README shows is in the tree, and not one git would ignore
# (a repository browser would show it broken).
for img in $(grep -o '](examples/[^)]*\.\(png\|svg\))' "$root/README.md" | sed 's/^](//; s/)$//' | sort -u); do
    check "the README's $img is in the tree" \
        'test -f "$root/$img" &&
         { ! command -v git >/dev/null || ! git -C "$root" rev-parse 2>/dev/null ||
           ! git -C "$root" check-ignore -q "$img"; }'
done

echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
