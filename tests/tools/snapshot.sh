#!/bin/sh
# Every output of one tracefig binary, kept in a folder, for a change that
# must not change a byte (a refactor, a file split): snapshot the build
# before the change, snapshot it after, compare the two folders.
#
#   snapshot.sh TRACEFIG DIR       write DIR (it must not exist yet)
#   snapshot.sh --compare A B      cmp every file of A with B's; exit 1 on
#                                  any difference or a file only one holds
#
# From the repository (run it from anywhere):
#   golden/   every golden case in every back-end (json svg tikz pdf png),
#             and its JSON model through the streaming loader
#   chrome/   every tests/chrome case (its args, stdin, setup) likewise
#   bad/      every tests/bad case: stderr, exit status and the files in its
#             folder afterwards, whole and streamed
#   stats/    --stats and --stats=csv on the examples and the golden inputs
#   examples/ the figures examples/render.sh makes, in every back-end
#   gen/      Kineto traces from tests/tools/gentrace.py: the figure, its
#             first step with flows, the statistics
#   fuzz/     the fuzz_chrome corpus (less its options byte) as traces: the
#             JSON model, or the message, plain and with flows, async
#             events, every lane and a shallow depth
# From ../shared/real-traces, when it is there (else a note):
#   real/     each trace in every back-end with the default options, with
#             --window-event of its first ProfilerStep#N (when it has one),
#             with --flows --async --all-lanes, and its statistics (window
#             and whole trace); and the README's pictures (examples/real.sh)
# Each run leaves NAME.EXT (the output, when one was written) and
# NAME.EXT.log (stderr, stdout and the exit status).  Runs happen in a
# scratch folder with relative file names, so no message holds a path that
# changes between snapshots.  Takes a few minutes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ "${1:-}" = --compare ]; then
    [ $# -eq 3 ] || { echo "usage: $0 --compare A B" >&2; exit 2; }
    a=$2
    b=$3
    (cd "$a" && find . -type f | LC_ALL=C sort) >"${TMPDIR:-/tmp}/snap-a.$$"
    (cd "$b" && find . -type f | LC_ALL=C sort) >"${TMPDIR:-/tmp}/snap-b.$$"
    n=0
    bad=0
    while IFS= read -r f; do
        [ -f "$b/$f" ] || continue
        n=$((n + 1))
        cmp -s "$a/$f" "$b/$f" || { echo "differs: $f"; bad=$((bad + 1)); }
    done <"${TMPDIR:-/tmp}/snap-a.$$"
    only=$(LC_ALL=C comm -3 "${TMPDIR:-/tmp}/snap-a.$$" "${TMPDIR:-/tmp}/snap-b.$$")
    rm -f "${TMPDIR:-/tmp}/snap-a.$$" "${TMPDIR:-/tmp}/snap-b.$$"
    if [ -n "$only" ]; then
        echo "in one snapshot only:"
        echo "$only"
        bad=$((bad + $(echo "$only" | wc -l)))
    fi
    echo "snapshot: $n files compared, $bad differences"
    [ $bad -eq 0 ]
    exit
fi

[ $# -eq 2 ] || { echo "usage: $0 TRACEFIG DIR | --compare A B" >&2; exit 2; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -e "$2" ] && { echo "$0: $2 exists" >&2; exit 2; }
mkdir -p "$2" || exit 3
dst=$(cd "$2" && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-snapshot.XXXXXX")
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
w=$tmp/w

formats="json svg tikz"
"$bin" --version | grep -q ' pdf ' && formats="$formats pdf png"
ext() { case $1 in tikz) echo tex ;; *) echo "$1" ;; esac; }

fresh() { # [SRC]: an empty work folder $w, or a copy of SRC
    chmod -R u+rwx "$w" 2>/dev/null
    rm -rf "$w"
    mkdir -p "$w"
    [ -n "${1:-}" ] && cp -R "$1"/. "$w"/
    return 0
}

log() { # NAME RC: the run's stderr, stdout and status as NAME.log
    { cat "$tmp/stderr"; echo "--- stdout"; cat "$tmp/stdout"; echo "--- exit $2"; } >"$dst/$1.log"
}

# fig NAME FORMAT ARGS...: tracefig ARGS --format FORMAT -o out.EXT in $w.
# Environment for the run in $envs, standard input from $stdin.
envs=
stdin=/dev/null
fig() {
    _name=$1/$(ext "$2")
    _fmt=$2
    _e=$(ext "$2")
    shift 2
    mkdir -p "$(dirname "$dst/$_name")"
    rm -f "$w/out.$_e"
    # shellcheck disable=SC2086
    (cd "$w" && env $envs "$bin" "$@" --format "$_fmt" -o "out.$_e") <"$stdin" >"$tmp/stdout" \
        2>"$tmp/stderr"
    _rc=$?
    [ -f "$w/out.$_e" ] && mv "$w/out.$_e" "$dst/$_name"
    log "$_name" $_rc
}

figs() { # NAME ARGS...: fig in every format
    _n=$1
    shift
    for _f in $formats; do fig "$_n" "$_f" "$@"; done
}

# raw NAME ARGS...: tracefig ARGS in $w as given (no -o added), and the
# folder's files afterwards (name and checksum) in NAME.files.
raw() {
    _name=$1
    shift
    mkdir -p "$(dirname "$dst/$_name")"
    # shellcheck disable=SC2086
    (cd "$w" && env $envs "$bin" "$@") <"$stdin" >"$tmp/stdout" 2>"$tmp/stderr"
    log "$_name" $?
    files "$_name"
}

files() { # NAME: the files in $w (checksum, size, name) as NAME.files
    (cd "$w" && find . -type f | LC_ALL=C sort | while IFS= read -r _p; do
        printf '%s %s\n' "$(cksum <"$_p")" "$_p"; done) >"$dst/$1.files"
}

first_step() { # FILE: the lowest-numbered ProfilerStep#N it names, if any
    gzip -cdf "$1" | grep -o '"ProfilerStep#[0-9]*"' | tr -d '"' | sort -u | sort -t '#' -k 2 -n |
        head -n 1
}

# --- golden ----------------------------------------------------------------
for d in "$root"/tests/golden/*/; do
    c=$(basename "$d")
    trace=trace.json
    [ -f "$d/trace.json.gz" ] && trace=trace.json.gz
    [ -f "$d/$trace" ] || continue
    fresh "$d"
    set -- --trace "$trace"
    [ -f "$d/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    extra=""
    [ -f "$d/args" ] && extra=$(sed 's/#.*//' "$d/args" | tr '\n' ' ')
    # shellcheck disable=SC2086
    figs "golden/$c" "$@" $extra
    # shellcheck disable=SC2086
    envs=TRACEFIG_LOAD=stream fig "golden/$c.stream" json "$@" $extra
    envs=
    # shellcheck disable=SC2086
    raw "stats/golden-$c.text" "$@" $extra --stats
    # shellcheck disable=SC2086
    raw "stats/golden-$c.csv" "$@" $extra --stats=csv
done

# --- chrome ----------------------------------------------------------------
for d in "$root"/tests/chrome/cases/*/; do
    c=$(basename "$d")
    fresh "$d"
    [ -f "$w/setup" ] && (cd "$w" && sh ./setup) >/dev/null 2>&1
    # shellcheck disable=SC2012
    input=$(cd "$w" && ls trace* 2>/dev/null | head -n 1)
    [ -n "$input" ] || continue
    set --
    if [ -f "$d/args" ]; then
        while IFS= read -r a || [ -n "$a" ]; do
            case $a in '' | '#'*) continue ;; esac
            set -- "$@" "$a"
        done <"$d/args"
    fi
    if [ -f "$d/stdin" ]; then
        stdin=$w/$input
        set -- - "$@"
    else
        set -- "$input" "$@"
    fi
    figs "chrome/$c" "$@"
    envs=TRACEFIG_LOAD=stream fig "chrome/$c.stream" json "$@"
    envs=
    stdin=/dev/null
done

# --- bad input ---------------------------------------------------------------
san=
grep -q __asan_init "$bin" 2>/dev/null && san=1
for d in "$root"/tests/bad/*/; do
    c=$(basename "$d")
    [ -f "$d/expect" ] || continue
    for load in whole stream; do
        fresh "$d"
        [ -x "$d/setup" ] && (cd "$w" && ./setup) >/dev/null 2>&1
        printf 'precious\n' >"$w/out.json"
        printf 'precious\n' >"$w/out.svg"
        args=$(cat "$d/args" 2>/dev/null || true)
        limit=unlimited
        [ -f "$d/ulimit" ] && [ -z "$san" ] && limit=$(cat "$d/ulimit")
        envs=
        [ $load = stream ] && envs=TRACEFIG_LOAD=stream
        mkdir -p "$dst/bad"
        # shellcheck disable=SC2086,SC3045
        (cd "$w" && { [ "$limit" = unlimited ] || ulimit -v "$limit"; } &&
            exec env $envs "$bin" $args) </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
        log "bad/$c.$load" $?
        files "bad/$c.$load"
    done
done
envs=

# --- examples and statistics -----------------------------------------------------
fresh "$root/examples"
figs examples/v1 --trace overlap_timeline_v1.json
figs examples/v2 --trace overlap_timeline_v2.json --breakdown candidate_breakdown.json \
    --min-runtime-pct 1
figs examples/v2-annotated --trace overlap_timeline_v2.json --annotate
figs examples/pytorch --trace pytorch_chrome_trace.json
figs examples/kineto --trace kineto_trace.json --window-event 'ProfilerStep#4' \
    --lanes '*(python3)=Main thread,*pt_autograd_0*=Autograd thread,GPU*'
for s in text csv; do
    raw "stats/v1.$s" overlap_timeline_v1.json --stats=$s
    raw "stats/v2-breakdown.$s" overlap_timeline_v2.json --breakdown candidate_breakdown.json \
        --stats=$s
    raw "stats/v2-groups.$s" overlap_timeline_v2.json --group 'streams=GPU Stream*' \
        --group 'threads=*Thread,nothing' --group 'none=zzz*' --stats=$s
    raw "stats/pytorch.$s" pytorch_chrome_trace.json --stats=$s
    raw "stats/kineto.$s" kineto_trace.json --stats=$s
done

# --- generated Kineto traces ----------------------------------------------------
gen=$root/tests/tools/gentrace.py
fresh
if "$py" "$gen" kineto --steps 3 --layers 4 --seed 1 --out "$w/k1.json" &&
    "$py" "$gen" kineto --steps 4 --devices 2 --seed 3 --out "$w/k2.json"; then
    for k in k1 k2; do
        figs "gen/$k" "$k.json"
        figs "gen/$k.step" "$k.json" --window-event "$(first_step "$w/$k.json")" --flows
        raw "gen/$k.stats" "$k.json" --stats --group 'gpu=GPU*'
        raw "gen/$k.trace-stats" "$k.json" --stats-scope trace --stats=csv
    done
    rm -f "$w"/k?.json
else
    echo "snapshot: gentrace.py failed: gen/ left out" >&2
fi

# --- the fuzz_chrome corpus ---------------------------------------------------------
for f in "$root"/tests/fuzz/corpus/chrome/*; do
    [ -f "$f" ] || continue
    fresh
    tail -c +2 "$f" >"$w/trace.json"
    c=$(basename "$f")
    fig "fuzz/$c" json --mode chrome trace.json
    fig "fuzz/$c.opts" json --mode chrome trace.json --flows --async --all-lanes --depth 2
done

# --- real traces ---------------------------------------------------------------------
real=$root/../shared/real-traces
if [ ! -d "$real" ]; then
    echo "snapshot: no ../shared/real-traces: real/ left out"
else
    real=$(cd "$real" && pwd)
    for f in "$real"/*.json "$real"/*.json.gz; do
        [ -f "$f" ] || continue
        t=$(basename "$f")
        fresh
        ln -s "$f" "$w/$t"
        figs "real/$t" "$t"
        step=$(first_step "$f")
        [ -n "$step" ] && figs "real/$t.step" "$t" --window-event "$step"
        fig "real/$t.all" json "$t" --flows --async --all-lanes
        fig "real/$t.all" svg "$t" --flows --async --all-lanes
        raw "real/$t.stats" "$t" --stats
        raw "real/$t.trace-stats" "$t" --stats-scope trace --stats=csv
    done
    fresh
    for f in hta-dist-rank0.json.gz clang-ftime-trace.json chrome-flow.json; do
        [ -f "$real/$f" ] && ln -s "$real/$f" "$w/$f"
    done
    # The README's pictures (examples/real.sh).
    [ -f "$w/hta-dist-rank0.json.gz" ] && figs real/readme-pytorch-distributed \
        --trace hta-dist-rank0.json.gz --window-event 'ProfilerStep#551' --annotate \
        --lanes '*thread 4037*=Main thread,*thread 23695*=Backward thread,GPU*'
    [ -f "$w/clang-ftime-trace.json" ] && figs real/readme-clang --trace clang-ftime-trace.json
    [ -f "$w/chrome-flow.json" ] && figs real/readme-chrome-flows --trace chrome-flow.json \
        --from 3.55s --to 3.8s --flows
fi
echo "snapshot: $(find "$dst" -type f | wc -l) files in $dst"
