# measure.sh - wall time and peak memory of a command, for the bench
# scripts (sourced: . tests/tools/measure.sh); $runs (default 3) runs
# per measure.

# measure1 LOG CMD...: runs CMD under /usr/bin/time -v; sets $wall (s),
# $rss (MB) and $rc.
measure1() {
    log=$1
    shift
    /usr/bin/time -v "$@" >/dev/null 2>"$log"
    rc=$?
    wall=$(sed -n 's/.*Elapsed (wall clock) time[^:]*: *//p' "$log" |
        awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }')
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$log" |
        awk '{ printf "%.1f", $1 / 1024 }')
}

# smaller A B: the smaller of two times, or B when A is empty.
smaller() {
    awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'
}

# measure LOG CMD...: measure1 ${runs:-3} times: the best wall time, the
# largest RSS (stops at the first failure, $rc set).
measure() {
    _best=""
    _top=0
    _k=0
    while [ $_k -lt "${runs:-3}" ]; do
        measure1 "$@"
        [ $rc -eq 0 ] || return
        _best=$(smaller "$_best" "$wall")
        _top=$(awk -v a="$_top" -v b="$rss" 'BEGIN { print (b > a) ? b : a }')
        _k=$((_k + 1))
    done
    wall=$_best
    rss=$_top
}
