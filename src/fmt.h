/* fmt.h - locale-free number formatting, a growable byte buffer, and the
 * escapers for each output language.
 *
 * Every number a back-end writes goes through tf_fmt_num: fixed decimals,
 * trailing zeros trimmed, "-0" printed as "0".  tracefig never calls
 * setlocale(), and tf_fmt_num still forces '.' as the decimal point, so the
 * bytes never depend on LC_ALL / LC_NUMERIC.
 */
#ifndef TF_FMT_H
#define TF_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* Room for any finite double with up to 9 decimals. */
#define TF_NUM_MAX 340

/* Writes v with `decimals` (0..9) fixed decimals, trailing zeros and a
 * trailing '.' removed, "-0" as "0".  Non-finite values print as "0"
 * (callers reject them earlier).  Returns out. */
const char *tf_fmt_num(char out[TF_NUM_MAX], double v, int decimals);

/* "#RRGGBB" for 0xRRGGBB. */
const char *tf_fmt_color(char out[8], uint32_t rgb);

/* A growable buffer of bytes, always NUL-terminated.  On allocation failure
 * it sets oom and ignores later writes; check it once at the end. */
struct tf_buf {
    char *data;
    size_t len;
    size_t cap;
    bool oom;
};

void tf_buf_init(struct tf_buf *b);
void tf_buf_fini(struct tf_buf *b); /* frees data */
void tf_buf_clear(struct tf_buf *b);
void tf_buf_putc(struct tf_buf *b, char c);
void tf_buf_puts(struct tf_buf *b, const char *s);
void tf_buf_putn(struct tf_buf *b, const char *s, size_t n);
/* printf-style, for integers and strings only: never pass a double. */
void tf_buf_printf(struct tf_buf *b, const char *fmt, ...) TF_PRINTF(2, 3);
/* tf_fmt_num into the buffer. */
void tf_buf_num(struct tf_buf *b, double v, int decimals);

/* JSON string literal with quotes (UTF-8 passed through, controls escaped). */
void tf_buf_json_str(struct tf_buf *b, const char *s);

/* TeX-escaped text: # $ % & _ { } ~ ^ \ < > | [ ] " and "--"; control bytes
 * are dropped; UTF-8 is passed through. */
void tf_buf_tex_escape(struct tf_buf *b, const char *s);

/* A copy of s that is safe as XML character data: invalid UTF-8 sequences
 * and control characters other than tab/LF/CR become U+FFFD.  Caller frees.
 * Returns NULL when out of memory. */
char *tf_xml_clean(const char *s);

#endif
