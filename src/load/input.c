/* input.c - see input.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Two layers.  The raw source hands out the bytes of the file at a given
 * raw offset: a regular file with pread (so several readers never disturb
 * each other), a pipe in order only (the first bytes, read to detect gzip,
 * are kept in `head`), or a spooled pipe (bytes already taken from the pipe
 * are read back from the spool file, new ones are appended to it).  Above
 * it, plain data is the raw bytes; gzip'd data goes through a decoder
 * (struct dec: a z_stream, the raw offset it has been fed up to, the
 * decompressed offset it has produced up to).
 *
 * The input's own decoder saves checkpoints as it passes the frontier
 * (the furthest offset decoded so far); seeking restores the nearest one at
 * or before the target with inflateCopy and decodes forward, dropping the
 * bytes.  A checkpoint's z_stream is heap-allocated on its own, because
 * zlib's state points back at its z_stream and must not move.  A reread
 * (for error positions) uses a temporary decoder of its own, so the read
 * position is untouched.
 *
 * Errors of the decoder are recorded in the decoder (kind, offsets, zlib's
 * message) and reported by the input's own reads only, so rereads stay
 * quiet.
 *
 * Two inflaters.  With ISA-L (TF_HAVE_ISAL: libisal, Intel's igzip; about
 * five times zlib's speed) a decoder inflates with isal_inflate while the
 * data is well formed; zlib is the reference for everything else.  The
 * first time ISA-L stops short of a member's end (an error of any kind, or
 * the raw data ends), the decoder starts zlib at the start of that member,
 * inflates forward to the bytes already handed out, dropping them, and goes
 * on with zlib from there.  So a cut-off or corrupt stream gives exactly
 * zlib's bytes, offsets and messages, at the cost of inflating that member
 * again.  That needs the raw bytes again: an input that cannot seek (an
 * unspooled pipe) is inflated with zlib from the start, as is every input
 * when TRACEFIG_INFLATE=zlib.  An ISA-L checkpoint is a copy of its
 * struct inflate_state (about 87 KB: it holds its 32 KB of history itself
 * and points at nothing of its own).
 */
#include "load/input.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#ifdef TF_HAVE_ISAL
#include <isa-l/igzip_lib.h>

#include "base/buf.h"
#include "base/dl.h"

/* ISA-L is dlopen()ed at the first gzip'd trace (base/dl.h), so that other
 * runs do not load and relocate it; without the library at run time,
 * zlib inflates. */
#define TF_ISAL_FUNCS(X)                                                                        \
    X(0, void, isal_inflate_init, (struct inflate_state *))                                     \
    X(0, void, isal_inflate_reset, (struct inflate_state *))                                    \
    X(0, int, isal_inflate, (struct inflate_state *))
TF_ISAL_FUNCS(TF_DL_TYPEDEF)
TF_ISAL_FUNCS(TF_DL_CHECK)
static struct isal_api {
    TF_ISAL_FUNCS(TF_DL_MEMBER)
} isal;
static pthread_once_t isal_once = PTHREAD_ONCE_INIT;
static bool isal_loaded;

#define TF_DL_API struct isal_api
static const struct tf_dl_sym isal_syms[] = {TF_ISAL_FUNCS(TF_DL_SYM)};
#undef TF_DL_API
static const struct tf_dl_lib isal_lib = {"libisal.so.2", "libisal2"};

static void isal_load_once(void)
{
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    isal_loaded = tf_dl_load("Inflating with ISA-L", &isal_lib, 1, isal_syms,
                             sizeof isal_syms / sizeof isal_syms[0], &isal, sizeof isal, &d);
}

/* Whether ISA-L is there to inflate with (loaded at the first call). */
static bool isal_ready(void)
{
    pthread_once(&isal_once, isal_load_once);
    return isal_loaded;
}
#endif

enum { RAW_CHUNK = 1 << 17, SKIP_CHUNK = 1 << 16, MAX_READ = 1 << 30 };

/* The reader thread's ring: N_SLOTS chunks of SLOT_BYTES. */
enum { N_SLOTS = 4, SLOT_BYTES = 1 << 20 };
/* A seek this far forward (or less) reads on through the ring: the
 * producer keeps going.  Further, the producer stops and the seek may use
 * a checkpoint. */
#define RING_SKIP ((uint64_t)64 << 20)

struct slot {
    unsigned char *buf;
    size_t len, used;
    bool err, eof; /* the producer stopped here: an error (in dec), the end */
};

