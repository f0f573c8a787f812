#!/bin/sh
# Decompression and scanner study for large gzip'd traces: how fast can a
# 1 GB Chrome trace be inflated and scanned on this machine?
#
#   bench-inflate.sh [BUILD_DIR] [TRACE.json]
#
# TRACE.json (default /tmp/big/big1g.json: a ~1 GB Kineto-style trace,
# never committed) is gzip'd at levels 6 and 1 into $TMPDIR/tracefig-bench
# (kept for the next run).  Small C drivers, compiled here against the
# objects of BUILD_DIR (default build; run make first), then measure:
#
#   scan      the scanner alone on the plain file, strict and lenient, with
#             10 members located per traceEvents element
#   zlib      streaming inflate (zlib, 128 KB in, 256 KB out), constant memory
#   isal      streaming inflate with ISA-L's igzip (isal_inflate), when
#             libisal-dev is installed
#   deflate   libdeflate, when libdeflate-dev is installed: whole buffer
#             only (it cannot stream, so it holds the whole input and the
#             whole output: about 1.1 GB here)
#   gz-scan   the lenient scanner on the gzip'd file through tf_input
#             (inflate and scan on one thread)
#   gz-pipe   a second thread inflates with zlib into a pipe (a 1 MB ring)
#             while the main thread scans it (the two cores overlapped)
#   gz-ring   the same with tf_input's own reader thread (opts.thread: a
#             ring of 4 x 1 MB chunks, no system calls between the threads)
#   ring      the plain file through that reader thread
#
# Each line gives the wall time, the CPU time and the throughput in MB/s
# of decompressed (JSON) bytes.  The best of REPEAT runs (default 3) is
# kept.  The numbers depend on the machine and on what else runs on it.
set -eu
build=${1:-build}
trace=${2:-/tmp/big/big1g.json}
repeat=${REPEAT:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=${TMPDIR:-/tmp}/tracefig-bench
mkdir -p "$tmp"
cc=${CC:-cc}
[ -f "$trace" ] || { echo "bench-inflate: no $trace" >&2; exit 1; }
[ -f "$root/$build/obj/load/scan.o" ] || { echo "bench-inflate: run make first" >&2; exit 1; }

for level in 6 1; do
    gz="$tmp/trace-$level.json.gz"
    if [ ! -f "$gz" ] || [ "$gz" -ot "$trace" ]; then
        echo "gzip -$level $trace ..."
        gzip -"$level" -c "$trace" >"$gz"
    fi
done

cat >"$tmp/common.h" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static double cpu(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec * 1e-6 +
           (double)r.ru_stime.tv_sec + (double)r.ru_stime.tv_usec * 1e-6;
}
static double thread_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
/* Wall and CPU time (all threads; in brackets the calling thread's) and
 * MB/s of wall time. */
static void report(const char *what, double t0, double c0, unsigned long long bytes)
{
    double t = now() - t0, c = cpu() - c0;
    printf("%-28s %7.3f s wall %7.3f s cpu [%6.3f] %7.0f MB/s  (%llu bytes)\n", what, t, c,
           thread_cpu(), (double)bytes / t / 1e6, bytes);
}
EOF

cat >"$tmp/zlib.c" <<'EOF'
#include "common.h"
#include <zlib.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    static unsigned char in[1 << 17], out[1 << 18];
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!f || inflateInit2(&z, 15 + 16) != Z_OK)
        return 1;
    double t0 = now(), c0 = cpu();
    unsigned long long total = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (z.avail_in == 0) {
            z.avail_in = (uInt)fread(in, 1, sizeof in, f);
            z.next_in = in;
            if (z.avail_in == 0)
                break;
        }
        z.next_out = out;
        z.avail_out = sizeof out;
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END)
            return 2;
        total += sizeof out - z.avail_out;
    }
    report(argc > 2 ? argv[2] : "zlib", t0, c0, total);
    return 0;
}
EOF

