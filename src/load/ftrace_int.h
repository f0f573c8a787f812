/* ftrace_int.h - what the ftrace text loader's parts share: the lines of
 * an input (ftrace_lines.c: plain text, systrace HTML, a string in memory)
 * and the reading of one line (ftrace.c).  Private to src/load/ftrace*.c.
 */
#ifndef TF_LOAD_FTRACE_INT_H
#define TF_LOAD_FTRACE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "load/input.h"

/* The longest line read (a longer one is damage; outside a systrace
 * HTML page's data, the rest of a longer line is passed over). */
#define FT_LINE_MAX ((size_t)1 << 20)
/* The longest line of an old systrace page's JavaScript string. */
#define FT_JS_MAX ((size_t)256 << 20)

enum ft_form {
    FT_TEXT, /* ftrace text, or its bytes in memory */
    FT_HTML  /* systrace HTML: the text of its trace-data blocks or JS string */
};

enum ft_block { FT_OUT, FT_DATA, FT_SKIP, FT_JS };

struct ft_lines {
    const char *file;
    struct tf_diag *d;
    struct tf_input *in;        /* or NULL: the bytes mem[0 .. mem_len) */
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    enum ft_form form;
    const char *where;          /* "line" or "systemTraceEvents line" */
    unsigned char *rbuf;
    size_t rpos, rlen;
    bool eof;
    uint64_t off;               /* byte offset of the next raw byte */
    struct tf_buf raw;          /* the current raw line (no newline) */
    bool raw_nl;                /* it ended with a newline */
    uint64_t lineno;            /* of the raw line, 1-based */
    /* HTML */
    enum ft_block block;
    bool block_first;           /* the block's first non-blank line is next */
    size_t n_blocks;            /* data blocks found */
    struct tf_buf js, out;      /* the JS string's decoded bytes; a line given */
    size_t js_pos;
};

/* Sets up the lines of `in`, or of mem[0 .. len) when in is NULL (false:
 * out of memory, said). */
bool ft_lines_init(struct ft_lines *l, const char *file, struct tf_input *in,
                   const unsigned char *mem, size_t len, enum ft_form form, struct tf_diag *d);
void ft_lines_fini(struct ft_lines *l);
/* Back to the first line (false: the input cannot go back, said). */
bool ft_lines_rewind(struct ft_lines *l);
/* The next data line in *s, *n (no newline; valid until the next call):
 * 1, 0 at the end, -1 on an error (said: a read error, a cut or damaged
 * file). */
int ft_lines_next(struct ft_lines *l, const char **s, size_t *n);
/* An error at the current line: "FILE: line N: what". */
bool ft_lines_bad(const struct ft_lines *l, const char *what);

#endif