enum src_kind { SRC_FILE, SRC_PIPE, SRC_SPOOL, SRC_MEMORY };

enum dec_err { DEC_OK, DEC_IO, DEC_SPOOL, DEC_TRUNCATED, DEC_CORRUPT, DEC_NOMEM };

/* A decoding position of gzip'd data. */
struct dec {
    z_stream z;
    bool live;       /* z is initialised */
#ifdef TF_HAVE_ISAL
    struct inflate_state *st; /* non-NULL: ISA-L inflates (else zlib) */
    uint64_t member_raw, member_out; /* where the current member began */
#endif
    bool member_end; /* the last inflate ended a gzip member */
    bool raw_eof;
    uint64_t raw;    /* raw offset after the bytes given to zlib */
    uint64_t out;    /* decompressed offset of the next byte */
    unsigned char *ibuf; /* RAW_CHUNK bytes of raw input */
    enum dec_err err;
    int err_no;          /* DEC_IO, DEC_SPOOL */
    uint64_t err_at;     /* DEC_CORRUPT: the compressed byte */
    char err_msg[80];    /* DEC_CORRUPT: zlib's text */
};

struct checkpoint {
    z_stream *z; /* its own allocation: zlib's state points at it */
#ifdef TF_HAVE_ISAL
    struct inflate_state *st; /* or ISA-L's state (z NULL) */
    uint64_t member_raw, member_out;
#endif
    uint64_t raw, out;
};

struct tf_input {
    const char *file; /* for messages */
    struct tf_diag *d;
    int fd;
    bool own_fd;
    enum src_kind kind;
    uint64_t start;          /* SRC_FILE: the offset of the data in fd */
    unsigned char head[2];   /* SRC_PIPE: the first bytes, read to detect gzip */
    size_t n_head;
    uint64_t pipe_off;       /* SRC_PIPE, SRC_SPOOL: raw bytes taken from the pipe */
    const unsigned char *mem; /* SRC_MEMORY: the bytes (the caller's), mem_len of them */
    size_t mem_len;
    int spool_fd;
    bool gzip;
    bool isal;               /* decoders may use ISA-L (see the notes) */
    bool failed;
    uint64_t pos;            /* plain data: the next offset */
    struct dec dec;          /* gzip'd data: the read position */
    struct checkpoint *cps;  /* by increasing out */
    size_t n_cps, max_cps;
    uint64_t cp_every, cp_next;
    unsigned char *scratch;  /* SKIP_CHUNK bytes, for seeking forward */
    /* opts->thread: a producer thread runs produce() into the ring, the
     * reader takes chunks from it.  The thread alone touches the decoder,
     * pos, the checkpoints and the raw source while it runs; everything
     * else stops it first (stop_thread). */
    bool threaded, running, prod_done;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    struct slot slots[N_SLOTS];
    size_t tail, count; /* published slots: tail .. tail + count - 1 */
    uint64_t cons;      /* the reader's offset */
};

static void stop_thread(struct tf_input *in);

/* --- the raw source ------------------------------------------------------- */