cat >"$tmp/isal.c" <<'EOF'
#include "common.h"
#include <isa-l/igzip_lib.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    static unsigned char in[1 << 17], out[1 << 18];
    static struct inflate_state st;
    if (!f)
        return 1;
    isal_inflate_init(&st);
    st.crc_flag = ISAL_GZIP; /* parses the header, checks the CRC */
    double t0 = now(), c0 = cpu();
    unsigned long long total = 0;
    while (st.block_state != ISAL_BLOCK_FINISH) {
        if (st.avail_in == 0) {
            st.avail_in = (uint32_t)fread(in, 1, sizeof in, f);
            st.next_in = in;
            if (st.avail_in == 0)
                break;
        }
        st.next_out = out;
        st.avail_out = sizeof out;
        if (isal_inflate(&st) != ISAL_DECOMP_OK)
            return 2;
        total += sizeof out - st.avail_out;
    }
    report(argc > 2 ? argv[2] : "isal", t0, c0, total);
    return 0;
}
EOF

cat >"$tmp/deflate.c" <<'EOF'
#include "common.h"
#include <libdeflate.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 1;
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    rewind(f);
    unsigned char *in = malloc(n);
    if (!in || fread(in, 1, n, f) != n)
        return 1;
    /* The size modulo 2^32 is in the trailer; a 1 GB file fits. */
    size_t out_n = (size_t)in[n - 4] | (size_t)in[n - 3] << 8 | (size_t)in[n - 2] << 16 |
                   (size_t)in[n - 1] << 24;
    unsigned char *out = malloc(out_n);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    double t0 = now(), c0 = cpu();
    size_t got = 0;
    if (!out || !d || libdeflate_gzip_decompress(d, in, n, out, out_n, &got) != 0)
        return 2;
    report(argc > 2 ? argv[2] : "libdeflate (whole buffer)", t0, c0, got);
    return 0;
}
EOF

cat >"$tmp/scan.c" <<'EOF'
/* The scanner on a trace: strict or lenient, plain or gzip'd (tf_input),
 * with tf_input's reader thread (ring), or (thread) a zlib thread
 * inflating into a pipe that the scanner reads. */
#define _GNU_SOURCE
#include "common.h"
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <zlib.h>
#include "load/scan.h"

static const char *gz_path;
static int pipe_w;

static void *inflate_thread(void *arg)
{
    (void)arg;
    FILE *f = fopen(gz_path, "rb");
    static unsigned char in[1 << 17], out[1 << 18];
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!f || inflateInit2(&z, 15 + 16) != Z_OK)
        exit(1);
    for (int rc = Z_OK; rc != Z_STREAM_END;) {
        if (z.avail_in == 0) {
            z.avail_in = (uInt)fread(in, 1, sizeof in, f);
            z.next_in = in;
            if (z.avail_in == 0)
                break;
        }
        z.next_out = out;
        z.avail_out = sizeof out;
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END)
            exit(2);
        for (size_t off = 0, n = sizeof out - z.avail_out; off < n;) {
            ssize_t w = write(pipe_w, out + off, n - off);
            if (w <= 0)
                exit(3);
            off += (size_t)w;
        }
    }
    inflateEnd(&z);
    fclose(f);
    close(pipe_w);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argv[2], *label = argv[3];
    unsigned flags = strstr(mode, "lenient") ? TF_SCAN_LENIENT : TF_SCAN_STRICT;
    struct tf_diag d;
    tf_diag_init(&d);
    double t0 = now(), c0 = cpu();
    struct tf_input *in;
    pthread_t th;
    bool threaded = strstr(mode, "thread") != NULL;
    if (threaded) {
        int fds[2];
        if (pipe(fds) != 0)
            return 1;
        fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
        gz_path = argv[1];
        pipe_w = fds[1];
        pthread_create(&th, NULL, inflate_thread, NULL);
        in = tf_input_fdopen(fds[0], "pipe", NULL, &d);
    } else {
        struct tf_input_opts o = {.thread = strstr(mode, "ring") != NULL};
        in = tf_input_open(argv[1], &o, &d);
    }
    struct tf_scan s;
    if (!in || !tf_scan_init(&s, in, argv[1], 0, flags, &d))
        return 1;
    static const char *names[] = {"ph", "name", "cat", "ts", "dur", "pid", "tid", "id", "args", "s"};
    struct tf_scan_field f[10];
    for (int i = 0; i < 10; i++)
        f[i].name = names[i];
    enum tf_jtok k;
    bool ok = tf_scan_begin(&s, &k);
    size_t n_el = 0;
    for (bool more = ok; ok && more;) {
        char key[32];
        size_t kl;
        ok = tf_scan_key(&s, key, sizeof key, &kl, &more);
        if (!ok || !more)
            break;
        if (strcmp(key, "traceEvents") != 0) {
            ok = tf_scan_skip(&s);
            continue;
        }
        ok = tf_scan_enter(&s);
        for (bool m2 = true; ok;) {
            const unsigned char *data;
            size_t len;
            ok = tf_scan_next(&s, &m2);
            if (!ok || !m2)
                break;
            ok = tf_scan_value(&s, &data, &len, f, 10);
            n_el++;
        }
    }
    ok = ok && tf_scan_finish(&s);
    if (!ok) {
        fprintf(stderr, "%s\n", d.msg);
        return 2;
    }
    unsigned long long bytes = tf_input_offset(in);
    if (threaded)
        pthread_join(th, NULL);
    report(label, t0, c0, bytes);
    tf_scan_fini(&s);
    tf_input_close(in);
    return 0;
}
EOF

