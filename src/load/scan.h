/* scan.h - a validating JSON scanner for inputs too large to parse whole.
 *
 * The scanner reads an input (input.h: a file or a pipe, gzip'd or not) in
 * fixed-size chunks and walks the document without building values.  In
 * strict mode (the default) it accepts exactly what jansson's
 * json_loadf(JSON_REJECT_DUPLICATES) accepts: the top level is an object or
 * an array, strings are valid UTF-8 with valid escapes (surrogate pairs
 * paired, no \u0000), numbers follow the JSON grammar and fit jansson's
 * ranges (64-bit integers, finite reals), nesting stops at jansson's depth
 * limit (2048 values), and no object has a key twice.  Errors are reported
 * once, through a struct tf_diag, as "file:LINE:COL: message" with jansson's
 * line and column rules (the column counts characters, not bytes) and,
 * where they apply, jansson's wording.
 *
 * The caller steers the walk: it enters the top-level container, reads the
 * keys of an object one by one, steps through the elements of an array, and
 * for each value chooses to skip it (validated, nothing kept) or to read it
 * whole (validated; its bytes stay in the buffer until the next call, so
 * they can go to json_loadb).  While reading a value whole the scanner also
 * notes where a few named members of it are (e.g. "ph" and "name"), so the
 * caller can test cheaply whether the value matters.
 *
 * What it does not do: build values, convert numbers (beyond range checks),
 * or hold more than the largest single value the caller reads whole (or the
 * longest token) plus one chunk, and never more than max_buffer.
 *
 * Ownership: struct tf_scan is caller-owned (tf_scan_init / tf_scan_fini);
 * the input stays the caller's (it must outlive the scan).
 */
#ifndef TF_SCAN_H
#define TF_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "load/input.h"

/* jansson's JSON_PARSER_MAX_DEPTH: the deepest value it parses. */
#define TF_SCAN_MAX_DEPTH 2048
/* Default chunk size. */
#define TF_SCAN_CHUNK (1u << 20)
/* Members located per value at most (tf_scan_value, tf_scan_fields). */
#define TF_SCAN_MAX_FIELDS 16
/* Readable bytes after the sentinel, for word-at-a-time loops. */
#define TF_SCAN_PAD 64
/* Default of max_buffer (see struct tf_scan). */
#define TF_SCAN_MAX_BUFFER ((size_t)256 << 20)

enum tf_jtok {
    TF_JT_NONE = 0, /* absent, or the end of a container */
    TF_JT_OBJECT,
    TF_JT_ARRAY,
    TF_JT_STRING,
    TF_JT_NUMBER,
    TF_JT_TRUE,
    TF_JT_FALSE,
    TF_JT_NULL
};

/* A member of an object the caller wants located (see tf_scan_value). */
struct tf_scan_field {
    const char *name;    /* in: the key, plain ASCII */
    enum tf_jtok type;   /* out: TF_JT_NONE when the key is absent */
    size_t off, len;     /* out: the value's bytes, from the value's start;
                            for strings the text between the quotes, raw */
    bool escaped;        /* out: a string with backslash escapes */
    bool is_int;         /* out: a number without fraction or exponent */
};

/* Where a value starts, to come back to it with tf_scan_seek. */
struct tf_scan_mark {
    uint64_t off;  /* file offset of the value's first byte */
    long line, col; /* jansson's position just before it */
    size_t depth;  /* containers open around it (at most 8) */
    unsigned char stack[8];
};

struct tf_scan_keyent; /* private */
struct tf_scan_kernels; /* scan_simd.h */

enum tf_scan_flags {
    TF_SCAN_STRICT = 0,  /* exactly jansson's JSON_REJECT_DUPLICATES (above) */
    TF_SCAN_LENIENT = 1, /* see below */
    /* With STRICT: strict, but for a comma before the ']' or '}' that
     * closes a container (as lenient mode allows; below). */
    TF_SCAN_TRAILING_COMMAS = 2,
};

struct tf_scan {
    const struct tf_scan_kernels *kern; /* the hot loops (scan_simd.h) */
    /* input */
    struct tf_input *in;
    const char *file; /* for messages */
    struct tf_diag *d;
    bool eof;
    bool failed;
    bool lenient;
    bool trailing; /* commas before closing brackets allowed (lenient, or asked) */
    /* buffer: buf[0 .. len) holds input bytes base .. base + len; buf[len] is
     * a NUL sentinel, and TF_SCAN_PAD bytes after it are always readable */
    unsigned char *buf;
    size_t cap, len, pos;
    uint64_t base;
    uint64_t dropped_nul; /* 1 + the offset of the last NUL dropped after a token, or 0 */
    size_t max_buffer; /* the buffer grows (to hold one token, or one value
                          read whole) up to this, then the scan stops with
                          "value too large to scan"; 0: no limit.  Set by
                          tf_scan_init to TF_SCAN_MAX_BUFFER; the caller may
                          change it.  (jansson has no such limit.) */
    size_t tok;  /* start of the token being scanned (kept on refill) */
    size_t tok_end; /* end of the last number or word */
    size_t keep; /* start of the value being read whole, or SIZE_MAX */
    /* position of buf[0], jansson style; with lazy_pos (inputs that can be
     * read again) the position of start_off, the rest counted on error */
    long line, col;
    bool lazy_pos;
    uint64_t start_off;
    /* containers open: stack[0 .. depth) is '{' or '['; first[d]: nothing
     * read yet in the container at depth d.  Strict: fixed at the depth
     * limit; lenient: grown as needed. */
    unsigned char *stack;
    bool *first;
    size_t depth, cap_stack, max_depth;
    /* strict: duplicate keys, the keys of every open object */
    struct tf_scan_keyent *keys;
    size_t n_keys, cap_keys;
    char *arena;
    size_t n_arena, cap_arena;
    size_t *lvl_key0; /* per depth: first key of that object */
    uint32_t **lvl_index; /* per depth: hash index once an object grows big */
    size_t *lvl_index_cap;
    /* lenient: the last key, decoded when it had escapes */
    char *kbuf;
    size_t cap_kbuf;
    /* the names of the members to locate, as last given, and their
     * lengths: fmask[n] has bit i set when name i is n bytes long */
    const char *fname[TF_SCAN_MAX_FIELDS];
    size_t flen[TF_SCAN_MAX_FIELDS];
    size_t n_fname;
    uint16_t fmask[64];
    uint64_t fword[TF_SCAN_MAX_FIELDS]; /* a name of at most 8 bytes, 0-padded */
};

