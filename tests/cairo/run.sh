#!/bin/sh
# PDF and PNG (cairo back-end) tests.
#
#   run.sh TRACEFIG            run every check
#   run.sh TRACEFIG --update   rewrite tests/cairo/sums/* (checksums, see below)
#
# For every golden case (tests/golden/*) and every parity case
# (tests/parity/cases/*, generated traces this code was not tuned on):
#   - the PDF has one page of the SVG's width x height (pdfinfo);
#   - the PNG is ceil(points x dpi / 72) pixels and says its DPI (pHYs);
#   - the PNG differs from the SVG rasterised by rsvg-convert at the same
#     DPI in under 1 % of its pixels beyond a pixel's shift, and under 2 %
#     exactly (pngdiff.c, compiled here with cairo);
#   - no warning beyond the SVG run's (the font's advances match the table).
# Golden cases also check byte stability (two runs, another time zone and
# locale), text that pdftotext can extract, and the embedded fonts.
#
# Checksums.  PDF and PNG bytes are stable for one build of cairo, pixman,
# FreeType, libpng, zlib and the DejaVu fonts, but not across versions of
# them (cairo even writes its version into the PDF).  So sums/CASE records
# the toolchain fingerprint and the SVG's checksum next to the PDF's and
# PNG's: the sums are compared only when both still match, and otherwise
# reported as stale (run --update) instead of failing.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=${TMPDIR:-/tmp}/tracefig-cairo.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL cairo: $1"; }
skip() { echo "SKIP cairo: $1"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
have() { command -v "$1" >/dev/null 2>&1; }

if ! "$bin" --version | grep -q ' pdf '; then
    echo "cairo: SKIP (tracefig was built without cairo)"
    # Built without cairo, asking for PDF must fail cleanly, exit 2.
    check "without cairo, -o x.pdf is a usage error naming cairo" \
        '"$bin" "$root/examples/overlap_timeline_v1.json" -o "$tmp/x.pdf" 2>&1 | grep -q cairo &&
         { "$bin" "$root/examples/overlap_timeline_v1.json" -o "$tmp/x.pdf" 2>/dev/null; test $? -eq 2; } &&
         test ! -e "$tmp/x.pdf"'
    echo "cairo: $pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
fi

dpi=200
other_locale=C.UTF-8
locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$' && other_locale=de_DE.UTF-8
# Unrelated environment must not change any byte.
unset SOURCE_DATE_EPOCH TRACEFIG_FONT_DIR

# --- tools ------------------------------------------------------------------
pngdiff=""
if have cc && have pkg-config && pkg-config --exists cairo; then
    # shellcheck disable=SC2046
    if cc -std=c11 -O2 -o "$tmp/pngdiff" "$here/pngdiff.c" $(pkg-config --cflags --libs cairo) \
        2>"$tmp/cc.err"; then
        pngdiff="$tmp/pngdiff"
    else
        bad "pngdiff.c does not compile: $(head -3 "$tmp/cc.err")"
    fi
else
    skip "pixel comparison (needs cc and cairo's pkg-config)"
fi
have rsvg-convert || skip "pixel comparison (rsvg-convert missing: apt-get install librsvg2-bin)"
have pdfinfo || skip "page size checks (pdfinfo missing: apt-get install poppler-utils)"

# PNG width and height from IHDR; "" when not a PNG.
png_size() {
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 0
    od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d %d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}
# Pixels per metre in the pHYs chunk; "" when there is none.
png_ppm() {
    off=$(grep -boa pHYs "$1" | head -1 | cut -d: -f1)
    [ -n "$off" ] || return 0
    od -An -tu1 -j$((off + 4)) -N4 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 }'
}
# The SVG's height attribute in points.
svg_height() { sed -n 's/.*<svg[^>]* height="\([0-9.]*\)pt".*/\1/p' "$1" | head -1; }
svg_width() { sed -n 's/.*<svg[^>]* width="\([0-9.]*\)pt".*/\1/p' "$1" | head -1; }
# ceil(points * dpi / 72), as the back-end computes it.
pixels() { awk -v p="$1" -v d="$2" 'BEGIN { v = p * d / 72 - 1e-6; i = int(v); if (i < v) i++; print i }'; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

fingerprint() {
    if have dpkg-query; then
        for p in libcairo2 libpixman-1-0 libfreetype6 libpng16-16 zlib1g fonts-dejavu-core; do
            printf '%s=%s ' "$p" "$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null)"
        done
    else
        for p in cairo pixman-1 freetype2 libpng zlib; do
            printf '%s=%s ' "$p" "$(pkg-config --modversion "$p" 2>/dev/null)"
        done
    fi
    printf 'dpi=%s\n' "$dpi"
}
fp=$(fingerprint)

worst=""
worst_pct=-1
n_cases=0
n_stale=0

# run_case NAME DIR GOLDEN(0|1)
run_case() {
    name=$1
    dir=$2
    golden=$3
    set -- --trace trace.json
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    extra=""
    for a in "$dir/args" "$dir/args.txt"; do
        [ -f "$a" ] && extra="$extra $(sed 's/#.*//' "$a" | tr '\n' ' ')"
    done
    o=$tmp/$name
    mkdir -p "$o"
    # The SVG alone first: cases the rules reject are not this suite's business.
    # shellcheck disable=SC2086
    (cd "$dir" && "$bin" "$@" $extra -o "$o/f.svg") >/dev/null 2>"$o/svg.err" || return 0
    n_cases=$((n_cases + 1))
    # The PNG at most 2000 pixels wide and at most 300 dpi (a 240 pt figure
    # at 300 dpi), so the pixel comparison below sees text about as large in
    # pixels in every case.
    w=$(svg_width "$o/f.svg")
    cdpi=$(awk -v w="$w" -v d=$dpi 'BEGIN { v = d * 720 / w; printf "%d", (v > 300 ? 300 : v) }')
    # shellcheck disable=SC2086
    if ! (cd "$dir" && "$bin" "$@" $extra --dpi $cdpi -o "$o/f.pdf" -o "$o/f.png") \
        >"$o/out" 2>"$o/err"; then
        bad "$name: tracefig failed: $(head -3 "$o/err")"
        return 0
    fi
    check "$name: no warning beyond the SVG run's (font metrics agree)" \
        'cmp -s "$o/svg.err" "$o/err" || { cat "$o/err"; false; }'

    h=$(svg_height "$o/f.svg")
    if have pdfinfo; then
        pdfinfo "$o/f.pdf" >"$o/info" 2>&1
        check "$name: PDF has one page" 'grep -q "^Pages: *1$" "$o/info"'
        size=$(sed -n 's/^Page size: *\([0-9.]*\) x \([0-9.]*\) pts.*/\1 \2/p' "$o/info")
        same=$(echo "$size $h $w" | awk '{ print (($1 - $4) ^ 2 < 1e-4 && $3 > 0 && ($2 - $3) ^ 2 < 1e-4) ? "yes" : "no" }')
        check "$name: PDF page is $w x $h pt (the SVG's), got '$size'" 'test "$same" = yes'
    fi
    want="$(pixels "$w" $cdpi) $(pixels "$h" $cdpi)"
    check "$name: PNG is $want pixels, got '$(png_size "$o/f.png")'" \
        'test "$(png_size "$o/f.png")" = "$want"'
    if [ -n "$pngdiff" ] && have rsvg-convert; then
        if rsvg-convert -d $cdpi -p $cdpi -b white "$o/f.svg" -o "$o/svg.png" 2>"$o/rsvg.err"; then
            # Exact per-pixel comparison; a pixel counts when a channel is off
            # by more than 64/255 (anti-aliasing differs between pango and
            # this back-end's unhinted, unrounded glyph placement).
            line=$("$pngdiff" "$o/f.png" "$o/svg.png" 64 1.0 "$o/diff.png")
            rc=$?
            pct=$(echo "$line" | sed -n 's/.*exact [0-9]* of [0-9]* pixels (\([0-9.]*\) %).*/\1/p')
            echo "$name: $line" >>"$tmp/diffs"
            if awk -v p="${pct:-100}" -v w="$worst_pct" 'BEGIN { exit !(p > w) }'; then
                worst_pct=$pct
                worst=$name
            fi
            if [ $rc -eq 0 ]; then ok; else
                bad "$name: PNG vs rsvg-convert: $line"
                [ -n "${TRACEFIG_KEEP:-}" ] && cp "$o/diff.png" "$TRACEFIG_KEEP/$name.diff.png"
            fi
        else
            bad "$name: rsvg-convert cannot render the SVG: $(head -2 "$o/rsvg.err")"
        fi
    fi

    if [ "$golden" = 1 ]; then
        # shellcheck disable=SC2086
        (cd "$dir" && env TZ=Pacific/Chatham LC_ALL=$other_locale "$bin" "$@" $extra --dpi $cdpi \
            -o "$o/g.pdf" -o "$o/g.png") >/dev/null 2>&1
        check "$name: PDF bytes identical across runs, time zones and locales" \
            'cmp -s "$o/f.pdf" "$o/g.pdf"'
        check "$name: PNG bytes identical across runs" 'cmp -s "$o/f.png" "$o/g.png"'
        if have pdftotext; then
            pdftotext "$o/f.pdf" "$o/txt" 2>/dev/null
            check "$name: PDF text is extractable (Time (...))" 'grep -q "Time (\(ms\|µs\|s\))" "$o/txt"'
        fi
        if have pdffonts; then
            check "$name: PDF embeds DejaVu Sans (Bold or Book), and only DejaVu" \
                'pdffonts "$o/f.pdf" | tail -n +3 >"$o/fonts" && grep -q "DejaVuSans.*yes" "$o/fonts" &&
                 ! grep -v DejaVuSans "$o/fonts" | grep -q .'
        fi
        sums="$here/sums/$name"
        line="$(sha "$o/f.svg") $(sha "$o/f.pdf") $(sha "$o/f.png")"
        if [ "$update" = "--update" ]; then
            mkdir -p "$here/sums"
            printf '%s\n%s\n' "$fp" "$line" >"$sums"
        elif [ -f "$sums" ] && [ "$(sed -n 1p "$sums")" = "$fp" ] &&
            [ "$(sed -n 2p "$sums" | cut -d' ' -f1)" = "$(sha "$o/f.svg")" ]; then
            check "$name: PDF/PNG checksums match sums/$name" \
                'test "$(sed -n 2p "$sums")" = "$line"'
        else
            n_stale=$((n_stale + 1))
        fi
    fi
}

for dir in "$root"/tests/golden/*/; do
    [ -f "$dir/trace.json" ] && run_case "golden-$(basename "$dir")" "$dir" 1
done
for dir in "$root"/tests/parity/cases/*/; do
    [ -f "$dir/trace.json" ] && run_case "parity-$(basename "$dir")" "$dir" 0
done
[ -f "$tmp/diffs" ] && sort -t'(' -k2 -n "$tmp/diffs" | tail -n 3 | sed 's/^/  worst: /'
echo "cairo: $n_cases cases; largest pixel difference ${worst_pct} % ($worst)"
[ $n_stale -gt 0 ] && echo "cairo: $n_stale checksum file(s) missing or stale (another toolchain or scene): not compared; 'sh tests/cairo/run.sh BIN --update' rewrites them"

# --- the command line ---------------------------------------------------------
v1=$root/examples/overlap_timeline_v1.json
v2=$root/examples/overlap_timeline_v2.json
bd=$root/examples/candidate_breakdown.json
check "--companion-png writes NAME.png beside NAME.pdf, same bytes as -o NAME.png" \
    '"$bin" "$v2" --breakdown "$bd" -o "$tmp/c.pdf" --companion-png 2>/dev/null && test -s "$tmp/c.pdf" &&
     "$bin" "$v2" --breakdown "$bd" -o "$tmp/d.png" 2>/dev/null && cmp -s "$tmp/c.png" "$tmp/d.png"'
check "without --companion-png no PNG is written" \
    '"$bin" "$v1" -o "$tmp/e.pdf" && test -s "$tmp/e.pdf" && test ! -e "$tmp/e.png"'
check "--format pdf / png to standard output" \
    '"$bin" "$v1" --format pdf -o - | head -c 5 | grep -q "%PDF-" &&
     "$bin" "$v1" --format png -o - >"$tmp/s.png" && test -n "$(png_size "$tmp/s.png")"'
check "--dpi 100 halves the pixels and records 3937 pixels per metre" \
    '"$bin" "$v1" --dpi 100 -o "$tmp/l.png" && test "$(png_size "$tmp/l.png" | cut -d" " -f1)" = 1000 &&
     test "$(png_ppm "$tmp/l.png")" = 3937'
check "default PNG is 200 dpi (2000 px, 7874 pixels per metre)" \
    '"$bin" "$v1" -o "$tmp/m.png" && test "$(png_size "$tmp/m.png" | cut -d" " -f1)" = 2000 &&
     test "$(png_ppm "$tmp/m.png")" = 7874'
if have pdfinfo; then
    check "PDF metadata: fixed dates, Creator tracefig, a title" \
        'pdfinfo "$tmp/e.pdf" >"$tmp/e.info" && grep -q "^Creator: *tracefig$" "$tmp/e.info" &&
         grep -q "^CreationDate: .*2000" "$tmp/e.info" && grep -q "^ModDate: .*2000" "$tmp/e.info" &&
         grep -q "^Title: *." "$tmp/e.info"'
    check "SOURCE_DATE_EPOCH sets the PDF dates" \
        'SOURCE_DATE_EPOCH=1700000000 "$bin" "$v1" -o "$tmp/sde.pdf" &&
         pdfinfo -isodates "$tmp/sde.pdf" | grep -q "^CreationDate: *2023-11-14T22:13:20"'
fi
check "a missing font fails with exit 3, names the package, writes nothing" \
    'TRACEFIG_FONT_DIR=$tmp/nofonts "$bin" "$v1" -o "$tmp/nf.pdf" -o "$tmp/nf.json" 2>"$tmp/nf.err"; test $? -eq 3 &&
     grep -q "fonts-dejavu-core" "$tmp/nf.err" && test ! -e "$tmp/nf.pdf" && test ! -e "$tmp/nf.json"'
check "a wrong font file (not DejaVu Sans Bold) fails with exit 3" \
    'mkdir -p "$tmp/wrongfonts" && cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$tmp/wrongfonts/DejaVuSans-Bold.ttf" 2>/dev/null &&
     { TRACEFIG_FONT_DIR=$tmp/wrongfonts "$bin" "$v1" -o "$tmp/wf.png" 2>"$tmp/wf.err"; test $? -eq 3; } &&
     grep -q "expected DejaVu Sans Bold" "$tmp/wf.err"'

# --- lazy loading -------------------------------------------------------------
# cairo and FreeType are dlopen()ed at the first PDF/PNG render, never linked:
# other outputs must not pay for loading them and their ~20 dependencies.
if have readelf; then
    check "tracefig does not link cairo, FreeType or pixman (they are dlopen()ed)" \
        'readelf -d "$bin" >"$tmp/dyn" && grep -q NEEDED "$tmp/dyn" &&
         ! grep NEEDED "$tmp/dyn" | grep -q -e libcairo -e libfreetype -e libpixman'
fi
LD_DEBUG=files "$bin" "$v1" -o "$tmp/lz.svg" -o "$tmp/lz.json" -o "$tmp/lz.tex" 2>"$tmp/lz.dbg" >/dev/null
if grep -q 'file=' "$tmp/lz.dbg"; then
    check "SVG, JSON and TikZ runs load neither cairo nor FreeType" \
        '! grep -q -e "file=libcairo" -e "file=libfreetype" "$tmp/lz.dbg"'
    LD_DEBUG=files "$bin" "$v1" -o "$tmp/lz.pdf" 2>"$tmp/lz2.dbg" >/dev/null
    check "a PDF run loads cairo and FreeType" \
        'grep -q "file=libcairo.so.2" "$tmp/lz2.dbg" && grep -q "file=libfreetype.so.6" "$tmp/lz2.dbg"'
else
    skip "which libraries a run loads (LD_DEBUG is glibc's)"
fi

# Stand-in libraries found first through LD_LIBRARY_PATH: one without the
# functions, one whose own dependency is missing (so dlopen fails).
fk=$tmp/fakelib
# fakelib DIR SONAME [broken]
fakelib() {
    mkdir -p "$fk/$1" &&
        if [ "${3:-}" = broken ]; then
            cc -shared -fPIC -o "$fk/$1/libtf-gone.so" "$fk/fake.c" &&
                cc -shared -fPIC -o "$fk/$1/$2" "$fk/fake.c" -L"$fk/$1" -Wl,--no-as-needed \
                    -ltf-gone && rm "$fk/$1/libtf-gone.so"
        else
            cc -shared -fPIC -o "$fk/$1/$2" "$fk/fake.c"
        fi
}
# lib_fails DIR PACKAGE MESSAGE: PDF and PNG fail with exit 3, naming the
# package, and nothing is written (not even the JSON that rendered fine).
lib_fails() {
    rm -f "$tmp/lf.json" "$tmp/lf.pdf" "$tmp/lf.png"
    LD_LIBRARY_PATH=$fk/$1 "$bin" "$v1" -o "$tmp/lf.json" -o "$tmp/lf.pdf" 2>"$tmp/lf.err"
    rc=$?
    LD_LIBRARY_PATH=$fk/$1 "$bin" "$v1" -o "$tmp/lf.png" 2>"$tmp/lf2.err"
    rc2=$?
    if test $rc -eq 3 && test $rc2 -eq 3 &&
        grep -q "Debian's $2" "$tmp/lf.err" && grep -q "$3" "$tmp/lf.err" &&
        grep -q "Debian's $2" "$tmp/lf2.err" &&
        test ! -e "$tmp/lf.json" && test ! -e "$tmp/lf.pdf" && test ! -e "$tmp/lf.png"; then
        return 0
    fi
    cat "$tmp/lf.err" "$tmp/lf2.err"
    return 1
}
mkdir -p "$fk"
echo 'int tf_fake(void); int tf_fake(void) { return 0; }' >"$fk/fake.c"
if have cc && fakelib nosym libcairo.so.2 && fakelib nosym_ft libfreetype.so.6 &&
    fakelib gone libcairo.so.2 broken && fakelib gone_ft libfreetype.so.6 broken 2>"$tmp/fk.err"; then
    check "a cairo without its functions fails PDF/PNG cleanly, naming libcairo2" \
        'lib_fails nosym libcairo2 "libcairo.so.2 has no function"'
    check "a cairo that cannot be loaded fails PDF/PNG cleanly, naming libcairo2" \
        'lib_fails gone libcairo2 "libcairo.so.2, which cannot be loaded"'
    check "a FreeType without its functions fails PDF/PNG cleanly, naming libfreetype6" \
        'lib_fails nosym_ft libfreetype6 "libfreetype.so.6 has no function"'
    check "a FreeType that cannot be loaded fails PDF/PNG cleanly, naming libfreetype6" \
        'lib_fails gone_ft libfreetype6 "libfreetype.so.6, which cannot be loaded"'
    check "without cairo loadable, SVG still works" \
        'LD_LIBRARY_PATH=$fk/gone "$bin" "$v1" -o "$tmp/lf.svg" && test -s "$tmp/lf.svg"'
else
    skip "missing-library checks (needs cc to build stand-in libraries)"
fi

echo "cairo: $pass passed, $fail failed"
[ $fail -eq 0 ]