static bool write_all(int fd, const unsigned char *p, size_t n, uint64_t off)
{
    while (n > 0) {
        ssize_t w = pwrite(fd, p, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
        off += (uint64_t)w;
    }
    return true;
}

/* Up to n raw bytes at raw offset `off`: the count, 0 at the end, -1 on an
 * error (errno set; *spool_err when writing the spool failed). */
static ssize_t raw_read_at(struct tf_input *in, uint64_t off, unsigned char *buf, size_t n,
                           bool *spool_err)
{
    *spool_err = false;
    for (;;) {
        ssize_t r;
        if (in->kind == SRC_MEMORY) {
            size_t left = off >= in->mem_len ? 0 : in->mem_len - (size_t)off;
            size_t k = left < n ? left : n;
            if (k)
                memcpy(buf, in->mem + off, k);
            return (ssize_t)k;
        } else if (in->kind == SRC_FILE) {
            r = pread(in->fd, buf, n, (off_t)(in->start + off));
        } else if (in->kind == SRC_PIPE && off < in->n_head) {
            size_t k = in->n_head - (size_t)off < n ? in->n_head - (size_t)off : n;
            memcpy(buf, in->head + off, k);
            return (ssize_t)k;
        } else if (in->kind == SRC_SPOOL && off < in->pipe_off) {
            uint64_t left = in->pipe_off - off;
            r = pread(in->spool_fd, buf, left < n ? (size_t)left : n, (off_t)off);
        } else if (off != in->pipe_off) {
            errno = ESPIPE; /* a pipe read out of order */
            return -1;
        } else {
            r = read(in->fd, buf, n);
            if (r > 0 && in->kind == SRC_SPOOL && !write_all(in->spool_fd, buf, (size_t)r, off)) {
                if (errno == 0)
                    errno = ENOSPC;
                *spool_err = true;
                return -1;
            }
            if (r > 0)
                in->pipe_off += (uint64_t)r;
        }
        if (r < 0 && errno == EINTR)
            continue;
        return r;
    }
}

/* --- the gzip decoder ----------------------------------------------------- */

/* The raw bytes given to the inflater and not yet consumed. */
static uint32_t dec_avail_in(const struct dec *dc)
{
#ifdef TF_HAVE_ISAL
    if (dc->st)
        return dc->st->avail_in;
#endif
    return dc->z.avail_in;
}

/* Frees what dc's inflater holds (not dc->ibuf). */
static void dec_end(struct dec *dc)
{
    if (dc->live)
        inflateEnd(&dc->z);
    dc->live = false;
#ifdef TF_HAVE_ISAL
    free(dc->st);
    dc->st = NULL;
#endif
}

/* Starts zlib on dc: from a checkpoint's state, or at a member's start. */
static bool zlib_start(struct dec *dc, z_stream *from)
{
    memset(&dc->z, 0, sizeof dc->z);
    int rc = from ? inflateCopy(&dc->z, from) : inflateInit2(&dc->z, 15 + 16);
    if (rc != Z_OK) {
        dc->err = DEC_NOMEM;
        return false;
    }
    dc->live = true;
    dc->z.next_in = dc->ibuf;
    dc->z.avail_in = 0;
    return true;
}

/* Starts dc at a checkpoint, or at the beginning (cp NULL). */
static bool dec_start(const struct tf_input *in, struct dec *dc, const struct checkpoint *cp)
{
    dec_end(dc);
    dc->raw = cp ? cp->raw : 0;
    dc->out = cp ? cp->out : 0;
    dc->member_end = dc->raw_eof = false;
    dc->err = DEC_OK;
#ifdef TF_HAVE_ISAL
    dc->member_raw = cp ? cp->member_raw : 0;
    dc->member_out = cp ? cp->member_out : 0;
    if (cp ? cp->st != NULL : in->isal) {
        dc->st = malloc(sizeof *dc->st);
        if (!dc->st) {
            dc->err = DEC_NOMEM;
            return false;
        }
        if (cp) {
            *dc->st = *cp->st;
        } else {
            isal.isal_inflate_init(dc->st);
            dc->st->crc_flag = ISAL_GZIP;
        }
        dc->st->next_in = dc->ibuf;
        dc->st->avail_in = 0;
        return true;
    }
#else
    (void)in;
#endif
    return zlib_start(dc, cp ? cp->z : NULL);
}

static bool dec_fill(struct tf_input *in, struct dec *dc)
{
    bool spool_err;
    ssize_t r = raw_read_at(in, dc->raw, dc->ibuf, RAW_CHUNK, &spool_err);
    if (r < 0) {
        dc->err = spool_err ? DEC_SPOOL : DEC_IO;
        dc->err_no = errno;
        return false;
    }
#ifdef TF_HAVE_ISAL
    if (dc->st) {
        dc->st->next_in = dc->ibuf;
        dc->st->avail_in = (uint32_t)r;
    }
#endif
    dc->z.next_in = dc->ibuf;
    dc->z.avail_in = (uInt)r;
    dc->raw += (uint64_t)r;
    dc->raw_eof = r == 0;
    return true;
}

static ssize_t dec_read(struct tf_input *in, struct dec *dc, unsigned char *buf, size_t n);

#ifdef TF_HAVE_ISAL
/* dec_read with ISA-L: as dec_read, or -2 when ISA-L stops short of a
 * member's end (an error, or the end of the raw data) and zlib must go on
 * (the bytes of this call are not handed out). */
static ssize_t isal_read(struct tf_input *in, struct dec *dc, unsigned char *buf, size_t n)
{
    struct inflate_state *st = dc->st;
    st->next_out = buf;
    st->avail_out = (uint32_t)n;
    while (st->avail_out == n) {
        if (st->avail_in == 0 && !dc->raw_eof && !dec_fill(in, dc))
            return -1;
        if (dc->member_end) {
            if (st->avail_in == 0)
                return 0;
            isal.isal_inflate_reset(st);
            st->crc_flag = ISAL_GZIP;
            dc->member_end = false;
            dc->member_raw = dc->raw - st->avail_in;
            dc->member_out = dc->out;
        }
        uint32_t in_before = st->avail_in;
        int rc = isal.isal_inflate(st);
        if (rc != ISAL_DECOMP_OK)
            return -2;
        if (st->block_state == ISAL_BLOCK_FINISH)
            dc->member_end = true;
        else if (st->avail_out == n && st->avail_in == in_before &&
                 (st->avail_in > 0 || dc->raw_eof))
            return -2; /* no progress: cut off (or stuck) */
    }
    size_t got = n - st->avail_out;
    dc->out += got;
    return (ssize_t)got;
}

/* ISA-L stopped at decompressed offset dc->out: zlib inflates the member
 * again from its start, drops what was handed out, and goes on. */
static bool to_zlib(struct tf_input *in, struct dec *dc)
{
    uint64_t target = dc->out;
    free(dc->st);
    dc->st = NULL;
    if (!zlib_start(dc, NULL))
        return false;
    dc->raw = dc->member_raw;
    dc->out = dc->member_out;
    dc->raw_eof = dc->member_end = false;
    unsigned char *scratch = malloc(SKIP_CHUNK);
    if (!scratch) {
        dc->err = DEC_NOMEM;
        return false;
    }
    while (dc->out < target) {
        uint64_t left = target - dc->out;
        if (dec_read(in, dc, scratch, left < SKIP_CHUNK ? (size_t)left : SKIP_CHUNK) <= 0)
            break;
    }
    free(scratch);
    return dc->err == DEC_OK;
}
#endif

/* Up to n decompressed bytes: as tf_input_read, the error kept in dc. */
static ssize_t dec_read(struct tf_input *in, struct dec *dc, unsigned char *buf, size_t n)
{
    if (dc->err != DEC_OK)
        return -1;
#ifdef TF_HAVE_ISAL
    if (dc->st) {
        ssize_t r = isal_read(in, dc, buf, n);
        if (r != -2)
            return r;
        if (!to_zlib(in, dc))
            return -1;
    }
#endif
    dc->z.next_out = buf;
    dc->z.avail_out = (uInt)n;
    while (dc->z.avail_out == n) {
        if (dc->z.avail_in == 0 && !dc->raw_eof && !dec_fill(in, dc))
            return -1;
        if (dc->member_end) {
            /* Another member may follow (gzip -c a b). */
            if (dc->z.avail_in == 0)
                return 0;
            if (inflateReset(&dc->z) != Z_OK) {
                dc->err = DEC_NOMEM;
                return -1;
            }
            dc->member_end = false;
        }
        int rc = inflate(&dc->z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            dc->member_end = true;
        } else if (rc == Z_MEM_ERROR) {
            dc->err = DEC_NOMEM;
            return -1;
        } else if (rc == Z_BUF_ERROR && dc->z.avail_in == 0 && dc->raw_eof) {
            dc->err = DEC_TRUNCATED;
            break;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            dc->err = DEC_CORRUPT;
            dc->err_at = dc->raw - dc->z.avail_in;
            snprintf(dc->err_msg, sizeof dc->err_msg, "%s", dc->z.msg ? dc->z.msg : "error");
            break;
        }
    }
    size_t got = n - dc->z.avail_out;
    dc->out += got;
    /* Bytes decoded before an error are handed out first. */
    if (got == 0 && dc->err != DEC_OK)
        return -1;
    return (ssize_t)got;
}

static bool report(struct tf_input *in, const struct dec *dc)
{
    in->failed = true;
    switch (dc->err) {
    case DEC_IO:
        return tf_diag_error(in->d, TF_EBADINPUT, "%s: cannot read: %s", in->file,
                             strerror(dc->err_no));
    case DEC_SPOOL:
        return tf_diag_error(in->d, TF_EBADINPUT, "%s: cannot spool: %s", in->file,
                             strerror(dc->err_no));
    case DEC_TRUNCATED:
        return tf_diag_error(in->d, TF_EBADINPUT,
                             "%s: gzip: unexpected end of file after %llu bytes of JSON",
                             in->file, (unsigned long long)dc->out);
    case DEC_CORRUPT:
        return tf_diag_error(in->d, TF_EBADINPUT,
                             "%s: gzip: invalid compressed data (%s) at compressed byte %llu",
                             in->file, dc->err_msg, (unsigned long long)dc->err_at);
    case DEC_NOMEM:
    case DEC_OK:
        break;
    }
    return tf_diag_oom(in->d, in->file);
}

/* --- checkpoints ---------------------------------------------------------- */

static void cp_free(struct checkpoint *cp)
{
    if (cp->z)
        inflateEnd(cp->z);
    free(cp->z);
    cp->z = NULL;
#ifdef TF_HAVE_ISAL
    free(cp->st);
    cp->st = NULL;
#endif
}

/* After a read at the frontier: saves the decoder's state when the spacing
 * is reached.  Out of memory only means fewer checkpoints. */
static void maybe_checkpoint(struct tf_input *in)
{
    struct dec *dc = &in->dec;
    if (dc->out < in->cp_next || dc->member_end || dc->err != DEC_OK)
        return;
    struct checkpoint cp = {.raw = dc->raw - dec_avail_in(dc), .out = dc->out};
#ifdef TF_HAVE_ISAL
    cp.member_raw = dc->member_raw;
    cp.member_out = dc->member_out;
    if (dc->st) {
        if (!(cp.st = malloc(sizeof *cp.st)))
            return;
        *cp.st = *dc->st;
    }
    if (!dc->st) {
#else
    {
#endif
        if (!(cp.z = malloc(sizeof *cp.z)))
            return;
        memset(cp.z, 0, sizeof *cp.z);
        if (inflateCopy(cp.z, &dc->z) != Z_OK) {
            free(cp.z);
            return;
        }
    }
    if (in->n_cps == in->max_cps) {
        /* Keep every other one (the 2nd, 4th, ...: on the doubled spacing). */
        size_t j = 0;
        for (size_t i = 0; i < in->n_cps; i++) {
            if (i % 2 == 1)
                in->cps[j++] = in->cps[i];
            else
                cp_free(&in->cps[i]);
        }
        in->n_cps = j;
        in->cp_every *= 2;
    }
    in->cps[in->n_cps++] = cp;
    in->cp_next = dc->out + in->cp_every;
}

/* The last checkpoint at or before `off`, or NULL for the beginning. */
static const struct checkpoint *cp_before(const struct tf_input *in, uint64_t off)
{
    const struct checkpoint *best = NULL;
    for (size_t i = 0; i < in->n_cps && in->cps[i].out <= off; i++)
        best = &in->cps[i];
    return best;
}

/* --- opening -------------------------------------------------------------- */

/* An input over fd, or (mem set, fd -1) over the mem_len bytes at mem. */
static struct tf_input *input_new(int fd, bool own_fd, const void *mem, size_t mem_len,
                                  const char *path, const char *file,
                                  const struct tf_input_opts *opts, struct tf_diag *d)
{
    struct tf_input *in = calloc(1, sizeof *in);
    if (!in) {
        if (own_fd)
            close(fd);
        tf_diag_oom(d, file);
        return NULL;
    }
    in->file = file;
    in->d = d;
    in->fd = fd;
    in->own_fd = own_fd;
    in->spool_fd = -1;
    unsigned char magic[2];
    size_t n_magic = 0;
    bool spool_err = false;
    if (mem) {
        in->kind = SRC_MEMORY;
        in->mem = mem;
        in->mem_len = mem_len;
    } else {
        struct stat st;
        bool stat_ok = fstat(fd, &st) == 0;
        if (!stat_ok || S_ISDIR(st.st_mode)) {
            tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", path,
                          strerror(stat_ok ? EISDIR : errno));
            tf_input_close(in);
            return NULL;
        }
        off_t here = S_ISREG(st.st_mode) ? lseek(fd, 0, SEEK_CUR) : (off_t)-1;
        in->kind = here != (off_t)-1 ? SRC_FILE : SRC_PIPE;
        in->start = here != (off_t)-1 ? (uint64_t)here : 0;
    }
    if (in->kind == SRC_PIPE && opts && opts->spool) {
        const char *dir = getenv("TMPDIR");
        char tmpl[4096];
        snprintf(tmpl, sizeof tmpl, "%s/tracefig-spool-XXXXXX", dir && *dir ? dir : "/tmp");
        in->spool_fd = mkstemp(tmpl);
        if (in->spool_fd < 0) {
            tf_diag_error(d, TF_EBADINPUT, "%s: cannot spool: %s: %s", file, tmpl,
                          strerror(errno));
            tf_input_close(in);
            return NULL;
        }
        unlink(tmpl);
        in->kind = SRC_SPOOL;
    }
    while (n_magic < 2) {
        ssize_t r = raw_read_at(in, n_magic, magic + n_magic, 2 - n_magic, &spool_err);
        if (r < 0) {
            tf_diag_error(d, TF_EBADINPUT, "%s: %s: %s", file,
                          spool_err ? "cannot spool" : "cannot read", strerror(errno));
            tf_input_close(in);
            return NULL;
        }
        if (r == 0)
            break;
        if (in->kind == SRC_PIPE) {
            memcpy(in->head + in->n_head, magic + n_magic, (size_t)r);
            in->n_head += (size_t)r;
        }
        n_magic += (size_t)r;
    }
    in->gzip = n_magic == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
#ifdef TF_HAVE_ISAL
    const char *inflater = getenv("TRACEFIG_INFLATE");
    in->isal = in->gzip && tf_input_can_seek(in) && !(inflater && strcmp(inflater, "zlib") == 0) &&
               isal_ready();
#endif
    if (opts && opts->thread) {
        bool ok = pthread_mutex_init(&in->mu, NULL) == 0;
        if (ok && pthread_cond_init(&in->cv, NULL) != 0) {
            pthread_mutex_destroy(&in->mu);
            ok = false;
        }
        in->threaded = ok;
        for (size_t i = 0; ok && i < N_SLOTS; i++)
            ok = (in->slots[i].buf = malloc(SLOT_BYTES)) != NULL;
        if (!ok) {
            tf_diag_oom(d, file);
            tf_input_close(in);
            return NULL;
        }
    }
    if (in->gzip) {
        in->cp_every = opts && opts->checkpoint_every ? opts->checkpoint_every
                                                      : TF_INPUT_CHECKPOINT_EVERY;
        in->max_cps = opts && opts->max_checkpoints ? opts->max_checkpoints
                                                    : TF_INPUT_MAX_CHECKPOINTS;
        if (in->max_cps < 2)
            in->max_cps = 2;
        in->cp_next = in->cp_every;
        in->dec.ibuf = malloc(RAW_CHUNK);
        in->scratch = malloc(SKIP_CHUNK);
        in->cps = calloc(in->max_cps, sizeof *in->cps);
        if (!in->dec.ibuf || !in->scratch || !in->cps || !dec_start(in, &in->dec, NULL)) {
            tf_diag_oom(d, file);
            tf_input_close(in);
            return NULL;
        }
    }
    return in;
}

struct tf_input *tf_input_open(const char *path, const struct tf_input_opts *opts,
                               struct tf_diag *d)
{
    if (strcmp(path, "-") == 0)
        return input_new(STDIN_FILENO, false, NULL, 0, path, tf_diag_name(path), opts, d);
    const void *data;
    size_t len;
    if (tf_input_memory_find(path, &data, &len))
        return input_new(-1, false, data ? data : (const void *)"", len, path, tf_diag_name(path),
                         opts, d);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    return input_new(fd, true, NULL, 0, path, tf_diag_name(path), opts, d);
}

struct tf_input *tf_input_fdopen(int fd, const char *name, const struct tf_input_opts *opts,
                                 struct tf_diag *d)
{
    return input_new(fd, false, NULL, 0, name, name, opts, d);
}

struct tf_input *tf_input_memopen(const void *data, size_t len, const char *name,
                                  const struct tf_input_opts *opts, struct tf_diag *d)
{
    return input_new(-1, false, data ? data : (const void *)"", len, name, name, opts, d);
}

bool tf_input_bytes(const struct tf_input *in, const void **data, size_t *len)
{
    if (in->kind != SRC_MEMORY)
        return false;
    *data = in->mem;
    *len = in->mem_len;
    return true;
}

struct tf_diag *tf_input_set_diag(struct tf_input *in, struct tf_diag *d)
{
    struct tf_diag *old = in->d;
    in->d = d;
    return old;
}

void tf_input_close(struct tf_input *in)
{
    if (!in)
        return;
    stop_thread(in);
    if (in->threaded) {
        for (size_t i = 0; i < N_SLOTS; i++)
            free(in->slots[i].buf);
        pthread_mutex_destroy(&in->mu);
        pthread_cond_destroy(&in->cv);
    }
    dec_end(&in->dec);
    for (size_t i = 0; i < in->n_cps; i++)
        cp_free(&in->cps[i]);
    free(in->cps);
    free(in->dec.ibuf);
    free(in->scratch);
    if (in->spool_fd >= 0)
        close(in->spool_fd);
    if (in->own_fd)
        close(in->fd);
    free(in);
}

/* --- reading -------------------------------------------------------------- */

/* Up to n bytes at the producing position (plain or gzip'd), saving
 * checkpoints as it goes; on an error -1, the error kept in in->dec and
 * not reported. */
static ssize_t produce(struct tf_input *in, unsigned char *buf, size_t n)
{
    if (in->gzip) {
        ssize_t r = dec_read(in, &in->dec, buf, n);
        if (r > 0 && in->dec.out >= in->cp_next && tf_input_can_seek(in))
            maybe_checkpoint(in);
        return r;
    }
    if (in->dec.err != DEC_OK)
        return -1;
    bool spool_err;
    ssize_t r = raw_read_at(in, in->pos, buf, n, &spool_err);
    if (r < 0) {
        in->dec.err = spool_err ? DEC_SPOOL : DEC_IO;
        in->dec.err_no = errno;
        return -1;
    }
    in->pos += (uint64_t)r;
    return r;
}

/* The producer position: where produce() reads next. */
static uint64_t produced(const struct tf_input *in)
{
    return in->gzip ? in->dec.out : in->pos;
}

static void *producer(void *arg)
{
    struct tf_input *in = arg;
    for (;;) {
        pthread_mutex_lock(&in->mu);
        while (in->count == N_SLOTS && !in->stop)
            pthread_cond_wait(&in->cv, &in->mu);
        bool stop = in->stop;
        struct slot *sl = &in->slots[(in->tail + in->count) % N_SLOTS];
        pthread_mutex_unlock(&in->mu);
        if (stop)
            return NULL;
        ssize_t r = produce(in, sl->buf, SLOT_BYTES);
        pthread_mutex_lock(&in->mu);
        sl->len = r > 0 ? (size_t)r : 0;
        sl->used = 0;
        sl->err = r < 0;
        sl->eof = r == 0;
        in->count++;
        in->prod_done = r <= 0;
        pthread_cond_broadcast(&in->cv);
        pthread_mutex_unlock(&in->mu);
        if (r <= 0)
            return NULL;
    }
}

static bool start_thread(struct tf_input *in)
{
    in->stop = false;
    if (pthread_create(&in->th, NULL, producer, in) != 0)
        return false;
    in->running = true;
    return true;
}

/* Stops the producer; what it produced stays in the ring. */
static void stop_thread(struct tf_input *in)
{
    if (!in->running)
        return;
    pthread_mutex_lock(&in->mu);
    in->stop = true;
    pthread_cond_broadcast(&in->cv);
    pthread_mutex_unlock(&in->mu);
    pthread_join(in->th, NULL);
    in->running = false;
}

/* Up to n bytes from the ring into buf (NULL: dropped), as tf_input_read. */
static ssize_t read_ring(struct tf_input *in, unsigned char *buf, size_t n)
{
    if (!in->running && !in->prod_done && !start_thread(in)) {
        in->failed = true;
        tf_diag_error(in->d, TF_EBADINPUT, "%s: cannot start a reader thread", in->file);
        return -1;
    }
    pthread_mutex_lock(&in->mu);
    while (in->count == 0)
        pthread_cond_wait(&in->cv, &in->mu);
    struct slot *sl = &in->slots[in->tail];
    pthread_mutex_unlock(&in->mu);
    if (sl->err)
        return report(in, &in->dec), -1;
    if (sl->eof)
        return 0;
    size_t k = sl->len - sl->used < n ? sl->len - sl->used : n;
    if (buf)
        memcpy(buf, sl->buf + sl->used, k);
    sl->used += k;
    in->cons += k;
    if (sl->used == sl->len) {
        pthread_mutex_lock(&in->mu);
        in->tail = (in->tail + 1) % N_SLOTS;
        in->count--;
        pthread_cond_broadcast(&in->cv);
        pthread_mutex_unlock(&in->mu);
    }
    return (ssize_t)k;
}

ssize_t tf_input_read(struct tf_input *in, void *buf, size_t n)
{
    if (in->failed)
        return -1;
    if (n > MAX_READ)
        n = MAX_READ;
    if (n == 0)
        return 0;
    if (in->threaded)
        return read_ring(in, buf, n);
    ssize_t r = produce(in, buf, n);
    if (r < 0)
        return report(in, &in->dec), -1;
    return r;
}

uint64_t tf_input_offset(const struct tf_input *in)
{
    return in->threaded ? in->cons : produced(in);
}

bool tf_input_can_seek(const struct tf_input *in)
{
    return in->kind != SRC_PIPE;
}

bool tf_input_is_gzip(const struct tf_input *in)
{
    return in->gzip;
}

size_t tf_input_n_checkpoints(const struct tf_input *in)
{
    return in->n_cps;
}

bool tf_input_seek(struct tf_input *in, uint64_t off)
{
    if (in->failed)
        return false;
    if (!tf_input_can_seek(in)) {
        in->failed = true;
        return tf_diag_error(in->d, TF_EBADINPUT, "%s: cannot seek: %s", in->file,
                             strerror(ESPIPE));
    }
    if (in->threaded && off >= in->cons && off - in->cons <= RING_SKIP) {
        /* Forward, not far: drop what the ring holds before `off`. */
        while (in->cons < off) {
            uint64_t left = off - in->cons;
            ssize_t r = read_ring(in, NULL, left < MAX_READ ? (size_t)left : MAX_READ);
            if (r < 0)
                return false;
            if (r == 0)
                break; /* past the end: reads return 0 */
        }
        return true;
    }
    if (in->threaded) {
        /* Drop the ring; the producer goes on from `off`. */
        stop_thread(in);
        in->tail = in->count = 0;
        in->prod_done = false;
        in->cons = off;
        if (!in->gzip)
            in->dec.err = DEC_OK;
    }
    if (!in->gzip) {
        in->pos = off;
        return true;
    }
    struct dec *dc = &in->dec;
    const struct checkpoint *cp = cp_before(in, off);
    if (off < dc->out || (cp && cp->out > dc->out)) {
        if (!dec_start(in, dc, cp))
            return report(in, dc);
    }
    while (dc->out < off) {
        uint64_t left = off - dc->out;
        ssize_t r = dec_read(in, dc, in->scratch, left < SKIP_CHUNK ? (size_t)left : SKIP_CHUNK);
        if (r < 0)
            return report(in, dc);
        if (r == 0)
            break; /* past the end: reads return 0 */
        maybe_checkpoint(in);
    }
    return true;
}

bool tf_input_reread(struct tf_input *in, uint64_t from, uint64_t to,
                     void (*fn)(void *ctx, const unsigned char *p, size_t n), void *ctx)
{
    if (!tf_input_can_seek(in))
        return false;
    unsigned char *buf = malloc(SKIP_CHUNK);
    if (!buf)
        return false;
    /* The producer must not move the checkpoints meanwhile; it goes on
     * at the next read. */
    stop_thread(in);
    bool ok = true, spool_err;
    if (!in->gzip) {
        for (uint64_t at = from; ok && at < to;) {
            uint64_t left = to - at;
            ssize_t r = raw_read_at(in, at, buf, left < SKIP_CHUNK ? (size_t)left : SKIP_CHUNK,
                                    &spool_err);
            ok = r > 0;
            if (ok) {
                fn(ctx, buf, (size_t)r);
                at += (uint64_t)r;
            }
        }
        free(buf);
        return ok;
    }
    struct dec dc;
    memset(&dc, 0, sizeof dc);
    dc.ibuf = malloc(RAW_CHUNK);
    ok = dc.ibuf && dec_start(in, &dc, cp_before(in, from));
    while (ok && dc.out < to) {
        uint64_t want = dc.out < from ? from - dc.out : to - dc.out;
        uint64_t at = dc.out;
        ssize_t r = dec_read(in, &dc, buf, want < SKIP_CHUNK ? (size_t)want : SKIP_CHUNK);
        ok = r > 0;
        if (ok && at >= from)
            fn(ctx, buf, (size_t)r);
    }
    dec_end(&dc);
    free(dc.ibuf);
    free(buf);
    return ok;
}

/* --- FILE streams, for small whole documents ------------------------------ */

FILE *tf_open_input(const char *path, struct tf_diag *d)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    FILE *f = fopen(path, "rb");
    if (!f) {
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", path, strerror(EISDIR));
        return NULL;
    }
    return f;
}

void tf_close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}
