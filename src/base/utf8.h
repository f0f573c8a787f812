/* utf8.h - the one UTF-8 decoder.
 *
 * Policy, everywhere in tracefig: a sequence is valid when it is the
 * shortest encoding of a Unicode scalar value (U+0000..U+10FFFF without the
 * surrogates D800..DFFF).  Anything else is invalid, and an invalid
 * sequence counts as ONE byte that stands for U+FFFD: measuring, cleaning
 * for XML, escaping for TeX and drawing with cairo all step over it the
 * same way, so a string is as wide as it is drawn.  The JSON scanner uses
 * the same two functions to validate input (and rejects what is invalid).
 */
#ifndef TF_UTF8_H
#define TF_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TF_UTF8_REPLACEMENT 0xFFFDu

/* The length (1..4) of the sequence a lead byte starts, or 0 when the
 * byte cannot start one (a continuation byte, C0, C1, F5..FF). */
size_t tf_utf8_seq_len(unsigned char lead);

/* Decodes the n-byte sequence at s (n from tf_utf8_seq_len(s[0]));
 * returns the code point, or -1 when the sequence is invalid (a bad
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF). */
int32_t tf_utf8_decode(const unsigned char *s, size_t n);

/* The next character of the NUL-terminated string at s: its code point in
 * *cp and its length in bytes (0 at the terminating NUL).  An invalid
 * sequence gives U+FFFD and length 1. */
size_t tf_utf8_next(const unsigned char *s, uint32_t *cp);

/* Writes code point cp (below 0x110000; a surrogate is written as it is,
 * the callers decide what to do with those) as UTF-8 into out; returns
 * its length, 1..4. */
size_t tf_utf8_encode(uint32_t cp, char out[4]);

/* Text of any bytes as valid UTF-8 into out (cap > 0 bytes, NUL-ended):
 * control bytes become '?', a byte of invalid UTF-8 "\xNN" (hex) or
 * U+FFFD (as it is drawn); cut at a character when out is full. */
void tf_utf8_clean(char *out, size_t cap, const char *in, bool hex);

#endif