/* Starts a scan of `in` from its current offset.  `chunk` is the read size
 * (0: TF_SCAN_CHUNK; tests use tiny ones); `flags` is TF_SCAN_STRICT or
 * TF_SCAN_LENIENT.  Returns false when out of memory (reported through d).
 * Read errors of `in` are reported by the input, through its own diag.
 *
 * Lenient mode, for Chrome traces written by other tools, accepts what
 * strict mode accepts and also: \u0000 in strings (keys too), integers of
 * any size and reals of any magnitude that follow the JSON number grammar,
 * nesting of any depth (memory grows with the depth), the same key more
 * than once in an object (keys are not tracked at all), a comma before
 * the ']' or '}' that closes an array or object (in a value read whole it
 * becomes a blank in the buffer, so its bytes stay valid JSON), and a
 * top-level array that ends with the file without its ']' (after an
 * element or its comma), as the Trace Event Format allows.  Everything
 * else is checked as in strict mode, with the same located messages. */
bool tf_scan_init(struct tf_scan *s, struct tf_input *in, const char *file, size_t chunk,
                  unsigned flags, struct tf_diag *d);
void tf_scan_fini(struct tf_scan *s);

/* Switches between the modes (TF_SCAN_STRICT, TF_SCAN_LENIENT) between two
 * calls, e.g. lenient for the value of "traceEvents" only.  Keys read
 * while lenient are not checked for duplicates later.  A scan begun
 * lenient cannot become strict (false). */
bool tf_scan_set_flags(struct tf_scan *s, unsigned flags);

/* Enters the top-level value, which must be an object or an array. */
bool tf_scan_begin(struct tf_scan *s, enum tf_jtok *kind);

/* In an object: reads the next key and its ':' (*more true), or the closing
 * '}' (*more false).  The key is decoded into key[0 .. cap) and NUL-ended;
 * *key_len is its full decoded length (longer than cap - 1: truncated).  The
 * caller then consumes the value with one of the value calls below. */
bool tf_scan_key(struct tf_scan *s, char *key, size_t cap, size_t *key_len, bool *more);

/* In an array: moves to the next element (*more true) or reads the closing
 * ']' (*more false).  The caller then consumes the element. */
bool tf_scan_next(struct tf_scan *s, bool *more);

/* A kind as messages name it: "an object", "a number", ..., "nothing". */
const char *tf_jtok_name(enum tf_jtok k);

/* At a value: its kind, without consuming it (TF_JT_NONE at an error). */
enum tf_jtok tf_scan_peek(struct tf_scan *s);

/* At a value that is an object or an array (see tf_scan_peek): enters it. */
bool tf_scan_enter(struct tf_scan *s);

/* At a value: scans it whole.  *data / *len are its bytes, valid until the
 * next call on s.  When the value is an object, the members named in
 * fields[0 .. n_fields) are located (see struct tf_scan_field); at most
 * TF_SCAN_MAX_FIELDS (more are ignored).  A key that appears more than once
 * (lenient mode) locates its last value, the one jansson keeps. */
bool tf_scan_value(struct tf_scan *s, const unsigned char **data, size_t *len,
                   struct tf_scan_field *fields, size_t n_fields);

/* The same location of members over data[0 .. len), the bytes of a value
 * that a scan has validated (e.g. the "args" member of a value read with
 * tf_scan_value): when they are an object, its own members named in
 * fields[0 .. n_fields) are located, with offsets from data.  Nothing is
 * validated again; the bytes must be a complete, valid value. */
void tf_scan_fields(const unsigned char *data, size_t len, struct tf_scan_field *fields,
                    size_t n_fields);

/* At a value: scans it, keeping nothing. */
bool tf_scan_skip(struct tf_scan *s);

/* After the top-level value: only whitespace may follow. */
bool tf_scan_finish(struct tf_scan *s);

/* The position of the value the scanner is at (call after tf_scan_key or
 * tf_scan_next), and a jump back to such a position: the scan then goes on
 * as if it had just reached that value again.  Needs a seekable fd. */
bool tf_scan_mark(struct tf_scan *s, struct tf_scan_mark *m);
bool tf_scan_seek(struct tf_scan *s, const struct tf_scan_mark *m);

/* file:LINE:COL of byte offset `off` of the buffer, jansson style (for the
 * caller's own messages about the value just read). */
void tf_scan_locate(const struct tf_scan *s, size_t off, long *line, long *col);

#endif
