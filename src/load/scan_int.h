/* scan_int.h - what the scanner (scan.c) lends the readers of bytes it
 * has already validated (fields.c): its byte tables, its token kinds and
 * its string decoder.  Not for other modules. */
#ifndef TF_SCAN_INT_H
#define TF_SCAN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "load/scan.h"

/* For the small helpers of the fast paths, which the compiler might
 * otherwise leave as calls. */
#if defined(__GNUC__)
#define TF_HOT static inline __attribute__((always_inline))
#else
#define TF_HOT static inline
#endif

/* tf_scan_prefix_mask[n]: the first n bytes of a word loaded with memcpy
 * (any byte order); filled by tf_scan_init_tables. */
extern uint64_t tf_scan_prefix_mask[9];

/* Fills the scanner's byte tables, once per process. */
void tf_scan_init_tables(void);
/* An ASCII letter. */
bool tf_scan_alpha(int c);
/* The kind of the value whose first byte is c. */
enum tf_jtok tf_scan_kind_of(int c);
/* The kind of a word token (true, false, null; else TF_JT_NONE). */
enum tf_jtok tf_scan_word_kind(const unsigned char *p, size_t n);
/* Decodes the (valid) string token raw[0 .. n) without its quotes into out,
 * which has room for n bytes; returns the decoded length. */
size_t tf_scan_decode_string(const unsigned char *raw, size_t n, char *out);

TF_HOT bool tf_scan_same_bytes(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* The index of the name to locate (see learn_names in scan.c) that is
 * key[0 .. n), or TF_SCAN_MAX_FIELDS. */
TF_HOT size_t tf_scan_match_name(const struct tf_scan *s, const char *key, size_t n)
{
    if (n < 64) {
        unsigned m = s->fmask[n];
        for (size_t i = 0; m; i++, m >>= 1)
            if ((m & 1) && tf_scan_same_bytes(s->fname[i], key, n))
                return i;
        return TF_SCAN_MAX_FIELDS;
    }
    for (size_t i = 0; i < s->n_fname; i++)
        if (s->flen[i] == n && tf_scan_same_bytes(s->fname[i], key, n))
            return i;
    return TF_SCAN_MAX_FIELDS;
}

/* tf_scan_match_name for a key in the buffer, which may be read 8 bytes at
 * a time (the padding): a name of at most 8 bytes is one masked compare. */
TF_HOT size_t tf_scan_match_name_padded(const struct tf_scan *s, const unsigned char *key,
                                        size_t n)
{
    if (n > 8)
        return tf_scan_match_name(s, (const char *)key, n);
    uint64_t w;
    memcpy(&w, key, 8);
    w &= tf_scan_prefix_mask[n];
    unsigned m = s->fmask[n];
    for (size_t i = 0; m; i++, m >>= 1)
        if ((m & 1) && s->fword[i] == w)
            return i;
    return TF_SCAN_MAX_FIELDS;
}

/* The length of the word (true, false, null) at p, whole in the buffer
 * and followed by a byte that ends it, or 0 (the padding makes the 5-byte
 * compare safe). */
TF_HOT size_t tf_scan_word_len(const unsigned char *p, enum tf_jtok *kind)
{
    enum tf_jtok k = TF_JT_NONE;
    size_t w = 4;
    if (p[0] == 't' && memcmp(p, "true", 4) == 0)
        k = TF_JT_TRUE;
    else if (p[0] == 'n' && memcmp(p, "null", 4) == 0)
        k = TF_JT_NULL;
    else if (p[0] == 'f' && memcmp(p, "false", 5) == 0)
        k = TF_JT_FALSE, w = 5;
    unsigned char c = p[w];
    if (k == TF_JT_NONE || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '\0' || c >= 0x80)
        return 0;
    *kind = k;
    return w;
}

#endif