cflags="-O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I$tmp"
objs="$root/$build/obj/load/scan.o $root/$build/obj/load/input.o $root/$build/obj/base/*.o"
$cc $cflags -o "$tmp/zlib" "$tmp/zlib.c" -lz
# shellcheck disable=SC2086
$cc $cflags -I"$root/src" -o "$tmp/scan" "$tmp/scan.c" $objs -lz -lm -lpthread
have_isal=0
have_deflate=0
$cc $cflags -o "$tmp/isal" "$tmp/isal.c" -lisal 2>/dev/null && have_isal=1
$cc $cflags -o "$tmp/deflate" "$tmp/deflate.c" -ldeflate 2>/dev/null && have_deflate=1

best() { # best LABEL CMD...: the fastest of $repeat runs
    label=$1
    shift
    for _ in $(seq "$repeat"); do "$@"; done | sort -k2 -n | head -n 1
}

cat "$trace" >/dev/null # into the page cache
echo "== $(nproc) cores; $(basename "$trace"): $(wc -c <"$trace") bytes"
best scan "$tmp/scan" "$trace" strict "scan strict"
best scan "$tmp/scan" "$trace" lenient "scan lenient"
best scan "$tmp/scan" "$trace" lenient-ring "scan lenient, ring"
for level in 6 1; do
    gz="$tmp/trace-$level.json.gz"
    cat "$gz" >/dev/null
    echo "== gzip -$level: $(wc -c <"$gz") bytes"
    best zlib "$tmp/zlib" "$gz" "zlib inflate"
    if [ $have_isal = 1 ]; then
        best isal "$tmp/isal" "$gz" "isa-l inflate"
    else
        echo "isa-l: SKIP (apt-get install libisal-dev)"
    fi
    if [ $have_deflate = 1 ]; then
        best deflate "$tmp/deflate" "$gz" "libdeflate (whole buffer)"
    else
        echo "libdeflate: SKIP (apt-get install libdeflate-dev)"
    fi
    best gz "$tmp/scan" "$gz" lenient "gz-scan lenient (1 thread)"
    best gz "$tmp/scan" "$gz" lenient-thread "gz-pipe lenient (2 thr.)"
    best gz "$tmp/scan" "$gz" lenient-ring "gz-ring lenient (2 thr.)"
done
