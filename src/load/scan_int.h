/* scan_int.h - what the scanner (scan.c) lends the readers of bytes it
 * has already validated (fields.c): its byte tables, its token kinds and
 * its string decoder.  Not for other modules. */
#ifndef TF_SCAN_INT_H
#define TF_SCAN_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "load/scan.h"

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

#endif
