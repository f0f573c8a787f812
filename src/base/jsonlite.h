/* jsonlite.h - reading values out of JSON bytes the scanner has already
 * validated, without building a tree: decoding a string token, converting a
 * number, walking the members of an object.  The Chrome-trace loader uses
 * these on the bytes of each event, so it never needs jansson (which would
 * refuse \u0000 and integers beyond 64 bits in fields nobody draws).
 *
 * Every function assumes its input is valid JSON (the scanner checked it);
 * on anything else it fails safely (false / 0), never reads out of bounds.
 */
#ifndef TF_JSONLITE_H
#define TF_JSONLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* The value of hex digit c, or -1. */
static inline int tf_jl_hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The text of a string token's body (between the quotes, raw, n bytes)
 * decoded into out (cleared first): escapes resolved, surrogate pairs
 * joined, \u0000 dropped (a NUL has no place in a label), invalid UTF-8
 * kept as it is (the output escapers replace it).  NUL-terminated. */
void tf_jl_string(const unsigned char *raw, size_t n, struct tf_buf *out);

/* A number token (n bytes) as a fixed-point count of 10^-scale units,
 * exactly when it fits, rounded half away from zero beyond `scale`
 * decimals: "1682725897226747.123" with scale 3 is 1682725897226747123.
 * False when the value does not fit in int64_t. */
bool tf_jl_fixed(const unsigned char *raw, size_t n, int scale, int64_t *out);

/* A number token as a double (locale-free; correctly rounded for up to 19
 * significant digits, close otherwise).  False for no number. */
bool tf_jl_double(const unsigned char *raw, size_t n, double *out);

/* Whether a number token is an integer (no fraction, no exponent). */
bool tf_jl_is_int(const unsigned char *raw, size_t n);

/* Walks the members of the object at p[0 .. n) (p[0] == '{').  Call with
 * *pos = 0 first; each call returns the next member: its key's raw body
 * (key, key_len), and its value's bytes (val, val_len: the whole token or
 * container, strings with their quotes).  False after the last member. */
bool tf_jl_member(const unsigned char *p, size_t n, size_t *pos, const unsigned char **key,
                  size_t *key_len, const unsigned char **val, size_t *val_len);

/* The value of member `name` (plain ASCII key) of the object at p, or
 * NULL. */
const unsigned char *tf_jl_get(const unsigned char *p, size_t n, const char *name,
                               size_t *val_len);

#endif
