/* input.h - opening the files tracefig reads.
 *
 * struct tf_input reads a trace as a stream of bytes: a regular file, a
 * pipe, or either of them gzip'd (detected by the magic bytes 1f 8b, not by
 * the name).  gzip'd data is inflated with zlib as it is read, in constant
 * memory; concatenated members (gzip -c a b) are read one after the other.
 * Offsets are always those of the decompressed bytes.
 *
 * Coming back to an earlier offset (tf_input_seek) costs: a regular file,
 * nothing; gzip'd data, inflating forward from the nearest saved inflate
 * state.  While reading, the input saves one such state (zlib's
 * inflateCopy: about 40 KB, the state and its 32 KB window) each time the
 * output passes another `checkpoint_every` bytes, at most `max_checkpoints`
 * of them: when they are all used, every other one is dropped and the
 * spacing doubles, so memory stays bounded whatever the size of the data.
 * A pipe cannot go back, unless it is spooled: every byte read from it is
 * also written, as read (still compressed when gzip'd), to an unlinked
 * temporary file in $TMPDIR (default /tmp), which is re-read from then on.
 * That file uses as much disk as the pipe delivered and is gone when the
 * input is closed (or the process ends).
 *
 * With opts->thread, a second thread reads (and inflates) ahead into a ring
 * of 4 chunks of 1 MB while the caller consumes them, so inflating gzip'd
 * data overlaps with scanning it on another core.  The bytes, offsets and
 * errors are the same as without it; the error of a chunk is reported
 * when the reader reaches it.  The thread stops at close, and around a
 * seek or a reread.
 *
 * Errors (open, read, a truncated or corrupt gzip stream) are reported once
 * through the struct tf_diag given at open, as "FILE: message" with "gzip:"
 * in the message for compressed-data errors.
 *
 * Bytes in memory (a library caller's trace) are read where they are, as
 * a regular file is: tf_input_memopen over them, or, for the loaders that
 * take a path, a path the library names them by (tf_input_memory_add):
 * tf_input_open of that path reads the bytes, and nothing is written to
 * disk.  The table of such paths is shared by the threads, behind a lock;
 * a path is only ever found while its caller keeps it there, so a command
 * line cannot name memory.
 *
 * Ownership: tf_input_open/tf_input_fdopen allocate, tf_input_close frees
 * and closes what the input opened (the file, the spool file; never the
 * descriptor passed to tf_input_fdopen, nor standard input).  The diag
 * must outlive the input.
 */
#ifndef TF_INPUT_H
#define TF_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/diag.h"

/* Default spacing and number of saved inflate states. */
#define TF_INPUT_CHECKPOINT_EVERY (32u << 20)
#define TF_INPUT_MAX_CHECKPOINTS 128

struct tf_input_opts {
    bool spool;                /* a pipe: spool it so it can seek (see above) */
    bool thread;               /* read and inflate ahead on a second thread */
    uint64_t checkpoint_every; /* 0: TF_INPUT_CHECKPOINT_EVERY (tests use small ones) */
    size_t max_checkpoints;    /* 0: TF_INPUT_MAX_CHECKPOINTS; at least 2 */
};

struct tf_input; /* opaque */

/* Opens `path` ("-": standard input); `opts` may be NULL (defaults).
 * Reports a missing file, a directory, an unreadable file.  NULL on
 * failure. */
struct tf_input *tf_input_open(const char *path, const struct tf_input_opts *opts,
                               struct tf_diag *d);

/* The same over an open descriptor, from its current offset; `name` is the
 * file named in messages (kept, not copied).  The descriptor stays the
 * caller's. */
struct tf_input *tf_input_fdopen(int fd, const char *name, const struct tf_input_opts *opts,
                                 struct tf_diag *d);

/* The same over the len bytes at data (kept, not copied: they must
 * outlive the input), gzip'd or not; `name` names them in messages. */
struct tf_input *tf_input_memopen(const void *data, size_t len, const char *name,
                                  const struct tf_input_opts *opts, struct tf_diag *d);

/* Names the len bytes at data `path` until tf_input_memory_remove(path):
 * tf_input_open(path) then reads them (the bytes stay the caller's, and
 * must outlive the name).  False when out of memory. */
bool tf_input_memory_add(const char *path, const void *data, size_t len);
void tf_input_memory_remove(const char *path);
/* Whether `path` names bytes in memory, and which. */
bool tf_input_memory_find(const char *path, const void **data, size_t *len);

/* Whether the input reads bytes in memory, and which (as they are: still
 * compressed when gzip'd). */
bool tf_input_bytes(const struct tf_input *in, const void **data, size_t *len);

void tf_input_close(struct tf_input *in);

/* Where the input reports its errors from now on; returns the diag it
 * reported to before (pipe.c gives a scan on another thread its own). */
struct tf_diag *tf_input_set_diag(struct tf_input *in, struct tf_diag *d);

/* Reads up to n decompressed bytes into buf: the count (> 0), 0 at the end
 * of the data, -1 on an error (reported; later calls return -1 too). */
ssize_t tf_input_read(struct tf_input *in, void *buf, size_t n);

/* The decompressed offset of the next byte tf_input_read returns. */
uint64_t tf_input_offset(const struct tf_input *in);

/* Whether tf_input_seek and tf_input_reread work: a regular file or a
 * spooled pipe, gzip'd or not. */
bool tf_input_can_seek(const struct tf_input *in);

/* Goes to decompressed offset `off`, at most the offset read so far plus
 * what follows it (seeking forward reads and drops the bytes between).
 * False (reported) when the input cannot seek or on a read error. */
bool tf_input_seek(struct tf_input *in, uint64_t off);

/* Reads bytes [from, to) again, handing them to fn in pieces, without
 * moving the read position and without reporting errors (false on one, or
 * when the input cannot seek).  For locating an error found far away. */
bool tf_input_reread(struct tf_input *in, uint64_t from, uint64_t to,
                     void (*fn)(void *ctx, const unsigned char *p, size_t n), void *ctx);

/* Whether the data is gzip'd, and how many inflate states are saved (with
 * a reader thread: only once the end of the data has been read). */
bool tf_input_is_gzip(const struct tf_input *in);
size_t tf_input_n_checkpoints(const struct tf_input *in);

/* The whole-document readers of small files (candidate_breakdown_v1):
 * opens `path` ("-": stdin) as a FILE with the same checks and messages as
 * tf_input_open, without gzip.  NULL on failure. */
FILE *tf_open_input(const char *path, struct tf_diag *d);
void tf_close_input(FILE *f);

#endif
