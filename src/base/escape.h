/* escape.h - text for each output language.
 *
 * Invalid UTF-8 follows the policy of utf8.h (one byte, one U+FFFD).
 */
#ifndef TF_ESCAPE_H
#define TF_ESCAPE_H

#include "base/buf.h"

/* JSON string literal with quotes (valid UTF-8 passed through, an invalid
 * byte as U+FFFD, controls escaped). */
void tf_buf_json_str(struct tf_buf *b, const char *s);

/* TeX-escaped ASCII text: # $ % & _ { } ~ ^ \ < > | [ ] " and "--";
 * control bytes are dropped; bytes >= 0x80 are passed through (tikz.c turns
 * non-ASCII characters into TeX commands before calling this). */
void tf_buf_tex_escape(struct tf_buf *b, const char *s);

/* A copy of s that is safe as XML character data: invalid UTF-8, control
 * characters other than tab/LF/CR, and U+FFFE/U+FFFF become U+FFFD.
 * Caller frees.  Returns NULL when out of memory. */
char *tf_xml_clean(const char *s);

/* The same text without a copy when it needs none: s itself when it is
 * already safe, else the cleaned text in scratch (cleared first; valid
 * until scratch changes).  NULL when out of memory. */
const char *tf_xml_clean_view(const char *s, struct tf_buf *scratch);

#endif
